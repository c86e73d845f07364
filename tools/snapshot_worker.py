"""The worker of ``tools/behaviour_snapshot.py``: runs inside the checkout under test (its
``src/`` first on PYTHONPATH), in the snapshot's cache folder, from a job file.

``prepare``: makes, once, what the cases read besides the corpus excerpts — the perturbed
responses (seeded), the conversions scored as other formats (GUM in UA, LitBank in jsonlines,
every dataset's clusters in jsonlines for the in-memory entry points), the ``evaluate``
manifest and the malformed files (``tests/support/mutations.py``, seeded) — and writes
``inputs/datasets.json`` and ``inputs/malformed.json``. A file already there is kept, so two
checkouts score the same inputs.

``run``: runs each case (``python -m anascore ARGS`` through :mod:`runpy` in this process, or
a Python API call) and writes its normalised record to the case's file.

Besides ``python -m anascore`` and the public names of ``anascore``, it uses
``anascore.formats.read_documents`` and ``writer`` (the in-memory documents of
``score_documents``, and to write the responses, with the benchmarks' perturbations, which use
``anascore.core.model``): a checkout that moves them needs this file changed, or a cache made
before (the responses are then read from it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import random
import re
import runpy
import sys
import traceback
from pathlib import Path
from typing import Any

RATE = 0.1
EXTENSIONS = {"conll2012": "conll", "corefud": "conllu", "jsonlines": "jsonlines",
              "ua": "conllua"}
MALFORMED_SOURCES = {"conll2012": "examples/key.conll",
                     "jsonlines": "tests/fixtures/jsonlines/key.jsonlines",
                     "corefud": "tests/fixtures/corefud/two_documents.conllu",
                     "ua": "tests/fixtures/ua/features.conllua"}
GROUP_KINDS = ("document", "genre", "mention-type", "entity-type", "entity-size",
               "mention-distance")


# --- prepare -----------------------------------------------------------------------------

def _perturb_layers(document: Any, rng: random.Random) -> Any:
    """``document`` with every layer kept but thinned: each mention, non-referring markable,
    bridging link and discourse-deixis mention dropped at :data:`RATE`; entity ids (and so
    split antecedents) kept where their entity survives."""
    def thin(entities: tuple) -> list:
        kept = []
        for entity in entities:
            mentions = tuple(mention for mention in entity.mentions if rng.random() >= RATE)
            if mentions:
                kept.append(dataclasses.replace(entity, mentions=mentions))
        return kept

    entities, deixis = thin(document.entities), thin(document.discourse_deixis)
    ids = {entity.id for entity in entities + deixis}

    def elements(entity: Any) -> Any:
        return dataclasses.replace(entity, elements=tuple(
            element for element in entity.elements if element in ids))

    present = {mention for entity in entities + deixis for mention in entity.mentions}
    before = {mention for entity in document.entities + document.discourse_deixis
              for mention in entity.mentions}
    bridging = tuple(
        link for link in document.bridging if rng.random() >= RATE
        and (link.anaphor in present or link.anaphor not in before)
        and (link.antecedent is None or link.antecedent in present or link.antecedent
             not in before)
        and (link.antecedent_entity is None or link.antecedent_entity in ids))
    non_referring = tuple(mention for mention in document.non_referring
                          if rng.random() >= RATE)
    return dataclasses.replace(
        document, entities=tuple(elements(entity) for entity in entities),
        discourse_deixis=tuple(elements(entity) for entity in deixis),
        non_referring=non_referring, bridging=bridging)


def _make_responses(name: str, data: dict, seed: int, checkout: Path) -> None:
    """``r1`` (``benchmarks/perturb_response.py``), ``r2`` (every layer thinned, ids kept)
    and ``r3`` (``benchmarks/perturb.py``) of a dataset, in its key's format."""
    sys.path.insert(0, str(checkout / "benchmarks"))
    import perturb
    import perturb_response

    from anascore.formats import read_documents, writer

    key, format = data["key"], data["format"]
    stem = key.rsplit(".key.", 1)[0]
    makers = {"r1": lambda document, rng: perturb_response.perturb(document, RATE, rng),
              "r2": _perturb_layers,
              "r3": lambda document, rng: perturb.perturb_document(document, RATE, rng)}
    for number, (response, make) in enumerate(makers.items()):
        path = f"{stem}.{response}.{EXTENSIONS[format]}"
        data[response] = path
        if Path(path).exists():
            continue
        rng = random.Random(f"{seed}-{name}-{number}")
        # every column of the key kept (heads, parts of speech), as a system's output has them
        documents = [make(document, rng) for document in read_documents(
            key, format, token_columns=True, all_columns=format != "jsonlines")]
        temporary = Path(path + ".part")
        writer(format)(documents, str(temporary))
        temporary.replace(path)


def _convert(source: str, target: str, to: str) -> None:
    """``source`` converted to ``to`` at ``target`` (what ``to`` cannot hold is dropped)."""
    if Path(target).exists():
        return
    from anascore import convert

    temporary = target + ".part." + EXTENSIONS[to]
    convert(source, temporary, to=to, drop_unsupported=True)
    Path(temporary).replace(target)


def _malformed(job: dict) -> list[dict]:
    """The malformed files (seeded mutants of small valid files) and their cases."""
    listing = Path("inputs/malformed.json")
    if listing.exists():
        cases: list[dict] = json.loads(listing.read_text(encoding="utf-8"))
        return cases
    checkout = Path(job["checkout"])
    sys.path.insert(0, str(checkout / "tests" / "support"))
    from mutations import mutant, write_mutant

    cases = []
    for format, source in MALFORMED_SOURCES.items():
        if not (checkout / source).is_file():
            continue
        text = (checkout / source).read_text(encoding="utf-8")
        if format == "conll2012":  # its first document, as tests/properties/test_fuzz.py takes it
            text = text[:text.index("#end document") + len("#end document\n")]
        folder = Path("inputs/malformed") / format
        folder.mkdir(parents=True, exist_ok=True)
        original = folder / f"original.{EXTENSIONS[format]}"
        original.write_text(text, encoding="utf-8")
        rng = random.Random(f"snapshot-{format}-{job['seed']}")
        for number in range(job["mutants"]):
            path = folder / f"m{number:03d}.{EXTENSIONS[format]}"
            write_mutant(path, mutant(text, rng))
            common = ["--output", "json", "--per-document", "--metrics", "all"]
            cases.append({"id": f"malformed/{format}/m{number:03d}-response", "kind": "cli",
                          "args": ["score", original.as_posix(), path.as_posix(), "--format",
                                   format, *common]})
            cases.append({"id": f"malformed/{format}/m{number:03d}-key", "kind": "cli",
                          "args": ["score", path.as_posix(), original.as_posix(), *common]})
    listing.write_text(json.dumps(cases, indent=1), encoding="utf-8")
    return cases


def _task(datasets: dict) -> None:
    """A small ``evaluate`` manifest: LitBank and GUM, the r1 and r3 systems."""
    path = Path("inputs/task.toml")
    if path.exists() or not {"litbank", "gum-conll"} <= set(datasets):
        return
    lines = ['name = "snapshot"', "resamples = 100", "seed = 11", ""]
    for name in ("litbank", "gum-conll"):
        lines += ["[[datasets]]", f'name = "{name}"',
                  f'key = "{Path(datasets[name]["key"]).name}"', ""]
    for system, response in (("perturbed", "r1"), ("moved", "r3")):
        table = ", ".join(f'"{name}" = "{Path(datasets[name][response]).name}"'
                          for name in ("litbank", "gum-conll"))
        lines += ["[[systems]]", f'name = "{system}"', f"responses = {{ {table} }}", ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def prepare(job: dict) -> None:
    datasets: dict = job["datasets"]
    checkout = Path(job["checkout"])
    if "gum-corefud" in datasets:
        _convert(datasets["gum-corefud"]["key"], "inputs/gum-ua.key.conllua", "ua")
        datasets["gum-ua"] = {"key": "inputs/gum-ua.key.conllua", "format": "ua"}
    for name, data in datasets.items():
        _make_responses(name, data, job["seed"], checkout)
    if "litbank" in datasets:
        lit = datasets["litbank"]
        converted = {"format": "jsonlines"}
        for part in ("key", "r1", "r2", "r3"):
            target = f"inputs/litbank-jsonlines.{part}.jsonlines"
            _convert(lit[part], target, "jsonlines")
            converted[part] = target
        datasets["litbank-jsonlines"] = converted
    for name, data in datasets.items():
        clusters = {}
        for part in ("key", "r1"):
            target = f"inputs/{name}.{part}.clusters.jsonlines"
            _convert(data[part], target, "jsonlines")
            clusters[part] = target
        data["jsonlines"] = clusters
    _task(datasets)
    Path("inputs/datasets.json").write_text(json.dumps(datasets, indent=1, sort_keys=True),
                                            encoding="utf-8")
    _malformed(job)


# --- run ---------------------------------------------------------------------------------

def _normalise(text: str, version: str) -> str:
    """``text`` with the version string replaced by ``<version>``."""
    text = re.sub(r'("version":\s*)"[^"]*"', r'\1"<version>"', text)
    text = re.sub(r"version:[^|\"\s}]+", "version:<version>", text)
    return text.replace(f"anascore {version}", "anascore <version>")


def _failure(error: BaseException) -> str:
    """An exception that escaped, as type and message (its frames would change with every
    move of code; that it escaped is what matters)."""
    return "Traceback (frames left out)\n" + "".join(
        traceback.format_exception_only(type(error), error))


def run_cli(args: list[str]) -> tuple[str, str, str]:
    """``python -m anascore ARGS`` in this process: (exit status, stdout, stderr)."""
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace",
                              write_through=True)
    argv = sys.argv
    sys.argv = ["anascore", *args]
    status = "0"
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                runpy.run_module("anascore", run_name="__main__", alter_sys=False)
            except SystemExit as exit:
                code = exit.code
                status = str(code if isinstance(code, int) else 0 if code is None else 1)
                if code is not None and not isinstance(code, int):
                    print(code, file=sys.stderr)
            except Exception as error:  # recorded: a traceback is behaviour
                status = "1"
                sys.stderr.write(_failure(error))
    finally:
        sys.argv = argv
    return (status, stdout.buffer.getvalue().decode("utf-8", "backslashreplace"),  # type: ignore[attr-defined]
            stderr.buffer.getvalue().decode("utf-8", "backslashreplace"))  # type: ignore[attr-defined]


def _cli_case(case: dict) -> str:
    status, stdout, stderr = run_cli(case["args"])
    parts = [f"command: anascore {' '.join(case['args'])}", f"exit: {status}",
             "--- stderr", stderr, "--- stdout", stdout]
    if "html" in case:
        path = Path(case["html"])
        parts.append("--- report data")
        if path.exists():
            page = path.read_text(encoding="utf-8")
            found = re.search(r'<script id="data" type="application/json">(.*?)</script>', page,
                              re.S)
            parts.append(json.dumps(json.loads(found.group(1).replace("<\\/", "</")), indent=1,
                                    ensure_ascii=False) if found else "(no data found)")
            path.unlink()
        else:
            parts.append("(no file)")
    if "converted" in case:
        path = Path(case["converted"])
        parts.append("--- converted file")
        if path.exists():
            parts.append(path.read_bytes().decode("utf-8", "backslashreplace"))
            path.unlink()
        else:
            parts.append("(no file)")
    return "\n".join(parts)


def _plain(value: Any) -> Any:
    """A score object as JSON-ready values."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _clusters(path: str) -> dict[str, list]:
    documents = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            documents[record["doc_key"]] = record.get("clusters", [])
    return documents


def _api_call(case: dict) -> Any:
    import anascore

    key, r1, r2, r3 = case["key"], case["r1"], case["r2"], case["r3"]
    call = case["call"]
    if call == "score":
        return json.loads(anascore.score(key, r1, metrics="all").to_json(per_document=True))
    if call == "score-settings":
        report = (anascore.score(key, r2, metrics="all", keep_non_referring=True,
                                 keep_bridging=True, discourse_deixis=True,
                                 keep_split_antecedents=True, compat="ua", match="min")
                  if case["layered"] else
                  anascore.score(key, r1, metrics="all", keep_singletons=False, match="partial"))
        return json.loads(report.to_json(per_document=True))
    if call == "compare":
        return json.loads(anascore.compare(key, [r1, r3], metrics="all", paired_bs=100,
                                           seed=5).to_json(per_document=True))
    if call == "score_documents":
        from anascore.formats import read_documents

        documents = [list(read_documents(path, case["format"], token_columns=True, role=role))
                     for path, role in ((key, "key"), (r1, "response"))]
        return json.loads(anascore.score_documents(*documents, metrics="all")
                          .to_json(per_document=True))
    if call == "score_groups":
        groups = {}
        for kind in GROUP_KINDS:
            try:
                groups[kind] = anascore.score_groups(key, r1, kind, metrics="all").to_dict()
            except anascore.AnascoreError as error:
                groups[kind] = f"error: {type(error).__name__}: {error}"
        return groups
    if call == "analyse_errors":
        return anascore.analyse_errors(key, r1).to_dict(per_document=True, listed=True)
    gold, predicted = _clusters(case["jsonlines"]["key"]), _clusters(case["jsonlines"]["r1"])
    if call == "evaluator":
        evaluator = anascore.CorefEvaluator(metrics="all")
        for name, clusters in gold.items():
            evaluator.update(predicted.get(name, []), clusters)
        return {"documents": len(evaluator), "scores": _plain(evaluator.scores()),
                "prf": [list(view.get_prf()) for view in evaluator.evaluators],
                "conll": list(evaluator.get_prf()), "warnings": list(evaluator.warnings)}
    if call == "compute":
        names = list(gold)
        return anascore.compute(predictions=[predicted.get(name, []) for name in names],
                                references=[gold[name] for name in names], metrics="all")
    raise ValueError(f"unknown call {call!r}")


def _api_case(case: dict) -> str:
    described = {key: value for key, value in case.items() if key not in ("id", "file", "kind")}
    head = f"call: {json.dumps(described, sort_keys=True)}"
    try:
        result = json.dumps(_api_call(case), indent=1, ensure_ascii=False)
    except Exception as error:  # an error is behaviour too
        from anascore import AnascoreError

        result = (f"error: {type(error).__name__}: {error}" if isinstance(error, AnascoreError)
                  else _failure(error))
    return f"{head}\n{result}"


def run(job: dict) -> None:
    from anascore import __version__

    for case in job["cases"]:
        text = _cli_case(case) if case["kind"] == "cli" else _api_case(case)
        Path(case["file"]).write_text(_normalise(text, __version__) + "\n", encoding="utf-8")


def main() -> None:
    job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    Path(sys.argv[1]).unlink()
    if job["stage"] == "prepare":
        prepare(job)
    else:
        run(job)


if __name__ == "__main__":
    main()
