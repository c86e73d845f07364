"""Every setting of a scoring run, in one frozen value.

Settings are never threaded through readers and metrics as loose booleans: they travel as one
:class:`Options`. An impossible combination is an :class:`~anascore.errors.OptionsError`,
never a silent change. Each result carries :meth:`Options.signature`, a short string of the
settings and the version (in the manner of sacrebleu), so that a reported number can be
reproduced.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from typing import Any

from anascore.errors import OptionsError
from anascore.version import __version__

#: The identity metrics: what ``metrics="all"`` means, and what every layer of entities
#: (identity, discourse deixis) is scored with.
IDENTITY_METRICS: tuple[str, ...] = (
    "mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll",
)
#: Layers of entities scored with the identity metrics besides the identity layer; a layer's
#: metrics are named ``LAYER.METRIC`` (``discourse_deixis.muc``).
ENTITY_LAYERS: tuple[str, ...] = ("discourse_deixis",)
#: The metric of a setting that enables it (a layer metric is reported when its setting is on).
METRIC_SETTINGS: dict[str, str] = {
    "non_referring": "keep_non_referring",
    "bridging": "keep_bridging",
    **{f"{layer}.{name}": layer for layer in ENTITY_LAYERS for name in IDENTITY_METRICS},
}
#: Every metric, in the order reports list them.
METRIC_NAMES: tuple[str, ...] = (
    *IDENTITY_METRICS, "non_referring", "bridging",
    *(f"{layer}.{name}" for layer in ENTITY_LAYERS for name in IDENTITY_METRICS),
)
#: Metrics computed from others rather than from the contingency table.
DERIVED_METRICS: dict[str, tuple[str, ...]] = {
    "conll": ("muc", "bcub", "ceafe"),
    **{f"{layer}.conll": (f"{layer}.muc", f"{layer}.bcub", f"{layer}.ceafe")
       for layer in ENTITY_LAYERS},
}
MATCH_METHODS: tuple[str, ...] = ("exact", "min")
FORMATS: tuple[str, ...] = ("auto", "conll2012", "ua")
#: ``none``: anascore's own conventions (the papers'); ``ua``: the UA scorer 2.0's and the
#: CorefUD scorer's, wherever they are deterministic (``docs/differences-ua.md``).
COMPAT_MODES: tuple[str, ...] = ("none", "ua")


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
        ``min``: within the key mention and covering its minimal span, UA ``Min``).
    format
        The input format; ``auto`` detects it from the file.
    keep_non_referring
        Also score the identification of non-referring markables (``non_referring``).
        Non-referring markables never take part in identity entities either way.
    keep_bridging
        Also score bridging references (``bridging``: anaphor recognition, mention and entity
        anchors).
    discourse_deixis
        Also score the discourse-deixis layer with the identity metrics
        (``discourse_deixis.muc`` …).
    compat
        ``none`` (default) or ``ua``: reproduce the UA scorer 2.0 / CorefUD scorer
        conventions where they differ from anascore's (``docs/differences-ua.md``).
    keep_split_antecedents, only_split_antecedents, lea_split_importance
        Split-antecedent plurals (Paun et al. 2023). The metrics side lives on the
        split-antecedents branch; these fields carry the setting (presets, signature).
    """

    keep_singletons: bool = True
    metrics: tuple[str, ...] = IDENTITY_METRICS
    match: str = "exact"
    format: str = "auto"
    keep_non_referring: bool = False
    keep_bridging: bool = False
    discourse_deixis: bool = False
    compat: str = "none"
    # Split antecedents: the metrics side lives on the split-antecedents branch.
    keep_split_antecedents: bool = False
    only_split_antecedents: bool = False
    lea_split_importance: float = 1.0

    def __post_init__(self) -> None:
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
        if self.compat not in COMPAT_MODES:
            raise OptionsError(
                f"unknown compat mode {self.compat!r}; expected one of {', '.join(COMPAT_MODES)}"
            )
        if self.only_split_antecedents and not self.keep_split_antecedents:
            raise OptionsError("only_split_antecedents needs keep_split_antecedents=True "
                               "(--keep-split-antecedents)")
        if not self.lea_split_importance >= 0:
            raise OptionsError(f"lea_split_importance {self.lea_split_importance!r}; expected a "
                               "number ≥ 0")
        for name in self.metrics:
            setting = METRIC_SETTINGS.get(name)
            if setting is not None and not getattr(self, setting):
                raise OptionsError(f"metric {name} needs {setting}=True "
                                   f"(--{setting.replace('_', '-')})")

    @classmethod
    def create(cls, *, metrics: str | Iterable[str] | None = None, preset: str | None = None,
               **settings: Any) -> Options:
        """Options from keyword settings, accepting ``metrics`` as ``None``/``"all"``, a
        comma-separated string or an iterable of names. ``preset`` starts from a shared
        task's settings (:mod:`anascore.presets`); the other settings given change it."""
        if preset:
            from anascore.presets import preset_options

            base = preset_options(preset)
            if metrics is None:
                metrics = base.metrics
            settings = {**{name: value for name, value in base.to_dict().items()
                           if name not in ("metrics", "format")}, **settings}
        if metrics is None or metrics == "all":
            chosen = IDENTITY_METRICS
        elif isinstance(metrics, str):
            chosen = tuple(name.strip() for name in metrics.split(",") if name.strip())
        else:
            chosen = tuple(metrics)
        if "all" in chosen:
            chosen = IDENTITY_METRICS
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

    def to_dict(self) -> dict[str, Any]:
        settings = asdict(self)
        settings["metrics"] = list(self.metrics)
        return settings

    def signature(self) -> str:
        """A short string of every setting that changes a number, and the version.

        >>> Options().signature()  # doctest: +ELLIPSIS
        'match:exact|singletons:keep|version:...'
        """
        from anascore.presets import preset_name

        parts = [
            f"match:{self.match}",
            f"singletons:{'keep' if self.keep_singletons else 'remove'}",
        ]
        if self.keep_split_antecedents:
            parts.append("split_antecedents:"
                         + ("only" if self.only_split_antecedents else "keep"))
            if self.lea_split_importance != 1.0:
                parts.append(f"lea_split_importance:{self.lea_split_importance:g}")
        for setting, name in (("keep_non_referring", "non_referring"),
                              ("keep_bridging", "bridging"),
                              ("discourse_deixis", "discourse_deixis")):
            if getattr(self, setting):
                parts.append(f"{name}:keep")
        if self.compat != "none":
            parts.append(f"compat:{self.compat}")
        preset = preset_name(self)
        if preset:
            parts.insert(0, f"preset:{preset}")
        parts.append(f"version:{__version__}")
        return "|".join(parts)
