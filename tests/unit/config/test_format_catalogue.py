"""The format catalogue (config/format_catalogue.py) and the sets derived from it, and the
readers and writers apart (formats/readers, formats/writers) with the old module paths kept.

The derived sets are compared with the sets each module wrote out by hand before the
catalogue existed, so a row changed by mistake changes a refusal, a conversion or the
parallel run's formats here first.
"""

from __future__ import annotations

import importlib
import importlib.util

import pytest

from anascore import formats
from anascore.config import capabilities
from anascore.config.format_catalogue import BY_NAME, CATALOGUE, FORMAT_NAMES
from anascore.config.options import FORMATS
from anascore.core.errors import FormatError
from anascore.formats.io import chain_ids, conversion
from anascore.scoring.parallel import PARALLEL_FORMATS


def test_the_derived_sets_are_the_sets_written_out_before() -> None:
    assert FORMAT_NAMES == ("conll2012", "corefud", "jsonlines", "ua", "markup", "mentionjson",
                            "cattan", "scico", "mentionconll")
    assert FORMATS == ("auto", "conll2012", "corefud", "jsonlines", "ua", "markup",
                       "mentionjson", "cattan", "scico")
    assert sorted(formats.READ_ONLY_FORMATS) == ["markup"]
    assert sorted(formats.TOKEN_COLUMN_READERS) == ["conll2012", "corefud", "ua"]
    for derived in (capabilities.HEADED_FORMATS, capabilities.ZERO_FORMATS,
                    capabilities.MIN_FORMATS):
        assert sorted(derived) == ["corefud", "ua"]
    assert capabilities.FORMAT_LAYERS["corefud"] == {"keep_bridging", "keep_split_antecedents"}
    assert capabilities.FORMAT_LAYERS["ua"] == set(capabilities.LAYER_SETTINGS)
    assert capabilities.FORMAT_LAYERS[capabilities.CLUSTERS] == set()
    assert all(not capabilities.FORMAT_LAYERS[name] for name in FORMAT_NAMES
               if name not in ("corefud", "ua"))
    assert sorted(conversion.PLAIN_TARGETS) == ["cattan", "conll2012", "jsonlines",
                                                "mentionconll", "mentionjson", "scico"]
    assert sorted(conversion.MENTION_ONLY_TARGETS) == ["mentionconll", "mentionjson"]
    assert conversion.CONVERT_TARGETS == ("conll2012", "corefud", "jsonlines", "ua",
                                          "mentionjson", "cattan", "scico", "mentionconll")
    assert sorted(chain_ids.STRING_ID_FORMATS) == ["cattan", "mentionjson", "scico"]
    assert PARALLEL_FORMATS == ("conll2012", "corefud", "ua")


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_every_format_has_a_reader_and_a_writer_module(name: str) -> None:
    assert formats.reader(name) is getattr(
        importlib.import_module(f"anascore.formats.readers.{name}"), f"read_{name}")
    assert formats.writer(name) is getattr(
        importlib.import_module(f"anascore.formats.writers.{name}"), f"write_{name}")
    assert BY_NAME[name] in CATALOGUE


@pytest.mark.parametrize(("old", "names"), [
    ("ua", ("read_ua", "write_ua", "sniff_ua", "heads_read_back", "newdoc_name",
            "read_ua_lines", "parse_attributes", "is_pseudo", "canonical_name",
            "DEFAULT_COLUMNS", "WRITTEN_COLUMNS", "PSEUDO_SUFFIXES")),
    ("corefud", ("read_corefud", "write_corefud", "read_corefud_lines", "newdoc_name",
                 "entity_fields", "written_head", "conllu_line", "DEFAULT_ENTITY_FIELDS",
                 "KEPT_COLUMNS")),
    ("conll2012", ("read_conll2012", "write_conll2012", "read_lines", "begun_document",
                   "FileColumns", "Bracket", "cell_brackets")),
    ("markup", ("read_markup", "write_markup", "UNNAMED")),
    ("mentionjson", ("read_mentionjson", "write_mentionjson", "mention_coordinates",
                     "NO_TEXT")),
])
def test_the_old_module_paths_keep_their_public_names(old: str, names: tuple[str, ...]) -> None:
    module = importlib.import_module(f"anascore.formats.{old}")
    for name in names:
        value = getattr(module, name)
        new = [importlib.import_module(f"anascore.formats.{side}.{stem}")
               for side, stem in (("readers", old), ("readers", f"{old}_markables"),
                                  ("writers", old))
               if importlib.util.find_spec(f"anascore.formats.{side}.{stem}")]
        assert any(getattr(place, name, None) is value for place in new), name


def test_an_unknown_format_names_every_format() -> None:
    with pytest.raises(FormatError) as caught:
        formats.reader("conll", path="x.txt")
    assert ("unknown format 'conll'; expected one of auto, conll2012, corefud, jsonlines, ua, "
            "markup, mentionjson, cattan, scico, mentionconll") in str(caught.value)
