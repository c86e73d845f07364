"""``anascore plot`` (the plot extra) draws JSON reports and the lab; without matplotlib it
says how to get it."""

from __future__ import annotations

import html
import json
import math
import re
import sys
from pathlib import Path

import pytest

from anascore.cli.main import main
from anascore.formats.conll2012 import write_conll2012
from tests.support.paths import FIXTURES
from tests.support.stats_fixtures import corpus, system

KEYS = corpus(8, seed=31)


@pytest.fixture
def report_files(tmp_path: Path, capsys) -> dict[str, Path]:
    write_conll2012(KEYS, tmp_path / "key.conll")
    for name, seed in (("a", 32), ("b", 33)):
        write_conll2012(system(KEYS, seed, (0, 3)), tmp_path / f"{name}.conll")
    reports = {}
    for name, arguments in (
            ("single", ["a.conll"]),
            ("several", ["a.conll", "b.conll", "--confidence", "200", "--per-document"])):
        assert main(["score", str(tmp_path / "key.conll"),
                     *[str(tmp_path / value) if value.endswith(".conll") else value
                       for value in arguments], "--output", "json"]) == 0
        reports[name] = tmp_path / f"{name}.json"
        reports[name].write_text(capsys.readouterr().out)
    return reports


def test_plots_need_a_known_image_format(report_files, tmp_path, capsys) -> None:
    # A bad option value is a usage error (exit status 2), as for score and report.
    for command in (["plot", str(report_files["single"]), "-o", str(tmp_path / "x.jpg")],
                    ["lab", "--plot", str(tmp_path / "x.gif")]):
        with pytest.raises(SystemExit) as exit_:
            main(command)
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "expected a file name ending in .png, .svg or .pdf" in err
        assert "Traceback" not in err
        assert err.splitlines()[-1].startswith(f"anascore {command[0]}: error: cannot tell ")


def test_a_metric_the_report_lacks_names_the_report(report_files, tmp_path, capsys) -> None:
    assert main(["plot", str(report_files["several"]), "-o", str(tmp_path / "x.png"),
                 "--metric", "mor"]) == 1
    assert capsys.readouterr().err == (
        f"anascore: error: {report_files['several']}: metric 'mor' is not in the report; "
        "expected one of mentions, muc, bcub, ceafm, ceafe, blanc, lea, conll\n")


def test_not_a_report(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{\"hello\": 1}")
    assert main(["plot", str(bad), "-o", str(tmp_path / "x.png")]) == 1
    assert "not a JSON report of 'anascore score'" in capsys.readouterr().err
    bad.write_text("{")
    assert main(["plot", str(bad), "-o", str(tmp_path / "x.png")]) == 1
    assert f"{bad}:1: not JSON" in capsys.readouterr().err


def test_without_matplotlib_the_error_names_the_extra(report_files, tmp_path, capsys,
                                                      monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    assert main(["plot", str(report_files["single"]), "-o", str(tmp_path / "x.png")]) == 1
    assert "pip install matplotlib (the plot extra: pip install '.[plot]'" in \
        capsys.readouterr().err


def test_png_and_svg_of_reports_and_of_the_lab(report_files, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    single, several = tmp_path / "single.png", tmp_path / "several.svg"
    assert main(["plot", str(report_files["single"]), "-o", str(single)]) == 0
    assert single.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["plot", str(report_files["several"]), "-o", str(several), "--metric",
                 "lea"]) == 0
    svg = several.read_text()
    assert "<svg" in svg
    # Two panels (bars, then the per-document distribution) with their titles.
    assert "Corpus F1 per metric" in svg and "Per-document LEA F1" in svg
    assert main(["plot", str(report_files["several"]), "-o", str(several), "--metric",
                 "muc"]) == 0
    lab = tmp_path / "lab.png"
    assert main(["lab", "--plot", str(lab)]) == 0
    assert lab.stat().st_size > 50_000


def test_systems_of_a_report(report_files) -> None:
    from anascore.report.plot import systems_of

    [single] = systems_of(json.loads(report_files["single"].read_text()))
    assert single.intervals is None and single.documents is None
    first, second = systems_of(json.loads(report_files["several"].read_text()))
    assert (first.name, second.name) == ("a.conll", "b.conll")
    assert first.intervals is not None and len(first.documents) == len(KEYS)
    low, high = first.intervals["lea"]
    assert low <= first.f1["lea"] <= high


def test_a_single_response_is_drawn_under_its_name(report_files, tmp_path, capsys) -> None:
    # The score JSON of one response names it (as a report of several names each system),
    # and the plot labels its box with that name, not "response".
    from anascore.report.plot import systems_of

    report = json.loads(report_files["single"].read_text())
    assert report["response"] == "a.conll"
    [single] = systems_of(report)
    assert single.name == "a.conll"
    matplotlib = pytest.importorskip("matplotlib")
    out = tmp_path / "single.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text as <text>, to read it back
        assert main(["plot", str(report_files["single"]), "-o", str(out)]) == 0
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", out.read_text())
    assert "a.conll" in texts and "response" not in texts
    # A report that names no response (an older one, or edited by hand) is still
    # "response"; a name that is no text is one line.
    del report["response"]
    assert systems_of(report)[0].name == "response"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**report, "response": 7}))
    assert main(["plot", str(bad), "-o", str(tmp_path / "x.png")]) == 1
    assert capsys.readouterr().err == (f"anascore: error: {bad}: 'response' is 7, not the "
                                       "response's name; expected the JSON output of "
                                       "'anascore score'\n")


def test_systems_of_a_report_with_the_ua_layers(tmp_path, capsys) -> None:
    """Layers nest in JSON (``discourse_deixis.muc`` under ``discourse_deixis``); bridging is
    plotted at its entity level, the level its ``f1`` is."""
    from anascore.report.plot import _title, systems_of

    fixture = FIXTURES / "ua" / "features.conllua"
    assert main(["score", str(fixture), str(fixture), "--keep-bridging", "--discourse-deixis",
                 "--confidence", "20", "--per-document", "--output", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    [system] = systems_of(report)
    assert system.f1["discourse_deixis.muc"] == report["metrics"]["discourse_deixis"]["muc"]["f1"]
    assert system.f1["bridging"] == report["metrics"]["bridging"]["entity"]["f1"] == 1.0
    assert set(system.intervals) == set(system.f1)
    assert all(set(scores) == set(system.f1) for scores in system.documents.values())
    assert (_title("discourse_deixis.bcub"), _title("bridging")) == ("DD B3", "Bridging")
    pytest.importorskip("matplotlib")
    saved = tmp_path / "ua.json"
    saved.write_text(json.dumps(report))
    assert main(["plot", str(saved), "-o", str(tmp_path / "ua.svg"), "--metric",
                 "discourse_deixis.conll"]) == 0
    assert "Per-document DD CoNLL F1" in (tmp_path / "ua.svg").read_text()


@pytest.mark.parametrize(("text", "message"), [
    ('{"metrics": {}}', "no metric's F1 to draw"),
    ('{"systems": {}}', "no system to draw"),
    ('{"systems": []}', "'systems' is not an object of systems"),
    ('{"metrics": []}', "system 'response': missing or malformed field 'list' object has no "
                        "attribute 'items'"),
    ('{"metrics": {"muc": {"f1": 0.5}}, "intervals": []}',
     "system 'response': missing or malformed field 'list' object has no attribute 'items'"),
    ('{"systems": {"a": {"metrics": {"muc": {"f1": 0.5}}}, "b": {"metrics": {"lea": '
     '{"f1": 0.5}}}}}', "systems 'a' and 'b' report different metrics")])
def test_a_report_with_nothing_to_draw_is_one_line(tmp_path, capsys, text, message) -> None:
    # These used to end in an IndexError or AttributeError traceback.
    empty = tmp_path / "empty.json"
    empty.write_text(text)
    assert main(["plot", str(empty), "-o", str(tmp_path / "x.png")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"anascore: error: {empty}: {message}")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


def test_the_metric_is_named_as_everywhere(report_files, tmp_path, capsys) -> None:
    # README: metric names are case-insensitive and the printed titles are names too; plot
    # said "metric 'LEA' is not in the report; expected one of mentions, muc, …".
    pytest.importorskip("matplotlib")
    image = tmp_path / "x.svg"
    for name in ("LEA", "Lea", " lea "):
        assert main(["plot", str(report_files["several"]), "-o", str(image), "--metric",
                     name]) == 0, capsys.readouterr().err
        assert "Per-document LEA F1" in image.read_text()
    assert main(["plot", str(report_files["several"]), "-o", str(image), "--metric",
                 "B3"]) == 0
    assert "Per-document B" in image.read_text()


def test_a_metric_without_per_document_scores_is_refused(report_files, tmp_path,
                                                         capsys) -> None:
    # --metric chooses the per-document distribution; a report without per-document scores
    # draws none, and the metric was ignored without a word.
    image = tmp_path / "x.png"
    assert main(["plot", str(report_files["single"]), "-o", str(image), "--metric",
                 "muc"]) == 1
    assert capsys.readouterr().err == (
        f"anascore: error: {report_files['single']}: --metric muc: the report has no "
        "per-document scores to draw; score with --per-document, or leave out --metric\n")
    assert not image.exists()


def test_system_names_are_drawn_as_they_are(report_files, tmp_path) -> None:
    # matplotlib reads text between two '$' as mathematics: the name '$\frac$' ended
    # 'anascore plot' and 'anascore report' in a ValueError traceback, '$x$' was drawn as an
    # italic x; a legend leaves out a label starting with '_'.
    matplotlib = pytest.importorskip("matplotlib")
    report = json.loads(report_files["several"].read_text())
    names = ["$\\frac$", "_b $x$ 5$"]
    report["systems"] = dict(zip(names, report["systems"].values(), strict=True))
    renamed, out = tmp_path / "renamed.json", tmp_path / "renamed.svg"
    renamed.write_text(json.dumps(report))
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text as <text>, to read it back
        assert main(["plot", str(renamed), "-o", str(out)]) == 0
    texts = [html.unescape(text) for text in re.findall(r"<text[^>]*>([^<]*)</text>",
                                                        out.read_text())]
    # Each name twice: in the legend and under its box.
    assert sorted(text for text in texts if text in names) == sorted(names * 2)


def _edited(report: dict, edit: str) -> str:
    """The text of ``report`` (the two-system report with intervals and per-document
    scores) as a hand edit left it."""
    system = report["systems"]["a.conll"]
    if edit == "unknown metric":
        for entry in report["systems"].values():
            entry["metrics"]["frobnicate"] = {"f1": 0.5}
    elif edit == "huge number":
        return json.dumps(report).replace('"f1": ' + json.dumps(system["metrics"]["muc"]["f1"]),
                                          '"f1": ' + "9" * 400, 1)
    elif edit == "above one":
        system["metrics"]["muc"]["f1"] = 1.7
    elif edit == "below zero":
        system["metrics"]["lea"]["f1"] = -0.25
    elif edit == "NaN":
        system["metrics"]["muc"]["f1"] = math.nan
    elif edit == "text":
        system["metrics"]["muc"]["f1"] = "0.5"
    elif edit == "true":
        system["metrics"]["muc"]["f1"] = True
    elif edit == "interval":
        system["intervals"]["muc"]["f1"]["high"] = 3.0
    elif edit == "document":
        document = next(iter(system["per_document"].values()))
        document["metrics"]["conll"]["f1"] = 42
    elif edit == "missing interval":
        del system["intervals"]["muc"]
    elif edit == "missing document score":
        document = next(iter(system["per_document"].values()))
        del document["metrics"]["conll"]
    elif edit == "level":
        report["options"]["confidence_level"] = "high"
    elif edit == "documents":
        report["documents"] = "many"
    return json.dumps(report)


@pytest.mark.parametrize(("edit", "message"), [
    ("unknown metric", "system 'a.conll': unknown metric 'frobnicate'; expected the metrics "
                       "of 'anascore score' (mentions, muc, bcub, …)"),
    ("huge number", "system 'a.conll', metric 'muc': F1 999999999999999999999999…; expected "
                    "a score from 0 to 1, or null (not applicable)"),
    ("above one", "system 'a.conll', metric 'muc': F1 1.7; expected a score from 0 to 1, or "
                  "null (not applicable)"),
    ("below zero", "system 'a.conll', metric 'lea': F1 -0.25; expected a score from 0 to 1, "
                   "or null (not applicable)"),
    ("NaN", "system 'a.conll', metric 'muc': F1 NaN; expected a score from 0 to 1, or null "
            "(not applicable)"),
    ("text", "system 'a.conll', metric 'muc': F1 \"0.5\"; expected a score from 0 to 1, or "
             "null (not applicable)"),
    ("true", "system 'a.conll', metric 'muc': F1 true; expected a score from 0 to 1, or null "
             "(not applicable)"),
    ("interval", "system 'a.conll', metric 'muc': interval high 3.0; expected a score from 0 "
                 "to 1, or null (not applicable)"),
    ("document", "system 'a.conll', document 'doc000', metric 'conll': F1 42; expected a score "
                 "from 0 to 1, or null (not applicable)"),
    ("missing interval", "system 'a.conll': the intervals cover other metrics than the "
                         "scores (muc missing); expected the JSON output of one 'anascore "
                         "score' run"),
    ("missing document score", "system 'a.conll', document 'doc000': the scores cover other "
                               "metrics than the corpus's (conll missing); expected the JSON "
                               "output of one 'anascore score' run"),
    ("level", "'confidence_level' is \"high\"; expected a number between 0 and 1"),
    ("documents", "'documents' is \"many\"; expected a number of documents"),
])
def test_a_hand_edited_report_is_one_line(report_files, tmp_path, capsys, edit,
                                          message) -> None:
    # A value out of [0, 1] was drawn without a word; an unknown metric drawn as a bar; a
    # 400-digit number ended in an OverflowError traceback, a missing interval in KeyError.
    edited = tmp_path / "edited.json"
    edited.write_text(_edited(json.loads(report_files["several"].read_text()), edit))
    image = tmp_path / "x.png"
    assert main(["plot", str(edited), "-o", str(image)]) == 1
    assert capsys.readouterr().err == f"anascore: error: {edited}: {message}\n"
    assert not image.exists()


@pytest.mark.parametrize(("text", "message"), [
    ("[" * 100_000 + "]" * 100_000, "not JSON: nested deeper than Python's JSON reader goes"),
    ('{"metrics": {"muc": {"f1": ' + "1" * 5_000 + "}}}",
     "not JSON: a number of more than 4300 digits"),
])
def test_json_python_cannot_read_is_one_line(tmp_path, capsys, text, message) -> None:
    # RecursionError and ValueError tracebacks before.
    report = tmp_path / "deep.json"
    report.write_text(text)
    assert main(["plot", str(report), "-o", str(tmp_path / "x.png")]) == 1
    assert capsys.readouterr().err == f"anascore: error: {report}: {message}\n"
