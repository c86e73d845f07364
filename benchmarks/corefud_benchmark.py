"""Time anascore against the CorefUD scorer on a CorefUD file of CRAC-dev-set size.

The corpus: the 281 CoNLL-U files of GUM (``../shared/corpora/gum/dep/``, 268,208 tokens and
75,697 mentions — more than any CRAC 2022 development set), read with anascore and given zero
mentions, since GUM's coreference has none: in a fifth of the sentences an empty node is
inserted after a random word, with DEPS ``word:nsubj``, and a zero mention of an entity
already mentioned earlier in the document is put on it (a zero anaphor). The response is the
key with typical system errors (seeded, deterministic): 10 % of mentions missed, 8 % with
their end moved by one word, 10 % with another head, 5 % of entities merged into another,
5 % split in two; of the zeros, a third moved to another word of the sentence (same DEPS, so
``dependent`` matching finds them and ``linear`` does not), a sixth given another relation,
a tenth dropped. Both are written with anascore's CorefUD writer into a temporary folder
(or ``--output``), never into the repository.

Timed, as whole fresh processes (interpreter start-up, imports, reading and printing
included), with head matching, singletons kept, zeros kept and aligned by dependencies, and
every metric the CorefUD scorer computes by default (MUC, B³, CEAFe, CEAFm, BLANC, LEA, MOR,
zeros):

- ``anascore score KEY RESPONSE --format corefud --match head --keep-singletons --keep-zeros
  --zero-match dependent --metrics all --compat ua``;
- ``python corefud-scorer.py KEY RESPONSE -s -a head -z dependent`` in a checkout of
  ``ufal/corefud-scorer`` (``--scorer``, default ``/tmp/ref/corefud-scorer``; needs udapi).

Each command runs ``--repeats`` times (default 3), interleaved; the medians of the wall-clock
time and of the CPU time (user + system, from ``os.wait4``: on a shared machine CPU time is
the steadier measure) are reported, with their ratio, and the F1 values both print are
compared (the scorer prints two decimals). Target: anascore at least 10× faster.

Usage::

    python benchmarks/corefud_benchmark.py [--repeats 3] [--scorer PATH] [--output DIR]
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
sys.path.insert(0, str(HERE.parent / "src"))

from anascore.core.model import ConlluNodes, Document, Entity, Mention  # noqa: E402
from anascore.formats.corefud import read_corefud, write_corefud  # noqa: E402

GUM = HERE.parents[1] / "shared" / "corpora" / "gum" / "dep"


def _with_zeros(document: Document, rng: random.Random) -> Document:
    """``document`` with empty nodes inserted and zero anaphors on them."""
    nodes = document.nodes
    assert nodes is not None
    mapping: list[int] = []
    ids: list[str] = []
    forms: list[str] = []
    sentence_of: list[int] = []
    empty: list[bool] = []
    deps: list[str] = []
    inserted: list[tuple[int, int]] = []  # (new position, sentence)
    ends = {start - 1 for start in document.sentence_starts[1:]} | {len(document.tokens) - 1}
    chosen: dict[int, int] = {}
    for sentence, start in enumerate(document.sentence_starts):
        end = min((e for e in ends if e >= start), default=len(document.tokens) - 1)
        words = [p for p in range(start, end + 1) if not nodes.empty[p]]
        if words and rng.random() < 0.2:
            chosen[rng.choice(words)] = sentence
    for position in range(len(document.tokens)):
        mapping.append(len(ids))
        ids.append(nodes.ids[position])
        forms.append(document.tokens[position])
        sentence_of.append(nodes.sentence_of[position])
        empty.append(nodes.empty[position])
        deps.append(nodes.deps[position])
        if position in chosen:
            word = nodes.ids[position]
            decimal = 1
            while position + decimal < len(nodes.ids) and \
                    nodes.ids[position + decimal] == f"{word}.{decimal}":
                decimal += 1
            inserted.append((len(ids), chosen[position]))
            ids.append(f"{word}.{decimal}")
            forms.append("_")
            sentence_of.append(nodes.sentence_of[position])
            empty.append(True)
            deps.append(f"{word}:nsubj")
    entities = [replace(entity, mentions=tuple(
        _moved(m, mapping) for m in entity.mentions)) for entity in document.entities]
    for position, _ in inserted:
        earlier = [index for index, entity in enumerate(entities)
                   if any(m.tokens[0] < position for m in entity.mentions)]
        if earlier:
            index = rng.choice(earlier)
            entities[index] = replace(entities[index], mentions=(
                *entities[index].mentions, Mention((position,), head=position)))
    new_nodes = ConlluNodes(tuple(ids), tuple(sentence_of), tuple(empty), tuple(deps),
                            (0,) * len(ids), nodes.sentence_ids, nodes.sentence_lines)
    return replace(document, tokens=tuple(forms), entities=tuple(entities), bridging=(),
                   sentence_starts=tuple(mapping[s] for s in document.sentence_starts),
                   nodes=new_nodes)


def _response(document: Document, rng: random.Random) -> Document:
    """``document`` with typical system errors (see the module docstring)."""
    nodes = document.nodes
    assert nodes is not None
    deps, empty = list(nodes.deps), list(nodes.empty)
    entities: list[list[Mention]] = []
    for entity in document.entities:
        mentions = []
        for mention in entity.mentions:
            roll = rng.random()
            if nodes.empty[mention.tokens[0]] and len(mention.tokens) == 1:
                if roll < 0.1:
                    continue
                if roll < 0.27:
                    deps[mention.tokens[0]] = deps[mention.tokens[0]].replace("nsubj", "obj")
                mentions.append(mention)
                continue
            if roll < 0.10:
                continue
            tokens = mention.tokens
            if roll < 0.18:
                last = tokens[-1] + rng.choice((-1, 1))
                if (last >= tokens[0] and last < len(empty)
                        and nodes.sentence_of[last] == nodes.sentence_of[tokens[0]]):
                    tokens = tuple(range(tokens[0], last + 1))
            head = mention.head if mention.head in tokens else tokens[0]
            if 0.18 <= roll < 0.28:
                head = rng.choice(tokens)
            mentions.append(Mention(tokens, head=head))
        if not mentions:
            continue
        roll = rng.random()
        if roll < 0.05 and entities:
            rng.choice(entities).extend(mentions)
        elif roll < 0.10 and len(mentions) > 1:
            cut = rng.randint(1, len(mentions) - 1)
            entities.extend([mentions[:cut], mentions[cut:]])
        else:
            entities.append(mentions)
    empties_in: dict[int, int] = {}
    named: set[tuple[int, str]] = set()
    for position, is_empty in enumerate(empty):
        sentence = nodes.sentence_of[position]
        if is_empty:
            empties_in[sentence] = empties_in.get(sentence, 0) + 1
        for item in nodes.deps[position].split("|"):
            named.add((sentence, item.partition(":")[0]))
    # Only an empty node alone in its sentence and named by no DEPS moves: renumbering the
    # others would break the DEPS that name them.
    moved = {position for position, is_empty in enumerate(empty)
             if is_empty and empties_in[nodes.sentence_of[position]] == 1
             and (nodes.sentence_of[position], nodes.ids[position]) not in named
             and rng.random() < 0.33}
    used: set[tuple[int, ...]] = set()
    built = [Entity(f"e{number}", tuple(_dedup(mentions, used)))
             for number, mentions in enumerate(entities)]
    return _move_empty_nodes(replace(document, entities=tuple(built), bridging=(),
                                     nodes=replace(nodes, deps=tuple(deps))), moved, rng)


def _moved(mention: Mention, mapping: dict[int, int] | list[int]) -> Mention:
    """A contiguous mention renumbered: it covers every position between its new first and
    last one, empty nodes included, as CorefUD reads a bracketed span."""
    first, last = mapping[mention.tokens[0]], mapping[mention.tokens[-1]]
    tokens = tuple(range(min(first, last), max(first, last) + 1))
    head = tokens[0] if mention.head is None else mapping[mention.head]
    return Mention(tokens, mention.line, head if head in tokens else tokens[0], None,
                   mention.attributes)


def _dedup(mentions: list[Mention], used: set[tuple[int, ...]]) -> list[Mention]:
    """Without spans already ``used`` in the document (a span annotated twice is scored by
    anascore once, by the CorefUD scorer twice: the UA branch's compat), nor mentions
    crossing an earlier one (CorefUD brackets cannot hold two crossing mentions of one
    entity)."""
    result: list[Mention] = []
    for mention in mentions:
        a, b = mention.tokens[0], mention.tokens[-1]
        if mention.tokens not in used and all(
               not (a < other.tokens[0] <= b < other.tokens[-1])
               and not (other.tokens[0] < a <= other.tokens[-1] < b) for other in result):
            result.append(mention)
            used.add(mention.tokens)
    return result


def _move_empty_nodes(document: Document, moved: set[int], rng: random.Random) -> Document:
    """Each empty node in ``moved`` is placed after another word of its sentence."""
    nodes = document.nodes
    assert nodes is not None
    by_sentence: dict[int, list[int]] = {}
    for position in range(len(nodes.ids)):
        by_sentence.setdefault(nodes.sentence_of[position], []).append(position)
    order: list[int] = []
    for sentence in sorted(by_sentence):
        positions = by_sentence[sentence]
        words = [p for p in positions if not nodes.empty[p]]
        staying = [p for p in positions if p not in moved]
        target = {p: rng.choice(words) for p in positions if p in moved}
        for position in staying:
            order.append(position)
            if not nodes.empty[position]:
                order.extend(p for p, word in target.items() if word == position)
    mapping = {old: new for new, old in enumerate(order)}
    ids, last_word, count, sentence = [], "0", 0, -1
    for old in order:
        if nodes.sentence_of[old] != sentence:
            sentence, last_word, count = nodes.sentence_of[old], "0", 0
        if nodes.empty[old]:
            count += 1
            ids.append(f"{last_word}.{count}")
        else:
            last_word, count = nodes.ids[old], 0
            ids.append(last_word)
    new_nodes = ConlluNodes(tuple(ids), tuple(nodes.sentence_of[old] for old in order),
                            tuple(nodes.empty[old] for old in order),
                            tuple(nodes.deps[old] for old in order), (0,) * len(order),
                            nodes.sentence_ids, nodes.sentence_lines)
    used: set[tuple[int, ...]] = set()
    entities = tuple(replace(entity, mentions=tuple(_dedup(
        [_moved(m, mapping) for m in entity.mentions], used))) for entity in document.entities)
    return replace(document, tokens=tuple(document.tokens[old] for old in order),
                   entities=tuple(entity for entity in entities if entity.mentions),
                   sentence_starts=tuple(sorted(mapping[s] for s in document.sentence_starts)),
                   nodes=new_nodes)


def build_corpus(output: Path, seed: int) -> tuple[Path, Path]:
    rng = random.Random(seed)
    keys, responses = [], []
    for path in sorted(GUM.glob("*.conllu")):
        for document in read_corefud(path):
            key = _with_zeros(replace(document, entities=tuple(
                replace(entity, elements=()) for entity in document.entities)), rng)
            keys.append(key)
            responses.append(_response(key, rng))
    key_path, response_path = output / "gum_key.conllu", output / "gum_response.conllu"
    write_corefud(keys, key_path)
    write_corefud(responses, response_path)
    return key_path, response_path


def timed(command: list[str], cwd: Path | None = None) -> tuple[float, float, str]:
    """Wall-clock seconds, CPU seconds (user + system) and standard output of a process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    output = process.stdout.read() if process.stdout else ""
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{command[0]} … failed with status {status}")
    return wall, usage.ru_utime + usage.ru_stime, output


def _scorer_f1(output: str) -> dict[str, float]:
    values, metric = {}, None
    for line in output.splitlines():
        if re.fullmatch(r"[a-z]+", line.strip()):
            metric = line.strip()
        found = re.search(r"F1: ([0-9.]+)", line)
        if found and metric:
            values[metric] = float(found.group(1))
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scorer", type=Path, default=Path("/tmp/ref/corefud-scorer"))
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=2022)
    arguments = parser.parse_args()
    output = arguments.output or Path(tempfile.mkdtemp(prefix="anascore-corefud-bench-"))
    output.mkdir(parents=True, exist_ok=True)
    key, response = build_corpus(output, arguments.seed)
    tokens = sum(len(document.tokens) for document in read_corefud(key))
    print(f"corpus: {key} ({tokens} tokens), {response}")
    anascore = [sys.executable, "-m", "anascore", "score", str(key), str(response),
                "--format", "corefud", "--match", "head", "--keep-singletons", "--keep-zeros",
                "--zero-match", "dependent", "--metrics", "all", "--compat", "ua",
                "--output", "json"]
    scorer = [sys.executable, "corefud-scorer.py", str(key), str(response), "-s", "-a", "head",
              "-z", "dependent"]
    environment = dict(os.environ, PYTHONPATH=str(HERE.parent / "src"))
    os.environ.update(environment)
    times: dict[str, list[tuple[float, float]]] = {"anascore": [], "corefud-scorer": []}
    outputs: dict[str, str] = {}
    for repeat in range(arguments.repeats):
        for name, command, cwd in (("anascore", anascore, None),
                                   ("corefud-scorer", scorer, arguments.scorer)):
            wall, cpu, text = timed(command, cwd)
            times[name].append((wall, cpu))
            outputs[name] = text
            print(f"run {repeat + 1} {name}: {wall:.2f} s wall, {cpu:.2f} s CPU", flush=True)
    medians = {name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
               for name, runs in times.items()}
    for name, (wall, cpu) in medians.items():
        print(f"{name}: median {wall:.2f} s wall, {cpu:.2f} s CPU")
    print(f"speed-up: {medians['corefud-scorer'][0] / medians['anascore'][0]:.1f}× wall, "
          f"{medians['corefud-scorer'][1] / medians['anascore'][1]:.1f}× CPU (target ≥ 10×)")
    ours = json.loads(outputs["anascore"])["metrics"]
    theirs = _scorer_f1(outputs["corefud-scorer"])
    for metric, f1 in theirs.items():
        mine = round(100 * ours[metric]["f1"], 2) if metric in ours else None
        print(f"F1 {metric}: corefud-scorer {f1:.2f}, anascore {mine}")


if __name__ == "__main__":
    main()
