"""The settings of the linguistically aware metrics, checked and normalized.

:class:`~anascore.config.options.Options` holds them as fields (``link_weights``,
``mention_type_function``, ``dominant_coefficients``, ``coreference_classes``,
``attempted_classes``, ``scheme_classes``); this module says what a valid value is, so that
an impossible one is an :class:`~anascore.core.errors.OptionsError` the moment it is given, and
how each one is written in a result's signature.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from anascore.config.metric_names import metrics_in
from anascore.core.errors import OptionsError

#: Chen & Ng 2013's LMetrics, which weigh links by the types of their mentions.
LINK_WEIGHTED_METRICS: tuple[str, ...] = metrics_in("link_weighted")
#: Žitkus et al. 2023's dominant-mention evaluation.
DOMINANT_METRICS: tuple[str, ...] = metrics_in("dominant")
#: Metrics that need mention types, dominant mentions or coreference type codes: computed
#: only when named, never by ``all``.
LINGUISTIC_METRICS: tuple[str, ...] = LINK_WEIGHTED_METRICS + DOMINANT_METRICS

#: W₄ of Chen & Ng 2013 §4.1, the weights of their Table 1: (w_nam, w_nom, w_pro, w_sing).
DEFAULT_LINK_WEIGHTS: tuple[float, float, float, float] = (1.0, 0.75, 0.5, 1.0)
#: k₁…k₄ of Žitkus et al. 2023 §4.3, for TP, WT, WL and WTL annotations.
DEFAULT_DOMINANT_COEFFICIENTS: tuple[float, float, float, float] = (1.0, 0.75, 0.5, 0.25)
#: The first level of Žitkus et al.'s annotation scheme (their Table 1): pronominal, generic
#: nominal, definitive nominal, adverbial, ellipsis.
DEFAULT_COREFERENCE_CLASSES: tuple[str, ...] = ("p", "g", "d", "a", "e")


def number_list(value: Any, name: str, count: int) -> tuple[float, ...]:
    """``value`` (a sequence or a comma-separated string) as ``count`` finite floats."""
    if isinstance(value, str):
        parts: Iterable[Any] = [part for part in value.split(",") if part.strip()]
    else:
        try:
            parts = list(value)
        except TypeError:
            raise OptionsError(f"{name} must be {count} numbers, not {value!r}") from None
    try:
        numbers = tuple(float(part) for part in parts)
    except (TypeError, ValueError):
        raise OptionsError(f"{name} must be {count} numbers, not {value!r}") from None
    if len(numbers) != count or not all(math.isfinite(number) for number in numbers):
        raise OptionsError(f"{name} must be {count} finite numbers, not {value!r}")
    return numbers


def check_link_weights(value: Any) -> tuple[float, float, float, float]:
    """(w_nam, w_nom, w_pro, w_sing), every weight positive.

    Chen & Ng 2013 fn. 8: a zero singleton weight can make the denominators of LB³ and LCEAFe
    zero; a zero link weight does the same for a chain of pronouns. A tiny weight (their W₁
    uses 10⁻²⁰) gives the effect of zero.
    """
    weights = number_list(value, "link_weights", 4)
    if not all(weight > 0 for weight in weights):
        raise OptionsError(f"link_weights must all be positive (w_nam, w_nom, w_pro, w_sing), "
                           f"not {value!r}; use a tiny weight such as 1e-20 for 'almost zero'")
    return weights  # type: ignore[return-value]


def check_dominant_coefficients(value: Any) -> tuple[float, float, float, float]:
    """k₁…k₄ in [0, 1] (Žitkus et al. 2023 §4.3: 'the values of the coefficients range from 0
    to 1')."""
    coefficients = number_list(value, "dominant_coefficients", 4)
    if not all(0 <= coefficient <= 1 for coefficient in coefficients):
        raise OptionsError(f"dominant_coefficients must lie in [0, 1] (k1 for TP, k2 WT, "
                           f"k3 WL, k4 WTL), not {value!r}")
    return coefficients  # type: ignore[return-value]


def class_list(value: Any, name: str) -> tuple[str, ...]:
    """Coreference classes from a sequence or a comma-separated string; ``"none"`` or an empty
    value is no class (dominant mentions are evaluated without coreference types)."""
    if value is None:
        return ()
    if isinstance(value, str):
        value = [] if value.strip().lower() == "none" else value.split(",")
    classes = tuple(str(item).strip() for item in value if str(item).strip())
    if len(set(classes)) != len(classes):
        raise OptionsError(f"{name} names a class twice: {', '.join(classes)}")
    bad = [item for item in classes if not item.replace("-", "").isalnum()]
    if bad:
        raise OptionsError(f"{name}: {', '.join(map(repr, bad))} is not a coreference type code "
                           "prefix (letters, digits, '-')")
    return classes


def check_dominant_settings(classes: Any, attempted: Any, scheme_classes: Any
                            ) -> tuple[tuple[str, ...], tuple[str, ...] | None, int | None]:
    """The coreference classes, the attempted ones (``None``: every class the evaluation
    meets) and the number of classes of the annotation scheme (``None``: as many as listed)."""
    classes = class_list(classes, "coreference_classes")
    if attempted is not None:
        attempted = class_list(attempted, "attempted_classes")
        stray = [item for item in attempted if item not in classes]
        if stray or (not classes and attempted):
            raise OptionsError(f"attempted_classes {', '.join(stray or attempted)} not among "
                               f"the coreference_classes {', '.join(classes) or 'none'}")
        attempted = tuple(item for item in classes if item in attempted)
    if scheme_classes is not None:
        if isinstance(scheme_classes, bool) or not isinstance(scheme_classes, int | str):
            raise OptionsError(f"scheme_classes must be a whole number, not {scheme_classes!r}")
        try:
            scheme_classes = int(scheme_classes)
        except ValueError:
            raise OptionsError(f"scheme_classes must be a whole number, not "
                               f"{scheme_classes!r}") from None
        if scheme_classes < max(len(classes), 1):
            raise OptionsError(f"scheme_classes is {scheme_classes}, fewer than the "
                               f"{max(len(classes), 1)} coreference classes listed")
    return classes, attempted, scheme_classes


def check_mention_type_function(value: Any) -> Callable[..., Any] | None:
    if value is not None and not callable(value):
        raise OptionsError(f"mention_type_function must be callable (mention, document) -> "
                           f"'name' | 'nominal' | 'pronoun' | 'zero', not {value!r}")
    return value


def function_name(function: Callable[..., Any] | None) -> str | None:
    """How a user-supplied function is named in signatures and JSON."""
    if function is None:
        return None
    return getattr(function, "__qualname__", None) or type(function).__name__


def numbers_text(numbers: Iterable[float]) -> str:
    return ",".join(f"{number:g}" for number in numbers)


def signature_parts(options: Any) -> list[str]:
    """The signature parts of the linguistic settings that change a requested metric."""
    parts: list[str] = []
    metrics = set(options.metrics)
    if metrics & set(LINGUISTIC_METRICS) and options.mention_type_function is not None:
        parts.append(f"mention_types:{function_name(options.mention_type_function)}")
    if metrics & set(LINK_WEIGHTED_METRICS):
        parts.append(f"link_weights:{numbers_text(options.link_weights)}")
    if "dominant" in metrics:
        parts.append(f"dominant_coefficients:{numbers_text(options.dominant_coefficients)}")
        parts.append(f"classes:{','.join(options.coreference_classes) or 'none'}")
        if options.attempted_classes is not None:
            parts.append(f"attempted:{','.join(options.attempted_classes)}")
        if options.scheme_classes is not None:
            parts.append(f"scheme_classes:{options.scheme_classes}")
    return parts
