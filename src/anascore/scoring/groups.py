"""Grouped scores (``anascore score --group-by KIND``): every metric per group of documents or
of mentions, with a micro row (the groups' counts summed) and a macro row (the mean over
groups of each score). This module makes the groups; :mod:`anascore.report.groups` says what
each group states (a metric with nothing to find in a group is n/a there, out of the macro)
and shows them with their counts.

Two families of groups (``docs/grouped-scores.md`` has a worked example of each):

* **Document groups** — ``document`` (each document its own group) and ``genre`` (the
  OntoNotes genre, the first part of a name such as ``bc/cctv/00/cctv_0000``: bc, bn, mz, nw,
  pt, tc, wb; or the first group of ``genre_pattern``, a regular expression searched in each
  document name). Scoring is a sum over documents (``docs/design.md``), so a group's counts
  are the sum of its documents' rows of the :class:`~anascore.report.Report`: nothing is
  recounted, and the micro row is exactly the corpus score. A document whose name gives no
  genre is in the group ``(other)``.
* **Mention groups** — ``mention-type`` (name, nominal, pronoun, zero: the types the
  linguistically aware metrics derive, :mod:`anascore.comparison.mention_types`), ``entity-type``
  (CorefUD ``etype``, UA ``EntityType``/``Entity_Type``, OntoNotes named-entity label; not
  UA ``SemType``, whose values ``dn``, ``do``, ``expletive`` are no entity type),
  ``entity-size`` (the size of the mention's key entity: 1, 2, 3-5, 6-10, 11+) and
  ``mention-distance`` (sentences back to the previous mention of the entity: first, 0, 1,
  2-5, 6+). After selection and matching (so singletons, zeros and the matching method are
  as in the plain score), each key mention gets its group from the key; a response mention
  aligned to a key mention takes that key mention's group, an unaligned response mention
  gets its group from the response (its own type, its response entity's size or distance).
  Group G's score is then every metric on the key and the response restricted to the
  mentions in G (each entity keeps its mentions in G; an entity left with none is gone).
  Restricting makes new singletons, which are scored (they were kept by the selection or
  are part of a larger entity). Entity-based metrics are not additive over mentions, so the
  micro row of mention groups is the sum of the groups' counts, not the corpus score.

Mention groups are for the identity layer; with split antecedents, non-referring
markables, bridging or discourse deixis switched on they are refused (document groups are
not).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from anascore.config.options import Options
from anascore.core.errors import OptionsError
from anascore.core.model import Document, Entity, Mention
from anascore.report import Report
from anascore.report.groups import GroupedScores

DOCUMENT_KINDS = ("document", "genre")
MENTION_KINDS = ("mention-type", "entity-type", "entity-size", "mention-distance")
GROUP_KINDS = DOCUMENT_KINDS + MENTION_KINDS
ONTONOTES_GENRES = ("bc", "bn", "mz", "nw", "pt", "tc", "wb")
OTHER = "(other)"
NO_TYPE = "(no type)"
_ONTONOTES_NAME = re.compile(r"\(?\s*(bc|bn|mz|nw|pt|tc|wb)/")
_SIZE_BUCKETS = ((1, "1"), (2, "2"), (5, "3-5"), (10, "6-10"))
_DISTANCE_BUCKETS = ((0, "0"), (1, "1"), (5, "2-5"))


def check_kind(kind: str, options: Options, genre_pattern: str | None = None) -> None:
    """Refuse a kind anascore does not know, a pattern without a genre group, and mention
    groups with layers beyond identity."""
    if kind not in GROUP_KINDS:
        raise OptionsError(f"group_by={kind!r}; expected one of {', '.join(GROUP_KINDS)}")
    if genre_pattern is not None:
        if kind != "genre":
            raise OptionsError("genre_pattern is for group_by='genre'")
        try:
            compiled = re.compile(genre_pattern)
        except re.error as error:
            raise OptionsError(f"genre_pattern {genre_pattern!r}: {error}") from None
        if compiled.groups < 1:
            raise OptionsError(f"genre_pattern {genre_pattern!r} has no group; put the genre "
                               "in parentheses, e.g. 'GUM_([a-z]+)_'")
    if kind in MENTION_KINDS:
        # compat='ua' is refused too: its repeated-mention table is built from the whole
        # documents, which the restriction to a group's mentions does not rebuild.
        layers = [flag for flag in ("keep_split_antecedents", "keep_non_referring",
                                    "keep_bridging", "discourse_deixis", "compat", "window")
                  if getattr(options, flag) not in (False, None, "none", 0)]
        if layers:
            raise OptionsError(f"group_by={kind!r} groups the mentions of the identity layer; "
                               f"it cannot restrict {', '.join(layers)}: score without them, "
                               "or group by document or genre")


def genre_of(name: str, pattern: re.Pattern[str] | None = None) -> str:
    """A document's genre: the first group of ``pattern`` found in its name, else the
    OntoNotes genre its name begins with; :data:`OTHER` when neither says."""
    if pattern is not None:
        found = pattern.search(name)
        return found.group(1) if found and found.group(1) else OTHER
    found = _ONTONOTES_NAME.match(name)
    return found.group(1) if found else OTHER


def group_documents(report: Report, kind: str, genre_pattern: str | None = None,
                    ) -> GroupedScores:
    """Document groups from a report's per-document counts (nothing is recounted)."""
    pattern = re.compile(genre_pattern) if genre_pattern else None
    members: dict[str, list[int]] = {}
    for row, name in enumerate(report.document_names):
        group = name if kind == "document" else genre_of(name, pattern)
        members.setdefault(group, []).append(row)
    table = report.table
    reports = {group: Report.from_table(report.options, table.select(rows))
               for group, rows in members.items()}
    return GroupedScores(kind, reports, report.options)


def _bucket(value: int, buckets: Sequence[tuple[int, str]], last: str) -> str:
    for bound, label in buckets:
        if value <= bound:
            return label
    return last


SIZE_GROUPS = ("1", "2", "3-5", "6-10", "11+")
DISTANCE_GROUPS = ("first", "0", "1", "2-5", "6+")


def _side_labels(kind: str, side: Any, document: Document | None) -> list[str]:
    """Each mention's group from its own side (``side``: a selected
    :class:`~anascore.selection.sides.Side`)."""
    mentions: tuple[Mention, ...] = side.mentions
    entity_of = side.entity_of.tolist()
    if kind == "entity-size":
        sizes = side.entity_sizes.tolist()
        return [_bucket(sizes[entity], _SIZE_BUCKETS, "11+") for entity in entity_of]
    if kind == "mention-distance":
        starts = list(document.sentence_starts) if document is not None else []
        sentence = [bisect.bisect_right(starts, mention.tokens[0]) for mention in mentions]
        order = sorted(range(len(mentions)), key=lambda index: (mentions[index].tokens[0],
                                                                -mentions[index].tokens[-1]))
        previous: dict[int, int] = {}
        labels = [""] * len(mentions)
        for index in order:
            entity = entity_of[index]
            if entity in previous:
                labels[index] = _bucket(sentence[index] - sentence[previous[entity]],
                                        _DISTANCE_BUCKETS, "6+")
            else:
                labels[index] = "first"
            previous[entity] = index
        return labels
    # entity-type: the entity's type (CorefUD etype), else the first type one of its
    # mentions carries (UA EntityType / Entity_Type), else an OntoNotes named-entity label.
    entities = document.entities if document is not None else ()
    by_id = {entity.id: entity for entity in entities}
    ner = document.token_columns.get("ner") if document is not None else None
    types: dict[int, str] = {}
    for entity_index, entity_id in enumerate(side.entity_ids):
        entity = by_id.get(entity_id)
        found = _entity_type(entity, ner) if entity is not None else None
        if found:
            types[entity_index] = found
    return [types.get(entity, NO_TYPE) for entity in entity_of]


def _entity_type(entity: Entity, ner: Sequence[str] | None) -> str | None:
    value = entity.attributes.get("etype") if entity.attributes else None
    if value and value != "_":
        return value
    for mention in entity.mentions:
        for name in ("EntityType", "Entity_Type", "etype"):
            value = mention.attributes.get(name) if mention.attributes else None
            if value and value != "_":
                return value
    if ner is not None:
        from anascore.comparison.mention_types import entity_label_at
        for mention in entity.mentions:
            label = entity_label_at(ner, mention.tokens[-1])
            if label:
                return label
    return None


def mention_labels(kind: str, comparison: Any) -> tuple[list[str], list[str]]:
    """The group of every key and response mention of a comparison (the module's rule)."""
    if kind == "mention-type":
        from anascore.comparison.mention_types import MENTION_TYPES, comparison_types
        codes = comparison_types(comparison, "--group-by mention-type")
        return ([MENTION_TYPES[code] for code in codes.key.tolist()],
                [MENTION_TYPES[code] for code in codes.response.tolist()])
    key_labels = _side_labels(kind, comparison.key, comparison.key.document)
    response_labels = _side_labels(kind, comparison.response, comparison.response.document)
    for key_index, response_index in zip(comparison.alignment.key.tolist(),
                                         comparison.alignment.response.tolist(), strict=True):
        response_labels[response_index] = key_labels[key_index]
    return key_labels, response_labels


def _restricted(side: Any, document: Document | None, labels: Sequence[str],
                group: str) -> Document | None:
    if document is None:
        return None
    kept: dict[int, list[Mention]] = {}
    for index, (mention, entity) in enumerate(zip(side.mentions, side.entity_of.tolist(),
                                                  strict=True)):
        if labels[index] == group:
            kept.setdefault(entity, []).append(mention)
    entities = tuple(Entity(side.entity_ids[entity], tuple(mentions))
                     for entity, mentions in kept.items())
    return replace(document, entities=entities, non_referring=(), bridging=(),
                   discourse_deixis=())


def group_mentions(pairs: Iterable[tuple[Document, Document | None]], kind: str,
                   options: Options) -> GroupedScores:
    """Mention groups of document pairs (the module's rule), each group counted by every
    metric with the code of a plain score."""
    from anascore.scoring.document import count_document, document_comparisons

    warnings: list[str] = []
    group_options = replace(options, keep_singletons=True)  # selected once, before grouping
    names: list[str] = []
    records: dict[str, list[dict[str, np.ndarray]]] = {}
    documents: dict[str, int] = {}  # documents with a mention in the group
    one_sentence = 0  # key documents that mark no sentence boundary
    for key, response in pairs:
        one_sentence += len(key.sentence_starts) <= 1
        # The comparison the plain score counted (one: windows are refused for mention
        # groups), its sides read back as the documents it was made from.
        [comparison] = document_comparisons(key, response, options, warnings)
        prepared_key, prepared_response = comparison.key.document, comparison.response.document
        key_labels, response_labels = mention_labels(kind, comparison)
        index = len(names)
        names.append(key.name)
        for group in dict.fromkeys([*key_labels, *response_labels]):
            documents[group] = documents.get(group, 0) + 1
            restricted_key = _restricted(comparison.key, prepared_key, key_labels, group)
            restricted_response = _restricted(comparison.response, prepared_response,
                                              response_labels, group)
            rows = records.setdefault(group, [])
            while len(rows) < index:
                rows.append(_empty_record(group_options))
            rows.append(count_document(restricted_key, restricted_response, group_options,
                                       []))
    for rows in records.values():
        while len(rows) < len(names):
            rows.append(_empty_record(group_options))
    order = {"mention-type": ("name", "nominal", "pronoun", "zero"),
             "entity-size": SIZE_GROUPS, "mention-distance": DISTANCE_GROUPS}.get(kind, ())
    groups = sorted(records, key=lambda group: (order.index(group) if group in order
                                                else len(order), group == NO_TYPE, group))
    reports = {group: Report.from_records(group_options, names, records[group])
               for group in groups}
    said: tuple[str, ...] = ()
    if kind == "mention-distance" and one_sentence:
        said = (f"--group-by mention-distance counts sentences, and {one_sentence} of "
                f"{len(names)} key documents mark none (one sentence each): every later "
                "mention of an entity there is in group 0",)
    return GroupedScores(kind, reports, group_options, said,
                         {group: documents[group] for group in groups})


def _empty_record(options: Options) -> dict[str, np.ndarray]:
    from anascore.scoring.document import count_document
    return count_document(None, None, options, [])


def group_files(key: str, response: str, kind: str, options: Options,
                genre_pattern: str | None = None) -> tuple[Report, GroupedScores]:
    """The plain report of ``response`` against ``key`` and its groups of ``kind``."""
    from anascore.formats.io.sources import local_inputs, renamed_warnings
    from anascore.scoring.document import on_key_tokens
    from anascore.scoring.file_sets import document_pairs
    from anascore.scoring.pipeline import pair_documents_many, score_files

    check_kind(kind, options, genre_pattern)
    # Standard input, pipes and gzip files are copied once (anascore.formats.io.sources), and
    # read twice: for the plain score, and for the groups.
    with local_inputs([key, response]) as ([local_key, local_response], inputs):
        report = renamed_warnings(score_files(local_key, local_response, options), inputs)
        if kind in DOCUMENT_KINDS:
            return report, group_documents(report, kind, genre_pattern)
        warnings: list[str] = []

        def pairs() -> Iterable[tuple[Document, Document | None]]:
            for key_document, (response_document,) in document_pairs(
                    local_key, [local_response], options, pair_documents_many,
                    token_columns=kind in ("mention-type", "entity-type")):
                # The plain score above has checked every pair (and every pair of files of
                # folders or patterns: anascore.scoring.file_sets) and reported its warnings.
                yield key_document, on_key_tokens(key_document, response_document, options,
                                                  warnings)

        return report, group_mentions(pairs(), kind, options)


def score_groups(key: str, response: str, group_by: str, *,
                 genre_pattern: str | None = None, **settings: Any) -> GroupedScores:
    """Every metric per group of ``group_by`` (one of :data:`GROUP_KINDS`), with the settings
    of :func:`anascore.score`; the module docstring says how each kind groups."""
    options = Options.create(**settings)
    return group_files(key, response, group_by, options, genre_pattern)[1]
