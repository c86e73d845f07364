"""Memory bounded by the input: a file that annotates one long span many times.

2,000 copies of one 50,000-token span fit in a 0.7 MB file. Each copy used to hold a tuple
of its own 50,000 positions before copies were merged, which passed 4 GB and ended in a
MemoryError traceback; the copies now share one tuple (:class:`anascore.core.model.SpanTokens`),
and the run stays under an address-space limit of 1 GiB, in every format, with the warning
that names the repeated mention.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS as on Linux")

WORDS = 50_000
COPIES = 2_000
LIMIT = 1 << 30


def _words() -> list[str]:
    return [f"w{position}" for position in range(WORDS)]


def _key(path: Path) -> None:
    """Entity 1: [0, 0]; entity 0: [1, WORDS - 1]; entity 2: [2, 2]."""
    cells = {0: "(1)", 1: "(0", 2: "(2)", WORDS - 1: "0)"}
    lines = [f"d 0 {position} {word} {cells.get(position, '-')}"
             for position, word in enumerate(_words())]
    path.write_text("#begin document d\n" + "\n".join(lines) + "\n#end document\n")


def _conll2012(path: Path) -> None:
    cells = {0: "(1)", 1: "(0" * COPIES, WORDS - 1: "0)" * COPIES}
    lines = [f"d 0 {position} {word} {cells.get(position, '-')}"
             for position, word in enumerate(_words())]
    path.write_text("#begin document d\n" + "\n".join(lines) + "\n#end document\n")


def _jsonlines(path: Path) -> None:
    path.write_text(json.dumps({"doc_key": "d", "sentences": [_words()],
                                "clusters": [[[1, WORDS - 1]] * COPIES, [[0, 0]]]}) + "\n")


def _markup(path: Path) -> None:
    words = _words()
    path.write_text(f"# newdoc id = d\n[{words[0]}|1] " + "[" * COPIES
                    + " ".join(words[1:]) + "|0]" * COPIES + "\n")


def _corefud(path: Path) -> None:
    misc = {0: "Entity=(e1--1)", 1: "Entity=" + "(e0--1" * COPIES,
            WORDS - 1: "Entity=" + "e0)" * COPIES}
    lines = [f"{position + 1}\t{word}\t_\t_\t_\t_\t0\t_\t_\t{misc.get(position, '_')}"
             for position, word in enumerate(_words())]
    path.write_text("# newdoc id = d\n# global.Entity = eid-etype-head-other\n"
                    "# sent_id = d-1\n" + "\n".join(lines) + "\n\n")


def _ua(path: Path) -> None:
    identity = {0: "(EntityID=1|MarkableID=single)",
                1: "".join(f"(EntityID=0|MarkableID=copy{copy}" for copy in range(COPIES)),
                WORDS - 1: ")" * COPIES}
    lines = [f"{position + 1}\t{word}\t_\t_\t_\t_\t_\t_\t_\t_\t{identity.get(position, '_')}"
             "\t_\t_" for position, word in enumerate(_words())]
    path.write_text("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC "
                    "IDENTITY BRIDGING DISCOURSE_DEIXIS\n# newdoc id = d\n# sent_id = d-1\n"
                    + "\n".join(lines) + "\n\n")


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


@pytest.mark.parametrize("write, suffix, entity", [
    (_conll2012, "conll", "0"), (_jsonlines, "jsonl", "0"), (_markup, "txt", "0"),
    (_corefud, "conllu", "e0"), (_ua, "CONLLUA", "0")],
    ids=["conll2012", "jsonlines", "markup", "corefud", "ua"])
def test_copies_of_a_long_mention_stay_within_a_gigabyte(tmp_path, write, suffix, entity):
    key, response = tmp_path / "key.conll", tmp_path / f"response.{suffix}"
    _key(key)
    write(response)
    result = subprocess.run([sys.executable, "-m", "anascore", "score", str(key),
                             str(response)], capture_output=True, text=True,
                            preexec_fn=_limited, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    # The response's 2,001 mentions are two: [0, 0] and [1, WORDS - 1], both in the key,
    # which has a third ([2, 2]): recall 2/3, precision 2/2.
    assert result.stdout.splitlines()[1].split() == ["Mentions", "66.67", "100.00", "80.00"]
    assert (f"repeated response mention [1, {WORDS - 1}], annotated {COPIES} times in "
            f"entity {entity}; scored once, in entity {entity}") in result.stderr
