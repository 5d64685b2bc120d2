"""The exact search as one numba kernel (explicit stack, no Python per node).

:func:`search_kernel` computes the same recursion as :class:`gamelab.wordle.solver.optimal.OptimalSolver`
(its plain-Python twin; the tests compare them): f(S) = |S| + min over allowed guesses t of the
sum of f over t's non-green classes, with a budget (a node's result is exact when below its
budget, else a proven lower bound at least the budget), a depth limit and both hard modes.
What makes it fast, besides running without the interpreter:

* **endgame shortcuts**: |S| <= 2 is closed form; for small S the candidates alone are tried
  first, and a candidate leaving only singletons proves the minimum 2|S| - 1 without scanning
  the other guesses; otherwise every node's value is at least 2|S|;
* **one scan per node** gives every allowed guess's bound (:mod:`gamelab.wordle.solver._scan_kernels`),
  and only guesses whose bound beats the budget are kept, sorted by bound;
* **cut-offs**: a guess is abandoned as soon as its partial sum plus the bounds of its other classes
  reaches the best total found (children largest first, each searched with the budget left);
* **canonical memo** (:mod:`gamelab.wordle.solver._memo_kernels`): exact values (with the best guess,
  for the tree) and proven lower bounds of every searched node, keyed by its candidate set, the
  guesses left and (hard mode) the set of allowed words, so the same subproblem reached by
  different histories is solved once; a class's key is summed while it is partitioned.

Hard mode: ``hard`` 1 = the game's rule, 2 = strict (see
:func:`gamelab.wordle.rules.hard_mode_allows`); the allowed words of a class are computed by
:mod:`gamelab.wordle.solver._hard_kernels`. Normal mode passes ``hard=None``; a table whose
patterns fit a byte passes its transpose ``tt`` (and ``wide=None``), a wider one the table as
``wide`` (and ``tt=None``). numba drops the branches of an argument that is None when it
compiles, so each call compiles only the paths it can take (normal mode without the hard-mode
pools, one of the two scans): a first ``wordle next`` compiles a third less.

One guess expanded at a node (its classes, their bounds, their order) is in
:mod:`gamelab.wordle.solver._node_kernels`. Large classes (at least `big_n`) without a memo
entry get the best one-level bound over the guesses when their guess is expanded, scanned with
the budget at which that guess would be cut.

The kernel returns a status (0 done, 1 node limit, 2 memo full, 3 stack too deep) so the caller
(:class:`gamelab.wordle.solver.kernel_search.KernelSearch`) can check a time limit, grow the memo and
call again; the memo keeps everything proven so far."""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.wordle.solver._hard_kernels import (
    demand_delta,
    first_positions,
    game_child_pool,
    strict_groups,
)
from gamelab.wordle.solver._memo_kernels import (
    EMPTY,
    EXACT,
    INF,
    LOWER,
    UNLIMITED,
    memo_find,
    memo_key,
    memo_record,
)
from gamelab.wordle.solver._node_kernels import (
    big_class_bounds,
    child_bounds,
    enter_root,
    partition_node,
    sort_children,
)
from gamelab.wordle.solver._scan_kernels import (
    perfect_candidate,
    scan_table,
    scan_transposed,
    sort_moves,
)

MAX_FRAMES = 64

DONE, NODE_LIMIT, MEMO_FULL, TOO_DEEP = 0, 1, 2, 3

# rows of the frames' 2-D arrays (`frame_i`, `frame_u`: arena[16] and [17]), read as
# frame_i[F_N, f] (a view per row would cost the compile its reference counts)
F_OFF = 0
F_N = 1
F_POFF = 2
F_PN = 3
F_DEPTH = 4
F_BUDGET = 5
F_TRIAL = 6
F_DELTA = 7
F_LOWER = 8
F_BEST = 9
F_BESTG = 10
F_PHASE = 11
F_MO = 12
F_NM = 13
F_MI = 14
F_NC = 15
F_CI = 16
F_ACC = 17
F_REST = 18
F_G = 19
F_TOP = 20
F_PTOP = 21
GRP_N = 22
F_K1 = 0
F_K2 = 1
F_H1 = 2
F_H2 = 3
F_P1 = 4
F_P2 = 5

# frame phases
ENTER, MOVES, CHILD = 0, 1, 2


def new_arena(
    table: np.ndarray, n_codes: int, n_pool_words: int, width: int, n_letters: int
) -> tuple[np.ndarray, ...]:
    """The scratch buffers of :func:`search_kernel`, made by numpy: the stacks of the
    candidate sets, pools, moves and classes of every frame, the frames themselves and the
    counting arrays (each array a kernel allocates costs an allocation routine of its own to
    compile). `width`: the guesses' longest length; `n_letters`: the alphabet's size. A call
    takes them as :func:`reset_arena` leaves them (made so here too); what it reads before
    writing is set there, the rest (the stacks) is written first. One flat tuple of arrays, the
    rows of a table as arrays of their own: the kernel then makes no views, and numba counts
    no references for them (a tuple in a tuple, or a view, costs the compile code for each)."""
    n_g, n_a = table.shape
    F = MAX_FRAMES
    max_cls = min(n_codes, n_a) + 1
    n_moves = n_g * F + 16
    parts = (
        (
            np.zeros(n_a * (F + 1), dtype=np.int32),  # cand
            np.zeros(max(1, n_pool_words) * (2 * F + 2), dtype=np.int32),  # pool
            np.zeros(n_g, dtype=np.int32),  # alive
            np.zeros(n_moves, dtype=np.int32),  # moves_g
            np.zeros(n_moves, dtype=np.int64),  # moves_lb
            np.zeros(n_moves, dtype=np.uint8),  # moves_ex: bit 0 bound exact, bit 1 a candidate
        ),
        (
            *np.zeros((4, max_cls * F), dtype=np.int64),  # cls_start, _size, _code, _lb
            *np.zeros((4, max_cls * F), dtype=np.uint64),  # cls_h1, _h2, _p1, _p2
            np.zeros((2, (n_codes + 1) * F), dtype=np.int64),  # grp_start, grp_codes
            np.zeros((2, n_codes * F), dtype=np.uint64),  # grp_h1, grp_h2
            np.zeros((23, F), dtype=np.int64),  # the frames' numbers, grp_n
            np.zeros((6, F), dtype=np.uint64),  # the frames' keys and hashes
        ),
        (
            *np.zeros((5, n_codes), dtype=np.int64),  # counts, scnt, stamp, offs, seen
            *np.zeros((2, n_codes), dtype=np.uint64),  # ch1, ch2
            np.zeros(n_g, dtype=np.uint8),  # goa_mark
            np.zeros(n_g * 8, dtype=np.uint64),  # bits (the byte-sized scan's)
            np.zeros(n_g, dtype=np.int64),  # scan_state
            np.zeros(max_cls, dtype=np.int64),  # need_bound
        ),
        (
            np.zeros((5, width), dtype=np.int64),  # colours, first_pos, digits, new_g, new_l
            np.zeros(width, dtype=np.bool_),  # used
            np.full((F, width), -1, dtype=np.int64),  # game rule: green per position
            np.zeros((F, n_letters), dtype=np.int64),  # game rule: least copies per letter
        ),
        (
            np.zeros((3, n_g), dtype=np.int64),  # sort_moves' keys, order, bounds
            np.zeros(n_g, dtype=np.int32),  # sort_moves' guesses
            np.zeros(n_g, dtype=np.uint8),  # sort_moves' flags
        ),
    )
    return tuple(array for part in parts for array in part)


def reset_arena(arena: tuple[np.ndarray, ...]) -> None:
    """Make :func:`new_arena`'s buffers of a search ready for another call of the same search
    (one hard mode): zero what a call reads before it writes (the frames, the counters and
    marks, the hard-mode demands: -1 for no green letter). The stacks are written first; the
    classes' pool keys too in hard mode (and stay zero in normal mode), the strict pool
    groups' hashes are zeroed by ``strict_groups`` itself."""
    for array in arena[16:33]:  # the frames, the counters and marks, the demands
        array.fill(0)
    arena[31].fill(-1)


@njit(cache=True, no_cfunc_wrapper=True)  # (called from Python only)
def search_kernel(
    table,
    tt,
    wide,
    answer_of_guess,
    guess_of_answer,
    n_codes,
    gcodes,
    glens,
    rule_id,
    pool_guess,
    hard,
    root_cands,
    root_pool,
    root_green,
    root_need,
    root_depth,
    root_budget,
    forced,
    rnd_a1,
    rnd_a2,
    rnd_p1,
    rnd_p2,
    rg1,
    rg2,
    rn1,
    rn2,
    mk1,
    mk2,
    mflag,
    mval,
    mguess,
    mcount,
    node_limit,
    stats,
    small_n,
    delta0,
    child_n,
    big_n,
    arena,
    floor_shift=0,
):
    """Exact value of the root node (or of playing `forced` there): returns (status, value,
    best guess). See the module docstring; `stats` = [nodes, memo entries] (updated).
    `arena`: the scratch buffers, :func:`new_arena`.
    `floor_shift` > 0: the memo also holds a search under a limit that many guesses looser
    (UNLIMITED: none), whose entry for a node bounds the node's value here from below."""
    n_g = table.shape[0]
    n_a = table.shape[1]
    cap = mk1.shape[0]
    F = MAX_FRAMES
    max_cls = min(n_codes, n_a) + 1
    # arenas (made by new_arena: numpy's allocations cost the kernel no compiling)
    (
        cand, pool, alive, moves_g, moves_lb, moves_ex,
        cls_start, cls_size, cls_code, cls_lb, cls_h1, cls_h2, cls_p1, cls_p2,
        grp_i, grp_u, frame_i, frame_u,
        counts, scnt, stamp, offs, seen, ch1, ch2, goa_mark, bits, scan_state, need_bound,
        width_i, used, st_green, st_need,
        sort_i, sort_g, sort_e,
    ) = arena  # fmt: skip
    for k in range(F):
        frame_i[F_DELTA, k] = max(delta0, 1)

    gen = 0
    use_tt = tt is not None
    work = 0
    parts = 0

    # the hard mode as a number (0 normal); `hard is not None` is the compile-time test
    mode = 0
    if hard is not None:
        mode = hard
    # root frame
    n0 = root_cands.shape[0]
    pn0 = root_pool.shape[0] if mode else 0
    root = (root_cands, root_pool, root_green, root_need)
    keys = (rnd_a1, rnd_a2, rnd_p1, rnd_p2, rg1, rg2, rn1, rn2)
    h1, h2, p1, p2 = enter_root(root, mode, keys, cand, pool, st_green, st_need)
    sp = 0
    frame_i[F_OFF, 0] = 0
    frame_i[F_N, 0] = n0
    frame_i[F_TOP, 0] = n0
    frame_i[F_POFF, 0] = 0
    frame_i[F_PN, 0] = pn0
    frame_i[F_PTOP, 0] = pn0
    frame_i[F_DEPTH, 0] = root_depth
    frame_i[F_BUDGET, 0] = root_budget
    frame_i[F_PHASE, 0] = ENTER
    frame_i[F_MO, 0] = 0
    frame_u[F_H1, 0] = h1
    frame_u[F_H2, 0] = h2
    frame_u[F_P1, 0] = p1
    frame_u[F_P2, 0] = p2
    # the tuples the helpers take, made once (each tuple made in the loop costs the compile
    # the reference counts of its arrays at every use)
    part_cls = (cls_code, cls_start, cls_size, cls_h1, cls_h2)
    cls = (cls_size, cls_start, cls_h1, cls_h2, cls_p1, cls_p2, cls_lb)
    memo = (mk1, mk2, mflag, mval, mguess)
    big = (need_bound, big_n, use_tt, child_n, floor_shift)
    child_i = (cls_start, cls_size, cls_code, cls_lb)
    child_u = (cls_h1, cls_h2, cls_p1, cls_p2)
    ret = np.int64(0)
    nodes = stats[0]
    start_nodes = nodes
    entries = mcount
    status = DONE
    out_guess = -1

    while sp >= 0:
        f = sp
        if frame_i[F_PHASE, f] == ENTER:
            n = frame_i[F_N, f]
            d = frame_i[F_DEPTH, f]
            budget = frame_i[F_BUDGET, f]
            off = frame_i[F_OFF, f]
            is_root_forced = f == 0 and forced >= 0
            if not is_root_forced:
                if n == 1 or n == 2:
                    need = n
                    ret = (2 * n - 1) if d >= need else INF
                    sp -= 1
                    continue
                if d <= 1:
                    ret = INF
                    sp -= 1
                    continue
            k1, k2 = memo_key(
                frame_u[F_H1, f], frame_u[F_H2, f], frame_u[F_P1, f], frame_u[F_P2, f], d
            )
            frame_u[F_K1, f] = k1
            frame_u[F_K2, f] = k2
            lower = 2 * n - 1
            if not is_root_forced:
                slot = memo_find(mk1, mk2, mflag, k1, k2)
                if mflag[slot] == EXACT:
                    ret = mval[slot]
                    sp -= 1
                    continue
                if mflag[slot] == LOWER:
                    if mval[slot] > lower:
                        lower = mval[slot]
                if floor_shift > 0 and d < UNLIMITED:
                    # the node under a looser limit (a shared memo): a bound under this one
                    fd = d + floor_shift if d + floor_shift < UNLIMITED else UNLIMITED
                    u1, u2 = memo_key(
                        frame_u[F_H1, f], frame_u[F_H2, f], frame_u[F_P1, f], frame_u[F_P2, f], fd
                    )
                    us = memo_find(mk1, mk2, mflag, u1, u2)
                    if mflag[us] != EMPTY and mval[us] > lower:
                        lower = mval[us]
                if lower >= budget:
                    ret = lower
                    sp -= 1
                    continue
                nodes += 1
                if nodes - start_nodes > node_limit:
                    status = NODE_LIMIT
                    sp = -1  # (the loop's one exit)
                    continue
                # endgame: a candidate that leaves only singletons proves 2n - 1
                if n <= small_n and lower <= 2 * n - 1:
                    found = perfect_candidate(table, guess_of_answer, cand, off, n, seen)
                    if found >= 0:
                        if entries * 10 >= cap * 7:
                            status = MEMO_FULL
                            sp = -1  # (the loop's one exit)
                            continue
                        slot = memo_find(mk1, mk2, mflag, k1, k2)
                        entries += memo_record(
                            mk1, mk2, mflag, mval, mguess, slot, k1, k2, True, 2 * n - 1, found
                        )
                        ret = 2 * n - 1
                        sp -= 1
                        continue
                    if lower < 2 * n:
                        lower = 2 * n
                if lower >= budget:
                    ret = lower
                    sp -= 1
                    continue
                # aspiration: first try a budget a little above the proven bound (cheap scans,
                # tight cut-offs); raise it (doubling the step) while it fails
                if delta0 > 0 and lower + frame_i[F_DELTA, f] < budget:
                    budget = lower + frame_i[F_DELTA, f]
            frame_i[F_TRIAL, f] = budget
            # one scan: every allowed guess's bound
            mo = frame_i[F_MO, f]
            nm = 0
            rem = d - 1 if d < UNLIMITED else UNLIMITED
            n_opts = 1 if is_root_forced else (frame_i[F_PN, f] if mode else n_g)
            min_lb = INF
            thresh = budget - (2 * n - 1)  # collisions that push a guess's bound to the budget
            for q in range(n_opts):
                if is_root_forced:
                    alive[q] = forced
                elif mode:
                    alive[q] = pool_guess[pool[frame_i[F_POFF, f] + q]]
                else:
                    alive[q] = q
            if tt is not None:
                for i in range(n):
                    ga = guess_of_answer[cand[off + i]]
                    goa_mark[ga] = 1
                if rem >= 1:
                    nm, scan_lb, steps = scan_transposed(
                        tt, cand, off, n, alive, n_opts, goa_mark, answer_of_guess, n_codes - 1,
                        thresh, rem, bits, scan_state, moves_g, moves_lb, moves_ex, mo, budget,
                        is_root_forced,
                    )  # fmt: skip
                    work += steps
                    if scan_lb < min_lb:
                        min_lb = scan_lb
                for i in range(n):
                    goa_mark[guess_of_answer[cand[off + i]]] = 0
            if wide is not None:
                nm, min_lb, steps, gen = scan_table(
                    wide, cand, off, n, alive, n_opts, answer_of_guess, stamp, scnt, gen, rem,
                    thresh, budget, lower, is_root_forced, moves_g, moves_lb, moves_ex, mo,
                )  # fmt: skip
                work += steps
            if min_lb > lower:
                lower = min_lb
            frame_i[F_LOWER, f] = lower
            if nm == 0 or lower >= budget:
                ret = max(lower, budget) if lower < INF else INF
                retry = ret < frame_i[F_BUDGET, f] and budget < frame_i[F_BUDGET, f]
                if not is_root_forced:
                    if entries * 10 >= cap * 7:
                        status = MEMO_FULL
                        sp = -1  # (the loop's one exit)
                        continue
                    slot = memo_find(mk1, mk2, mflag, k1, k2)
                    entries += memo_record(
                        mk1, mk2, mflag, mval, mguess, slot, k1, k2, ret >= INF, ret, -1
                    )
                if retry:
                    frame_i[F_DELTA, f] *= 2
                    frame_i[F_PHASE, f] = ENTER
                    continue
                sp -= 1
                continue
            sort_moves(moves_g, moves_lb, moves_ex, mo, nm, n_g, sort_i, sort_g, sort_e)
            frame_i[F_NM, f] = nm
            frame_i[F_MI, f] = 0
            frame_i[F_BEST, f] = budget
            frame_i[F_BESTG, f] = -1
            frame_i[F_PHASE, f] = MOVES
            continue

        if frame_i[F_PHASE, f] == MOVES:
            n = frame_i[F_N, f]
            off = frame_i[F_OFF, f]
            d = frame_i[F_DEPTH, f]
            rem = d - 1 if d < UNLIMITED else UNLIMITED
            mo = frame_i[F_MO, f]
            entered = False
            while frame_i[F_MI, f] < frame_i[F_NM, f]:
                i = frame_i[F_MI, f]
                frame_i[F_MI, f] += 1
                g = moves_g[mo + i]
                lbg = moves_lb[mo + i]
                if lbg >= frame_i[F_BEST, f]:
                    frame_i[F_MI, f] = frame_i[F_NM, f]
                    break
                if moves_ex[mo + i] & 1:
                    frame_i[F_BEST, f] = lbg
                    frame_i[F_BESTG, f] = g
                    frame_i[F_MI, f] = frame_i[F_NM, f]
                    break
                # partition the candidates by g (counting sort), with each class's key
                parts += 1
                cb = f * max_cls
                nc = partition_node(
                    table, g, cand, off, n, frame_i[F_TOP, f], cb, counts, offs, seen, ch1, ch2,
                    rnd_a1, rnd_a2, answer_of_guess[g], part_cls,
                )  # fmt: skip
                if hard is None:
                    pass  # normal mode: compiled without the pools below
                elif mode == 2:
                    # strict hard mode: group the pool by the colours each word would show; a
                    # class's pool is its own group
                    gsb = f * (n_codes + 1)
                    frame_i[GRP_N, f] = strict_groups(
                        gcodes, glens, g, rule_id, pool_guess, pool, frame_i[F_POFF, f], frame_i[F_PN, f], frame_i[F_PTOP, f],
                        f * n_codes, gsb, counts, offs, seen, width_i[0], used, grp_i[1], grp_i[0],
                        grp_u[0], grp_u[1], rnd_p1, rnd_p2, cls_code, cls_p1, cls_p2, cb, nc,
                    )  # fmt: skip
                else:
                    # the game's rule: the allowed words are fixed by the demands so far (greens
                    # by position, least copies per letter), so a class's pool key is the
                    # frame's plus what its colours add to those demands
                    gl = glens[g]
                    first_pos, digits = width_i[1], width_i[2]
                    first_positions(gcodes, g, gl, first_pos)
                    for j in range(nc):
                        d1, d2 = demand_delta(
                            gcodes, g, gl, cls_code[cb + j], first_pos, st_green, st_need, f, rg1,
                            rg2, rn1, rn2, digits,
                        )  # fmt: skip
                        cls_p1[cb + j] = frame_u[F_P1, f] + d1
                        cls_p2[cb + j] = frame_u[F_P2, f] + d2
                # child bounds
                rest, nb, entries = child_bounds(
                    cb, nc, rem, cls, memo, entries, big, table, guess_of_answer, cand, seen
                )
                if n + rest >= frame_i[F_BEST, f]:
                    continue
                # large classes without a memo entry: their one-level bounds, if still needed
                if tt is not None and nb > 0:
                    guesses = (
                        need_bound,
                        mode,
                        n_g,
                        pool_guess,
                        pool,
                        frame_i[F_POFF, f],
                        frame_i[F_PN, f],
                    )
                    scan = (
                        tt, alive, goa_mark, guess_of_answer, answer_of_guess, n_codes - 1,
                        bits, scan_state, moves_g, moves_lb, moves_ex, mo + frame_i[F_NM, f],
                    )  # fmt: skip
                    rest, entries, steps, cut = big_class_bounds(
                        cb,
                        n,
                        nb,
                        rest,
                        frame_i[F_BEST, f],
                        rem,
                        cls,
                        memo,
                        entries,
                        guesses,
                        scan,
                        cand,
                    )
                    work += steps
                    if cut:
                        continue
                # children largest first
                sort_children(cb, nc, child_i, child_u)
                frame_i[F_G, f] = g
                frame_i[F_NC, f] = nc
                frame_i[F_CI, f] = 0
                frame_i[F_ACC, f] = n
                frame_i[F_REST, f] = rest
                frame_i[F_PHASE, f] = CHILD
                entered = True
                break
            if entered:
                continue
            # node finished
            best = frame_i[F_BEST, f]
            bestg = frame_i[F_BESTG, f]
            is_root_forced = f == 0 and forced >= 0
            if bestg >= 0:
                ret = best
            else:
                ret = max(frame_i[F_LOWER, f], frame_i[F_TRIAL, f])
            if not is_root_forced:
                if entries * 10 >= cap * 7:
                    status = MEMO_FULL
                    sp = -1  # (the loop's one exit)
                    continue
                slot = memo_find(mk1, mk2, mflag, frame_u[F_K1, f], frame_u[F_K2, f])
                entries += memo_record(
                    mk1,
                    mk2,
                    mflag,
                    mval,
                    mguess,
                    slot,
                    frame_u[F_K1, f],
                    frame_u[F_K2, f],
                    bestg >= 0,
                    ret,
                    bestg,
                )
            if (
                bestg < 0
                and ret < frame_i[F_BUDGET, f]
                and frame_i[F_TRIAL, f] < frame_i[F_BUDGET, f]
                and not is_root_forced
            ):
                frame_i[F_DELTA, f] *= 2  # the trial budget failed: again with a larger one
                frame_i[F_PHASE, f] = ENTER
                continue
            if f == 0:
                out_guess = bestg
                sp = -1
                continue
            sp -= 1
            continue

        # CHILD: fold in the value of the child just searched, then the next child
        if frame_i[F_CI, f] > 0:
            frame_i[F_ACC, f] += ret
            if frame_i[F_ACC, f] + frame_i[F_REST, f] >= frame_i[F_BEST, f]:
                frame_i[F_PHASE, f] = MOVES  # cut: this guess cannot beat the best
                continue
        if frame_i[F_CI, f] < frame_i[F_NC, f]:
            j = f * max_cls + frame_i[F_CI, f]
            frame_i[F_CI, f] += 1
            frame_i[F_REST, f] -= cls_lb[j]
            budget = frame_i[F_BEST, f] - frame_i[F_ACC, f] - frame_i[F_REST, f]
            m = cls_size[j]
            d = frame_i[F_DEPTH, f]
            rem = d - 1 if d < UNLIMITED else UNLIMITED
            if m <= 2:
                # closed form: no frame needed
                ret = (2 * m - 1) if rem >= m else INF
                # loop back into CHILD to fold it in
                continue
            if sp + 1 >= F:
                status = TOO_DEEP
                sp = -1  # (the loop's one exit)
                continue
            nf = sp + 1
            frame_i[F_OFF, nf] = cls_start[j]
            frame_i[F_N, nf] = m
            frame_i[F_TOP, nf] = frame_i[F_TOP, f] + frame_i[F_N, f]
            frame_i[F_DEPTH, nf] = rem
            frame_i[F_BUDGET, nf] = budget
            frame_i[F_DELTA, nf] = max(delta0, 1)
            frame_i[F_PHASE, nf] = ENTER
            frame_i[F_MO, nf] = frame_i[F_MO, f] + frame_i[F_NM, f]
            frame_u[F_H1, nf] = cls_h1[j]
            frame_u[F_H2, nf] = cls_h2[j]
            frame_u[F_P1, nf] = cls_p1[j]
            frame_u[F_P2, nf] = cls_p2[j]
            if hard is not None:
                if mode == 2:
                    # the child's pool: its group in the parent's grouped pool
                    gb = f * n_codes
                    gsb = f * (n_codes + 1)
                    ng = frame_i[GRP_N, f]
                    code = cls_code[j]
                    for t in range(ng):
                        if grp_i[1, gb + t] == code:
                            frame_i[F_POFF, nf] = grp_i[0, gsb + t]
                            frame_i[F_PN, nf] = grp_i[0, gsb + t + 1] - grp_i[0, gsb + t]
                            break
                    frame_i[F_PTOP, nf] = grp_i[0, gsb + ng]
                else:
                    # the child's demands and the parent's pool words that meet the new ones
                    pos = game_child_pool(
                        gcodes, glens, frame_i[F_G, f], cls_code[j], f, nf, width_i[1], width_i[2],
                        st_green, st_need, width_i[3], width_i[4], pool_guess, pool, frame_i[F_POFF, f], frame_i[F_PN, f], frame_i[F_PTOP, f],
                    )  # fmt: skip
                    frame_i[F_POFF, nf] = frame_i[F_PTOP, f]
                    frame_i[F_PN, nf] = pos - frame_i[F_PTOP, f]
                    frame_i[F_PTOP, nf] = pos
            sp = nf
            continue
        # all children searched within the budget: a new best
        if frame_i[F_ACC, f] < frame_i[F_BEST, f]:
            frame_i[F_BEST, f] = frame_i[F_ACC, f]
            frame_i[F_BESTG, f] = frame_i[F_G, f]
        frame_i[F_PHASE, f] = MOVES
    # one exit (the loop's test): at each exit of the loop or the kernel numba releases
    # every array it holds (hundreds of calls to compile)
    stats[0] = nodes
    stats[1] = entries
    value = ret
    if status == DONE:
        stats[2] += work
        stats[3] += parts
    else:
        value = 0
    return status, value, out_guess
