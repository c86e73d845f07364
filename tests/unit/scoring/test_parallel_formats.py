"""Counting CoNLL-U (CorefUD) and UA files in several processes (anascore.scoring.parallel) gives
the
one-process report exactly: numbers of every document, warnings, errors; files that are not
suited to it (no id on a '# newdoc', a '# sent_id' before one) are scored serially."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anascore.config.options import Options
from anascore.core.errors import AnascoreError
from anascore.formats.corefud import write_corefud
from anascore.formats.ua import write_ua
from anascore.scoring import parallel
from anascore.scoring.pipeline import score_files
from tests.support.paths import CORPORA
from tests.support.serial_and_parallel import both_ways
from tests.support.strategies import document_pairs, to_document, without_crossing

pytestmark = pytest.mark.skipif(not parallel._can_fork(), reason="forks on Linux only")

GUM = sorted((CORPORA / "gum" / "dep").glob("*.conllu"))[:12]
AMI = CORPORA / "codi-crac22" / "AMI_dev_v2.2022.CONLLUA"
WRITERS = {"corefud": (write_corefud, "conllu"), "ua": (write_ua, "CONLLUA")}


def split(key: str, response: str, format: str) -> bool:
    """Whether the parallel path takes these files (rather than leaving them to the serial
    run)."""
    result = parallel.map_documents(key, [response], lambda k, r: k.name, 2,
                                    formats=[format, format])
    return result is not None


def write_documents(folder: Path, name: str, format: str, pairs: list, side: int) -> str:
    writer, extension = WRITERS[format]
    documents = [to_document(without_crossing(pair[side]), pair[2], f"doc{index}")
                 for index, pair in enumerate(pairs)]
    path = folder / f"{name}.{extension}"
    writer(documents, path)
    return str(path)


def gum_pair(folder: Path) -> tuple[Path, Path]:
    """GUM's first documents as a key, and as a response with every third document's
    entities, bridges and split antecedents dropped (so that scores differ)."""
    key = folder / "gum.conllu"
    key.write_text("".join(path.read_text(encoding="utf-8") for path in GUM), encoding="utf-8")
    text = key.read_text(encoding="utf-8").split("# newdoc")
    kept = [part if index % 3 else part.replace("Entity=", "X=").replace("Bridge=", "Y=")
            .replace("SplitAnte=", "Z=") for index, part in enumerate(text)]
    response = folder / "response.conllu"
    response.write_text("# newdoc".join(kept), encoding="utf-8")
    return key, response


@pytest.mark.parametrize("format", ["corefud", "ua"])
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pairs=st.lists(document_pairs(), min_size=1, max_size=5))
def test_generated_files_give_the_serial_numbers(tmp_path_factory, format, pairs) -> None:
    folder = tmp_path_factory.mktemp("files")
    key = write_documents(folder, "key", format, pairs, 0)
    response = write_documents(folder, "response", format, pairs, 1)
    both_ways(key, response)  # (tiny documents of unequal size may all go to one process)


@pytest.mark.skipif(not GUM, reason="../shared/corpora is absent")
def test_gum_corefud_and_ua_in_processes(tmp_path) -> None:
    key, response = gum_pair(tmp_path)
    assert split(str(key), str(response), "corefud")
    report = both_ways(str(key), str(response), match="head", keep_singletons=False,
                       metrics="all")
    assert report["documents"] == len(GUM)
    from anascore.formats.io.conversion import convert

    ua_key, ua_response = tmp_path / "gum.ua", tmp_path / "response.ua"
    convert(key, ua_key, to="ua", drop_unsupported=True)
    convert(response, ua_response, to="ua", drop_unsupported=True)
    assert split(str(ua_key), str(ua_response), "ua")
    both_ways(str(ua_key), str(ua_response), metrics="all")


@pytest.mark.skipif(not AMI.exists(), reason="../shared/corpora is absent")
def test_codi_crac_every_layer_in_processes(tmp_path) -> None:
    from anascore.formats.ua import read_ua

    documents = list(read_ua(AMI))
    response = tmp_path / "response.CONLLUA"
    write_ua([documents[0], *documents[1:]][::-1], response)  # another document order
    assert split(str(AMI), str(response), "ua")
    both_ways(str(AMI), str(response), keep_non_referring=True, keep_bridging=True,
              discourse_deixis=True, keep_split_antecedents=True, match="min")


CONLLU = """# newdoc id = {name}
# sent_id = {name}-1
1\tAnna\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1)
2\tsaw\t_\t_\t_\t_\t1\tdep\t_\t_
3\ther\t_\t_\t_\t_\t1\tdep\t_\tEntity=(e{other})

"""


def conllu(names: list[str], other: str = "1") -> str:
    return "# global.Entity = eid-etype-head-other\n" + "".join(
        CONLLU.format(name=name, other=other) for name in names)


def test_unsuited_files_are_left_to_the_serial_run(tmp_path) -> None:
    names = ["a", "b", "c"]
    key = tmp_path / "key.conllu"
    key.write_text(conllu(names))
    response = tmp_path / "response.conllu"
    response.write_text(conllu(names, "2"))
    assert split(str(key), str(response), "corefud")
    both_ways(str(key), str(response))
    # A '# sent_id' just before '# newdoc' belongs to the next document in the serial reader.
    moved = tmp_path / "moved.conllu"
    moved.write_text(conllu(names).replace("\n# newdoc id = b", "# sent_id = x\n# newdoc id = b"))
    assert not split(str(key), str(moved), "corefud")
    both_ways(str(key), str(moved))
    # A '# newdoc' without an id: its name is its position in the file.
    anonymous = tmp_path / "anonymous.conllu"
    anonymous.write_text(conllu(names).replace("# newdoc id = c", "# newdoc"))
    assert not split(str(anonymous), str(anonymous), "corefud")


def test_a_sent_id_before_a_newdoc_is_found_across_blank_lines_and_spaces() -> None:
    # The serial reader gives a '# sent_id' to the next document, whatever white space lies
    # between them; the scan leaves such a file to it, and takes one where a token line or
    # another comment comes last.
    def scanned(text: str) -> bool:
        try:
            parallel._scan(text.encode(), len(text.encode()), 0, [],
                           parallel._layouts()["corefud"], [], first=True)
        except parallel._Unsuited:
            return False
        return True

    token = "1\tw\t_\t_\t_\t_\t0\t_\t_\t_\n"
    newdoc = "# newdoc id = b\n" + token
    for between, suited in [("\n", True), ("\n\n \t\n\x0b\x0c\r\n", True),
                            ("# sent_id = x\n", False), ("# sent_id = x\n\n  \n\n", False),
                            ("  # sent_id = x \t\n", False), ("# text = x\n", True),
                            ("# sent_id = x\n" + token, True)]:
        assert scanned("# newdoc id = a\n" + token + between + newdoc) is suited, between
    assert scanned(newdoc)


def test_finding_the_documents_of_a_block_is_linear_in_its_size() -> None:
    # The look back for a '# sent_id' before each '# newdoc' copied the block up to that line
    # (twice): 3,000 documents in a 9 MB block took 2.2 s on an idle core, a fifth of a
    # two-process CorefUD run's parent on the OntoNotes-sized corpus. It now looks at the
    # line before alone. Measured by what it allocates, not by time (no timed tests): a copy
    # of the block up to a line is megabytes, the documents' names and offsets a few hundred
    # kilobytes.
    import tracemalloc

    document = "# newdoc id = d{n}\n# sent_id = s{n}\n" + \
        "1\tw\t_\t_\t_\t_\t0\t_\t_\t_\n" * 150 + "\n"
    data = "".join(document.format(n=n) for n in range(3000)).encode()
    begins: list = []
    tracemalloc.start()
    try:
        parallel._scan(data, len(data), 0, begins, parallel._layouts()["corefud"], [],
                       first=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < len(data) // 10, (peak, len(data))
    assert [name for name, _ in begins] == [f"d{n}" for n in range(3000)]
    assert begins[1][1] == len(document.format(n=0))  # line 154: counted by its reader


def test_a_header_line_between_documents_applies_in_every_process(tmp_path) -> None:
    # UA: the second '# global.columns' moves IDENTITY; each stretch is read with the
    # header in force where it begins.
    first = ("# global.columns = ID FORM IDENTITY\n# newdoc id = a\n1\tAnna\t(EntityID=1)\n"
             "2\tand\t_\n3\ther\t(EntityID=1)\n\n")
    second = ("# global.columns = ID IDENTITY FORM\n# newdoc id = b\n1\t(EntityID=2)\tBen\n"
              "2\t_\tand\n3\t(EntityID=2)\thim\n\n# newdoc id = c\n1\t(EntityID=3)\tCy\n\n")
    key = tmp_path / "key.CONLLUA"
    key.write_text(first + second)
    response = tmp_path / "response.CONLLUA"
    response.write_text(first + second.replace("3\t(EntityID=2)\thim", "3\t_\thim"))
    assert split(str(key), str(response), "ua")
    report = both_ways(str(key), str(response))
    assert report["per_document"]["b"]["metrics"]["mentions"]["recall"] == 0.5


def test_the_same_error_in_one_process_and_two(tmp_path) -> None:
    names = ["a", "b", "c", "d"]
    key = tmp_path / "key.conllu"
    key.write_text(conllu(names))
    broken = tmp_path / "broken.conllu"
    broken.write_text(conllu(names).replace("Entity=(e1)\n2\tsaw", "Entity=(e1\n2\tsaw", 1)
                      .replace("# newdoc id = c\n", "# newdoc id = c\n", 1))
    messages = []
    for jobs in (1, 2):
        with pytest.raises(AnascoreError) as raised:
            score_files(str(key), str(broken), Options(jobs=jobs))
        messages.append(raised.value.location_message())
    assert messages[0] == messages[1]
    assert "never closed" in messages[0]


@pytest.mark.skipif(not GUM, reason="../shared/corpora is absent")
def test_the_error_analysis_in_processes_is_the_serial_one(tmp_path) -> None:
    import json

    from anascore.analysis.analyse import analyse_files

    key, response = gum_pair(tmp_path)
    found = [json.dumps(analyse_files(key, response, Options.create(jobs=jobs, match="head"))
                        .to_dict(per_document=True, listed=True), sort_keys=True)
             for jobs in (1, 2)]
    assert found[0] == found[1]
    assert json.loads(found[0])["errors"]["missing_entity"] > 0
