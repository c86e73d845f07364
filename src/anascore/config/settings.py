"""Every setting of a scoring run described once: the table :class:`Options`' checks of
switches, its signature, :meth:`Options.to_dict`, the groups entry points refuse together, and
the command line's flags (``score``, ``errors`` and ``report`` alike) are derived from.

A row says, for one field of :class:`~anascore.config.options.Options` (and ``preset``, the
one flag that is not a field): the section of ``--help`` it is listed in, its flag (or flag
pair), its choices, how the command line parses its text, its help, what it adds to the
signature, and whether it makes the numbers (``to_dict``). A new setting is a field of
``Options`` with its validation, and one row here (``tests/test_settings.py`` checks that the
two agree). The rows are in the order of the signature's parts, so that a signature reads as
it always has.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from anascore.config import linguistic_settings as linguistic
from anascore.config.choices import (
    ALL_METRICS,
    COMPAT_MODES,
    CUT_POLICIES,
    DEFAULT_SEED,
    DOCUMENT_PAIRINGS,
    FORMATS,
    LEVELS,
    MATCH_METHODS,
    METRIC_NAMES,
    WINDOW_RULES,
    ZERO_MATCH_METHODS,
    canonical_metric,
)
from anascore.config.preset_settings import PRESET_NAMES

#: The sections of ``--help``, in order, with the description printed under each title.
SECTIONS: dict[str, str | None] = {
    "input": None,
    "what is scored": None,
    "mention matching": None,
    "scoring unit": None,
    "linguistically aware metrics": (
        "Chen & Ng 2013 (lmuc, lbcub, lceafm, lceafe) and Žitkus et al. 2023 (dominant); "
        "see docs/linguistic-metrics.md"),
    "confidence and significance": (
        "Resampling of the per-document counts (documents are the units drawn). Flags take "
        "an optional number of resamples; put them after the files."),
    "output": None,
}
#: Hexadecimal digits of a key's SHA-256 the signature names with ``sign_key``
#: (``key:1a2b3c4d``, :mod:`anascore.scoring.key_hash`): 32 bits, enough to tell versions of one
#: key apart; the JSON output carries the whole digest.
KEY_HASH_DIGITS = 8
#: Resamples or trials when a statistics flag is given without a number.
DEFAULT_RESAMPLES = {"confidence": 1000, "paired_bs": 1000, "paired_ar": 10000}

#: What a setting adds to the signature: ``(options, key_hash) -> parts``.
Signer = Callable[[Any, "str | None"], Iterable[str]]


def suggestion(text: str, choices: Iterable[str]) -> str:
    """``" (did you mean X?)"`` for the choice nearest ``text``, or ``""`` when none is
    near."""
    import difflib  # only for a mistyped value

    near = difflib.get_close_matches(text, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {near[0]}?)" if near else ""


def whole_number(text: str) -> int:
    """A flag's whole number (0 or more)."""
    try:
        number = int(text)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number (0 or more)")
    return number


def metric_list(text: str) -> tuple[str, ...]:
    """``--metrics``' value: comma-separated metric names or titles, ``all`` for
    :data:`~anascore.config.choices.ALL_METRICS`; an unknown one is refused with the nearest
    name."""
    names = tuple(canonical_metric(name) for name in text.split(",") if name.strip())
    if "all" in names:
        return ALL_METRICS + tuple(name for name in names if name != "all")
    unknown = [name for name in names if name not in METRIC_NAMES]
    if unknown or not names:
        near = suggestion(unknown[0], METRIC_NAMES) if unknown else ""
        raise argparse.ArgumentTypeError(
            f"unknown metric {', '.join(unknown) or '(none)'}{near}; expected a "
            f"comma-separated subset of {', '.join(METRIC_NAMES)} or 'all'")
    return names


def level_list(text: str) -> tuple[str, ...]:
    """``--level``'s value: comma-separated levels of :data:`~anascore.config.choices.LEVELS`,
    each once, in the order given."""
    levels = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    unknown = [name for name in levels if name not in LEVELS]
    if unknown or not levels:
        raise argparse.ArgumentTypeError(
            f"unknown level {', '.join(unknown) or '(none)'}; expected a comma-separated "
            f"list of {', '.join(LEVELS)}")
    return levels


class Setting(NamedTuple):
    """One setting: an :class:`~anascore.config.options.Options` field (or ``preset``) and
    everything said about it outside its validation.

    A row of a constant table, so a named tuple: every command imports the table, and a
    frozen dataclass's generated methods are compiled at import."""

    name: str
    section: str
    help: str
    #: ``switch``: a flag that sets True; ``pair``: ``--keep-X``/``--remove-X``; ``value``:
    #: a flag with a value; ``number?``: an optional number of resamples; ``none``: no flag.
    kind: str = "value"
    choices: tuple[str, ...] | None = None
    parse: Callable[[str], Any] | None = None
    metavar: str | None = None
    #: The second flag of a pair, and its help.
    off_help: str = ""
    #: What it adds to the signature (``None``: nothing, or another row says it).
    sign: Signer | None = None
    #: Whether it changes a number (``to_dict`` leaves out those that do not).
    makes_numbers: bool = True
    #: The group entry points refuse together (``statistics``, ``unit``, ``file``) or None.
    group: str | None = None
    #: The command line's default, when it is not the field's (``jobs``: 0).
    command_default: Any = None
    #: Whether presets leave it free (:data:`FREE_SETTINGS`): a run that changes it is still
    #: the preset's.
    preset_free: bool = False

    @property
    def flag(self) -> str:
        """The flag (the first of a pair): ``--confidence-level`` for ``confidence_level``."""
        return "--" + self.name.replace("_", "-")

    @property
    def flags(self) -> tuple[str, ...]:
        """Every flag of the setting (two for a pair)."""
        if self.kind == "none":
            return ()
        if self.kind == "pair":
            return (self.flag, self.flag.replace("--keep-", "--remove-"))
        return (self.flag,)


def _when(test: Callable[[Any], bool], part: Callable[[Any], str]) -> Signer:
    return lambda options, key_hash: [part(options)] if test(options) else []


def _pattern(options: Any) -> str:
    # A '|' of the pattern would read as the signature's separator: percent-encoded, with
    # '%' itself, so the pattern can be read back whole.
    return "topic_pattern:" + options.topic_pattern.replace("%", "%25").replace("|", "%7C")


def _resampled(options: Any) -> bool:
    return bool(options.confidence or options.paired_bs or options.paired_ar)


_S = Setting
_LINGUISTIC = "linguistically aware metrics"
_STATISTICS = "confidence and significance"
#: Every setting: those the signature names in the order of its parts (the others where
#: ``--help`` lists them; within a section it lists them in this order).
SETTINGS: tuple[Setting, ...] = (
    _S("preset", "what is scored", "the settings of a shared task (crac22 … crac26: the "
       "CorefUD scorer's); other options given change them", choices=PRESET_NAMES,
       makes_numbers=False),
    _S("metrics", "what is scored", f"comma-separated subset of {','.join(METRIC_NAMES)} "
       "(default: the identity metrics, or the preset's; 'all' adds mor and zero; the "
       "linguistically aware lmuc, lbcub, lceafm, lceafe and dominant are computed only when "
       "named); given again, the lists are joined", parse=metric_list),
    _S("format", "input", "input format (default: detected from the file)", choices=FORMATS,
       group="file", preset_free=True),
    _S("jobs", "input", "processes that read and count documents (CoNLL-2012, CoNLL-U, UA; "
       "default 0: a process per 2 MB of input, up to one per idle CPU; 1: one process)",
       parse=whole_number, metavar="N", makes_numbers=False, group="file", command_default=0,
       preset_free=True),
    _S("key_documents_only", "input", "score the key's documents and ignore, with a warning, "
       "response documents the key lacks (default: an error naming the nearest key "
       "documents)", kind="switch", makes_numbers=False, group="file", preset_free=True),
    _S("pair_documents", "input", "pair response documents with key documents by their exact "
       "names (default) or normalized: 'part 000' is 'part 0', the e2e-coref doc_key ID_0 is "
       "'(ID); part 0' (each pairing named in a warning)", choices=DOCUMENT_PAIRINGS,
       makes_numbers=False, group="file", preset_free=True),
    _S("match", "mention matching", "how response mentions are aligned with key mentions: "
       "exact (default), min (within the key mention, covering its MIN), head (same head), "
       "partial (inside the key, covering its head) or craft (CRAFT 2019)",
       choices=MATCH_METHODS, sign=lambda options, key_hash: [f"match:{options.match}"]),
    _S("keep_singletons", "what is scored", "score single-mention entities as the files "
       "contain them (default, as the reference scorer)", kind="pair",
       off_help="remove single-mention entities from key and response",
       sign=lambda options, key_hash: [
           f"singletons:{'keep' if options.keep_singletons else 'remove'}"]),
    _S("mention_type_function", _LINGUISTIC, "", kind="none",
       sign=lambda options, key_hash: linguistic.signature_parts(options), preset_free=True),
    _S("link_weights", _LINGUISTIC, "weights of a link involving a name, else a nominal, "
       "else only pronouns, and of a single-mention chain (default: "
       f"{linguistic.numbers_text(linguistic.DEFAULT_LINK_WEIGHTS)})",
       metavar="NAM,NOM,PRO,SING", preset_free=True),
    _S("dominant_coefficients", _LINGUISTIC, "credit of a TP, WT, WL and WTL annotation "
       f"(default: {linguistic.numbers_text(linguistic.DEFAULT_DOMINANT_COEFFICIENTS)})",
       metavar="K1,K2,K3,K4", preset_free=True),
    _S("coreference_classes", _LINGUISTIC, "the classes to report, as prefixes of the "
       "coreference type codes, or 'none' to evaluate without types (default: "
       f"{','.join(linguistic.DEFAULT_COREFERENCE_CLASSES)})", metavar="CLASSES", preset_free=True),
    _S("attempted_classes", _LINGUISTIC, "the classes the system attempts, for the micro and "
       "macro averages (default: every class with an annotation)", metavar="CLASSES",
       preset_free=True),
    _S("scheme_classes", _LINGUISTIC, "number of classes in the annotation scheme, for the "
       "scheme-coverage averages (default: as many as listed)", metavar="N", parse=int,
       preset_free=True),
    _S("keep_zeros", "what is scored", "score zero mentions (headed by CoNLL-U empty nodes; "
       "default)", kind="pair", off_help="remove zero mentions from key and response",
       sign=_when(lambda options: not options.keep_zeros, lambda options: "zeros:remove")),
    _S("zero_match", "mention matching", "align zeros by their dependencies first "
       "(dependent, default) or by position like every mention (linear)",
       choices=ZERO_MATCH_METHODS,
       sign=_when(lambda options: options.zero_match != "dependent",
                  lambda options: f"zero_match:{options.zero_match}")),
    _S("exclusive_ends", "input", "jsonlines input: span ends are exclusive", kind="switch",
       sign=_when(lambda options: options.exclusive_ends, lambda options: "ends:exclusive"),
       preset_free=True),
    _S("align_tokens", "input", "the response is on other tokens (another tokenizer, "
       "sub-words, generated text): map its mentions onto the key's tokens through their "
       "characters (marked-up text always is)", kind="switch", group="file",
       sign=_when(lambda options: options.align_tokens,
                  lambda options: f"tokens:aligned({options.cut_tokens})")),
    _S("cut_tokens", "input", "with --align-tokens (needed), a key token a mention covers "
       "only in part: taken whole (extend, default), left out (shrink), or an error",
       choices=CUT_POLICIES, group="file"),
    _S("keep_split_antecedents", "what is scored", "score split-antecedent plurals with the "
       "generalized metrics of Paun et al. 2023 (default: plurals are ordinary entities)",
       kind="switch",
       sign=_when(lambda options: options.keep_split_antecedents,
                  lambda options: "split_antecedents:"
                  + ("only" if options.only_split_antecedents else "keep"))),
    _S("only_split_antecedents", "what is scored", "report the split-antecedent scores "
       "alone, under the usual metric names (implies --keep-split-antecedents)",
       kind="switch"),
    _S("lea_split_importance", "what is scored", "LEA weight factor of entities with a split "
       "antecedent (default: 1)", parse=float, metavar="BETA",
       sign=_when(lambda options: (options.keep_split_antecedents
                                   and options.lea_split_importance != 1.0),
                  lambda options: f"lea_split_importance:{options.lea_split_importance:g}")),
    _S("keep_non_referring", "what is scored", "also score the identification of "
       "non-referring markables", kind="switch",
       sign=_when(lambda options: options.keep_non_referring,
                  lambda options: "non_referring:keep")),
    _S("keep_bridging", "what is scored", "also score bridging (anaphor recognition, mention "
       "and entity anchors)", kind="switch",
       sign=_when(lambda options: options.keep_bridging, lambda options: "bridging:keep")),
    _S("discourse_deixis", "what is scored", "also score the discourse-deixis layer with the "
       "identity metrics", kind="switch",
       sign=_when(lambda options: options.discourse_deixis,
                  lambda options: "discourse_deixis:keep")),
    _S("compat", "mention matching", "ua: follow the UA scorer 2.0 / CorefUD scorer "
       "conventions where they differ (default: none)", choices=COMPAT_MODES,
       sign=_when(lambda options: options.compat != "none",
                  lambda options: f"compat:{options.compat}"), preset_free=True),
    _S("window", "scoring unit", "score every document in windows of N words, each window as "
       "a document (docs/windows.md; default: whole documents)", parse=whole_number,
       metavar="N", sign=_when(lambda options: bool(options.window),
                               lambda options: f"window:{options.window}/"
                                               f"{options.window_rule}")),
    _S("window_rule", "scoring unit", "with --window: consecutive windows, each mention in "
       "the window of its first word (clean, default), or BookCoref's gold_window rules "
       "(bookcoref)", choices=WINDOW_RULES),
    _S("level", "scoring unit", f"the scoring unit: {', '.join(LEVELS)} (default: document; "
       "topic, subtopic, corpus: the documents of a topic, subtopic or the whole key scored "
       "as one, chains joined by ID); several, comma-separated, give a report per level "
       "(docs/cross-document.md)", parse=level_list, metavar="LEVEL[,LEVEL…]", group="unit",
       sign=_when(lambda options: options.level != "document",
                  lambda options: f"level:{options.level}")),
    _S("topic_pattern", "scoring unit", "with --level topic or subtopic: a regular "
       "expression whose first group, searched in each document name, is its topic (second "
       "group: subtopic), for formats that give none; e.g. '^([^_]+)_' for ECB+",
       metavar="REGEX", group="unit",
       sign=_when(lambda options: (options.level != "document"
                                   and options.topic_pattern is not None), _pattern),
       preset_free=True),
    _S("confidence", _STATISTICS, "bootstrap confidence intervals of every score, from N "
       f"resamples (default {DEFAULT_RESAMPLES['confidence']})", kind="number?", metavar="N",
       group="statistics",
       sign=_when(lambda options: bool(options.confidence),
                  lambda options: f"bootstrap:{options.confidence}@"
                                  f"{options.confidence_level:g}"), preset_free=True),
    _S("confidence_level", _STATISTICS, "coverage of the intervals, and 1 - the significance "
       "level of the tests (default 0.95)", parse=float, metavar="LEVEL", group="statistics",
       preset_free=True),
    _S("paired_bs", _STATISTICS, "paired bootstrap test (Koehn 2004) of each response against "
       f"the first, N resamples (default {DEFAULT_RESAMPLES['paired_bs']})", kind="number?",
       metavar="N", group="statistics",
       sign=_when(lambda options: bool(options.paired_bs),
                  lambda options: f"paired-bs:{options.paired_bs}"), preset_free=True),
    _S("paired_ar", _STATISTICS, "approximate randomization test (Riezler & Maxwell 2005) of "
       f"each response against the first, N trials (default "
       f"{DEFAULT_RESAMPLES['paired_ar']})", kind="number?", metavar="N", group="statistics",
       sign=_when(lambda options: bool(options.paired_ar),
                  lambda options: f"paired-ar:{options.paired_ar}"), preset_free=True),
    _S("seed", _STATISTICS, f"seed of every resampling (default {DEFAULT_SEED})", parse=int,
       group="statistics",
       sign=_when(_resampled, lambda options: f"seed:{options.seed}"), preset_free=True),
    _S("sign_key", "output", "name the key in the signature: key:1a2b3c4d, the start of the "
       "SHA-256 of its content (the JSON output has it either way)", kind="switch",
       makes_numbers=False, group="file",
       sign=lambda options, key_hash: ([f"key:{key_hash[:KEY_HASH_DIGITS]}"]
                                       if options.sign_key and key_hash is not None else []),
       preset_free=True),

)
#: The rows by name.
BY_NAME: dict[str, Setting] = {setting.name: setting for setting in SETTINGS}
#: Settings a preset leaves free: the input format (and how jsonlines spans end), how the
#: documents' names give their topics (the data's, not the convention's), the conventions,
#: the resampling of intervals and tests (they add to the numbers, never change them), the
#: number of processes, whether the signature names the key, and the settings of the
#: linguistically aware metrics (no preset reports them; naming one changes the metrics).
FREE_SETTINGS: tuple[str, ...] = tuple(setting.name for setting in SETTINGS
                                       if setting.preset_free)
#: The settings that are fields of :class:`~anascore.config.options.Options`.
FIELDS: tuple[str, ...] = tuple(setting.name for setting in SETTINGS if setting.name != "preset")
#: The settings that are switched on or off (``True`` or ``False``, nothing else).
SWITCHES: tuple[str, ...] = tuple(setting.name for setting in SETTINGS
                                  if setting.kind in ("switch", "pair"))
#: Settings that never change a number: :meth:`Options.to_dict` leaves them out.
UNNUMBERED: tuple[str, ...] = tuple(name for name in FIELDS if not BY_NAME[name].makes_numbers)


def group(name: str, order: Sequence[str]) -> tuple[str, ...]:
    """The settings of a group, in the order given (which must name each exactly once)."""
    members = {setting.name for setting in SETTINGS if setting.group == name}
    if set(order) != members or len(order) != len(members):
        raise AssertionError(f"group {name}: {sorted(members)} listed as {list(order)}")
    return tuple(order)


def signature_parts(options: Any, key_hash: str | None) -> list[str]:
    """The parts of a signature the settings give, in :data:`SETTINGS` order (the preset and
    the version are :meth:`Options.signature`'s)."""
    parts: list[str] = []
    for setting in SETTINGS:
        if setting.sign is not None:
            parts.extend(setting.sign(options, key_hash))
    return parts


def flag_of(name: str) -> str:
    """The flag of a setting (``--keep-split-antecedents``), or ``name`` when it has none."""
    setting = BY_NAME.get(name)
    return setting.flag if setting is not None and setting.kind != "none" else name
