"""Many games of Yatzy alone stepped in one call, for the native vector environment
(:class:`gamelab.envs.vector.YatzySolitaireVectorEnv`): the turn of
:class:`gamelab.yatzy.stepper.SolitaireStepper` on arrays, one row per sub-environment.

Dice come from the stepper's chance tables (:func:`gamelab.yatzy.stepper.chance_tables`, flattened: one
uniform per roll, the same search as its ``bisect_right``), taken in order from each
sub-environment's own row of uniforms (the caller keeps at least one ahead in every row), so a
sub-environment seeded like a single environment rolls the same dice. Boxes score with the
kernels' single statement of the joker rules (:func:`gamelab.yatzy._turn_kernels.box_points`,
:func:`~gamelab.yatzy._turn_kernels.legal_boxes`). A game that ends starts again on the
sub-environment's next step (next-step autoreset; that step's action is ignored).

The plain-Python twin :func:`step_games_python` plays the same arrays with the rule set's own
placements (:func:`gamelab.yatzy._turn_kernels.legal_moves_python`) and ``bisect``.
"""

from __future__ import annotations

from bisect import bisect_right

import numpy as np
from numba import njit

from gamelab.yatzy._turn_kernels import (
    NOT_EXTRA,
    box_points,
    extra_yahtzee_mode,
    legal_boxes,
    legal_moves_python,
)
from gamelab.yatzy.rules import (
    DICE,
    KEEP_SIZE,
    N_KEEPS,
    R_BONUS_FLAGS,
    R_N_BOXES,
    R_UPPER_FACE,
    R_YAHTZEE_BONUS,
    ROLLS,
)

#: columns of a game's row of integers: the roll index, rolls left, the filled boxes (bits),
#: min(63, upper total), the "Yahtzee box holds 50" flag, extra-Yahtzee bonuses, the score,
#: boxes filled, over (the card is full), done (over, or ended by an illegal action)
G_ROLL, G_ROLLS_LEFT, G_MASK, G_M, G_F, G_BONUSES, G_TOTAL, G_FILLED, G_OVER, G_DONE = range(10)
G_COLUMNS = 10


def chance_arrays(cumulative: list[list[float]], rolls: list[list[int]]):
    """The stepper's chance tables (one per keep, then the fresh roll) flattened for the
    kernels: (start of each table, cumulative probabilities, rolls)."""
    start = np.zeros(len(cumulative) + 1, dtype=np.int64)
    for t, c in enumerate(cumulative):
        start[t + 1] = start[t] + len(c)
    flat_c = np.array([x for c in cumulative for x in c])
    flat_r = np.array([r for rs in rolls for r in rs], dtype=np.int64)
    return start, flat_c, flat_r


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def draw_roll(table, x, start, cumulative, rolls):
    """The roll that uniform `x` draws from chance table `table` (``bisect_right`` over the
    table's cumulative probabilities scaled by its last)."""
    lo = start[table]
    hi = start[table + 1]
    target = x * cumulative[hi - 1]
    a, b = lo, hi  # the first k in [lo, hi) with cumulative[k] > target (hi if none)
    while a < b:
        mid = (a + b) // 2
        if cumulative[mid] <= target:
            a = mid + 1
        else:
            b = mid
    return rolls[min(a, hi - 1)]


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _new_turn(i, game, masks, keep_masks, u, pos, start, cumulative, rolls):
    roll = draw_roll(N_KEEPS, u[i, pos[i]], start, cumulative, rolls)
    pos[i] += 1
    game[i, G_ROLL] = roll
    game[i, G_ROLLS_LEFT] = 2
    for a in range(masks.shape[1]):
        masks[i, a] = keep_masks[roll, a]


@njit(cache=True)
def start_games(envs, game, card, masks, keep_masks, u, pos, start, cumulative, rolls):
    """Start a new game in each sub-environment listed in `envs` (one uniform each)."""
    for e in range(envs.shape[0]):
        i = envs[e]
        for c in range(G_COLUMNS):
            game[i, c] = 0
        for b in range(card.shape[1]):
            card[i, b] = -1
        _new_turn(i, game, masks, keep_masks, u, pos, start, cumulative, rolls)


@njit(cache=True)
def step_games(
    actions,
    rules,
    game,
    card,
    masks,
    keep_masks,
    u,
    pos,
    start,
    cumulative,
    rolls,
    boxes,
    rewards,
    terminated,
    illegal,
):
    """One step of every sub-environment (see the module): the points each scored (bonuses
    included), terminated and illegal flags; a done sub-environment starts its next game."""
    n_actions = masks.shape[1]
    one = np.zeros(1, dtype=np.int64)
    nf = rules[R_BONUS_FLAGS]
    upper_face = rules[R_UPPER_FACE]
    for i in range(actions.shape[0]):
        rewards[i] = 0.0
        terminated[i] = False
        illegal[i] = False
        if game[i, G_DONE]:
            one[0] = i
            start_games(one, game, card, masks, keep_masks, u, pos, start, cumulative, rolls)
            continue
        a = actions[i]
        if a < 0 or a >= n_actions or masks[i, a] == 0:
            illegal[i] = True
            terminated[i] = True
            game[i, G_DONE] = 1
            for k in range(n_actions):
                masks[i, k] = 0
            continue
        if a < N_KEEPS:
            if KEEP_SIZE[a] == DICE:
                game[i, G_ROLLS_LEFT] = 0
            else:
                roll = draw_roll(a, u[i, pos[i]], start, cumulative, rolls)
                pos[i] += 1
                game[i, G_ROLL] = roll
                game[i, G_ROLLS_LEFT] -= 1
            if game[i, G_ROLLS_LEFT] > 0:
                for k in range(n_actions):
                    masks[i, k] = keep_masks[game[i, G_ROLL], k]
            else:
                for k in range(n_actions):
                    masks[i, k] = 0
                n = legal_boxes(game[i, G_MASK], game[i, G_F], game[i, G_ROLL], rules, boxes)
                for k in range(n):
                    masks[i, N_KEEPS + boxes[k]] = 1
            continue
        b = a - N_KEEPS
        r = game[i, G_ROLL]
        mask, m, f = game[i, G_MASK], game[i, G_M], game[i, G_F]
        mode = extra_yahtzee_mode(rules, mask, r)
        _, gained, j = box_points(rules, mask, m, f, b, r, mode)
        bonus = rules[R_YAHTZEE_BONUS] if (mode != NOT_EXTRA and f == 1) else 0
        face = upper_face[b]
        card[i, b] = ROLLS[r, face - 1] * face if face > 0 else gained - bonus
        if bonus > 0:
            game[i, G_BONUSES] += 1
        game[i, G_TOTAL] += gained
        game[i, G_MASK] = j // (nf * 64)
        game[i, G_M] = (j // nf) % 64
        game[i, G_F] = j % nf
        game[i, G_FILLED] += 1
        rewards[i] = float(gained)
        if game[i, G_FILLED] == rules[R_N_BOXES]:
            game[i, G_OVER] = 1
            game[i, G_DONE] = 1
            game[i, G_ROLLS_LEFT] = 0
            terminated[i] = True
            for k in range(n_actions):
                masks[i, k] = 0
        else:
            _new_turn(i, game, masks, keep_masks, u, pos, start, cumulative, rolls)


def step_games_python(
    actions, rules, game, card, masks, keep_masks, u, pos, cumulative, rolls
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Plain-Python twin of :func:`step_games` (same arrays, changed in place; `cumulative` and
    `rolls` are the stepper's per-table lists): (rewards, terminated, illegal)."""
    n = len(actions)
    rewards, terminated, bad = np.zeros(n), np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    nf = rules.bonus_flags

    def new_turn(i: int) -> None:
        c = cumulative[N_KEEPS]
        k = bisect_right(c, u[i, pos[i]] * c[-1])
        pos[i] += 1
        game[i, G_ROLL] = rolls[N_KEEPS][min(k, len(c) - 1)]
        game[i, G_ROLLS_LEFT] = 2
        masks[i] = keep_masks[game[i, G_ROLL]]

    for i in range(n):
        if game[i, G_DONE]:
            game[i] = 0
            card[i] = -1
            new_turn(i)
            continue
        a = int(actions[i])
        if not (0 <= a < masks.shape[1] and masks[i, a]):
            bad[i] = terminated[i] = True
            game[i, G_DONE] = 1
            masks[i] = 0
            continue
        mask, m, f, r = (int(game[i, c]) for c in (G_MASK, G_M, G_F, G_ROLL))
        moves = {b: (gain, j) for b, gain, j in legal_moves_python(rules, mask, m, f, r)}
        if a < N_KEEPS:
            if KEEP_SIZE[a] == DICE:
                game[i, G_ROLLS_LEFT] = 0
            else:
                c = cumulative[a]
                k = bisect_right(c, u[i, pos[i]] * c[-1])
                pos[i] += 1
                game[i, G_ROLL] = rolls[a][min(k, len(c) - 1)]
                game[i, G_ROLLS_LEFT] -= 1
            if game[i, G_ROLLS_LEFT]:
                masks[i] = keep_masks[game[i, G_ROLL]]
            else:
                r = int(game[i, G_ROLL])
                masks[i] = 0
                for b, _, _ in legal_moves_python(rules, mask, m, f, r):
                    masks[i, N_KEEPS + b] = 1
            continue
        b = a - N_KEEPS
        gained, j = moves[b]
        face = rules.upper_face(b)
        # f = 1: the Yahtzee box holds 50 under a Yahtzee bonus, so five of a kind earns it
        bonus = rules.yahtzee_bonus if (ROLLS[r].max() == DICE and f == 1) else 0
        card[i, b] = ROLLS[r, face - 1] * face if face else gained - bonus
        game[i, G_BONUSES] += 1 if bonus else 0
        game[i, G_TOTAL] += gained
        game[i, G_MASK], game[i, G_M], game[i, G_F] = j // (nf * 64), (j // nf) % 64, j % nf
        game[i, G_FILLED] += 1
        rewards[i] = float(gained)
        if game[i, G_FILLED] == rules.n_boxes:
            game[i, G_OVER] = game[i, G_DONE] = 1
            game[i, G_ROLLS_LEFT] = 0
            terminated[i] = True
            masks[i] = 0
        else:
            new_turn(i)
    return rewards, terminated, bad
