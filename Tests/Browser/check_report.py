#!/usr/bin/env python3
"""The report in a real browser (issue 25): `dossier report` of the Samples library and of a
generated one, every page opened in headless Chromium through its DevTools protocol (cdp.py).

For each page: it loads with no console error, no uncaught exception and no failed request;
every <img> decodes (its natural width above 0, lazy ones made eager first); every video fetches
nothing until played, its poster decodes and its file is there, as is the file a video's icon
opens. For each subject
page: each chart (`svg.chart[data-series]`) has exactly one point per record of its series, with
the record's date, value and unit, as `dossier records KIND/ID --json` gives them; the filter box
narrows the records table to the rows holding what was typed. On the index page the class
buttons narrow the cards to that class. Screenshots of the index (desktop and phone width) and of
one subject page are saved under .build/report-screenshots/.

Usage: Tests/Browser/check_report.py [--dossier BIN] [--work DIR] [--screenshots DIR]
Exit status 0 when every check holds; each failed check is printed with its page.
"""
import argparse
import base64
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPORA = os.environ.get("DOSSIER_CORPORA", os.path.join(os.path.dirname(ROOT), "shared", "corpora"))
# A subject's page lists at most this many records, the latest; past it, every record is on its
# year's page, records-YYYY.html (SubjectPage.recordsListed).
RECORDS_LISTED = 1000
SERIES = {"weight": ("weight",), "length": ("length", "height")}


class Checks:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def expect(self, condition, where, what):
        if condition:
            self.passed += 1
        else:
            self.failures.append(f"{where}: {what}")


def run(command, **kwargs):
    """Runs a dossier command; 1 (a source failed) and 3 (a source needs a look) are outcomes, not errors."""
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode not in (0, 1, 3):
        raise SystemExit(f"{' '.join(command)} exited {result.returncode}:\n{result.stdout}{result.stderr}")
    return result


def generated_library(dossier, work):
    """A library as a family keeps one: a child with monthly weights and lengths (Korean name),
    a gecko with weights, feedings and sheds, a tarantula with moults, each log written the way
    people write them."""
    library = os.path.join(work, "Generated")
    dump = os.path.join(work, "generated-dump")
    shutil.rmtree(library, ignore_errors=True)
    shutil.rmtree(dump, ignore_errors=True)
    for subject, extra in [("children/minji", ["--name", "민지", "--alias", "Minji", "--born", "2024-01-10", "--sex", "girl"]),
                           ("pets/kong", ["--name", "콩이", "--born", "2022-06-01", "--species", "leopard gecko"]),
                           ("pets/rosie", ["--name", "Rosie", "--species", "Grammostola rosea"]),
                           ("pets/bori", ["--name", "보리", "--species", "ball python"])]:
        run([dossier, "subjects", "add", subject, "--library", library] + extra)
    os.makedirs(os.path.join(dump, "children/minji"))
    os.makedirs(os.path.join(dump, "pets/kong"))
    os.makedirs(os.path.join(dump, "pets/rosie"))
    os.makedirs(os.path.join(dump, "pets/bori"))
    weights = [3.3, 4.4, 5.6, 6.3, 7.0, 7.4, 7.9, 8.3, 8.6, 8.9, 9.2, 9.4, 9.6]
    lengths = [49.9, 54.7, 58.4, 61.4, 63.9, 65.9, 67.6, 69.2, 70.6, 72.0, 73.3, 74.5, 75.7]
    with open(os.path.join(dump, "children/minji/growth.txt"), "w", encoding="utf-8") as log:
        for month, (weight, length) in enumerate(zip(weights, lengths)):
            year, mon = 2024 + (month + 0) // 12, (month % 12) + 1
            log.write(f"{year}-{mon:02d}-10 weight {weight} kg, length {length} cm\n")
            if month % 3 == 1:
                log.write(f"{year}-{mon:02d}-12 slept through the night, first time in a while\n")
    notes = ["ate 5 crickets", "ate 3 mealworms, dusted with calcium", "refused food", "shed in one piece",
             "ate 4 dubia", "stuck shed on toes, gave a soak"]
    with open(os.path.join(dump, "pets/kong/care.txt"), "w", encoding="utf-8") as log:
        for day in range(60):
            month, dom = 1 + day // 28, 1 + day % 28
            if day % 7 == 0:
                log.write(f"2024-{month:02d}-{dom:02d} weight {52 + day // 7}g\n")
            log.write(f"2024-{month:02d}-{dom:02d} {notes[day % len(notes)]}\n")
    with open(os.path.join(dump, "pets/rosie/log.txt"), "w", encoding="utf-8") as log:
        log.write("2023-11-02 moult, all legs out\n2024-03-15 ate 1 cricket\n2024-06-20 moult <b>big</b> & clean\n")
    # Three years of a snake keeper's daily notes: more records than a page lists, so a page per year.
    bori_notes = ["fed 1 medium rat", "water changed", "refused the rat, tried again later", "in the hide all day",
                  "shed started, eyes blue", "spot cleaned", "handled 10 min, calm", "humidity 60%"]
    with open(os.path.join(dump, "pets/bori/keeper-log.txt"), "w", encoding="utf-8") as log:
        day = datetime.date(2022, 3, 1)
        for number in range(1150):
            log.write(f"{day.isoformat()} {bori_notes[(number * 5 + number // 8) % len(bori_notes)]}\n")
            if number % 30 == 0:
                log.write(f"{day.isoformat()} weight {1200 + number // 3}g\n")
            day += datetime.timedelta(days=1)
    # Photos: the samples' JPEGs, and a HEIC (shown through its rendition) from the corpora.
    for name in sorted(os.listdir(os.path.join(ROOT, "Samples/pets/leo"))):
        if name.upper().endswith(".JPG"):
            shutil.copy(os.path.join(ROOT, "Samples/pets/leo", name), os.path.join(dump, "pets/kong", name))
    # A video of its own (the Samples' Live Photo movie, with no still here to pair with).
    shutil.copy(os.path.join(ROOT, "Samples/children/mina/IMG_0712.MOV"), os.path.join(dump, "pets/kong/VID_0001.MOV"))
    heic = os.path.join(CORPORA, "heif/nokia-conformance/MIAF007.heic")
    if os.path.exists(heic):
        shutil.copy(heic, os.path.join(dump, "children/minji/IMG_0101.HEIC"))
    run([dossier, "import", dump, "--library", library])
    return library


def pages(report):
    found = []
    for folder, _, names in os.walk(report):
        if os.path.basename(folder) == "assets":
            continue
        found += [os.path.join(folder, name) for name in names if name.endswith(".html")]
    return sorted(found)


def open_page(browser, path):
    browser.events.clear()
    browser.page("Page.navigate", {"url": "file://" + path})
    browser.wait_for_event("Page.loadEventFired")
    # Lazy images load only near the viewport: made eager, then waited for.
    browser.evaluate("""new Promise(done => {
        for (const image of document.images) image.loading = 'eager';
        const waited = Date.now();
        (function check() {
            if ([...document.images].every(image => image.complete) || Date.now() - waited > 15000) done(true);
            else setTimeout(check, 50);
        })();
    })""", timeout=30)


def page_errors(browser):
    errors = []
    for event in browser.events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.exceptionThrown":
            errors.append(f"uncaught: {params['exceptionDetails'].get('text')} "
                          f"{params['exceptionDetails'].get('exception', {}).get('description', '')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            errors.append(f"console.{params['type']}: {[arg.get('value') for arg in params.get('args', [])]}")
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            errors.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}")
        elif method == "Network.loadingFailed":
            errors.append(f"failed request: {params.get('errorText')} ({params.get('type')})")
    return errors


def check_images(browser, checks, where):
    images = browser.evaluate("[...document.images].map(image => [image.getAttribute('src'), image.naturalWidth])")
    for source, width in images:
        checks.expect(width > 0, where, f"<img src={source!r}> did not decode")
    return len(images)


def check_videos(browser, checks, where, page):
    """Every video waits to be played (preload none), its poster decodes and its file is there;
    a video shown as an icon opens a file that is there. Returns how many videos the page shows."""
    videos = browser.evaluate("""Promise.all([...document.querySelectorAll('.thumbs video')].map(video => {
        const poster = video.getAttribute('poster');
        const result = [video.getAttribute('src'), poster, video.preload, 0];
        if (!poster) return result;
        const image = new Image();
        image.src = video.poster;
        return image.decode().then(() => { result[3] = image.naturalWidth; return result; }, () => result);
    }))""", timeout=30)
    icons = browser.evaluate("[...document.querySelectorAll('a.video-icon')].map(a => a.getAttribute('href'))")
    folder = os.path.dirname(page)
    for source, poster, preload, width in videos:
        checks.expect(preload == "none", where, f"<video src={source!r}> preloads {preload!r}")
        checks.expect(os.path.isfile(os.path.join(folder, urllib.parse.unquote(source))), where, f"<video src={source!r}>: no such file")
        if poster:
            checks.expect(width > 0, where, f"<video poster={poster!r}> did not decode")
    for href in icons:
        checks.expect(os.path.isfile(os.path.join(folder, urllib.parse.unquote(href))), where, f"video icon {href!r}: no such file")
    return len(videos) + len(icons)


def expected_points(dossier, library, subject):
    records = [json.loads(line) for line in run([dossier, "records", subject, "--library", library, "--json"]).stdout.splitlines()
               if line.strip()]
    points = {series: [] for series in SERIES}
    for record in records:
        for measurement in record.get("measurements", []):
            for series, names in SERIES.items():
                if measurement["name"].lower() in names:
                    points[series].append((record["date"][:10], measurement["value"], measurement["unit"]))
    return records, points


def close(drawn, expected):
    """A drawn value is the record's, shown to the decimals its source gave."""
    return abs(float(drawn) - float(expected)) <= max(0.051, abs(float(expected)) * 0.0005)


def check_charts(browser, checks, where, points):
    drawn = browser.evaluate("""[...document.querySelectorAll('svg.chart')].map(chart => [chart.dataset.series,
        [...chart.querySelectorAll('circle[data-date]')].map(point => [point.dataset.date, point.dataset.value, point.dataset.unit])])""")
    charts = {series: circles for series, circles in drawn}
    for series, expected in points.items():
        circles = charts.get(series, [])
        if not expected:
            continue
        checks.expect(len(circles) == len(expected), where,
                      f"chart {series}: {len(circles)} points for {len(expected)} records")
        left = list(expected)
        for date, value, unit in circles:
            match = next((item for item in left if item[0] == date and item[2] == unit and close(value, item[1])), None)
            checks.expect(match is not None, where, f"chart {series}: a point {date} {value} {unit} matches no record")
            if match:
                left.remove(match)
    return sum(len(circles) for circles in charts.values())


def check_records_table(browser, checks, where, records):
    rows = browser.evaluate("[...document.querySelectorAll('table.records tr[data-id]')].map(row => row.dataset.id)")
    checks.expect(sorted(rows) == sorted(record["id"] for record in records), where,
                  f"the records table has {len(rows)} rows for {len(records)} records")
    if len(records) < 2:
        return
    # A word some rows hold and others do not: typed into the filter box, it leaves those rows.
    word = browser.evaluate("""(() => {
        const rows = [...document.querySelectorAll('table.records tr[data-id]')];
        const counts = new Map();
        for (const row of rows) for (const word of new Set(row.textContent.toLowerCase().match(/[\\p{L}]{4,}/gu) || []))
            counts.set(word, (counts.get(word) || 0) + 1);
        const some = [...counts].filter(([, count]) => count > 0 && count < rows.length).sort((a, b) => b[1] - a[1]);
        return some.length ? some[0][0] : null;
    })()""")
    checks.expect(word is not None, where, "no word tells the records apart")
    if word is None:
        return
    visible = browser.evaluate(f"""new Promise(done => {{
        const box = document.querySelector('input.filter[data-table="records"]');
        if (!box) return done(null);
        box.focus();
        box.value = {json.dumps(word)};
        box.dispatchEvent(new Event('input', {{bubbles: true}}));
        setTimeout(() => done([...document.querySelectorAll('table.records tr[data-id]')]
            .filter(row => row.offsetParent !== null).map(row => row.textContent.toLowerCase())), 100);
    }})""")
    checks.expect(visible is not None, where, "no filter box for the records table")
    if visible is None:
        return
    checks.expect(0 < len(visible) < len(rows), where, f"filtering by {word!r} left {len(visible)} of {len(rows)} rows")
    checks.expect(all(word in text for text in visible), where, f"filtering by {word!r} left rows without it")


def check_class_filter(browser, checks, where):
    outcome = browser.evaluate("""new Promise(done => {
        const cards = () => [...document.querySelectorAll('.card[data-class]')];
        const all = cards().length;
        const classes = [...new Set(cards().map(card => card.dataset.class))];
        const button = [...document.querySelectorAll('button[data-filter]')].find(button => classes.includes(button.dataset.filter));
        if (!button) return done({all, classes, chosen: null});
        button.click();
        setTimeout(() => done({all, classes, chosen: button.dataset.filter,
            shown: cards().filter(card => card.offsetParent !== null).map(card => card.dataset.class)}), 100);
    })""")
    checks.expect(outcome["chosen"] is not None, where, f"no class button for the cards' classes {outcome['classes']}")
    if outcome["chosen"] is None:
        return
    shown = outcome["shown"]
    checks.expect(len(shown) > 0 and all(kind == outcome["chosen"] for kind in shown), where,
                  f"the {outcome['chosen']} button shows {shown}")
    if len(outcome["classes"]) > 1:
        checks.expect(len(shown) < outcome["all"], where, f"the {outcome['chosen']} button hides no card")


def screenshot(browser, path, width, height, mobile=False):
    browser.page("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                         "mobile": mobile})
    data = browser.page("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
    with open(path, "wb") as out:
        out.write(base64.b64decode(data))
    browser.page("Emulation.clearDeviceMetricsOverride")


def check_library(browser, dossier, library, name, checks, screenshots):
    result = run([dossier, "report", "--library", library])
    checks.expect(result.returncode == 0, name, f"dossier report exited {result.returncode}: {result.stderr}")
    report = os.path.join(library, "report")
    all_pages = pages(report)
    checks.expect(os.path.join(report, "index.html") in all_pages, name, "no index.html")
    shot_subject = None
    for path in all_pages:
        where = f"{name}:{os.path.relpath(path, report)}"
        open_page(browser, path)
        images = check_images(browser, checks, where)
        videos = check_videos(browser, checks, where, path)
        relative = os.path.relpath(os.path.dirname(path), report)
        parts = relative.split(os.sep)
        drawn = 0
        if len(parts) == 2 and parts[0] in ("pets", "children"):
            records, points = expected_points(dossier, library, "/".join(parts))
            name_of_page = os.path.basename(path)
            if name_of_page.startswith("records-"):
                # A year page: that year's records, every one, and no chart.
                year = name_of_page[len("records-"):-len(".html")]
                check_records_table(browser, checks, where, [r for r in records if r["date"].startswith(year + "-")])
            else:
                drawn = check_charts(browser, checks, where, points)
                listed = records[-RECORDS_LISTED:]
                check_records_table(browser, checks, where, listed)
                years = sorted({r["date"][:4] for r in records})
                year_pages = [os.path.join(os.path.dirname(path), f"records-{year}.html") for year in years]
                if len(records) > RECORDS_LISTED:
                    missing = [page for page in year_pages if page not in all_pages]
                    checks.expect(not missing, where, f"{len(records)} records, but no year pages {missing}")
                else:
                    extra = [page for page in year_pages if page in all_pages]
                    checks.expect(not extra, where, f"{len(records)} records fit on the page, yet year pages {extra}")
                if shot_subject is None or (drawn and parts[0] == "children"):
                    shot_subject = path
        if relative == ".":
            if os.path.basename(path) == "index.html":
                screenshot(browser, os.path.join(screenshots, f"{name}-index.png"), 1200, 900)
                screenshot(browser, os.path.join(screenshots, f"{name}-index-phone.png"), 390, 844, mobile=True)
                open_page(browser, path)
                check_class_filter(browser, checks, where)
        for error in page_errors(browser):
            checks.expect(False, where, error)
        print(f"  {where}: {images} images, {videos} videos, {drawn} chart points", file=sys.stderr)
    if shot_subject:
        open_page(browser, shot_subject)
        screenshot(browser, os.path.join(screenshots, f"{name}-subject.png"), 1200, 900)
        screenshot(browser, os.path.join(screenshots, f"{name}-subject-phone.png"), 390, 844, mobile=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dossier", default=os.path.join(ROOT, ".build/debug/dossier"))
    parser.add_argument("--work")
    parser.add_argument("--screenshots", default=os.path.join(ROOT, ".build/report-screenshots"))
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        raise SystemExit("chromium is not installed: `apt-get install chromium` (Debian), or run scripts/test with CI=true")
    work = args.work or tempfile.mkdtemp(prefix="dossier-browser-")
    os.makedirs(args.screenshots, exist_ok=True)
    samples = os.path.join(work, "Samples-Library")
    shutil.rmtree(samples, ignore_errors=True)
    run([args.dossier, "import", "--create", os.path.join(ROOT, "Samples"), "--library", samples])
    checks = Checks()
    browser = Browser(chromium)
    try:
        check_library(browser, args.dossier, samples, "samples", checks, args.screenshots)
        check_library(browser, args.dossier, generated_library(args.dossier, work), "generated", checks, args.screenshots)
    finally:
        browser.close()
    for failure in checks.failures:
        print(f"FAILED {failure}")
    print(f"browser checks: {checks.passed} passed, {len(checks.failures)} failed; screenshots in {args.screenshots}")
    sys.exit(1 if checks.failures else 0)


if __name__ == "__main__":
    main()
