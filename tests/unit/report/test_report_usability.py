"""The report page and the plots as a user meets them (issue 23 #8): the chart names the
system, its bars start at 0, tables and charts title metrics alike, the page's title names
the key and the systems, ``anascore plot`` writes PDF, and the page works from the keyboard."""

from __future__ import annotations

import ast
import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from anascore.cli.main import main
from anascore.config.metric_names import CATALOGUE

ROOT = Path(__file__).resolve().parents[3]
SOURCE = ROOT / "src" / "anascore"
EXAMPLES = ROOT / "examples"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

#: A report of one response whose lowest F1 is 60 (the axis started at 50).
REPORT = {"documents": 3, "signature": "match:exact",
          "metrics": {"muc": {"f1": 0.6}, "bcub": {"f1": 0.7}, "ceafe": {"f1": 0.65}}}


def _texts(svg: str) -> list[str]:
    return [html.unescape(text) for text in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def _plotted(tmp_path: Path, **arguments: str) -> list[str]:
    """The texts of :data:`REPORT` drawn as SVG (text kept as text, to read it back)."""
    matplotlib = pytest.importorskip("matplotlib")
    from anascore.report.plot import plot_report

    out = tmp_path / "plot.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        plot_report(REPORT, out, **arguments)
    return _texts(out.read_text(encoding="utf-8"))


def test_the_bars_start_at_zero(tmp_path: Path) -> None:
    # The axis started 10 points below the lowest score rounded down (here at 50), so that
    # a bar of 60 looked half one of 70.
    ticks = [text for text in _plotted(tmp_path) if text.isdigit()]
    assert ticks[:3] == ["0", "20", "40"]


def test_the_chart_titles_metrics_as_the_tables(tmp_path: Path) -> None:
    # The chart said B³ where every table says B3.
    texts = _plotted(tmp_path)
    drawn = [text for text in texts if text in ("MUC", "B3", "B³", "CEAFe")]
    assert drawn == ["MUC", "B3", "CEAFe"]


def test_a_single_system_is_named(tmp_path: Path) -> None:
    # The page's chart of one system called it "response" (its JSON names no system).
    assert "one.conll" in _plotted(tmp_path, name="one.conll")
    assert "response" in _plotted(tmp_path)  # a JSON file of one response, as before
    out = tmp_path / "report.html"
    assert main(["report", str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll"),
                 "-o", str(out), "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    legend = re.findall(r"<!-- (response(?:\.conll)?) -->", page)
    assert legend == ["response.conll"]


def test_the_page_titles_metrics_as_the_tables(tmp_path: Path) -> None:
    # The page's scores table and per-document table said "bcub", its chart "B³".
    out = tmp_path / "report.html"
    assert main(["report", str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll"),
                 "-o", str(out), "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    scores = page[page.index("<table class='scores'>"):]
    assert re.findall(r"<tr><th>([^<]*)</th><td>", scores)[:8] == [
        "Mentions", "MUC", "B3", "CEAFm", "CEAFe", "BLANC", "LEA", "CoNLL"]
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>',
                                page, re.S).group(1))
    assert data["titles"][2] == "B3" and data["metrics"][2] == "bcub"
    assert "CoNLL F1 points gained by fixing only that type" in page


def test_no_other_module_spells_a_title() -> None:
    """A metric's title as a string of its own (a dictionary of titles, a ``Metric(…,
    "MUC")``) appears in the catalogue (config/metric_names.py) only."""
    titles = {metric.title for metric in CATALOGUE} - {"Mentions", "Bridging", "Dominant"}
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        if path.name == "metric_names.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in titles:
                found.append(f"{path.relative_to(SOURCE)}:{node.lineno} {node.value!r}")
    assert found == []


def test_the_page_title_names_the_key_and_the_systems(tmp_path: Path) -> None:
    # The title was the key's last part: "anascore report: dep" for gum/dep/.
    key_folder, ours = tmp_path / "gum" / "dep", tmp_path / "ours"
    key_folder.mkdir(parents=True)
    ours.mkdir()
    for folder, example in ((key_folder, "key.conll"), (ours, "response.conll")):
        (folder / "doc.conll").write_text((EXAMPLES / example).read_text())
    out = tmp_path / "report.html"
    assert main(["report", f"{key_folder}/", str(ours), "-o", str(out), "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    expected = html.escape(f"anascore report: ours against {key_folder}")
    assert f"<title>{expected}</title>" in page and f"<h1>{expected}</h1>" in page


def test_plot_writes_pdf_and_names_the_formats_it_writes(tmp_path: Path, capsys) -> None:
    pytest.importorskip("matplotlib")
    report = tmp_path / "report.json"
    report.write_text(json.dumps(REPORT))
    for command in (["plot", str(report), "-o", str(tmp_path / "scores.pdf")],
                    ["lab", "--plot", str(tmp_path / "lab.pdf")]):
        assert main(command) == 0, capsys.readouterr().err
    assert (tmp_path / "scores.pdf").read_bytes()[:5] == b"%PDF-"
    assert (tmp_path / "lab.pdf").read_bytes()[:5] == b"%PDF-"
    with pytest.raises(SystemExit) as exit_:
        main(["plot", str(report), "-o", str(tmp_path / "scores.jpg")])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"anascore plot: error: cannot tell the image format of {tmp_path / 'scores.jpg'}; "
        "expected a file name ending in .png, .svg or .pdf")
    assert not (tmp_path / "scores.jpg").exists()


#: Run in the page after its own script: reaches each control as Tab does (focus) and presses
#: Enter on it, and writes what happened into <pre id="keyboard">.
KEYBOARD_TEST = """<script>
(() => {
  const enter = (element) => { element.focus(); element.dispatchEvent(new KeyboardEvent(
    "keydown", {key: "Enter", bubbles: true, cancelable: true})); };
  const result = {};
  const header = document.querySelector('#documents th[data-c="2"]');
  result.headerFocusable = header.tabIndex === 0;
  enter(header);
  result.sorted = document.querySelector('#documents th[data-c="2"]').classList.contains("sorted");
  result.ariaSort = header.getAttribute("aria-sort");
  const rows = document.querySelectorAll("#documents tbody tr");
  const row = rows[rows.length - 1];
  result.rowFocusable = row.tabIndex === 0;
  document.getElementById("document").value = "0";
  enter(row);
  result.opened = document.getElementById("document").value === row.dataset.d;
  const bracket = document.querySelector('#text td[data-s="k"] .b[tabindex="0"]');
  result.mentionFocusable = bracket !== null && bracket.getAttribute("role") === "button";
  if (bracket) enter(bracket);
  result.highlighted = document.querySelectorAll("#text .b.hl").length;
  const pre = document.createElement("pre"); pre.id = "keyboard";
  pre.textContent = JSON.stringify(result); document.body.appendChild(pre);
})();
</script>"""


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_the_page_works_from_the_keyboard(tmp_path: Path) -> None:
    # Sorting, opening a document and highlighting an entity took a mouse: headers, rows and
    # brackets could not be reached with Tab, and Enter did nothing.
    out = tmp_path / "report.html"
    assert main(["report", str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll"),
                 "-o", str(out), "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    tested = tmp_path / "tested.html"
    tested.write_text(page.replace("</body>", KEYBOARD_TEST + "</body>"), encoding="utf-8")
    run = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
         "--dump-dom", tested.as_uri()], capture_output=True, text=True, timeout=180,
        check=False)
    found = re.search(r'<pre id="keyboard">(.*?)</pre>', run.stdout, re.S)
    assert found is not None, run.stderr[-2000:]
    result = json.loads(html.unescape(found.group(1)))
    assert result == {"headerFocusable": True, "sorted": True, "ariaSort": "ascending",
                      "rowFocusable": True, "opened": True, "mentionFocusable": True,
                      "highlighted": result["highlighted"]}
    assert result["highlighted"] > 0
