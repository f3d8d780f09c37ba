/// The frame every page shares: UTF-8, a viewport for phones, the stylesheet and the script by
/// relative paths (so the site opens from the disk), and the header's links.
enum PageShell {
    /// `depth`: how many folders below the site's root the page is (0 for `index.html`, 2 for a subject's).
    static func page(title: String, depth: Int, body: String) -> String {
        let up = String(repeating: "../", count: depth)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title))</title>
            <link rel="stylesheet" href="\(up)\(SiteAssets.stylesheetPath)">
            <script src="\(up)\(SiteAssets.scriptPath)" defer></script>
            </head>
            <body>
            <header class="site"><h1>\(LanguageTag.span(title))</h1>
            <nav><a href="\(up)index.html">All subjects</a><a href="\(up)problems.html">Problems</a><a href="\(up)quarantine.html">Quarantine</a></nav>
            </header>
            <main>
            \(body)
            </main>
            </body>
            </html>

            """
    }
}
