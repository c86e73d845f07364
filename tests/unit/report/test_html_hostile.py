"""``anascore report`` on hostile input: text from the files stays text on the page.

A shared-task organiser opens the report of a participant's submission, on a page that holds
the gold key: an entity ID, a word, a document or file name or a system name must not run
script there, nor stop the page's own script. Checked on the HTML written and in headless
Chromium (Debian's ``chromium``; the browser tests skip where it is absent).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from anascore.cli.main import main
from anascore.report.html import script_json
from anascore.report.html_template import fill
from tests.support.paths import FIXTURES

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
browser = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

#: Script that marks the page when it runs: the browser tests look for the mark.
IMAGE = "<img/src/onerror=document.documentElement.dataset.injected=1>"
SCRIPT = "<script>document.documentElement.dataset.injected=2</script>"
COMMENT = "<!--<script>"
DOLLARS = ["$&", "$'", "$`", "$$", "$1"]
INJECTED = re.compile(r"<html[^>]*data-injected", re.I)


def conll(name: str, rows: list[tuple[str, str]]) -> str:
    lines = "".join(f"{word}\t{column}\n" for word, column in rows)
    return f"#begin document ({name}); part 000\n{lines}#end document\n"


def write_report(tmp_path: Path, key_text: str, response_text: str, *arguments: str,
                 key_name: str = "key.conll") -> Path:
    key, response = tmp_path / key_name, tmp_path / "response.conll"
    key.write_text(key_text, encoding="utf-8")
    response.write_text(response_text, encoding="utf-8")
    out = tmp_path / "report.html"
    assert main(["report", str(key), str(response), "-o", str(out), "--quiet",
                 *arguments]) == 0
    return out


def data_block(page: str) -> str:
    found = re.findall(r'<script id="data" type="application/json">(.*?)</script>', page,
                       re.S)
    assert len(found) == 1
    return found[0]


def injection_report(tmp_path: Path) -> Path:
    """A report where every value filled before the data names the data's slot: the key file
    (the title), a key document the response lacks (a warning), the system (``--names``),
    the documents (grouped by document); the data holds a script in an entity ID."""
    hostile = conll("{{DATA}}<b>", [("Anna", f"({IMAGE})"), ("saw", "-"), ("She", f"({IMAGE})")])
    other = conll("other", [("x", "(1)")])
    return write_report(tmp_path, other + hostile, other, "--names", "{{DATA}}<b>",
                        "--group-by", "document", key_name="{{DATA}}<b>.conll")


def test_a_value_naming_a_slot_stays_text(tmp_path) -> None:
    # Slot by slot, the title ("{{DATA}}<b>.conll"), the warning naming the document
    # "({{DATA}}<b>)" and the groups received the data as HTML, and its <img> ran.
    page = injection_report(tmp_path).read_text(encoding="utf-8")
    assert "<img" not in page.lower()
    assert page.count('"perDocument"') == 1
    title = html.escape(
        f"anascore report: {{{{DATA}}}}<b> against {tmp_path}/{{{{DATA}}}}<b>.conll")
    assert f"<h1>{title}</h1>" in page
    assert f"<title>{title}</title>" in page
    assert "<li>" + html.escape(
        f"{tmp_path / 'response.conll'}: document '({{{{DATA}}}}<b>); part 000' of the key is "
        "missing from the response; scored as an empty response") + "</li>" in page
    assert "<th style='text-align:left'>({{DATA}}&lt;b&gt;); part 000</th>" in page
    assert "<h3>{{DATA}}&lt;b&gt;</h3>" in page  # the system's groups
    assert "<th>{{DATA}}&lt;b&gt;</th>" in page  # the scores' and errors' tables
    data = json.loads(data_block(page))
    assert data["systems"] == ["{{DATA}}<b>"]
    hostile = data["documents"][1]
    assert hostile["n"] == "({{DATA}}<b>); part 000"
    assert hostile["w"] == ["Anna", "saw", "She"]
    assert hostile["k"]["ids"] == [IMAGE]


def test_the_data_block_holds_no_markup(tmp_path) -> None:
    # '<!--<script>' in the data kept its '</script>' from closing it: the page's script
    # was never run.
    words = [COMMENT, SCRIPT, "</script>", "a&b", "-->", "]]>"]
    rows = [(word, "(<!--<script>)" if index == 0 else "-")
            for index, word in enumerate(words)]
    out = write_report(tmp_path, conll(COMMENT, rows), conll(COMMENT, rows))
    page = out.read_text(encoding="utf-8")
    assert "{{" not in page  # every slot filled
    block = data_block(page)
    assert not set("<>&") & set(block)
    data = json.loads(block)
    [document] = data["documents"]
    assert document["n"] == f"({COMMENT}); part 000"
    assert document["w"] == words
    assert document["k"]["ids"] == [COMMENT]


def test_script_json_escapes_what_html_or_javascript_would_read() -> None:
    text = "<\u2028\u2029>&'\"é"
    encoded = script_json({"x": text})
    assert encoded == ('{"x":"\\u003c\\u2028\\u2029\\u003e\\u0026\'\\"é"}')
    assert json.loads(encoded) == {"x": text}


def test_the_slots_are_filled_in_one_pass() -> None:
    template = "<title>{{TITLE}}</title>{{DATA}}"
    assert fill(template, {"TITLE": "{{DATA}}", "DATA": "x"}) == "<title>{{DATA}}</title>x"
    with pytest.raises(ValueError, match="TITLE"):
        fill(template, {"DATA": "x"})
    with pytest.raises(ValueError, match="EXTRA"):
        fill(template, {"TITLE": "t", "DATA": "x", "EXTRA": "y"})


def test_system_names_matplotlib_would_read_as_mathematics(tmp_path) -> None:
    # The page's score plot drew the names with matplotlib: '$\\frac$' was a ValueError
    # traceback (tests/unit/report/test_plot.py checks what is drawn).
    pytest.importorskip("matplotlib")
    key, out = tmp_path / "key.conll", tmp_path / "report.html"
    key.write_text(conll("d", [("Anna", "(1)"), ("She", "(1)")]))
    assert main(["report", str(key), str(key), str(key), "--names", "$\\frac$", "_b", "-o",
                 str(out), "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<th>$\\frac$</th><th>_b</th>" in page and "<svg xmlns" in page


def test_a_file_name_that_is_not_utf8(tmp_path) -> None:
    # A file name's bytes that are not UTF-8 reach Python as lone surrogates ('\udcff'):
    # writing the page ended in a UnicodeEncodeError traceback. They are shown as U+FFFD,
    # as on a terminal.
    text = conll("d", [("Anna", "(1)"), ("She", "(1)")])
    key, out = tmp_path / "key.conll", tmp_path / "report.html"
    key.write_text(text)
    try:
        response = os.fsdecode(os.path.join(os.fsencode(tmp_path), b"\xff.conll"))
        Path(response).write_text(text)
    except (OSError, UnicodeError):
        pytest.skip("the file system refuses a file name that is not UTF-8")
    assert main(["report", str(key), response, "-o", str(out), "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<th>\ufffd.conll</th>" in page
    assert json.loads(data_block(page))["systems"] == ["\ufffd.conll"]


def dump_dom(page: Path, fragment: str = "") -> str:
    assert CHROMIUM is not None
    result = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
         "--dump-dom", page.as_uri() + fragment],
        capture_output=True, text=True, timeout=180, check=False)
    assert "</html>" in result.stdout, result.stderr[-2000:]
    return result.stdout


def selftest(dom: str) -> dict:
    found = re.search(r'<pre id="selftest">(.*?)</pre>', dom, re.S)
    assert found is not None, "the page's script did not run its self-test"
    return json.loads(html.unescape(found.group(1)))


def shown(dom: str, side: str, pattern: str) -> list[str]:
    """The texts ``pattern`` finds in the document open in the viewer, on the key (k) or
    response (r) side."""
    found = re.search(rf'<td data-s="{side}">(.*?)</td>', dom, re.S)
    assert found is not None
    return [html.unescape(text) for text in re.findall(pattern, found.group(1))]


def words_shown(dom: str, side: str) -> list[str]:
    return shown(dom, side, r'<span class="w[^"]*" data-t="\d+">(.*?)</span>')


@browser
def test_in_a_browser_no_injected_script_runs(tmp_path) -> None:
    dom = dump_dom(injection_report(tmp_path), "#selftest")
    assert not INJECTED.search(dom)
    assert selftest(dom) == {"documents": 2, "opened": 2, "rendered": 2, "highlighted": 2,
                             "failures": []}
    # The last document opened by the self-test is the hostile one: its words and entity
    # IDs are shown as text.
    assert words_shown(dom, "k") == ["Anna", "saw", "She"]
    assert shown(dom, "k", r"<sub>(.*?)</sub>") == [IMAGE, IMAGE]
    title = html.escape(
        f"anascore report: {{{{DATA}}}}<b> against {tmp_path}/{{{{DATA}}}}<b>.conll", quote=False)
    assert f"<h1>{title}</h1>" in dom


@browser
def test_in_a_browser_a_comment_opener_in_the_data_stops_nothing(tmp_path) -> None:
    rows = [("Anna", f"({COMMENT})"), (COMMENT, "-"), ("She", f"({COMMENT})"), (SCRIPT, "-")]
    out = write_report(tmp_path, conll(COMMENT, rows), conll(COMMENT, rows))
    dom = dump_dom(out, "#selftest")
    assert selftest(dom) == {"documents": 1, "opened": 1, "rendered": 1, "highlighted": 1,
                             "failures": []}
    assert not INJECTED.search(dom)
    assert words_shown(dom, "k") == words_shown(dom, "r") == ["Anna", COMMENT, "She", SCRIPT]
    option = re.search(r'<select id="document"><option value="0">(.*?)</option>', dom)
    assert option is not None and html.unescape(option.group(1)) == f"({COMMENT}); part 000"


@browser
def test_in_a_browser_words_with_dollar_patterns_are_shown_as_they_are(tmp_path) -> None:
    # JavaScript's String.replace read '$&' in a word as "the match": the word '$&' was
    # shown as 'amp;', "$'" as the brackets after it.
    rows = [(word, "(1)" if index % 2 else "-") for index, word in enumerate(DOLLARS)]
    out = write_report(tmp_path, conll("d", rows), conll("d", rows), "--names", "$&sys")
    dom = dump_dom(out)
    assert words_shown(dom, "k") == words_shown(dom, "r") == DOLLARS
    assert "<th>Response: $&amp;sys</th>" in dom


@browser
def test_in_a_browser_bridging_and_split_antecedents_of_hostile_names(tmp_path) -> None:
    # The Universal Anaphora fixture with a script as a bridging relation, markup as the
    # split-antecedent plural's entity ID, '<!--<script>' as a word and '{{DATA}}<x>' as the
    # document's name: the lists under the text show them as text.
    fixture = FIXTURES / "ua" / "features.conllua"
    text = (fixture.read_text(encoding="utf-8")
            .replace("Rel=part-of", f"Rel={IMAGE}")
            .replace("EntityID=3|", "EntityID=<s>&amp;|")
            .replace("ElementOf=3)", "ElementOf=<s>&amp;)")
            .replace("\tAnna\t", f"\t{COMMENT}\t", 1)
            .replace("newdoc id = garden", "newdoc id = {{DATA}}<x>"))
    key, out = tmp_path / "key.conllua", tmp_path / "report.html"
    key.write_text(text, encoding="utf-8")
    assert main(["report", str(key), str(key), "--keep-bridging", "-o", str(out),
                 "--quiet"]) == 0
    dom = dump_dom(out, "#selftest")
    assert not INJECTED.search(dom)
    assert selftest(dom) == {"documents": 2, "opened": 2, "rendered": 2, "highlighted": 2,
                             "failures": []}
    dom = dump_dom(out)  # the first document open
    assert words_shown(dom, "k")[0] == COMMENT
    links = [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", dom)]
    assert f"[the hinge] → [The gate] ({IMAGE})" in links
    assert "entity <s>&amp; = 1 + 2" in links
    option = re.search(r'<select id="document"><option value="0">(.*?)</option>', dom)
    assert option is not None and html.unescape(option.group(1)) == "{{DATA}}<x>"
