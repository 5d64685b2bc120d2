"""What every Yatzy kernel shares: the state index, the scratch workspace, placing a roll in a box
(upper bonus, the extra-Yahtzee bonus and the joker rules, written once here) and rolling dice.

State index ``(mask * 64 + m) * nf + f`` (:func:`state_index`): `mask` the filled boxes, `m` =
min(63, upper total), `f` = "the Yahtzee box holds 50", nf = :attr:`RuleSet.bonus_flags` (2 with
a Yahtzee bonus, else 1). The upper bonus is credited on the transition that first reaches 63 and
the Yahtzee bonus when an extra Yahtzee is scored.

Every kernel takes the rules as one bundle, :meth:`gamelab.yatzy.rules.RuleSet.kernel_rules` (a
tuple indexed by ``R_*``), and the kernels that need scratch buffers take a workspace from
:func:`new_workspace` (a tuple indexed by ``W_*``), so the buffers are allocated in one place.
The plain-Python twin of the placement rule is :func:`legal_moves_python`, built on the game's
own statement of the rules, :meth:`gamelab.yatzy.rules.RuleSet.placements`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.yatzy.card import Card
from gamelab.yatzy.rules import (
    KEEP_ADD,
    KEEP_SIZE,
    N_KEEPS,
    N_ROLLS,
    R_BASE,
    R_BONUS_FLAGS,
    R_JOKER,
    R_JOKER_FIXED,
    R_JOKER_VALUE,
    R_N_BOXES,
    R_UPPER_BONUS,
    R_UPPER_BOX_OF_FACE,
    R_UPPER_FACE,
    R_YAHTZEE_BONUS,
    R_YAHTZEE_BOX,
    ROLL_AS_KEEP,
    ROLL_YAHTZEE_FACE,
    ROLLS,
    RuleSet,
)

NEG = -1.0e300
#: keep index of a five-dice keep -> roll index (-1 for smaller keeps)
ROLL_INDEX_OF_KEEP = np.full(N_KEEPS, -1, dtype=np.int64)
ROLL_INDEX_OF_KEEP[ROLL_AS_KEEP] = np.arange(N_ROLLS)
#: the six five-of-a-kind rolls
YAHTZEE_ROLLS = np.flatnonzero(ROLL_YAHTZEE_FACE > 0).astype(np.int64)

#: Placement modes of a roll (:func:`extra_yahtzee_mode`).
NOT_EXTRA = -1  # not an extra Yahtzee: any open box, plain points
EXTRA_FREE = 0  # extra Yahtzee without a joker rule: any open box, plain points, bonus
FORCED_UPPER = 1  # forced joker: the upper box of the face is open and must be used
FORCED_LOWER = 2  # forced joker, upper box filled: an open lower box, at joker values
FREE_JOKER = (
    3  # free joker: any open box; fixed-value boxes score their value if the upper box is filled
)
FORCED_ANY = 4  # forced joker, upper box and every lower box filled: any open (upper) box

# Workspace layout (:func:`new_workspace`): seven arrays, indexed by W_*, most with named rows
# (few arrays: numba types and unboxes each array argument on every call from Python).
W_ROLL_F, W_KEEP_F, W_ROLL_I, W_KEEP_A, W_SUCC, W_ACC, W_LEGAL = range(7)
RF_V, RF_VW, RF_V3, RF_P = range(4)  # rows of ws[W_ROLL_F]: float [4, 252]
KF_K, KF_KW, KF_K1, KF_K2, KF_M, KF_Q = range(6)  # rows of ws[W_KEEP_F]: float [6, 462]
RI_BOX3, RI_KEEP2, RI_KEEP1, RI_OUT_B, RI_OUT_J, RI_OUT_S = range(6)  # ws[W_ROLL_I]: int [6, 252]
S_POINTS, S_E, S_W = range(3)  # ws[W_SUCC]: float [3, n_boxes, 7], successor tables of a widget
# ws[W_KEEP_A]: int [462] (best sub-keep); ws[W_ACC]: float [n_boxes, 256] (turn law);
# ws[W_LEGAL]: int [n_boxes] (legal boxes)
#: columns of the turn-law accumulator acc[box, points] (more than any turn can score)
ACC_POINTS = 256


def workspace_decisions(ws) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(box3, keep2, keep1) left in a workspace by widget_policy / utility_decisions (views)."""
    roll_i = ws[W_ROLL_I]
    return roll_i[RI_BOX3], roll_i[RI_KEEP2], roll_i[RI_KEEP1]


def workspace_arrays(n_boxes: int) -> tuple[np.ndarray, ...]:
    """The scratch buffers of one thread of widget / turn / play kernels (layout: ``W_*``), made
    by numpy for a caller in Python: nothing to compile (:data:`new_workspace` is the same
    function compiled, for kernels)."""
    return (
        np.zeros((4, N_ROLLS)),
        np.zeros((6, N_KEEPS)),
        np.zeros((6, N_ROLLS), dtype=np.int64),
        np.zeros(N_KEEPS, dtype=np.int64),
        np.zeros((3, n_boxes, 7)),
        np.zeros((n_boxes, ACC_POINTS)),
        np.zeros(n_boxes, dtype=np.int64),
    )


def decision_cache_arrays(n_states: int, slots: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(slot_of [states] int32, tables [slots, 3, 252] int16, used [1]) for cached_decisions,
    made by numpy for a caller in Python: nothing to compile (its allocations cost about half a
    CPU-second of compiling in each cold process that calls it; :data:`new_decision_cache` is
    the same function compiled, for kernels)."""
    return (
        np.zeros(n_states, dtype=np.int32),
        np.empty((slots, 3, N_ROLLS), dtype=np.int16),
        np.ones(1, dtype=np.int64),
    )


#: the same allocations compiled, for kernels (one source: the function above)
new_workspace = njit(cache=True)(workspace_arrays)
new_decision_cache = njit(cache=True)(decision_cache_arrays)


@njit(cache=True)
def state_index(mask, m, f, nf):
    """Index of state (mask, m, f) in a value table (works on arrays too)."""
    return (mask * 64 + m) * nf + f


@njit(cache=True)
def split_state(j, nf):
    """(mask, m, f) of state index j."""
    return j // (nf * 64), (j // nf) % 64, j % nf


@njit(cache=True)
def flag_values(rules, mask):
    """How many values f takes in states with this mask (2 once the Yahtzee box is filled)."""
    ybox = rules[R_YAHTZEE_BOX]
    if rules[R_BONUS_FLAGS] == 2 and ybox >= 0 and (mask >> ybox) & 1:
        return 2
    return 1


@njit(cache=True)
def upper_subset(mask, upper_face, nb):
    """Bit face-1 set for each filled upper box of `mask`."""
    u = 0
    for b in range(nb):
        if (mask >> b) & 1 and upper_face[b] > 0:
            u |= 1 << (upper_face[b] - 1)
    return u


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def upper_step(m, pts, upper_bonus):
    """(new capped upper total, points incl. the upper bonus if this reaches 63 first)."""
    m2 = m + pts
    if m2 > 63:
        m2 = 63
    if m < 63 and m2 >= 63:
        pts += upper_bonus
    return m2, pts


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def extra_yahtzee_mode(rules, mask, r):
    """Where roll r may be placed: :data:`NOT_EXTRA` unless it is an extra Yahtzee (five of a
    kind with the Yahtzee box filled, under rules with a Yahtzee bonus or a joker), else the
    joker mode (:data:`EXTRA_FREE` .. :data:`FORCED_ANY`)."""
    face5 = ROLL_YAHTZEE_FACE[r]
    if face5 == 0:
        return NOT_EXTRA
    ybox = rules[R_YAHTZEE_BOX]
    joker = rules[R_JOKER]
    if ybox < 0 or ((mask >> ybox) & 1) == 0 or (joker == 0 and rules[R_YAHTZEE_BONUS] == 0):
        return NOT_EXTRA
    if joker == 2:
        return FREE_JOKER
    if joker == 0:
        return EXTRA_FREE
    upper_face = rules[R_UPPER_FACE]
    ubox = rules[R_UPPER_BOX_OF_FACE][face5]
    if ubox >= 0 and ((mask >> ubox) & 1) == 0:
        return FORCED_UPPER
    for b in range(rules[R_N_BOXES]):
        if ((mask >> b) & 1) == 0 and upper_face[b] == 0:
            return FORCED_LOWER
    return FORCED_ANY


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def box_points(rules, mask, m, f, b, r, mode):
    """(allowed, points incl. bonuses, next state index) of final roll r in open box b, the roll's
    placement mode being `mode` (:func:`extra_yahtzee_mode`). The one statement of the joker rules."""
    upper_face = rules[R_UPPER_FACE]
    nf = rules[R_BONUS_FLAGS]
    face5 = ROLL_YAHTZEE_FACE[r]
    face = upper_face[b]
    if mode == FORCED_UPPER and b != rules[R_UPPER_BOX_OF_FACE][face5]:
        return False, 0, 0
    if mode == FORCED_LOWER and face > 0:
        return False, 0, 0
    bonus = rules[R_YAHTZEE_BONUS] if (mode != NOT_EXTRA and f == 1) else 0
    nmask = mask | (1 << b)
    if face > 0:
        m2, pts = upper_step(m, ROLLS[r, face - 1] * face, rules[R_UPPER_BONUS])
        return True, pts + bonus, state_index(nmask, m2, f, nf)
    pts = rules[R_BASE][b, r]
    if mode == FORCED_LOWER:
        pts = rules[R_JOKER_VALUE][b, face5]
    elif mode == FREE_JOKER and rules[R_JOKER_FIXED][b] == 1:
        ubox = rules[R_UPPER_BOX_OF_FACE][face5]
        if ubox < 0 or ((mask >> ubox) & 1) == 1:
            pts = rules[R_JOKER_VALUE][b, face5]
    f2 = f
    if b == rules[R_YAHTZEE_BOX] and pts == 50 and nf == 2:
        f2 = 1
    return True, pts + bonus, state_index(nmask, m, f2, nf)


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def plain_placement(mask, m, f, b, r, upper_face, base, upper_bonus, nf):
    """(points incl. the upper bonus, next state index) of roll r in box b when r is not five of
    a kind (no Yahtzee bonus, no joker: 246 of the 252 rolls). Takes the rule tables unpacked:
    it runs for every roll of every turn, where passing the whole bundle costs time."""
    face = upper_face[b]
    if face > 0:
        m2, pts = upper_step(m, ROLLS[r, face - 1] * face, upper_bonus)
        return pts, state_index(mask | (1 << b), m2, f, nf)
    return base[b, r], state_index(mask | (1 << b), m, f, nf)


@njit(cache=True)
def placement(mask, m, f, b, r, rules):
    """(points gained incl. bonuses, next state index) for roll r placed in box b (legal)."""
    if ROLL_YAHTZEE_FACE[r] == 0:
        return plain_placement(
            mask,
            m,
            f,
            b,
            r,
            rules[R_UPPER_FACE],
            rules[R_BASE],
            rules[R_UPPER_BONUS],
            rules[R_BONUS_FLAGS],
        )
    _, pts, j = box_points(rules, mask, m, f, b, r, extra_yahtzee_mode(rules, mask, r))
    return pts, j


@njit(cache=True)
def legal_boxes(mask, f, r, rules, out):
    """Open boxes where roll r may be placed (joker rules); returns how many (in out)."""
    mode = extra_yahtzee_mode(rules, mask, r)
    n = 0
    for b in range(rules[R_N_BOXES]):
        if ((mask >> b) & 1) == 0 and box_points(rules, mask, 0, f, b, r, mode)[0]:
            out[n] = b
            n += 1
    return n


@njit(cache=True)
def roll_dice(keep, u, offset):
    """Roll index after rerolling the dice not in `keep` with uniforms u[offset:]: each rerolled
    die joins the keep (:data:`gamelab.yatzy.rules.KEEP_ADD`), the full keep is the roll. (Small
    tables: a table by base-6 code would be baked into every kernel that rolls, 370 kB each.)"""
    k = np.int64(keep)
    for i in range(5 - KEEP_SIZE[k]):
        face = int(u[offset + i] * 6.0)
        if face > 5:
            face = 5
        k = KEEP_ADD[k, face]
    return ROLL_INDEX_OF_KEEP[k]


def legal_moves_python(
    rules: RuleSet, mask: int, m: int, f: int, r: int
) -> list[tuple[int, int, int]]:
    """Plain-Python twin of :func:`legal_boxes` + :func:`placement`: [(box, points incl.
    bonuses, next state index)] for final roll r, from the game's own statement of the rules
    (:meth:`gamelab.yatzy.rules.RuleSet.placements` on a card standing for the state)."""
    ybox = rules.boxes.index("yahtzee") if "yahtzee" in rules.boxes else -1
    entries = [
        None if not (mask >> b) & 1 else (50 if b == ybox and f == 1 else 0)
        for b in range(rules.n_boxes)
    ]
    nf = rules.bonus_flags
    out = []
    for name, points, yahtzee_bonus in rules.placements(ROLLS[r], Card(rules, entries)):
        b = rules.boxes.index(name)
        gain, m2, f2 = points + yahtzee_bonus, m, f
        if rules.upper_face(b):
            m2 = min(63, m + points)
            gain += rules.upper_bonus if m < 63 <= m2 else 0
        if b == ybox and points == 50 and nf == 2:
            f2 = 1
        out.append((b, gain, ((mask | 1 << b) * 64 + m2) * nf + f2))
    return out


def roll_dice_python(keep_counts, u) -> np.ndarray:
    """Plain-Python twin of :func:`roll_dice`: the dice counts after rerolling the dice not kept
    (`keep_counts` per face) with the uniforms u (one per rerolled die)."""
    counts = np.array(keep_counts, dtype=np.int64)
    for i in range(5 - int(counts.sum())):
        counts[min(5, int(u[i] * 6.0))] += 1
    return counts
