"""Puzzle objectives: named fitness functions of a sequence's exact score histogram.

Every objective maps histograms (conformations per score 0..best; rows of a 2D array, or one
1D array) to a number where higher is better:

* ``distinct-scores`` — the seed paper's fitness: the number of distinct positive scores. For
  every sequence with L <= 16 the achievable scores are exactly 0..best, so this *equals the
  best score* (see docs/lattice.md): it rewards many H in a compactable pattern and says nothing
  about how hard the top band is.
* ``best-score`` — the optimum number of HH contacts.
* ``top-rarity`` — -log10 of the share of conformations that reach the best score (a rare top
  band = a hard three-star fold).
* ``unique-optimum`` — 1 / (number of symmetry-distinct optimal conformations): 1 when the
  optimum is unique (the classic "designable" criterion for HP sequences).
* ``star-bands`` — number of star levels (1-3) that are reachable with distinct thresholds under
  percentile banding (see :mod:`.stars`).
* ``gaps`` — number of missing scores between 0 and the best (rare; the first appear at L = 18).
* ``best-then-rarity`` — the best score plus top-rarity / (log10(conformations) + 1) (< 1): the
  highest optimum first, then the hardest (rarest) top band; a good default for level packs.

>>> import numpy as np
>>> h = np.array([223386, 270102, 177685, 88794, 30858, 8751, 2135, 339, 23, 2])
>>> objective_value("distinct-scores", h), objective_value("unique-optimum", h)
(9.0, 0.5)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gamelab.lattice.stars import DEFAULT_SHARES, star_bands


def _rows(hist: np.ndarray) -> np.ndarray:
    h = np.asarray(hist, dtype=np.int64)
    if h.ndim == 1:
        h = h[None, :]
    if h.ndim != 2 or h.shape[1] == 0:
        raise ValueError("histograms must be a 1D array or a 2D array of rows")
    return h


def best_scores(hist: np.ndarray) -> np.ndarray:
    h = _rows(hist)
    nz = h > 0
    return (h.shape[1] - 1 - np.argmax(nz[:, ::-1], axis=1)).astype(np.int64)


def _at_best(h: np.ndarray) -> np.ndarray:
    return h[np.arange(h.shape[0]), best_scores(h)]


def distinct_scores(hist: np.ndarray) -> np.ndarray:
    return np.count_nonzero(_rows(hist)[:, 1:], axis=1).astype(np.float64)


def best_score(hist: np.ndarray) -> np.ndarray:
    return best_scores(hist).astype(np.float64)


def top_rarity(hist: np.ndarray) -> np.ndarray:
    h = _rows(hist)
    return 0.0 - np.log10(_at_best(h) / h.sum(axis=1))


def unique_optimum(hist: np.ndarray) -> np.ndarray:
    return 1.0 / _at_best(_rows(hist))


def gaps(hist: np.ndarray) -> np.ndarray:
    h = _rows(hist)
    best = best_scores(h)
    cols = np.arange(h.shape[1])[None, :]
    return ((h == 0) & (cols < best[:, None])).sum(axis=1).astype(np.float64)


def star_band_count(hist: np.ndarray, shares=DEFAULT_SHARES) -> np.ndarray:
    """Number of star levels 1-3 that some conformation earns under percentile banding."""
    h = _rows(hist)
    return np.array(
        [star_bands(row, "percentile", shares).non_empty for row in h], dtype=np.float64
    )


def best_then_rarity(hist: np.ndarray) -> np.ndarray:
    """The best score, ties broken by the rarity of the top band (the fractional part)."""
    h = _rows(hist)
    scale = np.log10(h.sum(axis=1)) + 1.0
    return best_score(h) + top_rarity(h) / scale


OBJECTIVES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "distinct-scores": distinct_scores,
    "best-score": best_score,
    "top-rarity": top_rarity,
    "unique-optimum": unique_optimum,
    "star-bands": star_band_count,
    "gaps": gaps,
    "best-then-rarity": best_then_rarity,
}


def check_objective(name: str) -> str:
    if name not in OBJECTIVES:
        raise ValueError(f"unknown objective {name!r}; allowed: {', '.join(OBJECTIVES)}")
    return name


def objective_values(name: str, hists: np.ndarray) -> np.ndarray:
    """The objective for every row of `hists`."""
    return OBJECTIVES[check_objective(name)](hists)


def objective_value(name: str, hist: np.ndarray) -> float:
    """The objective of one histogram."""
    return float(objective_values(name, np.asarray(hist))[0])


def all_objectives(hist: np.ndarray) -> dict[str, float]:
    return {name: objective_value(name, hist) for name in OBJECTIVES}
