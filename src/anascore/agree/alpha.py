"""Krippendorff's α over mentions, with set-valued labels (Passonneau 2004, 2006).

Each mention is an item; the value an annotator gives it is the set of mentions of the chain
that holds it (the mention itself included, so a singleton's value is the set of itself and
never the empty set). Values are compared with a set distance δ (:data:`DISTANCES`), and

    α = 1 − D_o / D_e,   D_o = O / n,   D_e = T / (n (n − 1)),

where ``n`` counts the values of the items (every annotator gives every item a value),
``O = Σ_u Σ_{i≠j} δ(v_ui, v_uj) / (m_u − 1)`` sums the disagreement within each item ``u``
(``m_u`` values; ordered pairs), and ``T = Σ_c Σ_k n_c n_k δ(c, k)`` the disagreement of all
pairs of values, ``n_c`` being how often value ``c`` occurs (Krippendorff 2011, the
coincidence form). This is what NLTK's ``AnnotationTask(data, distance).alpha()`` computes.

A mention one annotator lacks (:data:`MISSING_RULES`): ``empty`` (Passonneau's rule) gives it
the empty set as that annotator's value; ``shared`` first removes from every annotation the
mentions that not every annotator has, and α is computed over the rest.

``T`` is never summed over all pairs of values: every distance here is 1 between two disjoint
non-empty sets, so with the values of different documents disjoint (a mention belongs to its
document) ``T = n² − Σ_c Σ_k n_c n_k (1 − δ(c, k))``, and only values that share a mention,
a value with itself, and the empty set with the others add to the second sum. Per document
that leaves four additive numbers (:class:`DocumentCounts`), from which the corpus α and, with
documents reweighted, each bootstrap resample's α are computed exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from anascore.agree import DISTANCES, MISSING_RULES
from anascore.core.float_sums import sum_in_order

#: The rules in words, for every output.
MISSING_DESCRIPTIONS = {
    "empty": "a mention an annotator lacks has the empty set as that annotator's value "
             "(Passonneau 2004)",
    "shared": "only the mentions every annotator has (the others removed from every "
              "annotation)",
}

SetValue = frozenset[Hashable]


def jaccard_distance(first: SetValue, second: SetValue) -> float:
    """``1 − |A ∩ B| / |A ∪ B|`` (0 between two empty sets: a value and itself)."""
    if first == second:
        return 0.0
    union = len(first | second)
    return (union - len(first & second)) / union


def masi_distance(first: SetValue, second: SetValue) -> float:
    """Passonneau's (2006) MASI distance as NLTK computes it: ``1 − J · M``, with ``J`` the
    Jaccard similarity and ``M`` 1 for equal sets, 2/3 when one is a subset of the other,
    1/3 when they intersect otherwise, 0 when they are disjoint (earlier NLTK releases used the
    rounded 0.67 and 0.33)."""
    if first == second:
        return 0.0
    intersection = len(first & second)
    union = len(first | second)
    if intersection == min(len(first), len(second)):
        monotonicity = 2 / 3
    elif intersection > 0:
        monotonicity = 1 / 3
    else:
        monotonicity = 0
    return 1 - intersection / union * monotonicity


def masi_dkpro_distance(first: SetValue, second: SetValue) -> float:
    """The MASI distance as DKPro Statistics computes it
    (``MASISetAnnotationDistanceFunction``): ``(1 − J) · w``, with ``w`` 0 for equal sets,
    1/3 when one is a subset of the other (the empty set is a subset of every set), 2/3 when
    they intersect otherwise, 1 when they are disjoint."""
    if first == second:
        return 0.0
    intersection = len(first & second)
    union = len(first | second)
    if intersection == min(len(first), len(second)):
        weight = 1 / 3
    elif intersection > 0:
        weight = 2 / 3
    else:
        weight = 1.0
    return (1.0 - intersection / union) * weight


def binary_distance(first: SetValue, second: SetValue) -> float:
    """0 for equal sets, else 1 (nominal α: two chains agree only when they are equal)."""
    return 0.0 if first == second else 1.0


DISTANCE_FUNCTIONS: dict[str, Callable[[SetValue, SetValue], float]] = {
    "jaccard": jaccard_distance,
    "masi": masi_distance,
    "masi-dkpro": masi_dkpro_distance,
    "binary": binary_distance,
}


def empty_similarity(distance: str) -> float:
    """``1 − δ(∅, c)`` for a non-empty ``c``: the same for every ``c`` with these distances
    (0, except 2/3 for the DKPro MASI, where the empty set is a subset)."""
    return 1.0 - DISTANCE_FUNCTIONS[distance](frozenset(), frozenset({0}))


#: A document's chains as one annotator has them (each a tuple of mention identities: token
#: tuples), or ``None`` when the annotation lacks the document.
Chains = Sequence[Sequence[Hashable]] | None


@dataclass(frozen=True)
class DocumentValues:
    """One document's reliability data: the distinct non-empty values, how often each
    occurs, and each item's value per annotator (``-1``: the empty set)."""

    values: tuple[SetValue, ...]
    frequencies: np.ndarray
    items: np.ndarray

    @property
    def empty(self) -> int:
        """How many values are the empty set."""
        return int(np.count_nonzero(self.items < 0))


def document_values(chains: Sequence[Chains], missing: str) -> DocumentValues:
    """The items of one document (its mentions) and each annotator's value of each."""
    annotations = [[frozenset(chain) for chain in found] if found is not None else []
                   for found in chains]
    if missing == "shared":
        mention_sets = [frozenset().union(*found) if chains[index] is not None else frozenset()
                        for index, found in enumerate(annotations)]
        shared = frozenset.intersection(*mention_sets) if mention_sets else frozenset()
        annotations = [[chain & shared for chain in found if chain & shared]
                       for found in annotations]
    elif missing != "empty":
        raise ValueError(f"missing must be one of {', '.join(MISSING_RULES)}, not {missing!r}")
    index_of: dict[SetValue, int] = {}
    value_of: list[dict[Hashable, int]] = []
    for found in annotations:
        by_mention: dict[Hashable, int] = {}
        for chain in found:
            number = index_of.setdefault(chain, len(index_of))
            for mention in chain:
                by_mention[mention] = number
        value_of.append(by_mention)
    mentions = sorted(set().union(*value_of), key=repr) if value_of else []
    items = np.array([[found.get(mention, -1) for found in value_of] for mention in mentions],
                     dtype=np.int64).reshape(len(mentions), len(annotations))
    values = tuple(index_of)
    present = items[items >= 0]
    frequencies = np.bincount(present, minlength=len(values)).astype(np.float64)
    return DocumentValues(values, frequencies, items)


@dataclass(frozen=True)
class DocumentCounts:
    """The additive numbers of α for each distance, one row per document: ``observed``
    (``O``), ``values`` (``n``), ``empty`` (the values that are the empty set) and
    ``within`` (``Σ n_c n_k (1 − δ(c, k))`` over the document's non-empty values ``c``,
    ``k`` that share a mention, ``c = k`` included)."""

    distance: str
    observed: np.ndarray
    values: np.ndarray
    empty: np.ndarray
    within: np.ndarray

    def alpha(self, weights: np.ndarray | None = None) -> np.ndarray:
        """α of the documents weighted by each row of ``weights`` (resamples × documents;
        ``None``: the corpus once): the α of a corpus holding document ``d`` ``w_d`` times,
        each copy a document of its own (a bootstrap resample); ``NaN`` where fewer than two
        values, or no two different ones, were given."""
        if weights is None:
            weights = np.ones((1, len(self.values)))
        # A copy drawn twice is two documents, with values of its own: ``within`` adds up.
        return self._alpha(weights @ self.values, weights @ self.empty,
                           weights @ self.observed, weights @ self.within)

    def _alpha(self, n: np.ndarray, empty: np.ndarray, observed: np.ndarray,
               within: np.ndarray) -> np.ndarray:
        total = (n * n - empty * empty - within
                 - 2 * empty_similarity(self.distance) * empty * (n - empty))
        with np.errstate(divide="ignore", invalid="ignore"):
            alpha = 1.0 - (n - 1) * observed / total
        return np.where((n >= 2) & (total > 0), alpha, np.nan)

    def document_alphas(self) -> np.ndarray:
        """α of each document alone."""
        return self._alpha(self.values, self.empty, self.observed, self.within)

    def document_alpha(self, index: int) -> float:
        """α of one document alone."""
        return float(self.document_alphas()[index])

    def corpus_alpha(self) -> float:
        return float(self.alpha()[0])


def document_numbers(data: DocumentValues, distance: str) -> tuple[float, float, float, float]:
    """``O``, ``n``, the empty values and ``within`` of one document for ``distance``."""
    measure = DISTANCE_FUNCTIONS[distance]
    to_empty = 1.0 - empty_similarity(distance)
    cache: dict[tuple[int, int], float] = {}

    def delta(first: int, second: int) -> float:
        if first == second:
            return 0.0
        if first < 0 or second < 0:
            return to_empty
        pair = (first, second) if first < second else (second, first)
        found = cache.get(pair)
        if found is None:
            found = cache[pair] = measure(data.values[pair[0]], data.values[pair[1]])
        return found

    items, coders = data.items.shape
    if items == 0 or coders < 2:
        return 0.0, 0.0, 0.0, 0.0
    disagreement = 0.0
    for row in data.items.tolist():
        disagreement += sum_in_order(delta(row[i], row[j]) for i in range(coders)
                                     for j in range(i + 1, coders))
    observed = 2 * disagreement / (coders - 1)
    frequencies = data.frequencies
    within = float(np.dot(frequencies, frequencies))
    holding: dict[Hashable, list[int]] = {}
    for number, value in enumerate(data.values):
        for mention in value:
            holding.setdefault(mention, []).append(number)
    for number, value in enumerate(data.values):
        others = {other for mention in value for other in holding[mention] if other > number}
        for other in others:
            within += (2 * frequencies[number] * frequencies[other]
                       * (1.0 - delta(number, other)))
    return observed, float(items * coders), float(data.empty), within


def alpha_counts(documents: Sequence[DocumentValues],
                 distances: Sequence[str]) -> dict[str, DocumentCounts]:
    """Every document's numbers for each distance."""
    result = {}
    for distance in distances:
        rows = np.array([document_numbers(data, distance) for data in documents],
                        dtype=np.float64).reshape(len(documents), 4)
        result[distance] = DocumentCounts(distance, rows[:, 0].copy(), rows[:, 1].copy(),
                                          rows[:, 2].copy(), rows[:, 3].copy())
    return result


def check_distances(names: str | Iterable[str] | None) -> tuple[str, ...]:
    """The distances asked for (``None`` or ``"all"``: every one), in the order of
    :data:`DISTANCES`; a ``ValueError`` naming an unknown one."""
    if names is None:
        return DISTANCES
    if isinstance(names, str):
        names = [name.strip() for name in names.split(",") if name.strip()]
    chosen = [name.lower() for name in names]
    if "all" in chosen:
        return DISTANCES
    unknown = [name for name in chosen if name not in DISTANCES]
    if unknown or not chosen:
        raise ValueError(f"unknown distance {', '.join(unknown) or '(none)'}; expected a "
                         f"comma-separated subset of {', '.join(DISTANCES)} or 'all'")
    return tuple(name for name in DISTANCES if name in chosen)
