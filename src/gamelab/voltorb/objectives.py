"""Round objectives: what the exact round search maximises, and the search for any of them.

An objective is a terminal utility u(outcome, n cards flipped, coins) (the outcome is a win, a
loss or quitting, allowed once a card is shown). :class:`Objective` is the typed value, parsed
once from its text (:meth:`Objective.parse`; the constructor validates):

* ``win``: P(win), today's optimal policy (the fast search :func:`win_search` answers it);
* ``survive``: P(the next round is not at a lower level). The game's rule drops the level to
  max(1, min(L, n, 7)) after a loss or a quit, so at level L <= 7 flipping L cards (1s count)
  and quitting is as good as a win; at level 8 only a win keeps it (needs the round's level);
* ``eight``: P(win, or no loss with at least 8 cards flipped) (five such rounds in a row from
  level 5 are the only road to level 8);
* ``coins``: expected coins (today's ``optimal-coins``, the coin search);
* ``coins>=X``: P(the round ends with at least X coins).

:func:`objective_decision` is the one library call for a position: the best action (a tile, or
-1 = quit) and the optimal value. Every objective but ``win`` and ``coins`` runs in the general
kernel :func:`gamelab.voltorb._objective_kernels.objective_search`, whose cost grows with the tiles
worth flipping (1s count for ``survive`` and ``eight``): exact at every level for small
posteriors, slow on level 7-8 openings (a state limit turns that into :class:`SearchLimitError`).

    >>> Objective.parse("coins>=100")
    Objective(kind='coins>=', threshold=100)
    >>> Objective.parse("survive").describe(level=5)
    'the chance of not dropping below level 5'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gamelab.voltorb.posterior import Posterior
from gamelab.voltorb.rules import TILES

KINDS = ("win", "survive", "eight", "coins", "coins>=")
OBJECTIVE_HELP = "win, survive, eight, coins or coins>=X (X a whole number of coins, 1-50000)"
COIN_CAP = 50_000  # the game's coin counter (rules.Round)


@dataclass(frozen=True)
class Objective:
    """A round objective: `kind` one of :data:`KINDS`, `threshold` the X of ``coins>=X``."""

    kind: str = "win"
    threshold: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown objective {self.kind!r}; allowed: {OBJECTIVE_HELP}")
        if self.kind == "coins>=":
            if (
                not isinstance(self.threshold, int)
                or isinstance(self.threshold, bool)
                or not 1 <= self.threshold <= COIN_CAP
            ):
                raise ValueError(
                    f"objective coins>=X needs X from 1 to {COIN_CAP}, got {self.threshold!r}"
                )
        elif self.threshold != 0:
            raise ValueError(f"objective {self.kind} takes no number; allowed: {OBJECTIVE_HELP}")

    @classmethod
    def parse(cls, text: str) -> Objective:
        """``"win"``, ``"survive"``, ``"eight"``, ``"coins"`` or ``"coins>=X"``."""
        t = str(text).strip().lower().replace(" ", "")
        m = re.fullmatch(r"coins>=(\d{1,6})", t)
        if m:
            return cls("coins>=", int(m.group(1)))
        if t in KINDS and t != "coins>=":
            return cls(t)
        raise ValueError(f"unknown objective {text!r}; allowed: {OBJECTIVE_HELP}")

    @property
    def name(self) -> str:
        return f"coins>={self.threshold}" if self.kind == "coins>=" else self.kind

    def describe(self, level: int = 8) -> str:
        """The objective in words (for the page and the CLI)."""
        return {
            "win": "the chance of clearing the board",
            "survive": f"the chance of not dropping below level {level}",
            "eight": "the chance of clearing the board, or flipping 8 cards without a Voltorb",
            "coins": "the expected coins of the round",
            "coins>=": f"the chance of ending the round with at least {self.threshold} coins",
        }[self.kind]

    def utility_tables(self, level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        """(u_quit[n, a, b], u_win[n, a, b], u_loss[n], max u) for the general kernel:
        n cards flipped, a 2s and b 3s revealed (coins 2^a 3^b once a card is shown); `level`
        is the round's (a :class:`~gamelab.voltorb.rules.VoltorbSetting`'s, 1-8)."""
        size = TILES + 1
        n = np.arange(size)[:, None, None]
        a = np.arange(size)[None, :, None]
        b = np.arange(size)[None, None, :]
        coins = np.minimum(2.0**a * 3.0**b, COIN_CAP) * np.ones((size, 1, 1))
        shown = np.broadcast_to(n >= 1, (size, size, size))
        zeros = np.zeros((size, size, size))
        if self.kind == "win":
            u_quit, u_win, u_loss = zeros, zeros + 1.0, np.zeros(size)
        elif self.kind == "survive":
            keeps = (np.minimum(np.minimum(level, np.arange(size)), 7) >= level).astype(float)
            u_quit = np.broadcast_to(keeps[:, None, None], (size, size, size)) * shown
            u_win, u_loss = zeros + 1.0, keeps
        elif self.kind == "eight":
            eight = (np.arange(size) >= 8).astype(float)
            u_quit = np.broadcast_to(eight[:, None, None], (size, size, size)) + zeros
            u_win, u_loss = zeros + 1.0, np.zeros(size)
        elif self.kind == "coins":
            u_quit, u_win, u_loss = coins * shown, coins, np.zeros(size)
        else:
            hit = (coins >= self.threshold).astype(float)
            u_quit, u_win, u_loss = hit * shown, hit, np.zeros(size)
        tables = [np.ascontiguousarray(x, dtype=np.float64) for x in (u_quit, u_win, u_loss)]
        top = float(max(t.max() for t in tables))
        return tables[0], tables[1], tables[2], top


#: every named objective is monotone (see :mod:`gamelab.voltorb._objective_kernels`)
MONOTONE = True


@dataclass(frozen=True)
class ObjectiveDecision:
    """The best action at a position for an objective, and the optimal value from there."""

    objective: str  # the objective's name, e.g. "coins>=100"
    description: str  # what the value is, in words
    tile: int  # the tile to flip (0..24), or -1 to quit
    value: float  # the optimal expected utility (a probability, or coins for "coins")
    states: int  # states the search visited
    recommended: list[int] | None = None  # [row, col] from 1, None = quit
    # "optimal", or "fallback: minrisk, because ..." (the search stopped; `value` is then 0 and
    # `tile` MinRisk's flip), as gamelab.voltorb.budget decides
    answer: str = "optimal"
    advice: str = ""  # the advice in words (:meth:`sentence`), for a page to show as it is

    def __post_init__(self) -> None:
        if self.recommended is None and self.tile >= 0:
            object.__setattr__(self, "recommended", [self.tile // 5 + 1, self.tile % 5 + 1])
        if not self.advice:
            object.__setattr__(self, "advice", self.sentence())

    def sentence(self) -> str:
        """The advice in the game's words (a page shows it as it is; `answer` keeps the label).

        >>> ObjectiveDecision("survive", "the chance of not dropping below level 2", 6, 0.75, 9).sentence()
        'flip row 2, column 2. With the best play from here, the chance of not dropping below level 2: 75.00 %'
        """
        rc = self.recommended
        act = "quit now" if rc is None else f"flip row {rc[0]}, column {rc[1]}"
        if self.answer != "optimal":
            return (
                f"{act}: the safest flip, for now (the best play for {self.description} takes "
                "longer to work out)"
            )
        value = f"{self.value:.1f}" if self.objective == "coins" else f"{100 * self.value:.2f} %"
        return f"{act}. With the best play from here, {self.description}: {value}"


def objective_decision(
    post: Posterior,
    revealed: dict[int, int],
    objective: Objective,
    level: int,
    state_limit: int | None = None,
) -> ObjectiveDecision:
    """The exact best action for `objective` at `revealed` (a superset of the posterior's state;
    the posterior holds the boards still possible), and its value. For ``coins`` the value is
    the expected final coins (cards before the first count as coins 1, as in the coin search,
    and quitting is allowed once a card is shown)."""
    from gamelab.voltorb.expectimax import OptimalSolver

    if objective.kind in ("win", "coins"):
        solver = OptimalSolver(post, objective.kind, state_limit=state_limit)
        tile, value = solver.decide(revealed)
        if objective.kind == "coins":
            shown = [v for v in revealed.values() if v > 0]
            value *= float(np.prod(shown)) if shown else 1.0
        return ObjectiveDecision(
            objective.name, objective.describe(level), tile, value, solver.nodes
        )
    search = ObjectiveSolver(post, objective, level, state_limit=state_limit)
    tile, value = search.decide(revealed)
    return ObjectiveDecision(objective.name, objective.describe(level), tile, value, search.nodes)


class ObjectiveSolver:
    """The general kernel on a posterior: ``decide(revealed) -> (tile or -1, value)``; with
    ``python=True`` the plain-Python twin."""

    def __init__(
        self,
        post: Posterior,
        objective: Objective,
        level: int,
        state_limit: int | None = None,
        python: bool = False,
    ) -> None:
        self.post, self.objective, self.level = post, objective, level
        self.tables = objective.utility_tables(level)
        self.state_limit, self.python = state_limit, python
        self.nodes = 0

    def decide(self, revealed: dict[int, int]) -> tuple[int, float]:
        from gamelab.voltorb.info_tree import InfoTree

        tree = InfoTree(self.post)
        idx, _, _ = tree.state_for(revealed)
        if idx.size == 0:
            return -1, 1.0
        total = float(tree.weights[idx].sum())
        if self.python:
            memo: dict = {}
            value, tile = _objective_search_python(tree, idx, revealed, self.tables, memo)
            self.nodes = len(memo)
            return tile, value / total
        search = utility_search(
            tree, idx, revealed, self.tables, MONOTONE, self.state_limit, self.objective.name
        )
        self.nodes = search.nodes
        return search.tile_at(revealed), search.value / total


@dataclass
class UtilitySearch:
    """A finished run of the general kernel: the value (unnormalised: prior mass times expected
    utility) and the memo, whose best tile answers every state the optimal policy reaches."""

    value: float
    nodes: int
    memo_val: object
    memo_tile: object

    def tile_at(self, revealed: dict[int, int]) -> int:
        """The optimal policy's action (a tile, or -1 = quit) at a state it reaches."""
        from gamelab.voltorb._coin_kernels import memo_entry

        code = 0
        for t, v in revealed.items():
            code |= v << (2 * t)
        key = (code << 1) | int(any(v > 0 for v in revealed.values()))
        return int(memo_entry(self.memo_val, self.memo_tile, np.int64(key))[1])


def utility_search(
    tree,
    idx: np.ndarray,
    revealed: dict[int, int],
    tables: tuple[np.ndarray, np.ndarray, np.ndarray, float],
    monotone: bool,
    state_limit: int | None = None,
    what: str = "objective",
) -> UtilitySearch:
    """The general kernel on the live boards `idx` of `tree` (an :class:`gamelab.voltorb.info_tree.InfoTree`) at
    `revealed`, for the utility `tables` (``u_quit, u_win, u_loss, max u``; see
    :meth:`Objective.utility_tables`). `monotone` flips a tile that is a Voltorb on no board at
    once: optimal for a utility that meets the condition in
    :mod:`gamelab.voltorb._objective_kernels`, otherwise the best policy of that restricted
    class. SearchLimitError past `state_limit`."""
    from gamelab.voltorb._coin_kernels import new_memos
    from gamelab.voltorb._objective_kernels import objective_search
    from gamelab.voltorb.expectimax import SearchLimitError

    u_quit, u_win, u_loss, top = tables
    memo_val, memo_tile, _ = new_memos()
    limit = state_limit if state_limit is not None else 2**62
    counter = np.array([0, limit, 0], dtype=np.int64)
    code = 0
    for t, v in revealed.items():
        code |= v << (2 * t)
    nrev = sum(1 for t, v in revealed.items() if t not in tree.root_revealed and v >= 2)
    value = objective_search(
        np.ascontiguousarray(tree.boards, dtype=np.int8),
        np.ascontiguousarray(tree.weights, dtype=np.float64),
        np.ascontiguousarray(tree.hidden_mult, dtype=np.int64),
        np.ascontiguousarray(idx, dtype=np.int64),
        np.int64(code),
        np.int64(nrev),
        u_quit,
        u_win,
        u_loss,
        top,
        monotone,
        memo_val,
        memo_tile,
        counter,
    )
    if counter[2]:
        raise SearchLimitError(
            f"the {what} search gave up after {state_limit:,} states (state_limit)"
        )
    return UtilitySearch(float(value), int(counter[0]), memo_val, memo_tile)


def _objective_search_python(tree, idx, revealed, tables, memo):
    from gamelab.voltorb._objective_kernels import objective_search_python

    boards = [[int(x) for x in row] for row in tree.boards]
    u_quit, u_win, u_loss, _ = tables
    return objective_search_python(
        boards,
        tree.weights,
        [int(i) for i in idx],
        dict(revealed),
        u_quit,
        u_win,
        u_loss,
        MONOTONE,
        memo,
    )


def policy_objective_value(
    post: Posterior,
    objective: Objective,
    level: int,
    choose: Callable[[Posterior, int], int],
    quit_when: Callable[[Posterior, int], bool] | None = None,
) -> float:
    """Exact expected utility of a deterministic policy: `choose(view, flips)` as in
    :func:`gamelab.voltorb.evaluate.policy_win_probability`, and `quit_when(view, cards)`
    (cards flipped so far, 1s included) deciding to quit before a flip (never, by default)."""
    from gamelab.voltorb.info_tree import InfoTree

    tree = InfoTree(post)
    u_quit, u_win, u_loss, _ = objective.utility_tables(level)
    root_flips = len(tree.root_revealed)

    def value(idx: np.ndarray, hm: np.ndarray, revealed: dict[int, int]) -> float:
        vals = list(revealed.values())
        n, a, b = len(vals), vals.count(2), vals.count(3)
        w = tree.weights[idx]
        view = Posterior(tree.boards[idx], w / w.sum(), revealed, post.clues)
        if n > 0 and quit_when is not None and quit_when(view, n):
            return float(w.sum()) * float(u_quit[n, a, b])
        tile = int(choose(view, len(revealed) - root_flips))
        acc = float(tree.weights[idx[tree.boards[idx, tile] == 0]].sum()) * float(u_loss[n])
        for v, _, live, hm_new in tree.children(idx, hm, tile):
            sel = idx[tree.boards[idx, tile] == v]
            for i in sel[hm_new[sel] == 0]:
                row = tree.boards[i]
                acc += float(tree.weights[i]) * float(
                    u_win[n + 1, int((row == 2).sum()), int((row == 3).sum())]
                )
            if live.size:
                acc += value(live, hm_new, {**revealed, tile: v})
        return acc

    idx, _ = tree.root_state()
    vals = list(tree.root_revealed.values())
    won = tree.weights[tree.root_won]
    acc = 0.0
    for i in np.flatnonzero(tree.root_won):
        row = tree.boards[i]
        acc += float(tree.weights[i]) * float(
            u_win[len(vals), int((row == 2).sum()), int((row == 3).sum())]
        )
    del won
    if idx.size == 0:
        return acc
    return acc + value(idx, tree.hidden_mult, dict(tree.root_revealed))
