"""A behaviour snapshot of anascore: every entry point's output on real corpora, recorded so
that a change that must not move a number (the redesign of issue 22, a refactoring) can be
checked to move none.

    python tools/behaviour_snapshot.py record OUTDIR [--corpora DIR] [--quick]
                                                [--source SRC] [--cache DIR] [--only REGEX]
    python tools/behaviour_snapshot.py compare OLD NEW

``record`` runs the anascore of ``--source`` (default: the ``src/`` of the checkout this
script sits in) on a fixed matrix of cases and writes one file per case into OUTDIR (named by
the case id) and ``OUTDIR/index.json`` (case id -> sha256 of the file). Each file holds the
command (or Python call), its exit status, stderr and stdout; outputs are normalised only by
replacing the version string with ``<version>`` (no anascore output carries a time).
``compare`` prints the cases that differ, with a unified diff of the first ones, and exits 1
if any case differs, is missing or is new.

The cases, on ``--corpora`` (laid out as /work/shared/corpora: ``gum/coref-conll/*.conll``,
``gum/dep/*.conllu``, ``litbank/coref-conll/*.conll``, ``codi-crac22/*.CONLLUA``; a corpus
that is absent is left out): GUM in its CoNLL-like, CorefUD and (converted) UA forms, LitBank in
CoNLL-2012 and (converted) jsonlines, CODI-CRAC in UA. For each: ``score --output json
--per-document`` with every metric, ``--jobs`` 1, 2 and the default, every preset, every
matching method with and without ``--compat ua``, singletons, zeros and every layer setting,
every ``--group-by`` kind, the other output formats, bootstrap intervals; ``score`` with two
responses and paired tests; ``errors --output json --per-document --list``; ``report`` (the
data JSON embedded in the page); ``convert`` to every format (the converted text); the Python
API (``score``, ``compare``, ``score_documents``, ``score_groups``, ``analyse_errors``,
``CorefEvaluator``, ``compute``); ``evaluate`` on a small manifest; ``lab``; and the exit
status and stderr of ``score`` on a few hundred malformed files (``tests/support/mutations.py``,
seeded). ``--quick`` takes one file per corpus and fewer malformed files.

Responses are the keys perturbed with a fixed seed (``benchmarks/perturb_response.py``,
``benchmarks/perturb.py``, and for the other layers a light perturbation below). They, the
corpus excerpts, the conversions they are scored in and the malformed files are made once and
kept in ``--cache`` (default ``~/.cache/anascore-behaviour-snapshot``), so that two checkouts
score the very same files: record the old checkout first, then the new one with the same
cache. Their sha256 are cases too (``input/...``), so a snapshot made on other inputs shows.

Commands run inside one Python process per worker (``python -m anascore`` through
:mod:`runpy`, stdout and stderr captured), two workers in all, with the inputs' paths relative
to the cache, so messages naming files are the same wherever the cache lives. A case's output
depends on its case alone, so the split between workers changes nothing.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent
SEED = 20261126
WORKERS = 2
PRESETS = ("conll12", "crac18", "codicrac21", "codicrac22-ar", "codicrac22-br",
           "codicrac22-dd", "craft19", "crac22", "crac23", "crac24", "crac25")
MATCHES = ("exact", "min", "head", "partial", "craft")
GROUP_KINDS = ("document", "genre", "mention-type", "entity-type", "entity-size",
               "mention-distance")
FORMATS = ("conll2012", "corefud", "jsonlines", "ua")
EXTENSIONS = {"conll2012": "conll", "corefud": "conllu", "jsonlines": "jsonlines",
              "ua": "conllua"}
LINGUISTIC = "lmuc,lbcub,lceafm,lceafe,dominant"
MALFORMED_SOURCES = {"conll2012": "examples/key.conll",
                     "jsonlines": "tests/fixtures/jsonlines/key.jsonlines",
                     "corefud": "tests/fixtures/corefud/two_documents.conllu",
                     "ua": "tests/fixtures/ua/features.conllua"}


# --- inputs: excerpts of the corpora (plain text, no anascore) ----------------------------

def _documents_of(text: str, marker: str) -> tuple[str, list[str]]:
    """The header before the first line starting with ``marker``, and each document's text."""
    lines = text.splitlines(keepends=True)
    starts = [number for number, line in enumerate(lines) if line.startswith(marker)]
    if not starts:
        return "", [text]
    header = "".join(lines[:starts[0]])
    bounds = [*starts, len(lines)]
    return header, ["".join(lines[a:b]) for a, b in itertools.pairwise(bounds)]


def _pick(items: list, count: int) -> list:
    """``count`` items spread over ``items`` (sorted), the first of them always included."""
    if len(items) <= count:
        return items
    step = len(items) // count
    return [items[index * step] for index in range(count)]


def make_excerpts(corpora: Path, inputs: Path, quick: bool) -> dict[str, dict[str, str]]:
    """Write the key excerpts into ``inputs``; the datasets made of them, by name:
    ``{"key": path, "format": format}`` (paths relative to the cache)."""
    inputs.mkdir(parents=True, exist_ok=True)
    datasets: dict[str, dict[str, str]] = {}
    count = 1 if quick else 3  # files of LitBank
    gum_conll, gum_dep = corpora / "gum" / "coref-conll", corpora / "gum" / "dep"
    if gum_conll.is_dir() and gum_dep.is_dir():
        stems = sorted({path.stem for path in gum_conll.glob("*.conll")}
                       & {path.stem for path in gum_dep.glob("*.conllu")})
        # small to middling documents, the same ones in both forms, and the smallest one with
        # every layer CorefUD holds (split antecedents, bridging, zeros) first
        sized = sorted(stems, key=lambda stem: ((gum_dep / f"{stem}.conllu").stat().st_size,
                                                stem))
        rich = [stem for stem in sized if _has_every_layer(gum_dep / f"{stem}.conllu")][:1]
        picks = [stem for stem in _pick(sized[:max(1, len(sized) // 2)], 4) if stem not in rich]
        chosen = (rich + picks)[:1 if quick else 4]
        for name, folder, extension, format in (("gum-conll", gum_conll, "conll", "conll2012"),
                                                ("gum-corefud", gum_dep, "conllu", "corefud")):
            text = "".join((folder / f"{stem}.{extension}").read_text(encoding="utf-8")
                           for stem in chosen)
            _write_input(inputs / f"{name}.key.{extension}", text)
            datasets[name] = {"key": f"inputs/{name}.key.{extension}", "format": format}
    litbank = corpora / "litbank" / "coref-conll"
    if litbank.is_dir():
        files = sorted(litbank.glob("*.conll"), key=lambda path: (path.stat().st_size, path.name))
        chosen_files = sorted(_pick(files[:max(1, len(files) // 2)], count))
        text = "".join(path.read_text(encoding="utf-8") for path in chosen_files)
        _write_input(inputs / "litbank.key.conll", text)
        datasets["litbank"] = {"key": "inputs/litbank.key.conll", "format": "conll2012"}
    codi = corpora / "codi-crac22"
    # the smallest file of each sub-corpus (Persuasion, LIGHT, AMI …), the smallest first
    smallest: dict[str, Path] = {}
    for path in sorted(codi.glob("*.CONLLUA"), key=lambda path: (path.stat().st_size, path.name),
                       reverse=True) if codi.is_dir() else []:
        smallest[path.name.split("_")[0]] = path
    codi_files = sorted(smallest.values(), key=lambda path: (path.stat().st_size, path.name))
    if codi_files:
        parts: list[str] = []
        header = ""
        for path in codi_files[:1 if quick else 2]:
            header, documents = _documents_of(path.read_text(encoding="utf-8"), "# newdoc")
            documents.sort(key=lambda document: (len(document), document))
            parts += sorted(_pick(documents[:max(1, len(documents) // 2)], 1 if quick else 2))
        _write_input(inputs / "codi.key.conllua", header + "".join(parts))
        datasets["codi"] = {"key": "inputs/codi.key.conllua", "format": "ua"}
    return datasets


def _has_every_layer(path: Path) -> bool:
    """Whether a CorefUD file has split antecedents, bridging and an empty node."""
    text = path.read_text(encoding="utf-8")
    return ("SplitAnte=" in text and "Bridge=" in text
            and re.search(r"^\d+\.\d+\t", text, re.M) is not None)


def _write_input(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


# --- the cases --------------------------------------------------------------------------

def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=+-]+", "_", text).strip("_")


def build_cases(datasets: dict[str, dict[str, str]], quick: bool) -> list[dict]:
    """Every case: ``{"id", "kind": "cli"|"api", ...}``, in a fixed order."""
    cases: list[dict] = []

    def cli(case_id: str, *args: str, **extra: str) -> None:
        cases.append({"id": case_id, "kind": "cli", "args": list(args), **extra})

    json_out = ["--output", "json", "--per-document"]
    for name, data in datasets.items():
        key, r1, r2, r3 = data["key"], data["r1"], data["r2"], data["r3"]
        layered = data["format"] in ("corefud", "ua")
        base = ["score", key, r1, *json_out]
        cli(f"{name}/score/all", *base, "--metrics", "all")
        cli(f"{name}/score/all-jobs1", *base, "--metrics", "all", "--jobs", "1")
        cli(f"{name}/score/all-jobs2", *base, "--metrics", "all", "--jobs", "2")
        cli(f"{name}/score/default-metrics", *base)
        cli(f"{name}/score/linguistic", *base, "--metrics", LINGUISTIC)
        cli(f"{name}/score/linguistic-chen-ng", *base, "--metrics", "lmuc,lbcub,lceafm,lceafe",
            "--link-weights", "1,0.5,0.25,1")
        cli(f"{name}/score/dominant-untyped", *base, "--metrics", "dominant",
            "--coreference-classes", "none", "--dominant-coefficients", "1,0.5,0.5,0")
        cli(f"{name}/score/key-vs-key", "score", key, key, *json_out, "--metrics", "all")
        for preset in PRESETS:
            cli(f"{name}/score/preset-{preset}", *base, "--preset", preset)
            if not quick:
                cli(f"{name}/score/preset-{preset}-jobs2", *base, "--preset", preset,
                    "--jobs", "2")
        for match in MATCHES:
            for compat in ("none", "ua"):
                cli(f"{name}/score/match-{match}-compat-{compat}", *base, "--metrics", "all",
                    "--match", match, "--compat", compat)
                if layered:  # r2 keeps every mention's head and MIN
                    cli(f"{name}/score/match-{match}-compat-{compat}-r2", "score", key, r2,
                        *json_out, "--metrics", "all", "--match", match, "--compat", compat)
        for flags in (["--remove-singletons"], ["--remove-zeros"], ["--zero-match", "linear"],
                      ["--remove-singletons", "--compat", "ua"],
                      ["--remove-zeros", "--remove-singletons", "--match", "head"],
                      ["--keep-non-referring"], ["--keep-bridging"], ["--discourse-deixis"],
                      ["--keep-split-antecedents"], ["--only-split-antecedents"],
                      ["--keep-split-antecedents", "--lea-split-importance", "10"],
                      ["--keep-split-antecedents", "--details"],
                      ["--keep-non-referring", "--keep-bridging", "--discourse-deixis",
                       "--keep-split-antecedents"],
                      ["--keep-non-referring", "--keep-bridging", "--discourse-deixis",
                       "--keep-split-antecedents", "--compat", "ua", "--match", "min"],
                      ["--align-tokens"], ["--strict"]):
            response = r2 if layered else r1
            cli(f"{name}/score/{_safe('-'.join(flags))}", "score", key, response, *json_out,
                "--metrics", "all", *flags)
        for output in ("text", "csv", "markdown", "latex"):
            cli(f"{name}/score/output-{output}", "score", key, r1, "--output", output,
                "--per-document", "--metrics", "all")
        cli(f"{name}/score/reference-layout", "score", key, r1, "--reference-layout")
        cli(f"{name}/score/sort-by-muc", "score", key, r1, "--output", "json",
            "--sort-by", "muc")
        cli(f"{name}/score/confidence", *base, "--confidence", "200", "--seed", "7")
        for kind in GROUP_KINDS:
            extra = ["--genre-pattern", r"^(?:GUM|GENTLE)_([a-z]+)_"] if kind == "genre" \
                and name.startswith("gum") else []
            cli(f"{name}/score/group-by-{kind}", *base, "--group-by", kind, *extra)
        cli(f"{name}/compare/two", "score", key, r1, r3, *json_out, "--metrics", "all",
            "--names", "perturbed,moved")
        cli(f"{name}/compare/paired", "score", key, r1, r3, *json_out, "--paired-bs", "200",
            "--paired-ar", "200", "--confidence", "100", "--seed", "3")
        if layered:
            cli(f"{name}/compare/layers", "score", key, r1, r2, *json_out, "--metrics", "all",
                "--keep-non-referring", "--keep-bridging", "--discourse-deixis")
        errors = ["errors", key, r1, "--output", "json", "--per-document", "--list"]
        cli(f"{name}/errors/default", *errors)
        cli(f"{name}/errors/all-jobs1", *errors, "--metrics", "all", "--jobs", "1")
        cli(f"{name}/errors/all-jobs2", *errors, "--metrics", "all", "--jobs", "2")
        for match in ("min", "head", "partial"):
            cli(f"{name}/errors/match-{match}", *errors, "--match", match)
        cli(f"{name}/errors/remove-singletons", *errors, "--remove-singletons")
        cli(f"{name}/errors/two-responses", "errors", key, r1, r3, "--output", "json",
            "--per-document", "--list")
        if layered:
            cli(f"{name}/errors/layers", "errors", key, r2, "--output", "json",
                "--per-document", "--list", "--keep-non-referring", "--keep-bridging",
                "--discourse-deixis")
        for output in ("text", "csv", "markdown"):
            cli(f"{name}/errors/output-{output}", "errors", key, r1, "--output", output,
                "--per-document", "--list")
        # every file a case writes is its own (the workers run side by side)
        html = f"scratch/{_safe(name)}.%s.html"
        cli(f"{name}/report/default", "report", key, r1, "-o", html % 1, html=html % 1)
        cli(f"{name}/report/two-groups", "report", key, r1, r3, "-o", html % 2, "--group-by",
            "mention-type", "--confidence", "50", "--names", "a", "b", html=html % 2)
        if layered:
            cli(f"{name}/report/layers", "report", key, r2, "-o", html % 3,
                "--keep-non-referring", "--keep-bridging", "--discourse-deixis", html=html % 3)
        for target in FORMATS:
            for drop in ([], ["--drop-unsupported"]):
                out = f"scratch/{_safe(name)}.{'drop.' if drop else ''}{EXTENSIONS[target]}"
                cli(f"{name}/convert/to-{target}{'-drop' if drop else ''}", "convert", key, out,
                    "--to", target, *drop, converted=out)
        api = {"key": key, "r1": r1, "r2": r2, "r3": r3, "format": data["format"],
               "layered": layered, "jsonlines": data.get("jsonlines")}
        for call in ("score", "score-settings", "compare", "score_documents", "score_groups",
                     "analyse_errors", "evaluator", "compute"):
            cases.append({"id": f"{name}/api/{call}", "kind": "api", "call": call, **api})
    if {"litbank", "gum-conll"} <= set(datasets):
        cli("evaluate/json", "evaluate", "inputs/task.toml", "--output", "json", "--jobs", "1")
        cli("evaluate/text", "evaluate", "inputs/task.toml")
    cli("lab/json", "lab", "--output", "json")
    return cases


# --- record ------------------------------------------------------------------------------

def record(arguments: argparse.Namespace) -> int:
    started = time.monotonic()
    source = Path(arguments.source).resolve()
    if not (source / "anascore" / "__init__.py").is_file():
        print(f"behaviour_snapshot: {source}: no anascore package there", file=sys.stderr)
        return 2
    corpora = Path(arguments.corpora).resolve()
    cache = Path(arguments.cache).resolve() / hashlib.sha256(
        str(corpora).encode()).hexdigest()[:12]
    level = "quick" if arguments.quick else "full"
    work = cache / level
    (work / "scratch").mkdir(parents=True, exist_ok=True)
    datasets = make_excerpts(corpora, work / "inputs", arguments.quick)
    mutants = 12 if arguments.quick else 60
    plan = {"datasets": datasets, "mutants": mutants, "seed": SEED,
            "checkout": str(CHECKOUT)}
    # the responses, conversions and malformed files: made once, by one worker
    if not datasets:
        print(f"behaviour_snapshot: warning: no corpus found in {corpora}; recording only the "
              "malformed files and lab", file=sys.stderr)
    if not _run_worker(source, work, {"stage": "prepare", **plan}):
        print("behaviour_snapshot: making the inputs failed (above)", file=sys.stderr)
        return 1
    datasets = json.loads((work / "inputs" / "datasets.json").read_text(encoding="utf-8"))
    cases = build_cases(datasets, arguments.quick)
    cases += json.loads((work / "inputs" / "malformed.json").read_text(encoding="utf-8"))
    if arguments.only is not None:
        cases = [case for case in cases if re.search(arguments.only, case["id"])]
    ids = [case["id"] for case in cases]
    if len(set(ids)) != len(ids):
        raise SystemExit("behaviour_snapshot: two cases have one id")
    out = Path(arguments.outdir).resolve()
    if out.exists() and any(out.iterdir()):
        if not (out / "index.json").is_file():
            print(f"behaviour_snapshot: {out} is not empty and holds no snapshot; give a new "
                  "folder", file=sys.stderr)
            return 2
        shutil.rmtree(out)  # an earlier snapshot, replaced
    out.mkdir(parents=True, exist_ok=True)
    for number, case in enumerate(cases):
        case["file"] = str(out / f"{number:04d}.tmp")
    workers = []
    for index in range(WORKERS):
        command, settings = _worker_command(source, work, {
            "stage": "run", "cases": cases[index::WORKERS]})
        workers.append(subprocess.Popen(command, **settings))
    failed = [worker.wait() for worker in workers]
    if any(failed):
        print("behaviour_snapshot: a worker failed", file=sys.stderr)
        return 1
    index: dict[str, str] = {}
    for case in cases:
        text = Path(case["file"]).read_text(encoding="utf-8")
        Path(case["file"]).unlink()
        name = _safe(case["id"].replace("/", "__")) + ".txt"
        (out / name).write_text(text, encoding="utf-8")
        index[case["id"]] = hashlib.sha256(text.encode()).hexdigest()
    for path in sorted((work / "inputs").rglob("*")):
        if path.is_file():
            relative = path.relative_to(work).as_posix()
            index[f"input/{relative}"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (out / "index.json").write_text(json.dumps(index, indent=1, sort_keys=True) + "\n",
                                    encoding="utf-8")
    seconds = time.monotonic() - started
    print(f"recorded {len(cases)} cases ({len(index) - len(cases)} inputs) of {source} in "
          f"{out} in {seconds:.0f} s")
    return 0


def _worker_command(source: Path, work: Path, job: dict) -> tuple[list[str], dict]:
    digest = hashlib.sha256(json.dumps(job).encode()).hexdigest()[:12]
    job_file = work / "scratch" / f"job-{digest}.json"
    job_file.write_text(json.dumps(job), encoding="utf-8")
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(source), *filter(None, [environment.get("PYTHONPATH")])])
    environment["PYTHONHASHSEED"] = "0"
    environment.pop("ANASCORE_FUZZ_MUTANTS", None)
    return ([sys.executable, str(HERE / "snapshot_worker.py"), str(job_file)],
            {"cwd": str(work), "env": environment})


def _run_worker(source: Path, work: Path, job: dict) -> bool:
    command, settings = _worker_command(source, work, job)
    return subprocess.run(command, check=False, **settings).returncode == 0


# --- compare -----------------------------------------------------------------------------

def compare(arguments: argparse.Namespace) -> int:
    old, new = Path(arguments.old), Path(arguments.new)
    old_index = json.loads((old / "index.json").read_text(encoding="utf-8"))
    new_index = json.loads((new / "index.json").read_text(encoding="utf-8"))
    missing = [case for case in old_index if case not in new_index]
    added = [case for case in new_index if case not in old_index]
    differ = [case for case in old_index if case in new_index
              and old_index[case] != new_index[case]]
    for title, cases in (("only in OLD", missing), ("only in NEW", added), ("differ", differ)):
        if cases:
            print(f"{len(cases)} case(s) {title}:")
            for case in cases:
                print(f"  {case}")
    shown = 0
    for case in differ:
        if case.startswith("input/") or shown >= arguments.diffs:
            continue
        shown += 1
        name = _safe(case.replace("/", "__")) + ".txt"
        before = (old / name).read_text(encoding="utf-8").splitlines()
        after = (new / name).read_text(encoding="utf-8").splitlines()
        diff = list(difflib.unified_diff(before, after, f"OLD/{name}", f"NEW/{name}",
                                         n=2, lineterm=""))
        print("\n".join(diff[:arguments.lines]))
        if len(diff) > arguments.lines:
            print(f"... ({len(diff) - arguments.lines} more diff lines)")
    if missing or added or differ:
        return 1
    inputs = sum(case.startswith("input/") for case in old_index)
    print(f"identical: {len(old_index) - inputs} cases, {inputs} inputs")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    recorder = commands.add_parser("record", help="record a snapshot into OUTDIR")
    recorder.add_argument("outdir")
    recorder.add_argument("--corpora", default="/work/shared/corpora")
    recorder.add_argument("--quick", action="store_true", help="one file per corpus")
    recorder.add_argument("--only", metavar="REGEX",
                          help="record only the cases whose id this regular expression finds")
    recorder.add_argument("--source", default=str(CHECKOUT / "src"),
                          help="the src/ folder whose anascore runs (default: this checkout's)")
    recorder.add_argument("--cache", default=str(Path.home() / ".cache"
                                                 / "anascore-behaviour-snapshot"),
                          help="where the inputs are made once and kept")
    comparer = commands.add_parser("compare", help="compare two snapshots")
    comparer.add_argument("old")
    comparer.add_argument("new")
    comparer.add_argument("--diffs", type=int, default=5, help="diffs shown (default 5)")
    comparer.add_argument("--lines", type=int, default=40, help="lines per diff (default 40)")
    arguments = parser.parse_args(argv)
    return record(arguments) if arguments.command == "record" else compare(arguments)


if __name__ == "__main__":
    sys.exit(main())
