"""The CorefUD reader and writer, the key/response alignment of CoNLL-U files, and Udapi as
an oracle on real data."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import anascore
from anascore.compat.ua_scorer import first_word_heads
from anascore.core.errors import DocumentMismatchError, FormatError
from anascore.formats import detect_format
from anascore.formats.corefud import read_corefud, write_corefud
from tests.support.paths import CORPORA, FIXTURES

FIXTURES = FIXTURES / "corefud"


def mentions_of(document) -> dict[str, list[tuple[tuple[int, ...], int | None]]]:
    return {entity.id: [(mention.tokens, mention.head) for mention in entity.mentions]
            for entity in document.entities}


def test_reads_every_construct_of_the_format() -> None:
    first, second = read_corefud(FIXTURES / "two_documents.conllu")
    # Positions: sentence 1 is Anna0 saw1 the2 old3 man4 and5 [6.1]6 greeted7 him8 .9,
    # sentence 2 They10 both11 ca12 n't13 open14 the15 door16 .17 (the range 3-4 is not a
    # position), sentence 3 The18 house19 ,20 old21 .22.
    assert first.name == "d1" and second.name == "d2"
    assert first.sentence_starts == (0, 10, 18)
    assert first.tokens[6] == "_" and first.tokens[12:14] == ("ca", "n't")
    assert mentions_of(first) == {
        "e1": [((0,), 0), ((6,), 6)],
        "e2": [((2, 3, 4), 4), ((8,), 8)],           # head index 3 of "the old man": man
        "e3": [((10, 11), 10)],
        "e4": [((15, 16), 16)],
        "e5": [((18, 19, 21), 19)],                  # parts [1/2] and [2/2], head index 2
    }
    entity = {entity.id: entity for entity in first.entities}
    assert entity["e3"].elements == ("e1", "e2")
    assert entity["e2"].attributes["etype"] == "person"
    (bridge,) = first.bridging
    assert (bridge.anaphor.tokens, bridge.antecedent_entity, bridge.relation) == \
        ((15, 16), "e5", "part")
    assert first.nodes is not None
    assert first.nodes.ids[5:8] == ("6", "6.1", "7")
    assert first.nodes.empty[6] and first.nodes.deps[6] == "7:nsubj"
    assert first.nodes.sentence_ids == ("d1-1", "d1-2", "d1-3")
    assert mentions_of(second) == {"e1": [((0,), 0)]}  # an entity ID of d1 is new in d2


def test_is_detected() -> None:
    assert detect_format(FIXTURES / "two_documents.conllu") == "corefud"


def _gum_style(tmp_path: Path, heads: tuple[str, str, str]) -> Path:
    # "The man slept": GUM's header has no head field; the tree is given by ``heads``
    path = tmp_path / "gum.conllu"
    path.write_text("# newdoc id = g\n# global.Entity = GRP-etype-infstat\n# sent_id = g-1\n"
                    f"1\tThe\t_\t_\t_\t_\t{heads[0]}\t_\t_\tEntity=(7-person-new\n"
                    f"2\tman\t_\t_\t_\t_\t{heads[1]}\t_\t_\tEntity=7)\n"
                    f"3\tslept\t_\t_\t_\t_\t{heads[2]}\t_\t_\tEntity=(8-event-new)\n\n",
                    encoding="utf-8")
    return path


def test_a_head_the_file_does_not_give_comes_from_the_dependency_tree(tmp_path: Path) -> None:
    # The → man → slept (root): "The man" is headed by "man", the word governed from outside;
    # before, every such mention was silently headed by its first word ("The")
    (document,) = read_corefud(_gum_style(tmp_path, ("2", "3", "0")))
    assert [entity.id for entity in document.entities] == ["7", "8"]
    assert [(mention.tokens, mention.head, dict(mention.attributes))
            for entity in document.entities for mention in entity.mentions] == [
        ((0, 1), 1, {"infstat": "new"}), ((2,), 2, {"infstat": "new"})]
    assert document.heads_not_given == {(0, 1), (2,)}


def test_without_a_tree_a_head_the_file_does_not_give_is_unknown(tmp_path: Path) -> None:
    # HEAD 0 on every word (what a writer without a parser puts there) is no tree: the
    # two-word mention's head is unknown, and head matching refuses rather than guess; a
    # one-word mention is headed by its word
    path = _gum_style(tmp_path, ("0", "0", "0"))
    (document,) = read_corefud(path)
    assert [mention.head for entity in document.entities
            for mention in entity.mentions] == [None, 2]
    with pytest.raises(anascore.OptionsError, match=r"1 of the 2 mentions .* have none"):
        anascore.score(path, path, match="head")
    # the CorefUD scorer (Udapi) takes the first word; compat="ua" does as it does
    report = anascore.score(path, path, match="head", compat="ua")
    assert report.metrics["mentions"].f1 == 1.0


def test_compat_ua_heads_by_the_first_word_where_the_file_gives_no_head(tmp_path: Path) -> None:
    # key "The man" (tree head "man"), response "The" alone: under head matching with the
    # tree's heads they differ (head "man" against "The"); under compat="ua" both are headed
    # by "The" and match, as in the CorefUD scorer
    key = _gum_style(tmp_path, ("2", "3", "0"))
    response = tmp_path / "response.conllu"
    response.write_text(key.read_text(encoding="utf-8")
                        .replace("Entity=(7-person-new\n", "Entity=(7-person-new)\n")
                        .replace("Entity=7)\n", "_\n"), encoding="utf-8")
    default = anascore.score(key, response, match="head")
    ua = anascore.score(key, response, match="head", compat="ua")
    assert (default.metrics["mentions"].recall, ua.metrics["mentions"].recall) == (0.5, 1.0)


BAD_CELLS = [
    ("Entity=(e1-x-1-", "never closed"),
    ("Entity=e1)", "not open"),
    ("Entity=(e1-x-3-)", "head index 3"),
    ("Entity=(e1-x-one-)", "head index 'one'"),
    ("Entity=(e1-x-1-)|SplitAnte=e9<e1", "entity e9 is named here"),
    ("Bridge=e1<e2|Entity=(e1-x-1-)", "entity e2 has no mention opened"),
    ("Entity=(e1[2/2]-x-1-)", "without its part 1/2"),
    ("Entity=e1)garbage(", "expected brackets"),
]


@pytest.mark.parametrize(("cell", "message"), BAD_CELLS)
def test_malformed_annotation_is_an_error_naming_file_and_line(tmp_path: Path, cell: str,
                                                               message: str) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text("# newdoc id = b\n# global.Entity = eid-etype-head-other\n# sent_id = b-1\n"
                    "1\tword\t_\t_\t_\t_\t0\t_\t_\t_\n"
                    f"2\tword\t_\t_\t_\t_\t0\t_\t_\t{cell}\n\n")
    with pytest.raises(FormatError, match=message) as error:
        list(read_corefud(path))
    assert error.value.path == str(path) and error.value.line in (4, 5)


def test_a_mention_crossing_a_sentence_boundary_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text("# newdoc id = b\n# sent_id = b-1\n1\ta\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-1-\n"
                    "\n# sent_id = b-2\n1\tb\t_\t_\t_\t_\t0\t_\t_\tEntity=e1)\n\n")
    with pytest.raises(FormatError, match="closes in another sentence") as error:
        list(read_corefud(path))
    assert error.value.line == 6


def test_a_line_without_ten_columns_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text("# newdoc id = b\n1\tword\t_\t_\n")
    with pytest.raises(FormatError, match="10 tab-separated columns; this one has 4"):
        list(read_corefud(path))


def test_writer_round_trip_keeps_every_mention_head_and_link(tmp_path: Path) -> None:
    original = list(read_corefud(FIXTURES / "two_documents.conllu"))
    write_corefud(original, tmp_path / "out.conllu")
    again = list(read_corefud(tmp_path / "out.conllu"))
    assert [mentions_of(document) for document in again] == \
        [mentions_of(document) for document in original]
    assert [[entity.elements for entity in document.entities] for document in again] == \
        [[entity.elements for entity in document.entities] for document in original]
    assert [(link.anaphor.tokens, link.antecedent_entity, link.relation)
            for link in again[0].bridging] == [((15, 16), "e5", "part")]
    assert again[0].nodes.ids == original[0].nodes.ids
    assert again[0].nodes.deps == original[0].nodes.deps


def _write_sentences(path: Path, sentences: list[tuple[str, list[str]]]) -> None:
    lines = ["# newdoc id = a"]
    for sent_id, forms in sentences:
        lines.append(f"# sent_id = {sent_id}")
        lines += [f"{number}\t{form}\t_\t_\t_\t_\t0\t_\t_\t_"
                  for number, form in enumerate(forms, 1)]
        lines.append("")
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(("response", "message"), [
    ([("a-1", ["A", "b"]), ("a-2", ["C", "d"])], "sentence 2, word 1 is 'c' in the key"),
    ([("a-1", ["A", "b"]), ("a-X", ["c", "d"])], "sentence 2 has sent_id 'a-2' in the key"),
    ([("a-1", ["A", "b"])], "the key has 2 sentences, the other file 1"),
    ([("a-1", ["A", "b"]), ("a-2", ["c"])], "sentence 2, word 2 is 'd' in the key"),
])
def test_key_and_response_must_align_and_the_first_difference_names_both_files(
        tmp_path: Path, response, message: str) -> None:
    key_path, response_path = tmp_path / "key.conllu", tmp_path / "response.conllu"
    _write_sentences(key_path, [("a-1", ["A", "b"]), ("a-2", ["c", "d"])])
    _write_sentences(response_path, response)
    with pytest.raises(DocumentMismatchError, match=message) as error:
        anascore.score(key_path, response_path)
    assert str(key_path) in str(error.value) and str(response_path) in str(error.value)


def test_empty_nodes_may_differ_and_zeros_align_by_their_dependencies() -> None:
    # Key: Maria … and [3.1 ∅ 4:nsubj] sang; response: Maria … sang [4.1 ∅ 4:nsubj]; both
    # say the zero is Maria. By position the zeros differ: MUC finds no link (0 of 1); by
    # dependencies they align: MUC 1 of 1, and the zero anaphor is resolved.
    key, response = FIXTURES / "zero_key.conllu", FIXTURES / "zero_response.conllu"
    linear = anascore.score(key, response, zero_match="linear", metrics="muc,mentions,zero")
    assert (linear.metrics["muc"].recall, linear.metrics["mentions"].recall) == (0.0, 1 / 2)
    # zero: the key anaphor has no counterpart (FN), the response one is spurious (FP).
    assert (linear.metrics["zero"].recall, linear.metrics["zero"].precision) == (0.0, 0.0)
    dependent = anascore.score(key, response, zero_match="dependent",
                               metrics="muc,mentions,zero")
    assert (dependent.metrics["muc"].recall, dependent.metrics["muc"].precision) == (1.0, 1.0)
    assert dependent.metrics["zero"].f1 == 1.0
    without = anascore.score(key, response, keep_zeros=False, metrics="muc,mentions")
    assert without.metrics["mentions"].recall_den == 1  # Maria alone
    assert "zeros:remove" in without.signature


def test_a_response_in_another_format_aligns_with_the_words_of_a_conllu_key(
        tmp_path: Path) -> None:
    # The key has an empty node; a jsonlines response has the five words only.
    response = tmp_path / "response.jsonlines"
    response.write_text('{"doc_key": "z", "sentences": [["Maria", "came", "and", "sang", "."]],'
                        ' "clusters": [[[0, 0], [3, 3]]]}\n')
    report = anascore.score(FIXTURES / "zero_key.conllu", response, format="auto",
                            metrics="mentions")
    # Key mentions Maria (0) and the zero (3); response Maria (0) and "sang" (word 3 → key
    # position 4): one of two aligned each way.
    assert report.metrics["mentions"].recall == 1 / 2


def _udapi_heads(oracle: object, position: dict) -> list[tuple[tuple[int, ...], int]]:
    """Each of a Udapi document's mentions as (its positions, its head's position)."""
    return sorted((tuple(sorted(position[word] for word in mention.words)),
                   position[mention.head])
                  for entity in oracle.coref_entities  # type: ignore[attr-defined]
                  for mention in entity.mentions)


@pytest.mark.skipif(not (CORPORA / "gum" / "dep").exists(),
                    reason="../shared/corpora is not available")
def test_reads_gum_as_udapi_does() -> None:
    """Udapi (the CorefUD scorer's reader) as an oracle, in the first 30 GUM documents: the
    same mentions and positions; GUM gives no heads, and Udapi then takes each mention's
    first word, as compat="ua" does (U17); anascore's own heads, from the dependency tree,
    are those of Udapi's corefud.MoveHead (which builds CorefUD's heads) but where MoveHead
    follows the enhanced dependencies (99 of GUM's 75,697 mentions)."""
    udapi_document = pytest.importorskip("udapi.core.document")
    conllu = pytest.importorskip("udapi.block.read.conllu")
    move_head = pytest.importorskip("udapi.block.corefud.movehead")
    agree = total = 0
    for path in sorted((CORPORA / "gum" / "dep").glob("*.conllu"))[:30]:
        (document,) = read_corefud(path)
        oracle = udapi_document.Document()
        conllu.Conllu(files=[str(path)]).apply_on_document(oracle)
        position = {}
        for tree in oracle.trees:
            for node in tree.descendants_and_empty:
                position[node] = len(position)

        first_words = _udapi_heads(oracle, position)
        as_the_scorer_reads = first_word_heads(document)
        assert sorted((mention.tokens, mention.head) for mention in
                      as_the_scorer_reads.mentions()) == first_words, path.name
        assert len(position) == len(document.tokens)
        assert document.heads_not_given == {mention.tokens for mention in document.mentions()}
        logging.disable(logging.WARNING)  # MoveHead's notes on odd trees
        try:
            move_head.MoveHead().apply_on_document(oracle)
        finally:
            logging.disable(logging.NOTSET)
        tree_heads = dict(_udapi_heads(oracle, position))
        for mention in document.mentions():
            total += 1
            agree += tree_heads[mention.tokens] == mention.head
    assert agree >= 0.995 * total, (agree, total)


@pytest.mark.skipif(not (CORPORA / "gum" / "dep").exists(),
                    reason="../shared/corpora is not available")
def test_writer_round_trip_on_gum(tmp_path: Path) -> None:
    """GUM's mentions, heads, empty nodes, split antecedents and bridging survive being
    written and read back."""
    paths = sorted((CORPORA / "gum" / "dep").glob("*.conllu"))[::25]
    documents = [document for path in paths for document in read_corefud(path)]
    write_corefud(documents, tmp_path / "gum.conllu")
    again = list(read_corefud(tmp_path / "gum.conllu"))

    def content(document):
        names = {entity.id: sorted(m.tokens for m in entity.mentions)[0]
                 for entity in document.entities}
        return (sorted((m.tokens, m.head, tuple(sorted(names[e] for e in entity.elements)))
                       for entity in document.entities for m in entity.mentions),
                sorted((link.anaphor.tokens, names[link.antecedent_entity], link.relation)
                       for link in document.bridging),
                document.tokens, document.nodes.ids, document.nodes.deps)

    assert [content(document) for document in again] == [content(d) for d in documents]
    assert sum(len(document.bridging) for document in documents) > 0
    assert any(entity.elements for document in documents for entity in document.entities)


def test_upos_gives_mention_types_even_when_empty_nodes_differ() -> None:
    # Key: Maria(PROPN) came [2.1 ∅ 2:nsubj] and she(PRON) sang; the response puts its zero
    # at 3.1 with the same DEPS. Dependent matching pairs the zeros; the types come from the
    # heads' UPOS (name, zero, pronoun) on both sides, renumbered with the positions.
    key, response = FIXTURES / "upos_key.conllu", FIXTURES / "upos_response.conllu"
    (document,) = read_corefud(key, token_columns=True)
    assert document.token_columns["upos"][:3] == ("PROPN", "VERB", "_")
    assert document.token_columns["empty_node"][:3] == ("0", "0", "1")
    report = anascore.score(key, response, metrics="muc,lmuc")
    assert report.metrics["muc"].f1 == 1.0 and report.metrics["lmuc"].f1 == 1.0


def test_an_empty_cell_reads_as_underscore(tmp_path) -> None:
    # Found by the fuzz test: an empty FORM cell was read as '' and written back as '_', so
    # a lossless conversion no longer matched its source.
    from anascore.formats.corefud import read_corefud
    from anascore.formats.io.conversion import convert

    source = tmp_path / "in.conllu"
    source.write_text("# newdoc id = d\n# sent_id = d-1\n"
                      "1\tA\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1)\n"
                      "2\t\t_\t_\t_\t_\t1\tdep\t_\t\n\n")
    [document] = read_corefud(source)
    assert document.tokens == ("A", "_")
    back = tmp_path / "back.conllu"
    convert(source, back, to="corefud")
    assert [d.tokens for d in read_corefud(back)] == [("A", "_")]


def test_a_multiword_token_line_opens_no_sentence(tmp_path) -> None:
    # Found by the fuzz test: a '# sent_id' after a multiword-token line. The writer puts the
    # kept lines before the next word, after a blank line; read back, the multiword line had
    # opened a sentence of no word, and the conversion no longer matched its source.
    import anascore
    from anascore.formats.corefud import read_corefud
    from anascore.formats.io.conversion import convert

    source = tmp_path / "in.conllu"
    source.write_text("# newdoc id = d\n# sent_id = d-1\n1\tThey\t_\t_\t_\t_\t0\troot\t_\t"
                      "Entity=(e1)\n2-3\tcan't\t_\t_\t_\t_\t_\t_\t_\t_\n# sent_id = d-2\n"
                      "2\tca\t_\t_\t_\t_\t0\troot\t_\t_\n3\tn't\t_\t_\t_\t_\t2\tdep\t_\t"
                      "Entity=(e1)\n\n")
    [document] = read_corefud(source)
    assert document.nodes.sentence_ids == ("d-1", "d-2")
    assert document.nodes.sentence_lines == (3, 6)  # each sentence's first word
    back = tmp_path / "back.conllu"
    convert(source, back, to="corefud")
    assert anascore.score(source, back).metrics["muc"].f1 == 1.0


def test_mentions_without_a_given_head_stay_listed_when_positions_are_renumbered(
        tmp_path: Path) -> None:
    # key and response with different empty nodes are renumbered over the union of their
    # nodes; the list of mentions whose head the file did not give follows the mentions
    from anascore.formats.io.conllu_alignment import common_positions

    def write(name: str, empty_id: str) -> Path:
        path = tmp_path / name
        path.write_text(
            "# newdoc id = g\n# global.Entity = GRP-etype\n# sent_id = g-1\n"
            "1\tThe\t_\t_\t_\t_\t2\t_\t_\t_\n"
            "2\tman\t_\t_\t_\t_\t3\t_\t_\tEntity=(7-person\n"
            f"{empty_id}\t_\t_\t_\t_\t_\t_\t_\t3:nsubj\t_\n"
            "3\tslept\t_\t_\t_\t_\t0\t_\t_\tEntity=7)\n\n", encoding="utf-8")
        return path

    (key,) = read_corefud(write("key.conllu", "2.1"))
    (response,) = read_corefud(write("response.conllu", "2.2"))
    assert key.heads_not_given == response.heads_not_given == {(1, 2, 3)}
    key, response = common_positions(key, response)
    assert len(key.tokens) == 5  # the words and both empty nodes: man 1, 2.1 2, 2.2 3, slept 4
    assert key.heads_not_given == {mention.tokens for mention in key.mentions()} == {(1, 2, 4)}
    assert response.heads_not_given == {(1, 3, 4)}


def test_the_refusal_says_how_to_give_the_heads(tmp_path: Path) -> None:
    path = _gum_style(tmp_path, ("0", "0", "0"))
    with pytest.raises(anascore.OptionsError, match=r"head in Entity=, or the dependency tree"):
        anascore.score(path, path, match="head")


def test_split_antecedents_repeated_on_each_mention_are_read_once(tmp_path) -> None:
    # SplitAnte repeated on every mention of the plural (or a link written twice) gave
    # elements ('e2', 'e3', 'e2', 'e3'), written back as four links by convert.
    lines = ["# newdoc id = d", "# global.Entity = eid-etype-head-other", "# sent_id = 1"]
    miscs = ["Entity=(e1-person-1-)|SplitAnte=e2<e1,e3<e1", "Entity=(e2-person-1-)",
             "Entity=(e3-person-1-)", "Entity=(e1-person-1-)|SplitAnte=e2<e1,e3<e1,e3<e1"]
    for number, misc in enumerate(miscs, start=1):
        lines.append(f"{number}\tw\t_\t_\t_\t_\t{number - 1}\tdep\t_\t{misc}")
    path = tmp_path / "plural.conllu"
    path.write_text("\n".join(lines) + "\n\n")
    [document] = read_corefud(path)
    assert {entity.id: entity.elements for entity in document.entities}["e1"] == ("e2", "e3")
    written = tmp_path / "written.conllu"
    write_corefud([document], written)
    assert "SplitAnte=e2<e1,e3<e1\n" in written.read_text()


BIG = "9" * 5000  # int() refuses more than 4,300 digits


def _sentence(path: Path, ids: list[str], misc: dict[str, str] | None = None) -> Path:
    """A one-sentence CorefUD document whose token lines have ``ids`` (MISC by ID)."""
    lines = ["# newdoc id = b", "# global.Entity = eid-etype-head-other", "# sent_id = b-1"]
    for node_id in ids:
        lines.append("\t".join([node_id, "w", "_", "_", "_", "_", "0", "_", "_",
                                (misc or {}).get(node_id, "_")]))
    path.write_text("\n".join([*lines, "", ""]))
    return path


@pytest.mark.parametrize(("ids", "line", "message"), [
    (["0", "1"], 4, "word ID '0'; expected 1 (the words of a sentence are numbered 1, 2, 3 … "
                    "in order)"),
    (["1", "2", "2"], 6, "word ID '2' after word 2; expected 3 (the words of a sentence are "
                         "numbered 1, 2, 3 … in order)"),
    (["1", "3", "2"], 6, "word ID '2' after word 3; expected 4 (the words of a sentence are "
                         "numbered 1, 2, 3 … in order)"),
    (["1", BIG], 5, f"word ID '{'9' * 40}…'; expected at most 9 digits"),
    (["1", "3-1", "2"], 5, "multiword token '3-1'; expected N-M for the words N to M that "
                           "follow, such as '2-3'"),
    (["1", "1-2", "2"], 5, "multiword token '1-2'; expected N-M for the words N to M that "
                           "follow, such as '2-3'"),
    (["1", "1.2", "1.1"], 6, "empty node ID '1.1'; expected 1.3 (the empty nodes after word N "
                             "are numbered N.1, N.2 … in order)"),
    (["1", "0.1"], 5, "empty node ID '0.1'; expected 1.1 (the empty nodes after word N are "
                      "numbered N.1, N.2 … in order)"),
    (["1", f"1.{BIG}"], 5, f"empty node ID '1.{'9' * 38}…'; expected 1.1 (the empty nodes "
                           "after word N are numbered N.1, N.2 … in order)"),
    (["1", f"{BIG}.1"], 5, f"empty node ID '{'9' * 40}…'; expected 1.1 (the empty nodes "
                           "after word N are numbered N.1, N.2 … in order)"),
], ids=["zero", "repeated", "decreasing", "huge", "range 3-1", "range 1-2", "empty repeated",
        "empty misplaced", "huge empty decimal", "huge empty word"])
def test_word_ids_are_numbered_as_conllu_numbers_them(tmp_path: Path, ids: list[str],
                                                      line: int, message: str) -> None:
    # A validator's strictness: ID 0, a repeated ID, a range 3-1 were read as if nothing was
    # wrong; a 5,000-digit empty node ID ended in a ValueError traceback when aligned.
    path = _sentence(tmp_path / "ids.conllu", ids)
    with pytest.raises(FormatError) as caught:
        list(read_corefud(path))
    assert (caught.value.path, caught.value.line, caught.value.message) == (
        str(path), line, message)


def test_numbered_words_empty_nodes_and_ranges_read(tmp_path: Path) -> None:
    path = _sentence(tmp_path / "ids.conllu", ["0.1", "0.2", "1-2", "1", "2", "2.1", "3"],
                     {"2.1": "Entity=(e1-x-1-)", "3": "Entity=(e1-x-1-)"})
    [document] = read_corefud(path)
    assert mentions_of(document) == {"e1": [((4,), 4), ((5,), 5)]}


@pytest.mark.parametrize(("cell", "message"), [
    ("Entity=", "empty Entity=; expected brackets such as '(e1-person-1-', 'e1)' or "
                "'(e1-person-1-)'"),
    (f"Entity=(e1-x-{BIG}-)", f"head index '{'9' * 40}…' in '(e1-x-{'9' * 35}…': expected a "
                              "positive integer"),
    (f"Entity=(e1[1/{BIG}]-x-1-)", f"discontinuous part 'e1[1/{'9' * 35}…': expected [i/n] "
                                   "with 1 ≤ i ≤ n"),
], ids=["empty", "huge head", "huge part"])
def test_an_empty_entity_or_a_huge_number_is_one_short_error(tmp_path: Path, cell: str,
                                                             message: str) -> None:
    path = _sentence(tmp_path / "cell.conllu", ["1", "2"], {"2": cell})
    with pytest.raises(FormatError) as caught:
        list(read_corefud(path))
    assert (caught.value.line, caught.value.message) == (5, message)


def test_a_huge_min_index_is_one_short_error(tmp_path: Path) -> None:
    path = _sentence(tmp_path / "cell.conllu", ["1"], {"1": f"Entity=(e1-x-1-{BIG})"})
    path.write_text(path.read_text().replace("eid-etype-head-other", "eid-etype-head-MIN"))
    with pytest.raises(FormatError) as caught:
        list(read_corefud(path))
    assert caught.value.message == (f"MIN '{'9' * 40}…' in '(e1-x-1-{'9' * 33}…': expected "
                                    "comma-separated positive integers")
