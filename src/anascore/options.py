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

#: Every metric, in the order reports list them.
METRIC_NAMES: tuple[str, ...] = (
    "mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll", "mor", "zero",
)
#: The metrics reported when none are named: the CorefUD supplements (``mor``, ``zero``) only
#: when asked for (``all``, a preset, or by name).
DEFAULT_METRICS: tuple[str, ...] = (
    "mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll",
)
#: Metrics computed from others rather than from the contingency table.
DERIVED_METRICS: dict[str, tuple[str, ...]] = {"conll": ("muc", "bcub", "ceafe")}
MATCH_METHODS: tuple[str, ...] = ("exact", "head", "partial", "craft")
FORMATS: tuple[str, ...] = ("auto", "conll2012", "corefud", "jsonlines")
#: How zero mentions (mentions headed by a CoNLL-U empty node) are aligned.
ZERO_MATCH_METHODS: tuple[str, ...] = ("linear", "dependent")
#: ``none``: anascore's own conventions; ``ua``: the UA scorer 2.0 / CorefUD scorer's.
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
    compat
        ``ua``: follow the UA scorer 2.0 and CorefUD scorer where their conventions differ
        from anascore's (see ``docs/differences-corefud.md``).
    preset
        The name of the shared-task preset these settings come from (:mod:`anascore.presets`),
        or ``None``.
    """

    keep_singletons: bool = True
    metrics: tuple[str, ...] = DEFAULT_METRICS
    match: str = "exact"
    format: str = "auto"
    keep_zeros: bool = True
    zero_match: str = "dependent"
    exclusive_ends: bool = False
    compat: str = "none"
    preset: str | None = None

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
        if self.zero_match not in ZERO_MATCH_METHODS:
            raise OptionsError(f"unknown zero match method {self.zero_match!r}; expected one "
                               f"of {', '.join(ZERO_MATCH_METHODS)}")
        if self.compat not in COMPAT_MODES:
            raise OptionsError(
                f"unknown compat mode {self.compat!r}; expected one of {', '.join(COMPAT_MODES)}")
        if self.preset is not None:
            from anascore.presets import check_preset

            check_preset(self)

    @classmethod
    def create(cls, *, metrics: str | Iterable[str] | None = None, **settings: Any) -> Options:
        """Options from keyword settings, accepting ``metrics`` as ``None`` (the default
        metrics, or the preset's), ``"all"``, a comma-separated string or an iterable of
        names. A ``preset`` supplies every setting it fixes; a setting given as well must
        agree with it."""
        if settings.get("preset") is not None:
            from anascore.presets import preset_settings

            fixed = preset_settings(settings["preset"])
            if metrics is None:
                metrics = fixed.pop("metrics")
            else:
                fixed.pop("metrics")
            settings = {**fixed, **settings}
        if metrics is None:
            chosen = DEFAULT_METRICS
        elif metrics == "all":
            chosen = METRIC_NAMES
        elif isinstance(metrics, str):
            chosen = tuple(name.strip() for name in metrics.split(",") if name.strip())
        else:
            chosen = tuple(metrics)
        if "all" in chosen:
            chosen = METRIC_NAMES
        unknown = sorted(set(settings) - set(cls.__dataclass_fields__))
        if unknown:
            raise OptionsError(f"unknown option {', '.join(unknown)}")
        return cls(metrics=chosen, **settings)

    def with_settings(self, **settings: Any) -> Options:
        """A copy with some settings changed (validated like a new value)."""
        return replace(self, **settings)

    @property
    def computed_metrics(self) -> tuple[str, ...]:
        """The metrics counted from the contingency table: the requested ones, the ones
        derived metrics need, and mention identification (every report shows it)."""
        needed: set[str] = {"mentions"}
        for name in self.metrics:
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
        parts = [
            f"match:{self.match}",
            f"singletons:{'keep' if self.keep_singletons else 'remove'}",
        ]
        if self.preset is not None:
            parts.insert(0, f"preset:{self.preset}")
        if not self.keep_zeros:
            parts.append("zeros:remove")
        if self.zero_match != "dependent":
            parts.append(f"zero_match:{self.zero_match}")
        if self.exclusive_ends:
            parts.append("ends:exclusive")
        if self.compat != "none":
            parts.append(f"compat:{self.compat}")
        parts.append(f"version:{__version__}")
        return "|".join(parts)
