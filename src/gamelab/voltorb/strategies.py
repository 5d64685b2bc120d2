"""Strategies by name: which tile to flip next (and, for the coin objective, when to quit).

* ``random`` — BOGOFlip (Jaff & Bohrer 2021): a uniformly random unrevealed tile.
* ``minrisk`` — the tile least likely to be a Voltorb (exact posterior), among tiles that can
  still be a 2 or 3; ties go to the likelier multiplier, then row-major.
* ``scorefirst`` — the tile most likely to be a 2 or 3; ties to the safer tile.
* ``cutoff:N`` — ``scorefirst`` for the first N flips, then ``minrisk`` (Jaff & Bohrer's CutoffN).
* ``fom`` — the blog's figure of merit, exactly as its code plays (``Sparkplug94/VoltorbFlip``
  ``main.py``/``classes.py:FOM``): first every tile of a line without Voltorbs is flipped (rows,
  then columns); then per line R = S + V - 5 - revealed 2s - 2 x revealed 3s, F = R / (1 + V),
  score = outer(F_rows, F_cols) rounded to 2 decimals, revealed tiles 0, first row-major maximum.
  No posterior and no other deduction.
* ``fom-r`` — the same with F = R (the blog's first guess, 69 %).
* ``fom-meaningless`` — the blog's deliberately meaningless control (17 %); its code was not
  published, so ours inverts the figure: F = (1 + V) / (1 + R) (prefers risky, empty lines).
* ``optimal`` — exact expectimax maximising P(win) (:mod:`gamelab.voltorb.expectimax`).
* ``optimal-coins`` — exact expectimax maximising expected coins, quitting when that pays.
* ``greedy-coins`` — one-step coin rule: flip the useful tile with the largest expected
  multiplier E[v] = P(1) + 2 P(2) + 3 P(3) (a Voltorb multiplies by 0); quit once that is below 1
  (safe tiles always have E[v] >= 1, so they are flipped first). Cheap at every level.

A strategy is a small object made by :func:`make_strategy`; ``new_player(posterior, clues, rng)``
returns a per-round player with ``choose(view) -> tile`` and ``wants_to_quit(view) -> bool``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gamelab.voltorb.deduction import line_rewards
from gamelab.voltorb.expectimax import OptimalSolver
from gamelab.voltorb.posterior import Posterior
from gamelab.voltorb.rules import SIZE, TILES, Clues

STRATEGY_NAMES = (
    "random",
    "minrisk",
    "scorefirst",
    "cutoff:N",
    "fom",
    "fom-r",
    "fom-meaningless",
    "optimal",
    "optimal-coins",
    "greedy-coins",
)


@dataclass
class View:
    """What the player knows: the clues, the revealed tiles, flips made, and the posterior
    (None for strategies that do not use it)."""

    clues: Clues
    revealed: dict[int, int]
    flips: int
    posterior: Posterior | None


#: Probabilities closer than this are equal for a choice between tiles (they are sums of the
#: same exact ratios in another order, or differ by rounding): the next criterion decides, then
#: the lowest tile index. The sums themselves are machine-independent
#: (:func:`~gamelab.voltorb.posterior.weighted_tile_sums`).
TIE_TOLERANCE = 1e-12


def _argbest(primary: np.ndarray, secondary: np.ndarray, tiles: np.ndarray) -> int:
    """Tile minimising (primary, secondary, tile index), values within :data:`TIE_TOLERANCE`
    of the best counting as equal."""
    keep = primary <= primary.min() + TIE_TOLERANCE
    secondary, tiles = secondary[keep], tiles[keep]
    keep = secondary <= secondary.min() + TIE_TOLERANCE
    return int(tiles[keep].min())


def minrisk_tile(post: Posterior) -> int:
    tiles = post.candidates()
    return _argbest(post.p_voltorb()[tiles], -post.p_multiplier()[tiles], tiles)


def scorefirst_tile(post: Posterior) -> int:
    tiles = post.candidates()
    return _argbest(-post.p_multiplier()[tiles], post.p_voltorb()[tiles], tiles)


def fom_scores(clues: Clues, revealed: dict[int, int], variant: str = "fom") -> np.ndarray:
    """The blog's figure-of-merit board (5x5), revealed tiles 0."""
    r_row, r_col = line_rewards(clues, revealed)
    if variant == "fom":
        f_row = r_row / (1 + clues.row_voltorbs)
        f_col = r_col / (1 + clues.col_voltorbs)
    elif variant == "fom-r":
        f_row, f_col = r_row.astype(float), r_col.astype(float)
    elif variant == "fom-meaningless":
        f_row = (1 + clues.row_voltorbs) / (1 + np.maximum(r_row, 0))
        f_col = (1 + clues.col_voltorbs) / (1 + np.maximum(r_col, 0))
    else:
        raise ValueError(f"unknown figure of merit {variant!r}")
    scores = np.round(np.outer(f_row, f_col), 2)
    for tile in revealed:
        scores[tile // SIZE, tile % SIZE] = 0
    return scores


def fom_tile(clues: Clues, revealed: dict[int, int], variant: str) -> int:
    for r in range(SIZE):
        if clues.row_voltorbs[r] == 0:
            for c in range(SIZE):
                if r * SIZE + c not in revealed:
                    return r * SIZE + c
    for c in range(SIZE):
        if clues.col_voltorbs[c] == 0:
            for r in range(SIZE):
                if r * SIZE + c not in revealed:
                    return r * SIZE + c
    scores = fom_scores(clues, revealed, variant).reshape(-1)
    order = [int(t) for t in np.flatnonzero(scores == scores.max()) if t not in revealed]
    if not order:  # every tile scores 0: take the first unrevealed one
        order = [t for t in range(TILES) if t not in revealed]
    return int(order[0])


class Player:
    """One round of play. ``root_value``: the exact P(win) of this policy from the clues, when the
    player computes it anyway (the optimal policy does; None otherwise)."""

    root_value: float | None = None

    def choose(self, view: View) -> int:
        raise NotImplementedError

    def wants_to_quit(self, view: View) -> bool:
        return False


class Strategy:
    """A named strategy; ``needs_posterior`` says whether views carry the exact posterior."""

    name: str = ""
    needs_posterior: bool = True
    deterministic: bool = True

    def new_player(
        self, posterior: Posterior | None, clues: Clues, rng: np.random.Generator
    ) -> Player:
        raise NotImplementedError


class _FnPlayer(Player):
    def __init__(self, fn):
        self.fn = fn

    def choose(self, view: View) -> int:
        return self.fn(view)


class _Simple(Strategy):
    def __init__(self, name: str, fn, needs_posterior: bool):
        self.name = name
        self.fn = fn
        self.needs_posterior = needs_posterior

    def new_player(self, posterior, clues, rng):
        return _FnPlayer(self.fn)


class RandomStrategy(Strategy):
    name = "random"
    needs_posterior = False
    deterministic = False

    def new_player(self, posterior, clues, rng):
        def pick(view: View) -> int:
            hidden = [t for t in range(TILES) if t not in view.revealed]
            return int(hidden[int(rng.integers(len(hidden)))])

        return _FnPlayer(pick)


class _OptimalPlayer(Player):
    def __init__(self, posterior: Posterior, objective: str):
        self.solver = OptimalSolver(posterior, objective)
        self._decision: tuple[int, int] | None = None

    def _decide(self, view: View) -> int:
        key = len(view.revealed)
        if self._decision is None or self._decision[0] != key:
            tile, value = self.solver.decide(view.revealed)
            if self._decision is None and self.solver.objective == "win":
                self.root_value = value
            self._decision = (key, tile)
        return self._decision[1]

    def choose(self, view: View) -> int:
        tile = self._decide(view)
        if tile < 0:  # the coin policy would quit; if asked to flip anyway, take the safest
            return minrisk_tile(_posterior_of(view))
        return tile

    def wants_to_quit(self, view: View) -> bool:
        return self.solver.objective == "coins" and self._decide(view) < 0


def _posterior_of(view: View) -> Posterior:
    if view.posterior is None:
        raise ValueError("this strategy needs the posterior of the boards (View.posterior)")
    return view.posterior


def expected_multiplier(post: Posterior) -> tuple[np.ndarray, np.ndarray]:
    """(useful tiles, E[value] of each; a Voltorb counts 0)."""
    tiles = post.candidates()
    probs = post.tile_probabilities()[tiles]
    return tiles, probs[:, 1] + 2 * probs[:, 2] + 3 * probs[:, 3]


class _GreedyCoinsPlayer(Player):
    def choose(self, view: View) -> int:
        post = _posterior_of(view)
        tiles, gain = expected_multiplier(post)
        return _argbest(-gain, post.p_voltorb()[tiles], tiles)

    def wants_to_quit(self, view: View) -> bool:
        _, gain = expected_multiplier(_posterior_of(view))
        return bool(gain.max() < 1.0)


class GreedyCoinsStrategy(Strategy):
    name = "greedy-coins"

    def new_player(self, posterior, clues, rng):
        return _GreedyCoinsPlayer()


class OptimalStrategy(Strategy):
    def __init__(self, objective: str):
        self.objective = objective
        self.name = "optimal" if objective == "win" else "optimal-coins"

    def new_player(self, posterior, clues, rng):
        return _OptimalPlayer(posterior, self.objective)


def make_strategy(name: str) -> Strategy:
    """The strategy called `name` (see the module docstring); ValueError names the choices."""
    if name == "random":
        return RandomStrategy()
    if name == "minrisk":
        return _Simple(name, lambda v: minrisk_tile(v.posterior), True)
    if name == "scorefirst":
        return _Simple(name, lambda v: scorefirst_tile(v.posterior), True)
    if name.startswith("cutoff:"):
        try:
            n = int(name.split(":", 1)[1])
        except ValueError:
            n = -1
        if n < 0:
            raise ValueError(
                f"cutoff needs a non-negative number of flips, e.g. cutoff:8; got {name!r}"
            )
        return _Simple(
            name,
            lambda v: scorefirst_tile(v.posterior) if v.flips < n else minrisk_tile(v.posterior),
            True,
        )
    if name in ("fom", "fom-r", "fom-meaningless"):
        return _Simple(name, lambda v: fom_tile(v.clues, v.revealed, name), False)
    if name == "optimal":
        return OptimalStrategy("win")
    if name == "optimal-coins":
        return OptimalStrategy("coins")
    if name == "greedy-coins":
        return GreedyCoinsStrategy()
    raise ValueError(f"unknown strategy {name!r}; allowed: {', '.join(STRATEGY_NAMES)}")
