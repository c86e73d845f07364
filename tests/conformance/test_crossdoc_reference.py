"""Cross-document scores equal to the references (issue 25): the Perl reference scorer v8.01 on
the ECB+ test set at document, topic and corpus level, and the published scores of real system
outputs (UKPLab/cdcr-beyond-corpus-tailored).

**ECB+ against the Perl scorer.** The gold mentions of the ECB+ test set as Barhom et al. 2019
release them (``shanybar/event_entity_coref_ecb_plus`` at commit 477c09f,
``data/interim/cybulska_setup/ECB_Test_{Event,Entity}_gold_mentions.json``: one record per
mention, ``doc_id``, ``coref_chain`` as a string such as ``ACT17642853147528564``) and a
seeded perturbation of them (mentions moved to another chain of their topic, split off,
dropped; chains merged) are written as a mention-based CoNLL file with one document per ECB+
document and the string chain IDs, which anascore scores with ``level=document``,
``topic`` (``--topic-pattern '^([^_]+)_'``) and ``corpus``; where the mention-record reader
exists, the JSON files themselves too (a response with every key mention, other chains). For
the Perl scorer, which reads numeric IDs only, the same mentions are written once per level,
one ``#begin document`` per unit, each string ID mapped to a number: every count and score
must agree to 1e-9.

**Published scores.** ``archive/predictions/ba2019.7z`` (Barhom et al. 2019's system on ECB+,
FCC-T and GVC, meta-document files, ``scores.txt`` to two decimals) and
``feature-based.7z`` (UKP's feature-based system and baselines, within- and cross-document,
``eval_*.txt`` to six digits) of ``UKPLab/cdcr-beyond-corpus-tailored`` (commit 1f60caf):
anascore's scores, rounded as printed, are the printed ones.

Skipped unless ``ANASCORE_ECB_PLUS`` names the folder holding the two JSON files (and
``ANASCORE_PERL_SCORER`` the scorer, as for :mod:`tests.support.perl_scorer`), and
``ANASCORE_UKP_PREDICTIONS`` the folder the two archives were extracted into (``7z x``).
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from pathlib import Path

import pytest

import anascore
from anascore.config.options import FORMATS
from tests.support.perl_scorer import (
    PERL,
    PERL_SCORER,
    Counts,
    differences,
    parse_perl,
    requires_perl,
)

ECB_PLUS = Path(os.environ.get("ANASCORE_ECB_PLUS", "/nonexistent"))
UKP = Path(os.environ.get("ANASCORE_UKP_PREDICTIONS", "/nonexistent"))
requires_ecb_plus = pytest.mark.skipif(
    not (ECB_PLUS / "ECB_Test_Event_gold_mentions.json").is_file(),
    reason="set ANASCORE_ECB_PLUS to the folder of ECB_Test_{Event,Entity}_gold_mentions.json "
           "(shanybar/event_entity_coref_ecb_plus, data/interim/cybulska_setup)")
requires_ukp = pytest.mark.skipif(
    not (UKP / "ba2019").is_dir(),
    reason="set ANASCORE_UKP_PREDICTIONS to the folder UKPLab/cdcr-beyond-corpus-tailored's "
           "archive/predictions/*.7z were extracted into")
TOPIC = r"^([^_]+)_"

#: One mention: its document and chain (``None``: not in the response).
Mention = tuple[str, str | None]


#: The Perl scorer's CEAF assigns chains by Munkres over every pair of a unit's chains: the
#: ECB+ test set as one meta-document (806 event chains) takes it minutes.
PERL_SECONDS = 3600


def run_perl(key: Path, response: Path) -> dict[str, dict[str, Counts]]:
    """The Perl scorer's totals of every metric (``all … none``), in a process of its own."""
    assert PERL is not None
    result = subprocess.run([PERL, PERL_SCORER, "all", str(key), str(response), "none"],
                            capture_output=True, text=True, timeout=PERL_SECONDS, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return parse_perl(result.stdout)


def gold_records(kind: str) -> list[dict[str, object]]:
    records = json.loads((ECB_PLUS / f"ECB_Test_{kind}_gold_mentions.json").read_text())
    assert isinstance(records, list)
    return records


def gold_mentions(records: list[dict[str, object]]) -> list[Mention]:
    return [(str(record["doc_id"]), str(record["coref_chain"])) for record in records]


def perturbed(mentions: list[Mention], seed: int, drop: bool = True) -> list[Mention]:
    """The key's mentions with chains changed at random within each topic: a tenth moved to
    another chain of the topic, a twentieth split off alone, a twentieth dropped (unless not
    ``drop``: the gold-mention setup, every key mention in the response), and a twentieth of
    the chains merged into another chain of the topic."""
    rng = random.Random(seed)
    by_topic: dict[str, list[str]] = {}
    for document, chain in mentions:
        chains = by_topic.setdefault(document.split("_")[0], [])
        if chain not in chains:
            chains.append(chain)
    merged = {chain: rng.choice(chains) for chains in by_topic.values() for chain in chains
              if rng.random() < 0.05}
    response: list[Mention] = []
    for number, (document, chain) in enumerate(mentions):
        draw = rng.random()
        assert chain is not None
        if draw < 0.05 and drop:
            response.append((document, None))
        elif draw < 0.10:
            response.append((document, f"alone{number}"))
        elif draw < 0.20:
            response.append((document, rng.choice(by_topic[document.split("_")[0]])))
        else:
            response.append((document, merged.get(chain, chain)))
    return response


def units(mentions: list[Mention], level: str) -> dict[str, list[Mention]]:
    """The mentions by unit, documents in the order they first come, each document's mentions
    in file order (as anascore joins them)."""
    by_document: dict[str, list[Mention]] = {}
    for mention in mentions:
        by_document.setdefault(mention[0], []).append(mention)
    grouped: dict[str, list[Mention]] = {}
    for document, found in by_document.items():
        unit = {"document": document, "topic": document.split("_")[0], "corpus": "all"}[level]
        grouped.setdefault(unit, []).extend(found)
    return grouped


def write(path: Path, grouped: dict[str, list[Mention]], numbers: dict[str, int] | None) -> None:
    """A mention-based CoNLL file, ``#begin document (UNIT); part 000`` per unit and a line
    ``DOC<TAB>(CHAIN)`` per mention (``-``: none); chains as numbers when ``numbers`` maps
    them (the Perl scorer reads numeric IDs only)."""
    lines = []
    for unit, found in grouped.items():
        lines.append(f"#begin document ({unit}); part 000")
        for document, chain in found:
            cell = "-" if chain is None else (
                f"({chain})" if numbers is None else f"({numbers.setdefault(chain, len(numbers))})")
            lines.append(f"{document}\t{cell}")
        lines.append("#end document")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def check_levels(kind: str, key: Path, response: Path, key_mentions: list[Mention],
                 response_mentions: list[Mention], work: Path) -> None:
    """``key`` and ``response`` (any format anascore reads, one document per ECB+ document)
    scored at each level equal the Perl scorer on the mentions written one unit a document."""
    for level in ("document", "topic", "corpus"):
        numbers: dict[str, int] = {}
        perl_key, perl_response = work / f"{level}.key", work / f"{level}.response"
        write(perl_key, units(key_mentions, level), numbers)
        write(perl_response, units(response_mentions, level), numbers)
        report = anascore.score(key, response, level=level,
                                topic_pattern=TOPIC if level == "topic" else None)
        assert len(report.document_names) == len(units(key_mentions, level))
        found = differences(report, run_perl(perl_key, perl_response))
        assert not found, f"{kind} {key.name}, level {level}:\n" + "\n".join(found)
    # The levels differ: chains continue across documents (else this test proves little).
    document = anascore.score(key, response).metrics["muc"].recall_den
    corpus = anascore.score(key, response, level="corpus").metrics["muc"].recall_den
    assert corpus > document


@requires_perl
@requires_ecb_plus
@pytest.mark.parametrize("kind", ["Event", "Entity"])
def test_ecb_plus_at_every_level_equals_the_perl_scorer(kind: str, tmp_path: Path) -> None:
    """Mention-based CoNLL, a response that also leaves out some key mentions."""
    key_mentions = gold_mentions(gold_records(kind))
    response_mentions = perturbed(key_mentions, seed=25)
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    write(key, units(key_mentions, "document"), None)
    write(response, units(response_mentions, "document"), None)
    check_levels(kind, key, response, key_mentions, response_mentions, tmp_path)


@requires_perl
@requires_ecb_plus
@pytest.mark.skipif("mentionjson" not in FORMATS,
                    reason="the mention-record JSON reader is not in this version")
@pytest.mark.parametrize("kind", ["Event", "Entity"])
def test_ecb_plus_records_at_every_level_equal_the_perl_scorer(kind: str,
                                                               tmp_path: Path) -> None:
    """The JSON layout itself (the gold-mention setup: the response's records are the key's,
    with other chains), read by the mention-record reader, units made from its documents."""
    records = gold_records(kind)
    key_mentions = gold_mentions(records)
    response_mentions = perturbed(key_mentions, seed=26, drop=False)
    key, response = tmp_path / "key.json", tmp_path / "response.json"
    key.write_text(json.dumps(records), encoding="utf-8")
    response.write_text(json.dumps([{**record, "coref_chain": chain} for record, (_, chain)
                                    in zip(records, response_mentions, strict=True)]),
                        encoding="utf-8")
    check_levels(kind, key, response, key_mentions, response_mentions, tmp_path)


def published(path: Path) -> dict[str, list[float]]:
    """A ``scores.txt`` (``muc Recall: 83.79 Precision: 80.26 F1: 81.99``, ``CoNLL score:
    79.08``) or an ``eval_*.txt`` table (``muc f1 precision recall``), by metric, as
    (recall, precision, F1) percentages (the CoNLL score: F1 alone)."""
    text = path.read_text()
    if path.name == "scores.txt":
        found = {match.group(1): [float(match.group(n)) for n in (2, 3, 4)] for match in
                 re.finditer(r"(\w+)\s+Recall: (\S+)\s+Precision: (\S+)\s+F1: (\S+)", text)}
        conll = re.search(r"CoNLL score: (\S+)", text)
        assert conll is not None, path
        found["conll"] = [float(conll.group(1))]
        return found
    table = {}
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] in ("muc", "bcub", "ceafe", "lea", "conll"):
            f1, precision, recall = (float(value) * 100 for value in parts[1:])
            table[parts[0]] = [f1] if parts[0] == "conll" else [recall, precision, f1]
    return table


@requires_ukp
def test_barhom_et_al_2019_published_scores_are_reproduced() -> None:
    folder = UKP / "ba2019" / "ba2019"
    runs = sorted(folder.glob("*/scores.txt"))
    assert len(runs) == 6
    for scores in runs:
        corpus = scores.parent.name.split("_")[0]
        report = anascore.score(folder / f"{corpus}_CD_test_event_mention_based.key_conll",
                                scores.parent / "CD_test_event_mention_based.response_conll",
                                metrics="mentions,muc,bcub,ceafe,lea,conll")
        for metric, values in published(scores).items():
            result = report.metrics[metric]
            ours = [result.f1] if metric == "conll" else [result.recall, result.precision,
                                                          result.f1]
            assert [round(100 * value, 2) for value in ours] == values, (scores, metric)


@requires_ukp
def test_the_feature_based_system_published_scores_are_reproduced() -> None:
    """Every within- and cross-document evaluation of the archive (362 of them), to the six
    significant digits printed."""
    evaluations = sorted((UKP / "feature-based").glob("**/eval_*.txt"))
    assert len(evaluations) == 362
    for evaluation in evaluations:
        report = anascore.score(evaluation.parent / "gold.conll",
                                evaluation.parent / "system.conll",
                                metrics="muc,bcub,ceafe,lea,conll")
        for metric, values in published(evaluation).items():
            result = report.metrics[metric]
            ours = [result.f1] if metric == "conll" else [result.recall, result.precision,
                                                          result.f1]
            for value, printed in zip(ours, values, strict=True):
                # Printed as fractions to six significant digits: half a unit of the sixth
                # decimal at most (in percent, 5e-5).
                assert abs(100 * value - printed) <= 5.0001e-5, (evaluation, metric, value,
                                                                 printed)
