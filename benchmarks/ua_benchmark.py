"""Time anascore against the UA scorer 2.0 on CODI-CRAC 2022 AMI dev and a perturbed copy,
every metric and every layer.

The key is ``AMI_dev_v2.2022.CONLLUA`` (3 meetings, 18,260 tokens, 5,130 identity markables,
bridging, non-referring markables, discourse deixis). The response is the key with the errors
a system makes, drawn with a fixed seed: 10% of mentions dropped, 15% shrunk to their MIN
token (a partial match under MIN matching, a miss under exact matching), 10% moved to another
entity, 5% of entities merged into another, a third of the non-referring markables dropped,
20% of bridging anchors moved to another markable, discourse-deixis markables dropped and
regrouped likewise. It is written with :func:`anascore.formats.ua.write_ua` into a temporary
folder (never into the repository).

Timed, each as a whole fresh process (interpreter start-up, imports, reading, scoring,
printing), for exact and for MIN matching (``-p``):

- ``anascore``: one ``anascore score KEY RESPONSE --keep-non-referring --keep-bridging
  --discourse-deixis --compat ua`` run: mentions, MUC, B³, CEAFm, CEAFe, BLANC, LEA and CoNLL
  on the identity layer and on the discourse-deixis layer, non-referring identification and
  the three bridging scores;
- ``ua-scorer``: the same through the UA scorer 2.0, which needs two runs — the identity
  layer with MUC, B³, CEAFe, CEAFm, BLANC, LEA, non-referring and bridging, then the
  discourse-deixis layer with the identity metrics — timed together. Each run calls the
  scorer's reader and metrics the way its ``main`` means to (a few lines of ``python -c``,
  ``UA_DRIVER`` below), because its command line cannot: in 2.0-Beta it never reads
  non-referring markables or bridging (both score 0) and ``-d`` stops with a KeyError. Its
  ``mention`` metric (part of ``-m all``) fails on UA files in 2.0-Beta (``mentions()`` is
  called with one argument too many), so anascore's mention identification has no
  counterpart in the timing.

Each command runs once untimed, then ``--repeats`` times interleaved; reported are the
median wall-clock and CPU times (``os.wait4``). Both tools' identity CoNLL, DD CoNLL and bridging
entity F1 are printed side by side as a check that they computed the same thing.

Usage::

    python benchmarks/ua_benchmark.py --ua-scorer /path/to/universal-anaphora-scorer
    # (its v2.0-Beta branch; or set ANASCORE_UA_SCORER)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent / "src"
sys.path.insert(0, str(SOURCE))

from anascore.core.model import BridgingLink, Document, Entity, Mention  # noqa: E402
from anascore.formats.ua import read_ua, write_ua  # noqa: E402

DEFAULT_KEY = HERE.parents[1] / "shared" / "corpora" / "codi-crac22" / "AMI_dev_v2.2022.CONLLUA"
IDENTITY = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")


def _shrunk(rng: random.Random, mention: Mention, taken: set[tuple[int, ...]]) -> Mention:
    """The mention cut down to its first MIN token (one token never crosses a bracket)."""
    if mention.min_tokens and len(mention.tokens) > 1 and rng.random() < 0.15:
        token = (mention.min_tokens[0],)
        if token not in taken and set(token) <= set(mention.tokens):
            taken.add(token)
            return replace(mention, tokens=token, min_tokens=None)
    return mention


def _perturbed_entities(rng: random.Random, entities: tuple[Entity, ...],
                        taken: set[tuple[int, ...]]) -> tuple[Entity, ...]:
    groups = {entity.id: [] for entity in entities}
    ids = list(groups)
    merged = {entity_id: rng.choice(ids) if rng.random() < 0.05 else entity_id
              for entity_id in ids}
    for entity in entities:
        for mention in entity.mentions:
            if rng.random() < 0.10:
                continue
            target = rng.choice(ids) if rng.random() < 0.10 else merged[entity.id]
            groups[target].append(_shrunk(rng, mention, taken))
    return tuple(Entity(entity_id, tuple(mentions)) for entity_id, mentions in groups.items()
                 if mentions)


def perturb(document: Document, rng: random.Random) -> Document:
    taken = {mention.tokens for entity in document.entities for mention in entity.mentions}
    entities = _perturbed_entities(rng, document.entities, taken)
    non_referring = tuple(mention for mention in document.non_referring if rng.random() > 0.33)
    markables = [(entity.id, mention) for entity in entities for mention in entity.mentions]
    markables += [(mention.attributes["EntityID"], mention) for mention in non_referring]
    by_tokens = {mention.tokens: (entity_id, mention) for entity_id, mention in markables}
    bridging = []
    for link in document.bridging:
        if link.anaphor.tokens not in by_tokens or link.antecedent is None:
            continue
        if rng.random() < 0.2 or link.antecedent.tokens not in by_tokens:
            entity_id, antecedent = rng.choice(markables)
        else:
            entity_id, antecedent = by_tokens[link.antecedent.tokens]
        bridging.append(BridgingLink(by_tokens[link.anaphor.tokens][1], antecedent, entity_id,
                                     link.relation))
    deixis_taken = {mention.tokens for entity in document.discourse_deixis
                    for mention in entity.mentions}
    deixis = tuple(replace(entity, elements=()) for entity in _perturbed_entities(
        rng, document.discourse_deixis, deixis_taken))
    entities = tuple(replace(entity, elements=()) for entity in entities)
    return replace(document, entities=entities, non_referring=non_referring,
                   bridging=tuple(bridging), discourse_deixis=deixis)


# The UA scorer 2.0-Beta's command line cannot run these: it decides whether to read
# non-referring markables and bridging after turning the metric names into (name, function)
# pairs, so both always score 0, and ``-d`` (also ``-t codicrac22dd``) stops with a KeyError
# ('keep_split_antecedent'). The benchmark therefore calls its reader and metrics the way its
# ``main`` means to, in a fresh process per layer.
UA_DRIVER = """\
import sys
sys.path.insert(0, sys.argv[1])
from scorer.ua.reader import UAReader
from scorer.eval import evaluator as e
layer, partial = sys.argv[4], sys.argv[5] == "min"
if layer == "identity":
    reader = UAReader(keep_singletons=True, keep_non_referring=True, keep_bridging=True,
                      partial_match=partial)
else:
    reader = UAReader(keep_singletons=True, evaluate_discourse_deixis=True,
                      partial_match=partial)
reader.get_coref_infos(sys.argv[2], sys.argv[3])
infos = reader.doc_coref_infos if layer == "identity" else reader.doc_discourse_deixis_infos
conll = 0
for name, metric in [("muc", e.muc), ("bcub", e.b_cubed), ("ceafe", e.ceafe),
                     ("ceafm", e.ceafm), ("blanc", [e.blancc, e.blancn]), ("lea", e.lea)]:
    r, p, f = e.evaluate_documents(infos, metric)
    conll += f if name in ("muc", "bcub", "ceafe") else 0
    print(name, "Recall: %.2f" % (r * 100), " Precision: %.2f" % (p * 100), " F1: %.2f" % (f * 100))
print("CoNLL score: %.2f" % (conll / 3 * 100))
if layer == "identity":
    r, p, f = e.evaluate_non_referrings(reader.doc_non_referring_infos)
    print("Non-referring Recall: %.2f  Precision: %.2f  F1: %.2f" % (r * 100, p * 100, f * 100))
    for title, (r, p, f) in zip(("Anaphor recognition", "Mention Level", "Entity Level"),
                                e.evaluate_bridgings(reader.doc_bridging_infos)):
        print(title, "Recall: %.2f  Precision: %.2f  F1: %.2f" % (r * 100, p * 100, f * 100))
"""


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall-clock and CPU seconds of one fresh process, and what it printed."""
    with tempfile.TemporaryFile() as output:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}")
        output.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, output.read().decode()


def ua_f1(text: str, section: str) -> float:
    """An F1 the UA scorer printed: the ``CoNLL score`` line or the line after a title."""
    if section == "conll":
        return float(re.search(r"CoNLL score: ([\d.]+)", text).group(1))
    after = text.split(section, 1)[1]
    return float(re.search(r"F1: ([\d.]+)", after).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--key", type=Path, default=DEFAULT_KEY)
    parser.add_argument("--ua-scorer", type=Path,
                        default=os.environ.get("ANASCORE_UA_SCORER"),
                        help="a checkout of the UA scorer at v2.0-Beta")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2022)
    arguments = parser.parse_args()
    if arguments.ua_scorer is None or not (arguments.ua_scorer / "ua-scorer.py").exists():
        raise SystemExit("give --ua-scorer (a checkout of the UA scorer 2.0) or set "
                         "ANASCORE_UA_SCORER")
    folder = Path(tempfile.mkdtemp(prefix="anascore-ua-bench-"))
    key = folder / "key.conllua"
    response = folder / "response.conllua"
    rng = random.Random(arguments.seed)
    documents = list(read_ua(arguments.key))
    key.write_bytes(arguments.key.read_bytes())
    write_ua([perturb(document, rng) for document in documents], response)
    env = {**os.environ, "PYTHONPATH": str(SOURCE)}
    print(f"key {arguments.key.name}: {len(documents)} documents; response in {folder}")
    rows = []
    for match in ("exact", "min"):
        anascore = [sys.executable, "-m", "anascore", "score", str(key), str(response),
                    "--keep-non-referring", "--keep-bridging", "--discourse-deixis",
                    "--compat", "ua", "--match", match, "--output", "json"]
        ua_identity = [sys.executable, "-c", UA_DRIVER, str(arguments.ua_scorer), str(key),
                       str(response), "identity", match]
        ua_deixis = [sys.executable, "-c", UA_DRIVER, str(arguments.ua_scorer), str(key),
                     str(response), "deixis", match]
        timed(anascore, env), timed(ua_identity, env), timed(ua_deixis, env)  # warm-up
        times: dict[str, list[tuple[float, float]]] = {"anascore": [], "ua-scorer": []}
        for _ in range(arguments.repeats):
            wall, cpu, ours = timed(anascore, env)
            times["anascore"].append((wall, cpu))
            wall_1, cpu_1, theirs = timed(ua_identity, env)
            wall_2, cpu_2, theirs_dd = timed(ua_deixis, env)
            times["ua-scorer"].append((wall_1 + wall_2, cpu_1 + cpu_2))
        metrics = json.loads(ours)["metrics"]
        check = {
            "CoNLL": (metrics["conll"]["f1"] * 100, ua_f1(theirs, "conll")),
            "DD CoNLL": (metrics["discourse_deixis"]["conll"]["f1"] * 100,
                         ua_f1(theirs_dd, "conll")),
            "non-referring F1": (metrics["non_referring"]["f1"] * 100,
                                 ua_f1(theirs, "Non-referring")),
            "bridging entity F1": (metrics["bridging"]["entity"]["f1"] * 100,
                                   ua_f1(theirs, "Entity Level")),
        }
        for tool, values in times.items():
            rows.append((match, tool, statistics.median(wall for wall, _ in values),
                         statistics.median(cpu for _, cpu in values)))
        print(f"\nmatch {match}: " + "; ".join(
            f"{name} anascore {ours_value:.2f} / UA scorer {theirs_value:.2f}"
            for name, (ours_value, theirs_value) in check.items()))
    print("\n| match | tool | median wall s | median CPU s |\n|---|---|---:|---:|")
    for match, tool, wall, cpu in rows:
        print(f"| {match} | {tool} | {wall:.3f} | {cpu:.3f} |")
    for match in ("exact", "min"):
        ours, theirs = (row for row in rows if row[0] == match)
        print(f"{match}: UA scorer / anascore = {theirs[2] / ours[2]:.1f}x wall, "
              f"{theirs[3] / ours[3]:.1f}x CPU")


if __name__ == "__main__":
    main()
