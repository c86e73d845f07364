"""Every setting of a scoring run, in one frozen value.

Settings are never threaded through readers and metrics as loose booleans: they travel as one
:class:`Options`. An impossible combination is an :class:`~anascore.core.errors.OptionsError`,
never a silent change. Each result carries :meth:`Options.signature`, a short string of the
settings and the version (in the manner of sacrebleu), so that a reported number can be
reproduced.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace
from functools import cache
from typing import Any

from anascore.config import linguistic_settings as linguistic

# The values settings may take, and the table of settings, re-exported: code and users import
# them from here (``from anascore.config.options import METRIC_NAMES``).
from anascore.config.choices import (  # noqa: F401
    ALL_METRICS,
    COMPAT_MODES,
    COREFUD_METRICS,
    CUT_POLICIES,
    DEFAULT_METRICS,
    DEFAULT_SEED,
    DERIVED_METRICS,
    DOCUMENT_PAIRINGS,
    ENTITY_LAYERS,
    FORMATS,
    IDENTITY_METRICS,
    LEVELS,
    MATCH_METHODS,
    METRIC_NAMES,
    METRIC_SETTINGS,
    WINDOW_RULES,
    ZERO_MATCH_METHODS,
    canonical_metric,
)
from anascore.config.preset_settings import PRESET_NAMES, PRESET_SETTINGS
from anascore.config.settings import (  # noqa: F401
    FREE_SETTINGS,
    KEY_HASH_DIGITS,
    SWITCHES,
    UNNUMBERED,
    group,
    signature_parts,
)
from anascore.core.errors import OptionsError
from anascore.core.version import __version__

#: With ``jobs=0``: a process for every this many bytes of key and response together (below
#: it, starting a process costs about as much as it saves; :mod:`anascore.scoring.parallel`). Here,
#: so that a run on smaller files need not import the parallel machinery to learn it.
AUTO_BYTES_PER_PROCESS = 2 << 20


@dataclass(frozen=True)
class Options:
    """Settings of one scoring run.

    Parameters
    ----------
    keep_singletons
        ``True`` (default) scores what the files contain, as the reference scorer does;
        ``False`` removes single-mention entities from key and response before scoring.
    metrics
        The metrics to report, in :data:`METRIC_NAMES` order.
    match
        How response mentions are aligned with key mentions (``exact``: same tokens;
        ``min``: within the key mention and covering its minimal span, UA ``Min``;
        ``head``: same head token; ``partial``: the response lies inside the key and contains
        its head; ``craft``: CRAFT 2019 partial match); see :mod:`anascore.matching`.
    format
        The input format; ``auto`` detects it from the file.
    keep_zeros
        ``True`` (default) scores zero mentions (mentions headed by a CoNLL-U empty node);
        ``False`` removes them from key and response before anything else is selected.
    zero_match
        ``dependent`` (default, the CorefUD scorer's): key and response zeros of a sentence
        are first paired by the dependencies of their empty nodes; ``linear``: zeros are
        matched like every other mention, by position.
    exclusive_ends
        jsonlines input: span ends are exclusive (``[start, end)``) instead of inclusive.
    keep_non_referring
        Also score the identification of non-referring markables (``non_referring``).
        Non-referring markables never take part in identity entities either way.
    keep_bridging
        Also score bridging references (``bridging``: anaphor recognition, mention and entity
        anchors).
    discourse_deixis
        Also score the discourse-deixis layer with the identity metrics
        (``discourse_deixis.muc`` …).
    keep_split_antecedents
        Score split-antecedent plurals (entities with an accommodated set, ``Entity.elements``)
        with the generalized metrics of Paun et al. 2023; ``False`` scores plural entities as
        ordinary entities of their mentions.
    only_split_antecedents
        Report, under the usual metric names, the split-antecedent scores alone (Paun et al.
        2023 §7: the micro-average over aligned accommodated sets, unaligned sets paired with
        empty sets). Needs ``keep_split_antecedents``.
    lea_split_importance
        LEA's importance factor β ≥ 0 for entities with an accommodated set (Paun et al. 2023
        §5.4); 1 weighs them by their size like every other entity.
    compat
        ``"none"`` (default): anascore's conventions (the papers'); ``"ua"``: the UA scorer
        2.0's and the CorefUD scorer's where they differ (``docs/differences-ua.md``,
        ``docs/differences-corefud.md``, ``docs/split-antecedents.md``).
    confidence
        Bootstrap resamples for confidence intervals of every reported score (0: none).
    confidence_level
        The coverage of those intervals (0.95: 95% percentile intervals).
    seed
        The seed of every resampling (bootstrap, paired tests), so that numbers repeat.
    paired_bs
        Resamples of the paired bootstrap test of each response against the first (0: none).
    paired_ar
        Trials of the approximate randomization test of each response against the first
        (0: none).
    link_weights
        (w_nam, w_nom, w_pro, w_sing) of Chen & Ng 2013's LMUC, LB³, LCEAFm and LCEAFe:
        the weight of a link involving a name, else a nominal, else only pronouns, and of a
        single-mention chain (default: their W₄, ``(1, 0.75, 0.5, 1)``).
    mention_type_function
        ``(mention, document) -> "name" | "nominal" | "pronoun" | "zero"``, consulted for a
        mention whose type the input cannot tell (:mod:`anascore.comparison.mention_types`).
    dominant_coefficients
        k₁…k₄ of Žitkus et al. 2023, the credit of a TP, WT, WL and WTL annotation.
    coreference_classes
        The classes the dominant-mention evaluation reports, as prefixes of the coreference
        type codes (default: the first level of Žitkus et al.'s scheme, ``p, g, d, a, e``;
        full codes such as ``ppas`` give one class per code); ``()`` evaluates without types.
    attempted_classes
        The classes the system attempts (micro and macro averages); ``None``: every class
        with an annotation in key or response.
    scheme_classes
        The number of classes of the annotation scheme (scheme-coverage averages);
        ``None``: as many as ``coreference_classes``.
    jobs
        Processes that read and count the documents of a CoNLL-2012 key and its responses
        (:mod:`anascore.scoring.parallel`): ``1`` (default) this process alone; ``0`` as many as the
        files' size gains from, up to one per usable CPU (the command line's default). Never
        changes a number, so the signature leaves it out.
    align_tokens
        The response is on other tokens than the key (another tokenizer, sub-words, text a
        generative system wrote): its mentions are mapped onto the key's tokens through the
        characters both cover (:mod:`anascore.formats.io.token_alignment`). Marked-up text
        responses are
        always read so.
    cut_tokens
        With ``align_tokens``: a key token a response mention covers only in part is taken
        whole (``extend``, default), left out (``shrink``), or an error (``refuse``).
        Another policy without ``align_tokens`` is refused.
    key_documents_only
        Score the key's documents and ignore, with a warning, response documents the key
        lacks (default: such a document is an error, naming the nearest key documents).
        Never changes a number, so the signature leaves it out.
    pair_documents
        ``"exact"`` (default): a response document is paired with the key document of its
        name; ``"normalized"``: of its name in another convention too (``part 000`` is
        ``part 0``, the e2e-coref ``doc_key`` ``ID_0`` is ``(ID); part 0``), each pairing of
        two different names named in a warning. Scores as if the names were written alike,
        so the signature leaves it out.
    sign_key
        Name the key in the signature: ``key:1a2b3c4d``, the first 8 hexadecimal digits of
        the SHA-256 of the key's content (:mod:`anascore.scoring.key_hash`), so that two reported
        numbers can be checked to be on the same key file. The JSON output carries the hash
        (``key_hash``, ``key_sha256``) either way. Needs a key file (or folder): documents
        in memory have none to hash.
    window
        Score every document in windows of this many words, each window as a document
        (:mod:`anascore.selection.windows`); 0 (default): whole documents.
    window_rule
        How documents are cut into windows: ``clean`` (default; consecutive windows, each
        mention in the window of its first word) or ``bookcoref`` (BookCoref's
        ``gold_window`` evaluation, rule for rule). Needs ``window``.
    level
        The scoring unit (:mod:`anascore.scoring.levels`): ``document`` (default) scores each
        document; ``topic`` (``subtopic``) the documents of each topic (subtopic) as one
        document, chains joined by ID across them; ``corpus`` the whole key as one document
        (the meta-document of cross-document coreference).
    topic_pattern
        A regular expression searched in each document name: its first group is the
        document's topic, its second (if any) the subtopic, for documents whose format gives
        none (``'^([^_]+)_'``: topic ``36`` of ECB+'s ``36_1ecb``, also when CoNLL-2012 names
        it ``(36_1ecb); part 000``). Read at topic and subtopic level only.
    """

    keep_singletons: bool = True
    metrics: tuple[str, ...] = DEFAULT_METRICS
    match: str = "exact"
    format: str = "auto"
    keep_zeros: bool = True
    zero_match: str = "dependent"
    exclusive_ends: bool = False
    keep_non_referring: bool = False
    keep_bridging: bool = False
    discourse_deixis: bool = False
    keep_split_antecedents: bool = False
    only_split_antecedents: bool = False
    lea_split_importance: float = 1.0
    compat: str = "none"
    confidence: int = 0
    confidence_level: float = 0.95
    seed: int = DEFAULT_SEED
    paired_bs: int = 0
    paired_ar: int = 0
    link_weights: tuple[float, float, float, float] = linguistic.DEFAULT_LINK_WEIGHTS
    mention_type_function: Callable[..., Any] | None = None
    dominant_coefficients: tuple[float, float, float, float] = (
        linguistic.DEFAULT_DOMINANT_COEFFICIENTS)
    coreference_classes: tuple[str, ...] = linguistic.DEFAULT_COREFERENCE_CLASSES
    attempted_classes: tuple[str, ...] | None = None
    scheme_classes: int | None = None
    jobs: int = 1
    align_tokens: bool = False
    cut_tokens: str = "extend"
    key_documents_only: bool = False
    pair_documents: str = "exact"
    sign_key: bool = False
    window: int = 0
    window_rule: str = "clean"
    level: str = "document"
    topic_pattern: str | None = None

    def __post_init__(self) -> None:
        self._check_types()
        if isinstance(self.metrics, str) or not all(isinstance(name, str)
                                                    for name in self.metrics):
            raise OptionsError(f"metrics must be metric names, not {self.metrics!r}")
        object.__setattr__(self, "metrics", tuple(canonical_metric(name)
                                                  for name in self.metrics))
        unknown = [name for name in self.metrics if name not in METRIC_NAMES]
        if unknown:
            raise OptionsError(
                f"unknown metric {', '.join(unknown)}; expected some of "
                f"{', '.join(METRIC_NAMES)} or 'all'"
            )
        if not self.metrics:
            raise OptionsError("no metric selected")
        ordered = tuple(name for name in METRIC_NAMES if name in self.metrics)
        object.__setattr__(self, "metrics", ordered)
        if self.match not in MATCH_METHODS:
            raise OptionsError(
                f"unknown match method {self.match!r}; expected one of {', '.join(MATCH_METHODS)}"
            )
        if self.format not in FORMATS:
            raise OptionsError(
                f"unknown format {self.format!r}; expected one of {', '.join(FORMATS)}"
            )
        if self.zero_match not in ZERO_MATCH_METHODS:
            raise OptionsError(f"unknown zero match method {self.zero_match!r}; expected one "
                               f"of {', '.join(ZERO_MATCH_METHODS)}")
        if self.pair_documents not in DOCUMENT_PAIRINGS:
            raise OptionsError(f"unknown document pairing {self.pair_documents!r}; expected "
                               f"one of {', '.join(DOCUMENT_PAIRINGS)}")
        if self.cut_tokens not in CUT_POLICIES:
            raise OptionsError(f"unknown cut_tokens {self.cut_tokens!r}; expected one of "
                               f"{', '.join(CUT_POLICIES)}")
        if self.compat not in COMPAT_MODES:
            raise OptionsError(
                f"unknown compat mode {self.compat!r}; expected one of {', '.join(COMPAT_MODES)}"
            )
        self._check_window()
        self._check_level()
        if self.only_split_antecedents and not self.keep_split_antecedents:
            raise OptionsError("only_split_antecedents needs keep_split_antecedents=True "
                               "(--keep-split-antecedents)")
        if not (isinstance(self.lea_split_importance, int | float)
                and math.isfinite(self.lea_split_importance) and self.lea_split_importance >= 0):
            raise OptionsError(f"lea_split_importance {self.lea_split_importance!r}; expected a "
                               "number ≥ 0")
        for name in self.metrics:
            setting = METRIC_SETTINGS.get(name)
            if setting is not None and not getattr(self, setting):
                raise OptionsError(f"metric {name} needs {setting}=True "
                                   f"(--{setting.replace('_', '-')})")
        for name in ("confidence", "paired_bs", "paired_ar"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise OptionsError(f"{name} must be a whole number of resamples (0: none), "
                                   f"not {value!r}")
        if isinstance(self.jobs, bool) or not isinstance(self.jobs, int) or self.jobs < 0:
            raise OptionsError(f"jobs must be a whole number of processes (0: as many as "
                               f"the files gain from), not {self.jobs!r}")
        if not 0 < self.confidence_level < 1:
            raise OptionsError(f"confidence_level must lie strictly between 0 and 1, "
                               f"not {self.confidence_level!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise OptionsError(f"seed must be a non-negative whole number, not {self.seed!r}")
        classes, attempted, scheme = linguistic.check_dominant_settings(
            self.coreference_classes, self.attempted_classes, self.scheme_classes)
        for name, value in (
                ("link_weights", linguistic.check_link_weights(self.link_weights)),
                ("dominant_coefficients",
                 linguistic.check_dominant_coefficients(self.dominant_coefficients)),
                ("mention_type_function",
                 linguistic.check_mention_type_function(self.mention_type_function)),
                ("coreference_classes", classes), ("attempted_classes", attempted),
                ("scheme_classes", scheme)):
            object.__setattr__(self, name, value)
        self._refuse_unread_settings()
        if self.keep_split_antecedents:
            chosen = [name for name in self.metrics if name in linguistic.LINGUISTIC_METRICS]
            if chosen:
                raise OptionsError(
                    f"{', '.join(chosen)} cannot score split antecedents (Paun et al. 2023 "
                    "generalize the standard metrics only); leave out keep_split_antecedents "
                    "(--keep-split-antecedents) to score plurals as ordinary entities")

    def _check_window(self) -> None:
        """A window is a whole number of words (0: none) cut by a known rule; the layers
        that relate mentions across a window's end (bridging links, split-antecedent sets)
        have no windowed definition and are refused."""
        if isinstance(self.window, bool) or not isinstance(self.window, int) \
                or self.window < 0:
            raise OptionsError(f"window must be a whole number of words (0: whole documents), "
                               f"not {self.window!r}")
        if self.window_rule not in WINDOW_RULES:
            raise OptionsError(f"unknown window_rule {self.window_rule!r}; expected one of "
                               f"{', '.join(WINDOW_RULES)}")
        if not self.window:
            refuse_unused(self, ("window_rule",), "it says how documents are cut into "
                                                  "windows, and none is asked for (window=0)")
            return
        cut = [name for name in ("keep_bridging", "keep_split_antecedents")
               if getattr(self, name)]
        if cut:
            raise OptionsError(f"window={self.window}: bridging links and split-antecedent "
                               "sets relate mentions that the cut into windows may separate, "
                               f"and have no windowed score; leave out {', '.join(cut)}, or "
                               "score whole documents")
    def _check_level(self) -> None:
        """The level is one of :data:`LEVELS`; the topic pattern a regular expression with
        a group per part of the unit the level reads from it (two at subtopic level), given
        only where it is read; responses are on the key's tokens (documents are joined on
        them)."""
        if self.level not in LEVELS:
            raise OptionsError(f"unknown level {self.level!r}; expected one of "
                               f"{', '.join(LEVELS)}")
        pattern = self.topic_pattern
        if pattern is not None:
            if not isinstance(pattern, str):
                raise OptionsError(f"topic_pattern must be a regular expression, not "
                                   f"{pattern!r}")
            if self.level not in ("topic", "subtopic"):
                raise OptionsError(f"topic_pattern {pattern!r} names topics, which level "
                                   f"{self.level} does not read; add level='topic' "
                                   "(--level topic) or leave it out")
            try:
                groups = re.compile(pattern).groups
            except (re.error, RecursionError, OverflowError) as error:
                raise OptionsError(f"topic_pattern {pattern!r} is not a regular expression: "
                                   f"{error}") from None
            needed = 2 if self.level == "subtopic" else 1
            if groups < needed:
                raise OptionsError(
                    f"topic_pattern {pattern!r} has {groups} group{'s' if groups != 1 else ''}"
                    f"; level {self.level} needs {needed} (the first names the topic"
                    + (", the second the subtopic)" if needed == 2 else ")"))
        if self.level != "document" and self.window:
            raise OptionsError(f"level {self.level} joins documents into one unit, and "
                               f"window={self.window} would cut windows across the documents' "
                               "ends; score windows at level document, or the unit whole")
        if self.level != "document" and self.align_tokens:
            raise OptionsError(f"level {self.level} joins the response's documents on the "
                               "key's tokens; align_tokens (a response on other tokens) works "
                               "at level document only")

    def _refuse_unread_settings(self) -> None:
        """A setting that only a metric, a reading or a resampling nobody asked for reads is
        refused: it would do nothing while its user believed it had (``--seed 7`` without
        ``--confidence``, link weights without an LMetric, a cut policy without token
        alignment, a LEA split importance without split antecedents). Its default, given
        explicitly, is taken."""
        if self.cut_tokens != "extend" and not self.align_tokens:
            # Else it did nothing on the key's tokens, and changed a marked-up response's
            # scores with nothing in the signature to say so.
            raise OptionsError(f"cut_tokens={self.cut_tokens!r} needs align_tokens=True: it "
                               "says how a response on other tokens is mapped onto the key's "
                               "(marked-up text is read the same with it)")
        if self.lea_split_importance != 1.0 and not self.keep_split_antecedents:
            raise OptionsError(
                f"lea_split_importance {self.lea_split_importance!r} weighs entities with split "
                "antecedents, which are scored only with keep_split_antecedents=True; add it, "
                "or leave out lea_split_importance")
        metrics = set(self.metrics)
        if not (self.confidence or self.paired_bs or self.paired_ar):
            refuse_unused(self, ("seed", "confidence_level"),
                          "it sets how intervals and paired tests resample "
                          "(confidence, paired_bs, paired_ar), and none is asked for")
        if not metrics & set(linguistic.LINK_WEIGHTED_METRICS):
            refuse_unused(self, ("link_weights",),
                          "it weighs the links of lmuc, lbcub, lceafm and lceafe, and none "
                          "is asked for")
        if not metrics & set(linguistic.DOMINANT_METRICS):
            refuse_unused(self, ("dominant_coefficients", "coreference_classes",
                                 "attempted_classes", "scheme_classes"),
                          "it sets the dominant metric, which is not asked for")

    def _check_types(self) -> None:
        """Switches are ``True`` or ``False`` (a string is truthy: ``"false"`` would switch
        on); counts and the level are numbers, numpy's taken as Python's."""
        for name in SWITCHES:
            value = getattr(self, name)
            if getattr(value, "dtype", None) is not None and value.dtype.kind == "b":
                object.__setattr__(self, name, bool(value))
            elif not isinstance(value, bool):
                raise OptionsError(f"{name} must be True or False, not {value!r}")
        for name in ("confidence", "paired_bs", "paired_ar", "seed", "jobs", "window"):
            value = getattr(self, name)
            if isinstance(value, numbers.Integral) and not isinstance(value, bool):
                object.__setattr__(self, name, int(value))
        level = self.confidence_level
        if isinstance(level, bool) or not isinstance(level, numbers.Real):
            raise OptionsError(f"confidence_level must lie strictly between 0 and 1, "
                               f"not {level!r}")
        object.__setattr__(self, "confidence_level", float(level))

    @classmethod
    def create(cls, *, metrics: str | Iterable[str] | None = None, preset: str | None = None,
               **settings: Any) -> Options:
        """Options from keyword settings, accepting ``metrics`` as ``None`` (the default
        metrics, or the preset's), ``"all"`` (:data:`ALL_METRICS`), a comma-separated string
        or an iterable of names. ``preset`` starts from a shared task's settings
        (:mod:`anascore.config.presets`); the other settings given change it (the signature then
        names no preset, :func:`preset_name`).

        This is the one place settings are resolved, for every entry point (the command line,
        ``score``, ``compare``, ``score_documents``, ``CorefEvaluator``, ``compute``, the
        torchmetrics metric, ``evaluate``'s manifests): a setting given explicitly wins over
        the preset's, the preset's over the default; ``None`` means "not given"."""
        settings = {name: value for name, value in settings.items() if value is not None}
        if preset:
            if preset not in PRESET_SETTINGS:
                raise OptionsError(f"unknown preset {preset!r}; expected one of "
                                   f"{', '.join(PRESET_NAMES)}")
            base = cls(**PRESET_SETTINGS[preset])
            if metrics is None:
                metrics = base.metrics
            settings = {**{name: value for name, value in base.to_dict().items()
                           if name not in ("metrics", "format")}, **settings}
        if metrics is None:
            chosen = DEFAULT_METRICS
        elif metrics == "all":
            chosen = ALL_METRICS
        elif isinstance(metrics, str):
            chosen = tuple(name.strip() for name in metrics.split(",") if name.strip())
        elif isinstance(metrics, Iterable) and not isinstance(metrics, bytes | dict):
            chosen = tuple(metrics)
            if not all(isinstance(name, str) for name in chosen):
                raise OptionsError(f"metrics must be metric names, not {metrics!r}")
        else:
            raise OptionsError(f"metrics = {metrics!r}; expected 'all', comma-separated names "
                               "or a list of names")
        if any(name.strip().lower() == "all" for name in chosen):
            chosen = ALL_METRICS + tuple(name for name in chosen
                                         if name.strip().lower() != "all")
        unknown = sorted(set(settings) - set(cls.__dataclass_fields__))
        if unknown:
            raise OptionsError(f"unknown option {', '.join(unknown)}")
        return cls(metrics=chosen, **settings)

    def with_settings(self, **settings: Any) -> Options:
        """A copy with some settings changed (validated like a new value)."""
        return replace(self, **settings)

    @property
    def reported_metrics(self) -> tuple[str, ...]:
        """The metrics a report shows: the requested ones, and those of the layers the
        settings switch on (``non_referring``, ``bridging``, and each requested identity
        metric on the discourse-deixis layer)."""
        wanted = set(self.metrics)
        if self.keep_non_referring:
            wanted.add("non_referring")
        if self.keep_bridging:
            wanted.add("bridging")
        for layer in ENTITY_LAYERS:
            if getattr(self, layer):
                wanted.update(f"{layer}.{name}" for name in self.metrics
                              if name in IDENTITY_METRICS)
        return tuple(name for name in METRIC_NAMES if name in wanted)

    @property
    def computed_metrics(self) -> tuple[str, ...]:
        """The metrics counted from the contingency table: the reported ones, the ones
        derived metrics need, and mention identification (every report shows it)."""
        needed: set[str] = {"mentions"}
        for layer in ENTITY_LAYERS:
            if getattr(self, layer):
                needed.add(f"{layer}.mentions")
        for name in self.reported_metrics:
            needed.update(DERIVED_METRICS.get(name, (name,)))
        return tuple(name for name in METRIC_NAMES if name in needed)

    @property
    def needs_token_columns(self) -> bool:
        """Whether a requested metric may derive mention types from token columns, or the
        matching needs heads that a reader derives from them (UA's dependency HEAD column)."""
        return (self.match in ("head", "partial")
                or any(name in linguistic.LINGUISTIC_METRICS for name in self.metrics))

    def to_dict(self) -> dict[str, Any]:
        """The settings that make the numbers (``jobs`` does not: a report is the same
        whatever the number of processes that counted it; nor does ``sign_key``, which only
        says what the signature names)."""
        settings = asdict(self)
        for name in UNNUMBERED:
            del settings[name]
        settings["metrics"] = list(self.metrics)
        settings["mention_type_function"] = linguistic.function_name(self.mention_type_function)
        return settings

    def signature(self, key_hash: str | None = None) -> str:
        """A short string of every setting that changes a number, and the version; with
        ``sign_key``, also the key's short hash (``key:1a2b3c4d``) when ``key_hash`` (its
        SHA-256, :mod:`anascore.scoring.key_hash`) is given.

        >>> Options().signature()  # doctest: +ELLIPSIS
        'match:exact|singletons:keep|version:...'
        """
        parts = signature_parts(self, key_hash)
        preset = preset_name(self)
        if preset:
            parts.insert(0, f"preset:{preset}")
        parts.append(f"version:{__version__}")
        return "|".join(parts)


#: The settings of the resampling statistics: intervals, paired tests and how they are drawn.
STATISTICS_SETTINGS: tuple[str, ...] = group(
    "statistics", ("confidence", "confidence_level", "seed", "paired_bs", "paired_ar"))
#: Settings of the scoring unit: documents joined by topic or corpus
#: (:mod:`anascore.scoring.levels`).
UNIT_SETTINGS: tuple[str, ...] = group("unit", ("level", "topic_pattern"))
#: Settings of reading files: their format, the processes that read them, the documents kept,
#: the tokens their mentions are mapped onto, and whether the signature names the key file.
FILE_SETTINGS: tuple[str, ...] = group("file", ("format", "jobs", "key_documents_only",
                                                "pair_documents", "align_tokens", "cut_tokens",
                                                "sign_key"))


def refuse_unused(options: Options, names: Iterable[str], why: str) -> None:
    """Refuse the settings of ``names`` that ``options`` sets (to other than the default) and
    an entry point cannot honour: an :class:`OptionsError` ``name=value: why``, so that no
    setting is ignored while the signature names it."""
    given = [name for name in names
             if getattr(options, name) != Options.__dataclass_fields__[name].default]
    if given:
        raise OptionsError(", ".join(f"{name}={getattr(options, name)!r}" for name in given)
                           + f": {why}")


def preset_name(options: Options) -> str | None:
    """The name of the preset ``options`` are
    (:data:`~anascore.config.settings.FREE_SETTINGS`
    aside; presets with the same settings are named together, ``codicrac21/codicrac22-ar``),
    or ``None``."""
    compared = options.with_settings(**{name: Options.__dataclass_fields__[name].default
                                        for name in FREE_SETTINGS})
    names = [name for name, preset in _preset_options() if compared == preset]
    return "/".join(names) or None


@cache
def _preset_options() -> tuple[tuple[str, Options], ...]:
    """Each preset's options, made (and checked) once a process: every report's mode line
    and signature name its preset."""
    return tuple((name, Options(**settings)) for name, settings in PRESET_SETTINGS.items())
