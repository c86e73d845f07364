"""``anascore report``: the HTML file, its data, and how it behaves in a real browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from anascore.cli.main import main
from tests.support.paths import CORPORA, ROOT

EXAMPLES = ROOT / "examples"
SHARED = ROOT.parent / "shared"
GUM = sorted((CORPORA / "gum" / "dep").glob("*.conllu"))[:6]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

KEY = ("#begin document (d); part 000\nAnna\t(1)\nsaw\t-\nher\t(1)\nmother\t(2)\n.\t-\n"
       "She\t(2)\n#end document\n")
# The response misses "her" (missing mention) and links "She" to Anna (conflation and a
# divided entity).
RESPONSE = ("#begin document (d); part 000\nAnna\t(1)\nsaw\t-\nher\t-\nmother\t(2)\n.\t-\n"
            "She\t(1)\n#end document\n")


def data_of(page: str) -> dict:
    found = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def write_pair(tmp_path: Path) -> tuple[Path, Path]:
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(KEY)
    response.write_text(RESPONSE)
    return key, response


def test_the_report_holds_the_documents_and_marks_the_errors(tmp_path) -> None:
    key, response = write_pair(tmp_path)
    out = tmp_path / "report.html"
    assert main(["report", str(key), str(response), "-o", str(out), "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    # Self-contained: no script, style sheet or image is fetched.
    assert not re.search(r'<(script|link|img)[^>]+(src|href)="https?:', page)
    assert "@import" not in page
    data = data_of(page)
    [document] = data["documents"]
    assert document["w"] == ["Anna", "saw", "her", "mother", ".", "She"]
    assert document["k"]["m"] == [[0, 0], [2, 2], [3, 3], [5, 5]]
    system = document["sys"][0]
    assert system["m"] == [[0, 0], [5, 5], [3, 3]] or sorted(system["m"]) == [[0, 0], [3, 3],
                                                                           [5, 5]]
    # "her" (key mention 1) is missing; counts match anascore errors on the same pair.
    assert "M" in system["km"]["1"]
    assert system["c"]["missing_mention"] == 1
    assert data["systems"] == ["response.conll"]
    assert "Kummerfeld" in page and "<table class='scores'>" in page


def test_several_systems_and_groups(tmp_path) -> None:
    key, response = write_pair(tmp_path)
    out = tmp_path / "report.html"
    assert main(["report", str(key), str(response), str(key), "--names", "sys", "gold", "-o",
                 str(out), "--group-by", "document", "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    data = data_of(page)
    assert data["systems"] == ["sys", "gold"]
    assert data["documents"][0]["sys"][1]["c"] == {}  # the key against itself: no error
    assert "F1 by document" in page


def test_bad_usage_and_bad_output(tmp_path, capsys) -> None:
    key, response = write_pair(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["report", str(key), str(response), "--names", "a", "b", "-o",
              str(tmp_path / "r.html")])
    assert exit_info.value.code == 2
    capsys.readouterr()
    assert main(["report", str(key), str(response), "-o",
                 str(tmp_path / "missing" / "r.html")]) == 1
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and error[0].startswith("anascore: error:")
    assert not (tmp_path / "missing").exists()
    with pytest.raises(SystemExit) as exit_info:
        main(["report", str(key), str(response), "-o", str(tmp_path / "r.html"),
              "--group-by", "entity-size", "--discourse-deixis"])
    assert exit_info.value.code == 2


def _browser_selftest(page: Path) -> dict:
    result = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
         "--dump-dom", page.as_uri() + "#selftest"],
        capture_output=True, text=True, timeout=180, check=False)
    found = re.search(r'<pre id="selftest">(.*?)</pre>', result.stdout, re.S)
    assert found is not None, result.stderr[-2000:]
    return json.loads(found.group(1))


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_in_a_browser_every_document_opens_and_clicking_highlights(tmp_path) -> None:
    key, response = write_pair(tmp_path)
    out = tmp_path / "report.html"
    assert main(["report", str(key), str(response), str(key), "-o", str(out), "--quiet"]) == 0
    result = _browser_selftest(out)
    assert result["documents"] == 1
    assert result["opened"] == result["rendered"] == result["highlighted"] == 2
    assert result["failures"] == []


@pytest.mark.skipif(CHROMIUM is None or not GUM, reason="chromium or ../shared is absent")
def test_in_a_browser_on_gum_corefud_with_zeros_and_head_matching(tmp_path) -> None:
    key = tmp_path / "gum.conllu"
    key.write_text("".join(path.read_text(encoding="utf-8") for path in GUM), encoding="utf-8")
    response = tmp_path / "response.conllu"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "perturb_response.py"), str(key),
                    str(response), "--seed", "3"], check=True,
                   env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    out = tmp_path / "report.html"
    assert main(["report", str(key), str(response), "--match", "head", "-o", str(out),
                 "--quiet"]) == 0
    result = _browser_selftest(out)
    assert result["opened"] == result["rendered"] == result["highlighted"] == len(GUM)
    assert result["failures"] == []


def test_impact_chart_of_a_metric_not_applicable(tmp_path: Path, example_pair) -> None:
    """--metrics zero on CoNLL-2012 files: the chart drew bars of width 'nan'."""
    out = tmp_path / "zero.html"
    assert main(["report", *example_pair,
                 "--metrics", "zero", "-o", str(out), "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "nan" not in re.sub(r"[a-z]nan|nan[a-z]", "", page.lower())
    assert page.count(">n/a</text>") == 7


def test_the_warnings_on_the_page_are_printed_too(tmp_path, capsys) -> None:
    # A key document the response lacks was said on the page only: anascore score and
    # anascore errors print it; report printed nothing but the 'wrote' line.
    key, response = write_pair(tmp_path)
    key.write_text(KEY + KEY.replace("(d); part 000", "(e); part 000"))
    output = tmp_path / "report.html"
    assert main(["report", str(key), str(response), "-o", str(output)]) == 0
    err = capsys.readouterr().err.splitlines()
    missing = (f"anascore: warning: {response}: document '(e); part 000' of the key is missing "
               "from the response; scored as an empty response")
    assert err[0] == missing
    assert err[-1].startswith(f"anascore: wrote {output}")
    assert "of the key is missing from the response" in output.read_text()
    # Grouped scores' warnings reach the page and the terminal too.
    assert main(["report", str(key), str(response), "-o", str(output), "--group-by",
                 "mention-distance", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert "--group-by mention-distance counts sentences" in output.read_text()


def test_the_plot_of_several_systems_counts_the_documents(tmp_path: Path) -> None:
    # With two systems the page's plot read "Corpus F1 per metric (? documents)" and had no
    # signature: the JSON it drew held the systems alone.
    pytest.importorskip("matplotlib")
    key, response = write_pair(tmp_path)
    key.write_text(KEY + KEY.replace("(d); part 000", "(e); part 000"))
    out = tmp_path / "report.html"
    assert main(["report", str(key), str(response), str(key), "-o", str(out), "--quiet"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "Corpus F1 per metric (2 documents)" in page
    assert "anascore signature: match:exact" in page
