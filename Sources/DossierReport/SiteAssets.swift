/// The site's stylesheet and its one small script, written beside the pages. Plain CSS (a grid
/// that folds to one column on a phone) and a few lines of JavaScript for the filters: nothing
/// fetched from elsewhere, so the site works offline from the disk.
enum SiteAssets {
    static let stylesheetPath = "assets/report.css"
    static let scriptPath = "assets/report.js"

    static let stylesheet = """
        :root { --ink: #1d232a; --muted: #5b6570; --line: #d9dee3; --paper: #fbfbfa; --card: #fff; --accent: #2f6f5e;
                --band-outer: #e3efe9; --band-inner: #c8e1d5; --warn: #9a3b1c; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK KR",
               "Apple SD Gothic Neo", "Malgun Gothic", sans-serif; color: var(--ink); background: var(--paper); }
        main, header.site { max-width: 1100px; margin: 0 auto; padding: 0 16px; }
        header.site { display: flex; flex-wrap: wrap; gap: 8px 20px; align-items: baseline; padding-top: 16px; }
        header.site h1 { margin: 0; font-size: 1.6rem; }
        header.site nav a { margin-right: 14px; }
        a { color: var(--accent); }
        h2 { font-size: 1.2rem; margin: 28px 0 10px; }
        .muted, .source { color: var(--muted); font-size: 0.9rem; }
        .greetings { background: #fff6e0; border: 1px solid #f0dca8; border-radius: 8px; padding: 8px 16px; margin-top: 16px; }
        .class-filter { display: flex; flex-wrap: wrap; gap: 6px; margin: 16px 0; }
        .class-filter button { font: inherit; padding: 4px 12px; border: 1px solid var(--line); border-radius: 16px;
                               background: var(--card); cursor: pointer; }
        .class-filter button[aria-pressed="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 12px; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; }
        .card a.cover { display: block; aspect-ratio: 4 / 3; background: #eef1f3; }
        .card img { width: 100%; height: 100%; object-fit: cover; display: block; }
        .card .body { padding: 8px 12px 12px; }
        .card h3 { margin: 0 0 4px; font-size: 1.1rem; }
        .card dl, dl.profile { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 6px 0 0; }
        dt { color: var(--muted); }
        dd { margin: 0; }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 16px; }
        figure { margin: 0; }
        .chart-figure { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 8px; }
        svg.chart { width: 100%; height: auto; }
        svg.chart .axis { stroke: #8a949e; stroke-width: 1; }
        svg.chart .tick { font-size: 13px; fill: var(--muted); }
        svg.chart .line { fill: none; stroke: var(--accent); stroke-width: 2; }
        svg.chart .median { fill: none; stroke: #6aa58f; stroke-width: 1; stroke-dasharray: 4 3; }
        svg.chart .band-outer { fill: var(--band-outer); }
        svg.chart .band-inner { fill: var(--band-inner); }
        svg.chart circle { fill: #fff; stroke: var(--accent); stroke-width: 2; }
        .month { margin-bottom: 12px; }
        .thumbs { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 8px; }
        .thumbs figure { background: #eef1f3; border-radius: 6px; overflow: hidden; }
        .thumbs img, .thumbs video { width: 100%; aspect-ratio: 1; object-fit: cover; display: block; }
        .video-icon { display: flex; flex-direction: column; align-items: center; justify-content: center; aspect-ratio: 1;
                      background: #37474f; color: #fff; font-size: 2.2em; text-decoration: none; }
        .video-icon span { font-size: 0.45em; margin-top: 0.2em; }
        .thumbs figcaption { font-size: 0.8rem; padding: 2px 6px; color: var(--muted); }
        .table-wrap { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; background: var(--card); }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { font-weight: 600; }
        input.filter { font: inherit; padding: 6px 10px; width: 100%; max-width: 360px; margin-bottom: 8px;
                       border: 1px solid var(--line); border-radius: 6px; }
        table.calendar { width: auto; }
        table.calendar th { white-space: nowrap; padding-right: 8px; }
        table.calendar td { min-width: 1.7em; height: 1.6em; padding: 0 1px; text-align: center; font-size: 0.75rem; }
        table.calendar td.fed { background: #cfe6dc; }
        table.calendar td.shed { background: #f3d9a4; }
        table.calendar td.fed.shed { background: linear-gradient(135deg, #cfe6dc 50%, #f3d9a4 50%); }
        .problem-reason { color: var(--warn); }
        code { font-size: 0.9em; }
        @media (max-width: 600px) {
          body { font-size: 15px; }
          .cards { grid-template-columns: 1fr 1fr; }
          .thumbs { grid-template-columns: repeat(3, 1fr); }
          th, td { padding: 3px 5px; }
        }
        """

    static let script = """
        // Filters only: the pages are whole without it.
        document.addEventListener('DOMContentLoaded', function () {
          document.querySelectorAll('input.filter[data-table]').forEach(function (input) {
            var table = document.getElementById(input.dataset.table);
            if (!table) return;
            input.addEventListener('input', function () {
              var query = input.value.trim().toLowerCase();
              Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
                row.hidden = query !== '' && row.textContent.toLowerCase().indexOf(query) < 0;
              });
            });
          });
          var buttons = document.querySelectorAll('.class-filter button');
          buttons.forEach(function (button) {
            button.addEventListener('click', function () {
              var wanted = button.dataset.filter;
              buttons.forEach(function (other) { other.setAttribute('aria-pressed', other === button ? 'true' : 'false'); });
              document.querySelectorAll('section.group').forEach(function (group) {
                group.hidden = wanted !== 'all' && group.dataset.class !== wanted;
              });
              document.querySelectorAll('article.card').forEach(function (card) {
                card.hidden = wanted !== 'all' && card.dataset.class !== wanted;
              });
            });
          });
        });

        """
}
