"""Whether a resampling statistic rests on enough data to mean anything.

Bootstrap intervals, the paired bootstrap and approximate randomization all report a number
whatever they are given; on one document, five documents or five resamples that number looks
as precise as any other and says nothing. This module decides, from the number of documents
and resamples alone, when a result is **not applicable** (reported as ``NaN``/``null``/``n/a``
with the reason) and when it only deserves a **warning**; ``docs/statistics.md`` justifies each
threshold. In short:

* One document (or none): nothing varies between resamples; every interval and test is not
  applicable (not a zero-width interval, not p = 1/(N + 1)).
* Too few documents for the bootstrap: the percentile bootstrap treats the documents as the
  whole population, so its spread is ``sqrt((n − 1) / n)`` of the usual estimate and it uses
  normal rather than t quantiles. Even for the mean of normal data (the best case) a nominal
  ``level`` interval then covers ``P(|T_{n−1}| < z · sqrt((n − 1) / n))``
  (:func:`ideal_coverage`; Hesterberg 2015, *What teachers should know about the bootstrap*,
  §3 "narrowness bias"). We warn when that best case misses more than 1.5 times as often as
  the level promises (:func:`too_few_documents`: fewer than 18 documents at 95%, 11 at 90%,
  41 at 99%); the paired bootstrap test rejects too often in the same way.
* Smallest attainable p: the paired bootstrap cannot go below ``1 / (1 + B)`` (B resamples);
  approximate randomization, on ``k`` documents where the two systems differ, cannot go below
  ``2 / 2^k`` — swapping none or all of them gives the observed |δ| — which its Monte-Carlo
  estimate reaches as ``(1 + R · 2^(1−k)) / (1 + R)`` for R trials
  (:func:`smallest_randomization_p`). When that floor is not below α = 1 − level the test
  cannot reject, whatever the systems do: we say so.
* Too few resamples: a percentile interval needs about 1000 resamples for its ends (Efron &
  Tibshirani 1993, §19.3); with fewer than ``2 / (1 − level)`` not even one resample lies
  beyond each end, and the interval is not applicable. Tests warn under 1000 resamples (the
  Monte-Carlo standard error of a p near 0.05 is then above 0.007).
* Memory: a run keeps its resampled scores (for percentiles); counts that would need more than
  :data:`KEPT_BYTES` for them, or more than :data:`MAX_RESAMPLES`, are refused up front.
"""

from __future__ import annotations

import math

from anascore.core.errors import OptionsError

#: Resamples a percentile interval needs for its ends (Efron & Tibshirani 1993, §19.3).
MIN_INTERVAL_RESAMPLES = 1000
#: Resamples or trials under which a test's p-value is too noisy to compare with 0.05.
MIN_TEST_RESAMPLES = 1000
#: How much more often than ``1 − level`` the best-case bootstrap interval may miss before we
#: warn about the number of documents.
MISS_RATE_TOLERANCE = 1.5
#: More resamples than this change no printed digit (the Monte-Carlo error of p is < 1e-4).
MAX_RESAMPLES = 10_000_000
#: The most memory the resampled scores of one run may take (they are kept for percentiles).
KEPT_BYTES = 100 * 2**20


def ideal_coverage(documents: int, level: float) -> float:
    """The coverage of a nominal ``level`` percentile bootstrap interval of a mean of
    ``documents`` normal values: ``P(|T_{n−1}| < z_{(1+level)/2} · sqrt((n − 1) / n))``.
    A best case; ratios of counts do no better. 0 for fewer than two documents."""
    if documents < 2:
        return 0.0
    # imported here: scipy.stats takes longer to import than numpy (and 75 MB), and only a
    # run that asks for intervals needs it
    from scipy import stats as scipy_stats

    z = float(scipy_stats.norm.ppf((1 + level) / 2))
    bound = z * math.sqrt((documents - 1) / documents)
    return float(2 * scipy_stats.t.cdf(bound, documents - 1) - 1)


def too_few_documents(documents: int, level: float) -> bool:
    """Whether even the best case of :func:`ideal_coverage` misses more than
    :data:`MISS_RATE_TOLERANCE` times as often as ``level`` promises."""
    return 1 - ideal_coverage(documents, level) > MISS_RATE_TOLERANCE * (1 - level)


def fewest_documents(level: float) -> int:
    """The fewest documents :func:`too_few_documents` accepts at ``level``."""
    documents = 2
    while too_few_documents(documents, level) and documents < 10_000:
        documents += 1
    return documents


def smallest_bootstrap_p(resamples: int) -> float:
    """The smallest p-value the paired bootstrap can give: ``1 / (1 + B)``."""
    return 1 / (1 + resamples)


def smallest_randomization_p(differing: int, trials: int) -> float:
    """The smallest p-value approximate randomization can be expected to give when the
    systems differ on ``differing`` documents: the exact test's floor ``2 / 2^k`` (no swap and
    the swap of every differing document both give the observed |δ|), as the Monte-Carlo
    estimate ``(1 + #extreme) / (1 + R)`` reaches it, ``(1 + R · 2^(1−k)) / (1 + R)``; 1 when
    the systems agree on every document."""
    if differing <= 1:
        return 1.0
    return (1 + trials * 2.0 ** (1 - differing)) / (1 + trials)


def not_applicable_reason(documents: int) -> str | None:
    """Why no resampling statistic means anything on this many documents (``None``: it may)."""
    if documents < 2:
        what = "no document" if documents == 0 else "one document"
        return (f"{what}: resampling documents needs at least two, else every resample is "
                "the corpus itself")
    return None


def interval_not_applicable(documents: int, resamples: int, level: float) -> str | None:
    """Why bootstrap intervals are not applicable (``None``: they are)."""
    reason = not_applicable_reason(documents)
    if reason is not None:
        return reason
    needed = math.ceil(2 / (1 - level))
    if resamples < needed:
        return (f"{resamples} resamples: a {level:.0%} percentile interval needs at least "
                f"{needed} for one resample to lie beyond each end")
    return None


def interval_warnings(documents: int, resamples: int, level: float) -> list[str]:
    """Warnings about bootstrap intervals on this many documents and resamples (empty when
    they rest on enough, or are not applicable at all)."""
    if interval_not_applicable(documents, resamples, level) is not None:
        return []
    warnings = []
    if too_few_documents(documents, level):
        warnings.append(
            f"confidence intervals rest on {documents} documents: a percentile bootstrap "
            f"interval is too narrow on few documents (even for a mean of normal values, a "
            f"nominal {level:.0%} interval covers about {ideal_coverage(documents, level):.0%} "
            f"with {documents}); read it as a lower bound of the uncertainty, "
            f"or score at least {fewest_documents(level)} documents")
    if resamples < MIN_INTERVAL_RESAMPLES:
        warnings.append(
            f"confidence intervals from {resamples} resamples: their ends move from seed to "
            f"seed; use at least {MIN_INTERVAL_RESAMPLES} (--confidence "
            f"{MIN_INTERVAL_RESAMPLES})")
    return warnings


def check_resamples(resamples: int, what: str, kept_per_resample: int) -> None:
    """Refuse a count of resamples that would need more than :data:`KEPT_BYTES` for the
    ``kept_per_resample`` values kept of each, or exceed :data:`MAX_RESAMPLES`.

    Raises
    ------
    OptionsError
        Saying how many the run can take, and why more would not help.
    """
    fit = KEPT_BYTES // max(8 * kept_per_resample, 1)
    limit = min(MAX_RESAMPLES, fit)
    if resamples <= limit:
        return
    needed = resamples * kept_per_resample * 8
    reason = (f"keeping {kept_per_resample} scores of each resample would take "
              f"{needed / 2**30:.1f} GiB" if fit < MAX_RESAMPLES
              else "more change no printed digit")
    raise OptionsError(
        f"{what} {resamples}: too many resamples ({reason}); at most {limit} here. 10000 already "
        "estimate a 95% interval's ends and a p-value near 0.05 to within about 0.002")
