"""Error analysis on the real corpora (skipped when /work/shared is absent) and the
``anascore errors`` command."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from anascore.analysis.analyse import analyse_documents, analyse_errors
from anascore.analysis.classification import ERROR_TYPES
from anascore.cli.main import main
from anascore.config.options import Options
from anascore.core.errors import OptionsError
from anascore.core.model import Document, Entity
from anascore.formats import read_documents
from tests.support.paths import SHARED

IDENTITY = "mentions,muc,bcub,ceafm,ceafe,blanc,lea,conll"


def corpus(*parts: str) -> Path:
    path = SHARED.joinpath("corpora", *parts)
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


def perturbed(document: Document, rng: random.Random) -> Document:
    """Drop a tenth of the mentions, split and merge some entities (in memory)."""
    clusters = [[m for m in entity.mentions if rng.random() > 0.1] for entity in document.entities]
    clusters = [cluster for cluster in clusters if cluster]
    result: list[list] = []
    for cluster in clusters:
        if len(cluster) > 2 and rng.random() < 0.2:
            result += [cluster[:1], cluster[1:]]
        elif result and rng.random() < 0.1:
            result[-1] = result[-1] + cluster
        else:
            result.append(cluster)
    return replace(document, entities=tuple(Entity(f"r{i}", tuple(c))
                                            for i, c in enumerate(result)))


def check_all_fixed(paths: list[Path], limit: int, **settings) -> None:  # type: ignore[no-untyped-def]
    options = Options.create(metrics=IDENTITY, **settings)
    rng = random.Random(7)
    pairs = []
    for path in paths:
        for document in read_documents(path, "auto"):
            pairs.append((document, perturbed(document, rng)))
            if len(pairs) >= limit:
                break
    result = analyse_documents(pairs, options)
    assert sum(result.counts().values()) > 0
    assert result.report.metrics["muc"].f1 < 1
    for metric, values in result.impact_table()["all"].items():
        assert values["f1"] == pytest.approx(100.0), metric


def test_all_fixed_gives_100_on_gum_with_head_matching() -> None:
    check_all_fixed(sorted(corpus("gum", "dep").glob("*.conllu"))[:30], 30, match="head")


def test_all_fixed_gives_100_on_litbank() -> None:
    check_all_fixed(sorted(corpus("litbank", "coref-conll").glob("*.conll"))[:5], 5)


def test_all_fixed_gives_100_on_codi_crac_with_discourse_deixis() -> None:
    options = Options.create(metrics=IDENTITY, discourse_deixis=True)
    path = corpus("codi-crac22", "light_dev.2022.CONLLUA")
    rng = random.Random(3)
    pairs = [(document, replace(perturbed(document, rng), discourse_deixis=()))
             for document in read_documents(path, "auto")][:20]
    result = analyse_documents(pairs, options)
    assert result.counts("discourse_deixis")["missing_entity"] > 0
    for metric, values in result.impact_table()["all"].items():
        if metric.startswith("discourse_deixis") and metric != "discourse_deixis.muc":
            assert values["f1"] == pytest.approx(100.0), metric


def test_split_antecedents_are_refused() -> None:
    path = corpus("codi-crac22", "light_dev.2022.CONLLUA")
    with pytest.raises(OptionsError, match="split-antecedent plurals are not classified"):
        analyse_errors(path, path, keep_split_antecedents=True)


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    key = tmp_path / "key.conll"
    response = tmp_path / "response.conll"
    words = ["John", "saw", "Mary", ".", "He", "liked", "her", "."]

    def write(path: Path, marks: list[str]) -> None:
        lines = ["#begin document (d); part 000"]
        for index, (word, mark) in enumerate(zip(words, marks, strict=True)):
            lines.append(f"d\t0\t{index}\t{word}\t{mark}")
        path.write_text("\n".join([*lines, "", "#end document", ""]))

    write(key, ["(1)", "-", "(2)", "-", "(1)", "-", "(2)", "-"])
    # "her" is put with John: one conflated entities error; Mary's entity is divided.
    write(response, ["(1)", "-", "(2)", "-", "(1)", "-", "(1)", "-"])
    return key, response


def test_cli_json(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    key, response = files
    assert main(["errors", str(key), str(response), "--output", "json", "--list",
                 "--per-document"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["errors"]) == set(ERROR_TYPES)
    assert result["errors"]["conflated_entities"] == 1
    # Mary's entity keeps "Mary"; "her" went elsewhere: a divided entity in K&K's terms.
    assert result["errors"]["divided_entity"] == 1
    assert sum(result["errors"].values()) == 2
    [document] = result["per_document"].values()
    assert document["conflated_entities"] == 1
    assert result["impact"]["all"]["muc"]["f1"] == pytest.approx(1.0)  # fractions (issue 23)
    # MUC: recall ((2 − 1) + (2 − 2)) / 2, precision ((3 − 2) + (1 − 1)) / 2; fixed: 100.
    recall, precision = 1 / 2, 1 / 2
    f1 = 2 * recall * precision / (recall + precision)
    assert result["impact"]["all"]["muc"]["delta_f1"] == pytest.approx(1 - f1)
    [conflated] = [error for error in result["list"] if error["type"] == "conflated_entities"]
    assert conflated["response_mentions"] == [". He liked [her] ."]


def test_cli_text_several_systems(files: tuple[Path, Path],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    key, response = files
    assert main(["errors", str(key), str(response), str(key)]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[1].split()
    assert header == ["error", "type", "response.conll", "key.conll"]
    assert "conflated_entities" in out


@pytest.mark.parametrize("output", ["csv", "markdown"])
def test_cli_other_outputs(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
                           output: str) -> None:
    key, response = files
    assert main(["errors", str(key), str(response), "--output", output, "--list"]) == 0
    out = capsys.readouterr().out
    assert "conflated_entities" in out and "[her]" in out


def test_cli_bad_file(files: tuple[Path, Path], tmp_path: Path,
                      capsys: pytest.CaptureFixture[str]) -> None:
    key, _ = files
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (d); part 000\nd\t0\t0\tJohn\t(1\n#end document\n")
    assert main(["errors", str(key), str(bad), "--format", "conll2012"]) == 1
    assert "bad.conll" in capsys.readouterr().err
