"""The UA exploded format: what the reader builds from each construct of the format, the
writer's round trip, format detection, and every malformation as an error naming file and
line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings

from anascore.config.options import Options
from anascore.core.errors import FormatError
from anascore.core.model import BridgingLink, Document
from anascore.formats import detect_format, read_documents
from anascore.formats.ua import read_ua, write_ua
from anascore.scoring.document import count_document
from anascore.scoring.pipeline import score
from tests.support.paths import FIXTURES
from tests.support.strategies import ua_document_pairs, ua_documents

FIXTURES = FIXTURES / "ua"
COLUMNS = ("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY "
           "BRIDGING DISCOURSE_DEIXIS\n")


def spans(mentions) -> list[tuple[int, ...]]:
    return [mention.tokens for mention in mentions]


@pytest.fixture(scope="module")
def garden() -> Document:
    return next(iter(read_ua(FIXTURES / "features.conllua")))


@pytest.fixture(scope="module")
def crossing() -> Document:
    return list(read_ua(FIXTURES / "features.conllua"))[1]


def test_documents_tokens_and_entities(garden: Document) -> None:
    assert garden.name == "garden"
    assert len(garden.tokens) == 35
    assert garden.tokens[:4] == ("Anna", "met", "Ben", ".")
    # entities in the order their first markable opens; pseudo-entities are not among them
    assert [entity.id for entity in garden.entities] == ["1", "2", "3", "5", "6", "7", "9", "12"]
    by_id = {entity.id: entity for entity in garden.entities}
    assert spans(by_id["1"].mentions) == [(0,), (26,)]
    assert spans(by_id["2"].mentions) == [(2,), (28,)]
    # "the old garden gate" holds the one-token "garden"; "Anna and Ben" was opened with '@'
    assert spans(by_id["5"].mentions) == [(7, 8, 9, 10), (16, 17)]
    assert spans(by_id["6"].mentions) == [(9,)]
    assert spans(by_id["3"].mentions) == [(4,), (26, 27, 28)]


def test_split_antecedents_come_from_element_of(garden: Document, crossing: Document) -> None:
    by_id = {entity.id: entity for entity in garden.entities}
    assert by_id["3"].elements == ("1", "2")
    assert all(by_id[name].elements == () for name in ("1", "2", "5"))
    # ElementOf=6,7: entity 5 is an element of two plurals
    by_id = {entity.id: entity for entity in crossing.entities}
    assert by_id["6"].elements == ("5",)
    assert by_id["7"].elements == ("5",)


def test_min_spans_and_attributes(garden: Document) -> None:
    mentions = {mention.attributes["MarkableID"]: mention
                for entity in garden.entities for mention in entity.mentions}
    assert mentions["m4"].min_tokens == (10,)          # Min=11: token ID 11 is position 10
    assert mentions["m10"].min_tokens == (26, 27, 28)  # Min=27,29: a range, as CODI-CRAC writes
    assert mentions["m14"].attributes["Genericity"] == "generic-no"  # unknown attributes kept
    assert mentions["m14"].attributes["SemType"] == "dn"
    assert mentions["m1"].line == 5


def test_non_referring_markables(garden: Document) -> None:
    # -Pseudo, and the _Pseudo spelling; a markable without Min has no min span
    assert spans(garden.non_referring) == [(12,), (30,)]
    assert garden.non_referring[1].min_tokens is None


def test_bridging_links(garden: Document) -> None:
    hinge, bench = (20, 21), (32, 33)
    assert [(link.anaphor.tokens, link.antecedent and link.antecedent.tokens,
             link.antecedent_entity, link.relation) for link in garden.bridging] == [
        (hinge, (16, 17), "5", "part-of"),
        # two anchors for one anaphor; EntityAnchor alone, and EntityAnchor=11 naming the
        # pseudo-entity 11_Pseudo without its suffix
        (bench, None, "6", "undersp-rel"),
        (bench, (30,), "11_Pseudo", "poss"),
    ]
    assert isinstance(garden.bridging[0], BridgingLink)


def test_discourse_deixis_layer(garden: Document) -> None:
    assert [entity.id for entity in garden.discourse_deixis] == ["1-DD"]
    (entity,) = garden.discourse_deixis
    assert spans(entity.mentions) == [(16, 17, 18), (24,)]
    assert entity.mentions[0].min_tokens == (16, 17, 18)


def test_crossing_and_discontinuous_markables(crossing: Document) -> None:
    by_id = {entity.id: entity for entity in crossing.entities}
    assert spans(by_id["1"].mentions) == [(0, 5)]   # two chunks of markable z
    assert spans(by_id["2"].mentions) == [(1, 2, 3)]  # x) closes x across the open y
    assert spans(by_id["3"].mentions) == [(2, 3, 4)]
    assert spans(by_id["4"].mentions) == [(4, 5)]
    assert spans(by_id["5"].mentions) == [(4,)]


def test_space_aligned_file_without_global_columns(tmp_path: Path) -> None:
    lines = ["# newdoc id = d", "# sent_id = d-1"]
    cells = {1: ("We", "(EntityID=1|MarkableID=a|Min=1)", "_", "_"),
             2: ("saw", "_", "_", "_"),
             3: ("it", "(EntityID=2-Pseudo|MarkableID=b)", "_", "(EntityID=1-DD|MarkableID=c)"),
             4: ("us", "(EntityID=1|MarkableID=e)", "(MarkableID=e|MentionAnchor=a)", "_")}
    for number, (word, identity, bridging, deixis) in cells.items():
        lines.append(f"{number}     {word:<5} " + "  _" * 8 + f"  {identity:<40}  {bridging}  "
                     f"{deixis}  _")
    path = tmp_path / "spaces.conllua"
    path.write_text("\n".join(lines) + "\n")
    assert detect_format(path) == "ua"
    (document,) = read_documents(path)
    assert spans(document.entities[0].mentions) == [(0,), (3,)]
    assert spans(document.non_referring) == [(2,)]
    assert spans(document.discourse_deixis[0].mentions) == [(2,)]
    assert document.bridging[0].antecedent.tokens == (0,)


def test_tab_separated_cells_may_be_empty(tmp_path: Path) -> None:
    path = tmp_path / "tabs.conllua"
    path.write_text(COLUMNS + "# newdoc id = d\n"
                    "1\tWe\t\t\t\t\t\t\t\t\t(EntityID=1|MarkableID=a)\t\t(EntityID=1-DD|MarkableID=c)\n"
                    "2\tsaw" + "\t" * 11 + "\n"
                    "3\tus\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=b)\t_\t_\n")
    (document,) = read_ua(path)
    assert document.tokens == ("We", "saw", "us")
    assert spans(document.entities[0].mentions) == [(0,), (2,)]
    assert spans(document.discourse_deixis[0].mentions) == [(0,)]


@pytest.mark.parametrize(("line", "message"), [
    # A token line without its annotation columns: its markables would vanish.
    ("2\tsaw\n", "2 tab-separated columns; expected 13"),
    ("2\tsaw\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=b)\n",
     "11 tab-separated columns; expected 13"),
    # One column too many shifts every annotation.
    ("2\tsaw" + "\t_" * 11 + "\t_\n", "14 tab-separated columns; expected 13"),
    # Space-aligned lines cannot show an empty trailing cell, but must reach IDENTITY.
    ("2 saw _ _ _ _ _ _ _ _\n", "10 columns; expected at least 11, up to IDENTITY"),
    ("2 saw" + " _" * 12 + "\n", "14 columns; expected at most 13"),
])
def test_a_token_line_with_other_columns_is_an_error(tmp_path: Path, line: str,
                                                     message: str) -> None:
    path = tmp_path / "columns.conllua"
    path.write_text(COLUMNS + "# newdoc id = d\n"
                    "1\tWe\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=a)\t_\t_\n" + line)
    with pytest.raises(FormatError, match=re.escape(message)) as caught:
        list(read_ua(path))
    assert caught.value.line == COLUMNS.count("\n") + 3


def test_space_aligned_lines_may_stop_after_identity(tmp_path: Path) -> None:
    # CODI-CRAC's files align columns with spaces; an empty last cell then has no text.
    path = tmp_path / "spaces.conllua"
    path.write_text(COLUMNS + "# newdoc id = d\n"
                    "1 We _ _ _ _ _ _ _ _ (EntityID=1|MarkableID=a)\n"
                    "2 us _ _ _ _ _ _ _ _ (EntityID=1|MarkableID=b) _ _\n")
    (document,) = read_ua(path)
    assert spans(document.entities[0].mentions) == [(0,), (1,)]


def test_empty_nodes_are_tokens_and_multiword_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "nodes.conllua"
    path.write_text(COLUMNS + "# newdoc id = d\n"
                    "1-2\tdont\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\n"
                    "1\tdo\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\n"
                    "2\tnt\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\n"
                    "2.1\t_\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=z|Min=2.1)\t_\t_\n"
                    "3\tgo\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=g)\t_\t_\n")
    (document,) = read_ua(path)
    assert document.tokens == ("do", "nt", "_", "go")
    assert spans(document.entities[0].mentions) == [(2,), (3,)]
    assert document.entities[0].mentions[0].min_tokens == (2,)


def test_detection(tmp_path: Path) -> None:
    assert detect_format(FIXTURES / "features.conllua") == "ua"
    conll = tmp_path / "x.conll"
    conll.write_text("#begin document (x); part 000\nx 0 0 a (1)\n#end document\n")
    assert detect_format(conll) == "conll2012"
    conll.write_text("\ufeff" + conll.read_text(), encoding="utf-8")  # a byte order mark
    assert detect_format(conll) == "conll2012"
    ten_columns = tmp_path / "x.conllu"
    ten_columns.write_text("# newdoc id = d\n1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n")
    # ten columns and no '# global.columns': plain CoNLL-U, read as CorefUD
    assert detect_format(ten_columns) == "corefud"
    seven_columns = tmp_path / "x.txt"
    seven_columns.write_text("# newdoc id = d\n1\ta\t_\t_\t_\t_\t_\n")
    with pytest.raises(FormatError, match="cannot tell the format"):
        detect_format(seven_columns)


def document_summary(document: Document, *, attributes: bool = True) -> dict:
    """What a document says, in text order (entities by identifier, mentions by tokens), so
    that documents read back from a written file compare equal."""
    def layer(entities):
        return sorted((entity.id, sorted((mention.tokens, mention.min_tokens or ())
                                         for mention in entity.mentions),
                       sorted(entity.elements)) for entity in entities)

    summary = {
        "name": document.name, "tokens": document.tokens,
        "entities": layer(document.entities), "deixis": layer(document.discourse_deixis),
        "non_referring": sorted((mention.tokens, mention.min_tokens or ())
                                for mention in document.non_referring),
        "bridging": sorted((link.anaphor.tokens, link.antecedent.tokens if link.antecedent
                            else (), link.antecedent_entity or "", link.relation)
                           for link in document.bridging),
    }
    if attributes:
        summary["attributes"] = sorted(
            sorted((name, value) for name, value in mention.attributes.items()
                   if name not in ("Min", "ElementOf"))
            for entity in document.entities for mention in entity.mentions)
    return summary


def test_writer_round_trip_of_the_fixture(tmp_path: Path) -> None:
    documents = list(read_ua(FIXTURES / "features.conllua"))
    write_ua(documents, tmp_path / "out.conllua")
    again = list(read_ua(tmp_path / "out.conllua"))
    assert [document_summary(document) for document in again] == [
        document_summary(document) for document in documents]


@settings(max_examples=40, deadline=None)
@given(ua_documents())
def test_writer_round_trip_of_generated_documents(tmp_path_factory, document: Document) -> None:
    path = tmp_path_factory.mktemp("ua") / "generated.conllua"
    write_ua([document], path)
    (again,) = read_ua(path)
    assert document_summary(again, attributes=False) == document_summary(document,
                                                                          attributes=False)


def test_writer_refuses_what_the_format_cannot_hold(tmp_path: Path) -> None:
    (document,) = list(read_ua(FIXTURES / "features.conllua"))[:1]
    bad = Document(document.name, document.tokens,
                   (document.entities[0].__class__("a|b", document.entities[0].mentions),))
    with pytest.raises(FormatError, match="entity id 'a\\|b' cannot be written"):
        write_ua([bad], tmp_path / "bad.conllua")


GOOD_TOKENS = [
    ("Anna", "(EntityID=1|MarkableID=m1)"),
    ("saw", "_"),
    ("her", "(EntityID=1|MarkableID=m2)"),
]


def with_cells(token: int, identity: str = "_", bridging: str = "_", deixis: str = "_") -> str:
    """The good document with token ``token`` (1-based; line ``token + 2`` of the file)
    annotated as given."""
    lines = [COLUMNS.rstrip("\n"), "# newdoc id = d"]
    for number, (word, cell) in enumerate(GOOD_TOKENS, start=1):
        cells = (identity, bridging, deixis) if number == token else (cell, "_", "_")
        lines.append("\t".join([str(number), word, *["_"] * 8, *cells]))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("text", "line", "message"), [
    (with_cells(2, "(EntityID=2|MarkableID=m3"), 4,
     "IDENTITY markable m3 \\(EntityID=2\\) opened here is never closed in document 'd'"),
    (with_cells(2, ")"), 4, "closing bracket '\\)' without an open IDENTITY markable"),
    (with_cells(2, "m9)"), 4, "closing bracket 'm9\\)' names no open IDENTITY markable"),
    (with_cells(2, "(MarkableID=m3)"), 4, "has no EntityID"),
    (with_cells(2, "(EntityID=2|MarkableID)"), 4, "attribute 'MarkableID'.*expected Name=value"),
    (with_cells(2, "Anna"), 4, "unknown IDENTITY annotation 'Anna'"),
    (with_cells(2, "(EntityID=2|MarkableID=m1)"), 4,
     "markable m1 continues with EntityID=2 but began \\(line 3\\) with EntityID=1"),
    (with_cells(2, "(EntityID=2|MarkableID=m3|ElementOf=8)"), 4,
     "ElementOf=8 names no entity of the IDENTITY column"),
    (with_cells(2, "(EntityID=2|MarkableID=m3|Min=7)"), 4,
     "Min=7 of markable m3 names token 7, which is not in its document"),
    (with_cells(2, "(EntityID=2|MarkableID=m3|Min=x)"), 4, "expected token IDs"),
    (with_cells(2, "(EntityID=2|MarkableID=m3|Min=3,1)"), 4, "ends before it starts"),
    (with_cells(2, "_", "(MarkableID=m9|MentionAnchor=m1)"), 4,
     "bridging anaphor MarkableID=m9 names no markable"),
    (with_cells(2, "_", "(MarkableID=m1|MentionAnchor=m7)"), 4,
     "bridging anchor MentionAnchor=m7 names no markable"),
    (with_cells(2, "_", "(MarkableID=m1|EntityAnchor=5)"), 4,
     "bridging anchor EntityAnchor=5 names no entity"),
    (with_cells(2, "_", "(MarkableID=m1|Rel=poss)"), 4, "has no anchor"),
    (with_cells(2, "_", "(Rel=poss|MentionAnchor=m1)"), 4, "has no MarkableID"),
    (with_cells(2, "_", "(MarkableID=m1|MentionAnchor=m1"), 4,
     "BRIDGING annotation opened here is never closed"),
    (with_cells(2, "(EntityID=2|MarkableID=m3)", "(MarkableID=m3|MentionAnchor=m1|"
                "EntityAnchor=2)"), 4, "bridging anchors disagree"),
    (with_cells(2, "_", "_", "(EntityID=1-DD|MarkableID=d1"), 4,
     "DISCOURSE_DEIXIS markable d1 .* never closed"),
    (COLUMNS + "1\ta\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\n", 2, "token line before any document"),
    (COLUMNS + "# newdoc\n", 2, "'# newdoc' without a document id"),
    (COLUMNS + "# newdoc id = d\nx\ta\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\n", 3, "token ID 'x'"),
    ("# global.columns = ID FORM MISC\n# newdoc id = d\n", 1, "names no IDENTITY column"),
    (COLUMNS + "# just a comment\n", 2, "no document found"),
])
def test_malformations_name_file_and_line(tmp_path: Path, text: str, line: int,
                                          message: str) -> None:
    path = tmp_path / "bad.conllua"
    path.write_text(text)
    with pytest.raises(FormatError, match=message) as raised:
        list(read_ua(path))
    assert raised.value.path == str(path)
    assert raised.value.line == line


def test_min_ids_within_a_sentence_when_ids_restart(tmp_path: Path) -> None:
    # CoNLL-U numbers tokens per sentence; the UA format numbers them per document. When a
    # file restarts at 1, a Min ID is read within the markable's sentence.
    path = tmp_path / "restart.conllua"
    path.write_text(COLUMNS + "# newdoc id = d\n"
                    "1\tAnna\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=a|Min=1)\t_\t_\n\n"
                    "1\tthe\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=2|MarkableID=b|Min=2\t_\t_\n"
                    "2\tdog\t_\t_\t_\t_\t_\t_\t_\t_\t)\t_\t_\n")
    (document,) = read_ua(path)
    assert [entity.mentions[0].min_tokens for entity in document.entities] == [(0,), (2,)]


def test_token_columns_give_upos_and_heads_from_dependencies() -> None:
    # typed_key.conllua: "Mary Jones saw the tall doctor . She thanked him ." with UPOS and
    # dependency heads; token IDs restart in the second sentence
    (document,) = read_ua(FIXTURES / "typed_key.conllua", token_columns=True)
    assert document.token_columns["upos"][:6] == ("PROPN", "PROPN", "VERB", "DET", "ADJ",
                                                  "NOUN")
    assert set(document.token_columns["empty_node"]) == {"0"}
    # a head is the first token whose dependency head lies outside the markable: "Jones"
    # (Mary → Jones → saw), "doctor" (the, tall → doctor → saw), and one-token markables
    heads = {mention.tokens: mention.head for entity in document.entities
             for mention in entity.mentions}
    assert heads == {(0, 1): 1, (3, 4, 5): 5, (7,): 7, (9,): 9}
    # without token_columns (the default, for speed) no column is kept, but the heads are
    # the same: whether a mention is a zero is decided by its head, whatever is asked
    (plain,) = read_ua(FIXTURES / "typed_key.conllua")
    assert plain.token_columns == {}
    assert {mention.tokens: mention.head for entity in plain.entities
            for mention in entity.mentions} == heads


def test_without_dependency_heads_a_one_token_min_is_the_head(tmp_path: Path) -> None:
    text = (FIXTURES / "typed_key.conllua").read_text(encoding="utf-8")
    lines = [line.split("\t") for line in text.splitlines()]
    for cells in lines:
        if len(cells) > 6:
            cells[6] = "_"
    path = tmp_path / "no_heads.conllua"
    path.write_text("\n".join("\t".join(cells) for cells in lines) + "\n", encoding="utf-8")
    (document,) = read_ua(path, token_columns=True)
    assert [mention.head for entity in document.entities for mention in entity.mentions] == [
        1, 7, 5, 9]  # Min=2 (Jones), She, Min=6 (doctor), him


def test_linguistic_metrics_type_ua_mentions_from_upos() -> None:
    # key {Mary Jones, She}, {the tall doctor, him}; the response puts "him" with Mary Jones.
    # Chen & Ng 2013 with W4 = (1, 0.75, 0.5, 1): key chains weigh 1 (a name link) and 0.75
    # (nominal–pronoun); the response keeps the name link (1) and splits the doctor's chain
    # into parts of one mention (0); its chain {Mary Jones, She, him} weighs 1 + the heaviest
    # spurious link joining "him", to the name (1); the singleton {the tall doctor} w_sing 1.
    report = score(FIXTURES / "typed_key.conllua", FIXTURES / "typed_response.conllua",
                   metrics="muc,lmuc")
    lmuc = report.metrics["lmuc"]
    assert (lmuc.recall, lmuc.precision) == pytest.approx((1 / (1 + 0.75), 1 / (2 + 1)))
    assert (report.metrics["muc"].recall, report.metrics["muc"].precision) == (1 / 2, 1 / 2)


@settings(max_examples=30, deadline=None)
@given(ua_document_pairs())
def test_a_round_trip_keeps_every_score(tmp_path_factory, pair) -> None:
    key, response = pair
    folder = tmp_path_factory.mktemp("ua")
    write_ua([key], folder / "key.conllua")
    write_ua([response], folder / "response.conllua")
    (key_again,) = read_ua(folder / "key.conllua")
    (response_again,) = read_ua(folder / "response.conllua")
    # compat="ua" counts a span annotated twice by the order the file lists entities in, which
    # a written file may change (entities first mentioned on the same token)
    repeated = any(len({m.tokens for entity in layer for m in entity.mentions})
                   != sum(len(entity.mentions) for entity in layer)
                   for document in pair
                   for layer in (document.entities, document.discourse_deixis))
    for compat in ("none",) if repeated else ("none", "ua"):
        for match in ("exact", "min"):
            options = Options(keep_non_referring=True, keep_bridging=True,
                              discourse_deixis=True, compat=compat, match=match)
            before = count_document(key, response, options, [])
            after = count_document(key_again, response_again, options, [])
            for name, counts in before.items():
                assert after[name].tolist() == pytest.approx(counts.tolist()), (name, compat)


def test_a_markable_on_the_root_is_headed_by_it(tmp_path: Path) -> None:
    # "Anna slept ." — "slept" is the root (HEAD 0); the one-token markable on it and the
    # markable "Anna slept" both have "slept" as their head (its governor, the root, lies
    # outside every markable); before, a root's governor read as unknown and a markable made
    # only of the root had no head at all.
    path = tmp_path / "root.conllua"
    path.write_text(COLUMNS + "# newdoc id = d\n"
                    "1\tAnna\t_\tPROPN\t_\t_\t2\tnsubj\t_\t_\t(EntityID=1|MarkableID=a\t_\t_\n"
                    "2\tslept\t_\tVERB\t_\t_\t0\troot\t_\t_\t(EntityID=2|MarkableID=b)a)\t_\t_\n"
                    "3\t.\t_\tPUNCT\t_\t_\t2\tpunct\t_\t_\t_\t_\t_\n")
    (document,) = read_ua(path, token_columns=True)
    heads = {mention.tokens: mention.head for entity in document.entities
             for mention in entity.mentions}
    assert heads == {(0, 1): 1, (1,): 1}


@pytest.mark.parametrize("opening", ["EntityID=1|SemType=x|EntityID=2",
                                     "EntityID=1|MarkableID=m1|MarkableID=m2",
                                     "EntityID=1|Entity_ID=2",
                                     "EntityID=1|Note=a=b|EntityID=2",
                                     "EntityID=1|Min=1|min=2"])
def test_an_attribute_given_twice_is_refused(tmp_path: Path, opening: str) -> None:
    # The last value was taken without a word: '(EntityID=1|…|EntityID=2)' was a mention
    # of entity 2.
    path = tmp_path / "twice.conllua"
    path.write_text("# global.columns = ID FORM IDENTITY\n# newdoc id = d\n"
                    f"1\tA\t({opening})\n2\tB\t(EntityID=3)\n\n")
    with pytest.raises(FormatError, match=r"twice.conllua:3: IDENTITY attribute \w+ given "
                                          "twice"):
        list(read_ua(path))
