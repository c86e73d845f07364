"""A shared task built from the real corpora, and the time ``anascore evaluate`` takes on it.

Two tasks, both from ``../shared/corpora`` (LitBank in CoNLL-2012, GUM in CorefUD, CODI-CRAC
2022 in UA) and from systems made by perturbing the real keys (``perturb.py``):

* ``example``: the worked example of ``docs/shared-task.md`` — LitBank, GUM and CODI-CRAC as
  three datasets (each with its own settings), three systems of growing error rates;
* ``crac``: the size of a CRAC shared task — 27 datasets (the corpora's documents dealt out
  round-robin, each corpus keeping its format), 10 systems, 1,000 resamples.

    python benchmarks/leaderboard_benchmark.py example --folder /tmp/example
    python benchmarks/leaderboard_benchmark.py crac --folder /tmp/crac --repeat 3

Each builds its task folder (keys, responses, ``task.toml``), then times ``anascore evaluate``
(wall clock, the median of ``--repeat`` runs, printed with the leaderboard's first lines).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from perturb import perturb_file

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"
CORPORA = {
    "litbank": (sorted((SHARED / "litbank" / "coref-conll").glob("*.conll")), ".conll", {}),
    "gum": (sorted((SHARED / "gum" / "dep").glob("*.conllu")), ".conllu",
            {"preset": "crac24"}),
    "codi-crac": (sorted((SHARED / "codi-crac22").glob("*.CONLLUA")), ".CONLLUA",
                  {"preset": "codicrac22-ar"}),
}
EXAMPLE_SYSTEMS = {"system-a": 0.10, "system-b": 0.10, "system-c": 0.12}


def _settings(settings: dict[str, str]) -> str:
    return "{ " + ", ".join(f'{name} = "{value}"' for name, value in settings.items()) + " }"


def _concatenate(files: list[Path], target: Path) -> None:
    with open(target, "wb") as out:
        for path in files:
            data = path.read_bytes()
            out.write(data if data.endswith(b"\n") else data + b"\n")


def build(folder: Path, datasets: dict[str, tuple[list[Path], str, dict[str, str]]],
          systems: dict[str, float], name: str) -> Path:
    """Keys, perturbed responses and the manifest of a task, in ``folder``."""
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "keys").mkdir(parents=True)
    lines = [f'name = "{name}"', 'metric = "conll"', 'combine = "macro"', "resamples = 1000"]
    for dataset, (files, suffix, settings) in datasets.items():
        key = folder / "keys" / f"{dataset}{suffix}"
        _concatenate(files, key)
        lines += ["", "[[datasets]]", f'name = "{dataset}"', f'key = "keys/{key.name}"']
        if settings:
            lines.append(f"settings = {_settings(settings)}")
    for seed, (system, rate) in enumerate(systems.items(), start=1):
        (folder / system).mkdir()
        responses = {}
        for dataset, (_, suffix, _) in datasets.items():
            response = folder / system / f"{dataset}{suffix}"
            perturb_file(folder / "keys" / f"{dataset}{suffix}", response, rate=rate,
                         seed=seed)
            responses[dataset] = f"{system}/{response.name}"
        table = ", ".join(f'"{dataset}" = "{path}"' for dataset, path in responses.items())
        lines += ["", "[[systems]]", f'name = "{system}"', f"responses = {{ {table} }}"]
    manifest = folder / "task.toml"
    manifest.write_text("\n".join(lines) + "\n")
    return manifest


def crac_sized() -> dict[str, tuple[list[Path], str, dict[str, str]]]:
    """27 datasets: each corpus's files dealt out round-robin (9 per corpus), so that every
    dataset has one format and one corpus's settings."""
    datasets = {}
    for corpus, (files, suffix, settings) in CORPORA.items():
        for part in range(9):
            chosen = files[part::9] or files[part % len(files):][:1]
            datasets[f"{corpus}-{part + 1}"] = (chosen, suffix, settings)
    return datasets


def time_evaluate(manifest: Path, repeat: int) -> tuple[float, str]:
    times, output = [], ""
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "anascore", "evaluate", str(manifest),
                               "--no-progress"], capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
        output = done.stdout
    return statistics.median(times), output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("task", choices=("example", "crac"))
    parser.add_argument("--folder", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=1)
    arguments = parser.parse_args()
    if not SHARED.is_dir():
        sys.exit(f"no corpora at {SHARED}")
    if arguments.task == "example":
        manifest = build(arguments.folder, CORPORA, EXAMPLE_SYSTEMS, "Three corpora")
    else:
        systems = {f"system-{index:02d}": 0.02 + 0.02 * index for index in range(10)}
        manifest = build(arguments.folder, crac_sized(), systems, "CRAC-sized task")
    seconds, output = time_evaluate(manifest, arguments.repeat)
    print(output)
    print(f"anascore evaluate {manifest}: {seconds:.2f} s (median of {arguments.repeat})")


if __name__ == "__main__":
    main()
