"""Many Voltorb Flip rounds stepped in one call, for the native vector environment
(:class:`gamelab.envs.vector.VoltorbFlipVectorEnv`): the round of
:class:`gamelab.voltorb.stepper.RoundStepper` on arrays, one row per sub-environment.

Each sub-environment deals from its own stream of uniforms (a row of ``u``, consumed from
``pos[i]`` up to ``end[i]``) with :func:`gamelab.voltorb._deal_kernels.deal_boards`, the
single environment's dealer, so a sub-environment seeded like a single environment deals the
same boards. A round that ends is dealt again on the sub-environment's next step (Gymnasium's
next-step autoreset: that step's action is ignored); when a row's uniforms cannot finish a
board, the sub-environment is left pending (``pending[i] = 1``) for the caller to draw more
uniforms and deal again with :func:`deal_rounds`.

The plain-Python twin :func:`step_rounds_python` plays the same arrays with the stepper's rule
(``RoundStepper.flip``) written out, and deals with
:func:`gamelab.voltorb._deal_kernels.deal_boards_python`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.voltorb._deal_kernels import deal_boards, deal_boards_python
from gamelab.voltorb.rules import TILES

QUIT_ACTION = TILES
MAX_COINS = 50_000


def new_rounds(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rounds of n sub-environments, the kernels' `rounds` bundle: boards (int8, n x 25),
    clues (n x 4 x 5, as the dealer writes them), state (n x 4: coins,
    multipliers left, outcome, done), the action mask (int8, n x 26) and the revealed values
    (-1 hidden); nothing dealt yet."""
    return (
        np.ones((n, TILES), dtype=np.int8),
        np.zeros((n, 4, 5), dtype=np.int64),
        np.zeros((n, 4), dtype=np.int64),
        np.zeros((n, TILES + 1), dtype=np.int8),
        np.full((n, TILES), -1, dtype=np.int64),
    )


@njit(cache=True)
def deal_rounds(envs, stream, tables, rounds, pending):
    """Deal a new round to each sub-environment listed in `envs`; returns how many could not be
    dealt for want of uniforms (``pending[i] = 1``; the others get 0). A board with no 2 or 3
    (possible under the i.i.d. generators) would be a round won before any decision: it is
    skipped, as a single environment's agent resets again after such a reset.

    The arguments are bundles (plain tuples, DEVELOPERS.md "Kernels that share many arguments"):
    `stream` = (u, pos, end), `tables` = :func:`gamelab.voltorb._deal_kernels.level_tables`,
    `rounds` = :func:`new_rounds` (``state[i]``: coins, multipliers left, outcome (0 playing,
    1 won, 2 lost, 3 quit), done)."""
    u, pos, end = stream
    mode, counts, limits, cumulative = tables
    boards, clues, state, mask, revealed = rounds
    configs = np.zeros(1, dtype=np.int64)
    short = 0
    for e in range(envs.shape[0]):
        i = envs[e]
        pending[i] = 0
        left = 0
        while left == 0:  # a board with nothing to find (i.i.d.) is no round: deal the next
            dealt, after = deal_boards(
                u[i, : end[i]],
                pos[i],
                1,
                mode,
                counts,
                limits,
                cumulative,
                boards[i : i + 1],
                configs,
                clues[i : i + 1],
            )
            if dealt == 0:
                pending[i] = 1
                break
            pos[i] = after
            for t in range(TILES):
                if boards[i, t] >= 2:
                    left += 1
        if pending[i]:
            short += 1
            continue
        for t in range(TILES):
            revealed[i, t] = -1
            mask[i, t] = 1
        mask[i, QUIT_ACTION] = 1
        state[i, 0] = 0
        state[i, 1] = left
        state[i, 2] = 0
        state[i, 3] = 0
    return short


@njit(cache=True)
def step_rounds(actions, win, stream, tables, rounds, outcome):
    """One step of every sub-environment (see the module): rewards (the return at the end: 1
    for a cleared board when `win`, else the coins), terminated and illegal flags. A done
    sub-environment is dealt its next round (its action ignored); one whose uniforms run out
    gets ``pending[i] = 1``. Returns how many are pending. `outcome` = (rewards, terminated,
    illegal, pending), the other bundles as in :func:`deal_rounds`."""
    boards, clues, state, mask, revealed = rounds
    rewards, terminated, illegal, pending = outcome
    n = actions.shape[0]
    due = np.empty(n, dtype=np.int64)  # the sub-environments dealt a new round, after the loop
    n_due = 0
    for i in range(n):
        rewards[i] = 0.0
        terminated[i] = False
        illegal[i] = False
        pending[i] = 0
        if state[i, 3] == 1:
            due[n_due] = i
            n_due += 1
            continue
        a = actions[i]
        if a < 0 or a > QUIT_ACTION or mask[i, a] == 0:
            illegal[i] = True
            state[i, 2] = 2
        elif a == QUIT_ACTION:
            state[i, 2] = 3
        else:
            value = boards[i, a]
            revealed[i, a] = value
            mask[i, a] = 0
            if value == 0:
                state[i, 0] = 0
                state[i, 2] = 2
            else:
                coins = state[i, 0]
                coins = value if coins == 0 else min(coins * value, MAX_COINS)
                state[i, 0] = coins
                if value >= 2:
                    state[i, 1] -= 1
                    if state[i, 1] == 0:
                        state[i, 2] = 1
        if state[i, 2] != 0:
            state[i, 3] = 1
            terminated[i] = True
            for t in range(TILES + 1):
                mask[i, t] = 0
            if illegal[i]:
                rewards[i] = 0.0
            elif win:
                rewards[i] = 1.0 if state[i, 2] == 1 else 0.0
            else:
                rewards[i] = float(state[i, 0])
    return deal_rounds(due[:n_due], stream, tables, rounds, pending)


def step_rounds_python(
    actions, win: bool, generator: str, level: int, stream, rounds
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Plain-Python twin of :func:`step_rounds` (same arrays, changed in place): (rewards,
    terminated, illegal, pending)."""
    u, pos, end = stream
    boards, clues, state, mask, revealed = rounds
    n = len(actions)
    rewards = np.zeros(n)
    terminated = np.zeros(n, dtype=bool)
    bad = np.zeros(n, dtype=bool)
    pending = np.zeros(n, dtype=np.int64)
    for i in range(n):
        if state[i, 3] == 1:  # next-step autoreset: deal the next round
            left = 0
            while not left:  # a board with nothing to find is skipped
                dealt, after, board, _, clue = deal_boards_python(
                    u[i, : end[i]], int(pos[i]), 1, generator, level
                )
                if not dealt:
                    pending[i] = 1
                    break
                pos[i] = after
                boards[i], clues[i] = board[0], clue[0]
                left = int((board[0] >= 2).sum())
            if left:
                revealed[i] = -1
                mask[i] = 1
                state[i] = (0, left, 0, 0)
            continue
        a = int(actions[i])
        if not (0 <= a <= QUIT_ACTION and mask[i, a]):
            bad[i], outcome = True, "lost"
        elif a == QUIT_ACTION:
            outcome = "quit"
        else:
            value = int(boards[i, a])
            revealed[i, a] = value
            mask[i, a] = 0
            outcome = ""
            if value == 0:
                state[i, 0], outcome = 0, "lost"
            else:
                coins = int(state[i, 0])
                state[i, 0] = value if coins == 0 else min(coins * value, MAX_COINS)
                if value >= 2:
                    state[i, 1] -= 1
                    if state[i, 1] == 0:
                        outcome = "won"
        if outcome:
            state[i, 2] = ("won", "lost", "quit").index(outcome) + 1
            state[i, 3] = 1
            terminated[i] = True
            mask[i] = 0
            if not bad[i]:
                rewards[i] = (1.0 if outcome == "won" else 0.0) if win else float(state[i, 0])
    return rewards, terminated, bad, pending
