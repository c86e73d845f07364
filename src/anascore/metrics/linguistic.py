"""LMUC, LB³, LCEAFm, LCEAFe: Chen & Ng 2013's linguistically aware metrics.

Chen & Ng (§2.5) write MUC, B³, CEAFm and CEAFe with three weight functions: w_c of the common
part C_ij = K_i ∩ S_j of a key chain and a system chain, w_k of a key chain, w_s of a system
chain. Their linguistically aware versions (§3) keep each metric's formula and replace the
three functions:

* a link e between two mentions weighs w_l(e) = w_nam if it involves a name, else w_nom if it
  involves a nominal, else w_pro (§3.1, Rules 1–3; a zero mention counts as a pronoun), with
  ``Options.link_weights = (w_nam, w_nom, w_pro, w_sing)``;
* w_c^L(C) = the weight of a maximum spanning tree over C's mentions if |C| > 1; w_sing if
  |C| = |K_i| = |S_j| = 1 (a correctly found singleton); else 0 (eq. 8);
* w_k^L(K) = the maximum spanning tree weight of K if |K| > 1, else w_sing (eq. 9);
* w_s^L(S) = Σ_i w_c^L(C_ij) + the weight of E_t(S), if |S| > 1, else w_sing (eq. 11), where
  E_t(S) is the heaviest set of ne − 1 spurious links (links between mentions of different
  key chains) that connects the ne non-empty parts of S (§3.4).

Then, with n_ij = |C_ij| and the sums over the non-zero cells of the contingency table:

    LMUC    R = Σ w_c^L(C_ij) / Σ w_k^L(K_i)
            P = Σ w_c^L(C_ij) / Σ w_s^L(S_j)
    LB³     R = Σ n_ij w_c^L(C_ij) / w_k^L(K_i)  /  Σ |K_i|
            P = Σ n_ij w_c^L(C_ij) / w_s^L(S_j)  /  Σ |S_j|
    LCEAFm  φ(K_i, S_j) = w_c^L(C_ij);   R = Φ(g*) / Σ w_k^L(K_i),   P = Φ(g*) / Σ w_s^L(S_j)
    LCEAFe  φ(K_i, S_j) = 2 w_c^L(C_ij) / (w_k^L(K_i) + w_s^L(S_j))
            R = Φ(g*) / |K|   (the number of key chains),   P = Φ(g*) / |S|

Choices the paper leaves open, each resolved so that its Table 1 is reproduced to the printed
precision (``tests/unit/metrics/test_linguistic.py``; ``docs/linguistic-metrics.md``):

1. E_t(S) is the maximum-weight spanning tree of the graph whose nodes are the non-empty
   parts C_ij of S and whose edges are all links between mentions of different parts: the
   heaviest set of ne − 1 spurious links that connects them (Table 1, response (e):
   LMUC P = 92.7 needs the name link, 96.2 would need the pronoun link).
2. The CEAF alignment g* maximizes the linguistically weighted similarity φ above, not the
   original one (Table 1 (e): LCEAFm R = 58.2; aligning by |K ∩ S| gives 52.2).
3. LCEAF denominators: Σ w_k^L and Σ w_s^L for LCEAFm (Table 1 (e): P = 70.9, which the
   spanning-tree weight of each system chain would make 58.2); the numbers of key and system
   chains for LCEAFe, as φ(K, K) = 1 in the original (Table 1 (e): P = 85.8), with w_s^L,
   spurious links included, in φ's denominator.
4. A one-mention part of a larger chain weighs 0, as eq. 8 says: only a singleton found as a
   singleton earns w_sing (Table 1 (a): LB³ P = 70.0 counts the misplaced singletons as 0).
5. Predicted mentions (the paper scores gold mentions only; §5 defers to Cai & Strube 2010):
   a key mention the response lacks is left out of every C_ij but still weighs in w_k^L(K_i);
   a response mention the key lacks is a part of its system chain by itself (weight 0), so
   the links that join it to the rest are spurious links of E_t. With uniform link weights
   this makes w_s^L(S) = |S| − 1, MUC's precision denominator under Pradhan et al. 2014.
6. A mention aligned with a key mention has the key mention's type
   (:mod:`anascore.comparison.mention_types`).

The maximum spanning tree weights are computed in closed form from counts: a link's weight
depends only on the types of its two ends, and the sets of nodes each kind of link can join
are nested (every node, the nodes with a nominal or pronoun, the nodes with a pronoun), so
Kruskal's algorithm taking the kinds heaviest first adds, for a kind joining v nodes after s
are already connected, v − s links (v − 1 when s = 0). :func:`spanning_tree_weight`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from anascore.comparison.contingency import Comparison
from anascore.comparison.mention_types import CODE, NAME, NOMINAL, comparison_types
from anascore.config.metric_names import metric_title
from anascore.metrics.base import PRF_FIELDS, Metric, exact_sum, prf_score
from anascore.metrics.entity_pairing import best_assignment_total


def spanning_tree_weight(nodes: np.ndarray, nominal_or_pronoun_nodes: np.ndarray,
                         pronoun_nodes: np.ndarray, with_name: np.ndarray,
                         with_nominal: np.ndarray,
                         weights: tuple[float, float, float]) -> np.ndarray:
    """Maximum spanning tree weights of complete graphs whose links weigh by Chen & Ng's rules.

    Each graph (one per array element) has ``nodes`` nodes; a node holds mentions of one or
    more types: ``nominal_or_pronoun_nodes`` of them hold a nominal or a pronoun,
    ``pronoun_nodes`` a pronoun; ``with_name`` / ``with_nominal`` say whether some node holds a
    name / a nominal. A node is a mention (spanning trees of chains, eqs. 8–10) or a part
    C_ij of a system chain (E_t, eq. 11). ``weights`` are (w_nam, w_nom, w_pro).

    Name links join every node (when there is a name), nominal links the nodes holding a
    nominal or pronoun (when there is a nominal), pronoun links the nodes holding a pronoun.
    """
    reach = {
        NAME: np.where(with_name, nodes, 0),
        NOMINAL: np.where(with_nominal, nominal_or_pronoun_nodes, 0),
        "pronoun": np.asarray(pronoun_nodes),
    }
    by_weight = sorted(zip((NAME, NOMINAL, "pronoun"), weights, strict=True),
                       key=lambda kind: -kind[1])
    connected = np.zeros_like(np.asarray(nodes))
    total = np.zeros(np.shape(nodes), dtype=np.float64)
    for kind, weight in by_weight:
        joined = reach[kind]
        links = np.where(joined > connected,
                         np.where(connected > 0, joined - connected, joined - 1), 0)
        total += weight * links
        connected = np.maximum(connected, joined)
    return total


@dataclass(frozen=True)
class LinguisticWeights:
    """w_k^L of each key chain, w_s^L of each system chain, and w_c^L of each non-zero cell of
    the contingency table (in ``Contingency`` cell order)."""

    key: np.ndarray
    response: np.ndarray
    common: np.ndarray


def linguistic_weights(comparison: Comparison, needed_by: str) -> LinguisticWeights:
    """The three weight functions of one document (computed once, whichever LMetric asks
    first)."""
    cached = comparison.derived.get("linguistic_weights")
    if cached is not None:
        return cached
    table, key, response = comparison.table, comparison.key, comparison.response
    w_nam, w_nom, w_pro, w_sing = comparison.options.link_weights
    link = (w_nam, w_nom, w_pro)
    types = comparison_types(comparison, needed_by)
    name, nominal = CODE[NAME], CODE[NOMINAL]

    def kinds(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return codes == name, codes == nominal, codes > nominal  # zero weighs as a pronoun

    def tree(names: np.ndarray, nominals: np.ndarray, pronouns: np.ndarray) -> np.ndarray:
        return spanning_tree_weight(names + nominals + pronouns, nominals + pronouns, pronouns,
                                    names > 0, nominals > 0, link)

    key_count = len(table.key_sizes)
    key_kinds = [np.bincount(key.entity_of, weights=flags, minlength=key_count)
                 for flags in kinds(types.key)]
    key_weight = np.where(table.key_sizes > 1, tree(*key_kinds), w_sing)

    alignment = comparison.alignment
    cell_count = len(table.counts)
    width = max(len(table.response_sizes), 1)
    cell_codes = table.rows * width + table.columns
    cell_of_pair = np.searchsorted(
        cell_codes, key.entity_of[alignment.key] * width + response.entity_of[alignment.response])
    cell_kinds = [np.bincount(cell_of_pair, weights=flags, minlength=cell_count)
                  for flags in kinds(types.key[alignment.key])]
    singleton_found = ((table.counts == 1) & (table.key_sizes[table.rows] == 1)
                       & (table.response_sizes[table.columns] == 1))
    common = np.where(table.counts > 1, tree(*cell_kinds), np.where(singleton_found, w_sing, 0.0))

    # E_t: the parts of each system chain are its non-empty cells and its unaligned mentions.
    response_count = len(table.response_sizes)
    unaligned = np.ones(response.mention_count, dtype=bool)
    unaligned[alignment.response] = False
    alone_kinds = [flags & unaligned for flags in kinds(types.response)]
    has_name, has_nominal, has_pronoun = (counts > 0 for counts in cell_kinds)

    def per_chain(cell_flags: np.ndarray, mention_flags: np.ndarray) -> np.ndarray:
        return (np.bincount(table.columns, weights=cell_flags, minlength=response_count)
                + np.bincount(response.entity_of, weights=mention_flags,
                              minlength=response_count))

    parts = per_chain(np.ones(cell_count), unaligned)
    parts_nominal_or_pronoun = per_chain(has_nominal | has_pronoun,
                                         alone_kinds[1] | alone_kinds[2])
    parts_pronoun = per_chain(has_pronoun, alone_kinds[2])
    chain_has_name = per_chain(has_name, alone_kinds[0]) > 0
    chain_has_nominal = per_chain(has_nominal, alone_kinds[1]) > 0
    spurious = spanning_tree_weight(parts, parts_nominal_or_pronoun, parts_pronoun,
                                    chain_has_name, chain_has_nominal, link)
    common_per_chain = np.bincount(table.columns, weights=common, minlength=response_count)
    response_weight = np.where(table.response_sizes > 1, common_per_chain + spurious, w_sing)

    result = LinguisticWeights(key_weight, response_weight, common)
    comparison.derived["linguistic_weights"] = result
    return result


def count_lmuc(comparison: Comparison) -> np.ndarray:
    weights = linguistic_weights(comparison, "lmuc")
    common = exact_sum(weights.common)
    return np.array([common, exact_sum(weights.key), common, exact_sum(weights.response)],
                    dtype=np.float64)


def count_lbcubed(comparison: Comparison) -> np.ndarray:
    weights = linguistic_weights(comparison, "lbcub")
    table = comparison.table
    shared = table.counts * weights.common
    return np.array([exact_sum(shared / weights.key[table.rows]), float(table.key_sizes.sum()),
                     exact_sum(shared / weights.response[table.columns]),
                     float(table.response_sizes.sum())], dtype=np.float64)


def count_lceafm(comparison: Comparison) -> np.ndarray:
    weights = linguistic_weights(comparison, "lceafm")
    total = best_assignment_total(comparison.table, weights.common)
    return np.array([total, exact_sum(weights.key), total, exact_sum(weights.response)],
                    dtype=np.float64)


def count_lceafe(comparison: Comparison) -> np.ndarray:
    weights = linguistic_weights(comparison, "lceafe")
    table = comparison.table
    similarity = 2.0 * weights.common / (weights.key[table.rows]
                                         + weights.response[table.columns])
    total = best_assignment_total(table, similarity)
    return np.array([total, len(table.key_sizes), total, len(table.response_sizes)],
                    dtype=np.float64)


_PAPER = "Chen & Ng 2013, Linguistically aware coreference evaluation metrics"
LMUC = Metric("lmuc", metric_title("lmuc"), PRF_FIELDS, count_lmuc, prf_score,
              f"{_PAPER} (MUC, eqs. 2–4, 8–11)")
LBCUBED = Metric("lbcub", metric_title("lbcub"), PRF_FIELDS, count_lbcubed, prf_score,
                 f"{_PAPER} (B³, eq. 5, 8–11)")
LCEAFM = Metric("lceafm", metric_title("lceafm"), PRF_FIELDS, count_lceafm, prf_score,
                f"{_PAPER} (CEAFm, eq. 6, 8–11)")
LCEAFE = Metric("lceafe", metric_title("lceafe"), PRF_FIELDS, count_lceafe, prf_score,
                f"{_PAPER} (CEAFe, eq. 7, 8–11)")
