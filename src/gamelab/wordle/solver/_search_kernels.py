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

# frame phases
ENTER, MOVES, CHILD = 0, 1, 2


def new_arena(
    table: np.ndarray, n_codes: int, n_pool_words: int, width: int, n_letters: int
) -> tuple[tuple[np.ndarray, ...], ...]:
    """The scratch buffers of :func:`search_kernel`, made by numpy: the stacks of the
    candidate sets, pools, moves and classes of every frame, the frames themselves and the
    counting arrays (each array a kernel allocates costs an allocation routine of its own to
    compile). `width`: the guesses' longest length; `n_letters`: the alphabet's size. A call
    takes them as :func:`reset_arena` leaves them (made so here too); what it reads before
    writing is set there, the rest (the stacks) is written first."""
    n_g, n_a = table.shape
    F = MAX_FRAMES
    max_cls = min(n_codes, n_a) + 1
    n_moves = n_g * F + 16
    return (
        (
            np.zeros(n_a * (F + 1), dtype=np.int32),  # cand
            np.zeros(max(1, n_pool_words) * (2 * F + 2), dtype=np.int32),  # pool
            np.zeros(n_g, dtype=np.int32),  # alive
            np.zeros(n_moves, dtype=np.int32),  # moves_g
            np.zeros(n_moves, dtype=np.int64),  # moves_lb
            np.zeros(n_moves, dtype=np.uint8),  # moves_ex: bit 0 bound exact, bit 1 a candidate
        ),
        (
            np.zeros((4, max_cls * F), dtype=np.int64),  # cls_start, _size, _code, _lb
            np.zeros((4, max_cls * F), dtype=np.uint64),  # cls_h1, _h2, _p1, _p2
            np.zeros((2, (n_codes + 1) * F), dtype=np.int64),  # grp_start, grp_codes
            np.zeros((2, n_codes * F), dtype=np.uint64),  # grp_h1, grp_h2
            np.zeros((23, F), dtype=np.int64),  # the frames' numbers, grp_n
            np.zeros((6, F), dtype=np.uint64),  # the frames' keys and hashes
        ),
        (
            np.zeros((5, n_codes), dtype=np.int64),  # counts, scnt, stamp, offs, seen
            np.zeros((2, n_codes), dtype=np.uint64),  # ch1, ch2
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


def reset_arena(arena: tuple[tuple[np.ndarray, ...], ...]) -> None:
    """Make :func:`new_arena`'s buffers of a search ready for another call of the same search
    (one hard mode): zero what a call reads before it writes (the frames, the counters and
    marks, the hard-mode demands: -1 for no green letter). The stacks are written first; the
    classes' pool keys too in hard mode (and stay zero in normal mode), the strict pool
    groups' hashes are zeroed by ``strict_groups`` itself."""
    frame_i, frame_u = arena[1][4], arena[1][5]
    for array in (frame_i, frame_u, *arena[2], *arena[3]):
        array.fill(0)
    arena[3][2].fill(-1)


@njit(cache=True)
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
    cand, pool, alive, moves_g, moves_lb, moves_ex = arena[0]
    cls_i, cls_u, grp_i, grp_u, frame_i, frame_u = arena[1]
    codes_i, codes_u, goa_mark, bits, scan_state, need_bound = arena[2]
    width_i, used, st_green, st_need = arena[3]
    sort_i, sort_g, sort_e = arena[4]
    cls_start, cls_size, cls_code, cls_lb = cls_i[0], cls_i[1], cls_i[2], cls_i[3]
    cls_h1, cls_h2, cls_p1, cls_p2 = cls_u[0], cls_u[1], cls_u[2], cls_u[3]
    grp_start, grp_codes = grp_i[0], grp_i[1]
    grp_h1, grp_h2 = grp_u[0], grp_u[1]
    # frames
    f_off, f_n, f_poff, f_pn = frame_i[0], frame_i[1], frame_i[2], frame_i[3]
    f_depth, f_budget, f_trial, f_delta = frame_i[4], frame_i[5], frame_i[6], frame_i[7]
    f_delta[:] = max(delta0, 1)
    f_lower, f_best, f_bestg, f_phase = frame_i[8], frame_i[9], frame_i[10], frame_i[11]
    f_mo, f_nm, f_mi, f_nc = frame_i[12], frame_i[13], frame_i[14], frame_i[15]
    f_ci, f_acc, f_rest, f_g = frame_i[16], frame_i[17], frame_i[18], frame_i[19]
    f_top = frame_i[20]  # cand arena top above this frame's set
    f_ptop = frame_i[21]  # pool arena top above this frame's pool
    grp_n = frame_i[22]
    f_k1, f_k2, f_h1, f_h2, f_p1, f_p2 = (
        frame_u[0], frame_u[1], frame_u[2], frame_u[3], frame_u[4], frame_u[5]
    )  # fmt: skip

    counts, scnt, stamp, offs, seen = codes_i[0], codes_i[1], codes_i[2], codes_i[3], codes_i[4]
    ch1, ch2 = codes_u[0], codes_u[1]
    gen = 0
    use_tt = tt is not None
    work = 0
    parts = 0
    colours, first_pos, digits, new_g, new_l = (
        width_i[0], width_i[1], width_i[2], width_i[3], width_i[4]
    )  # fmt: skip

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
    f_off[0] = 0
    f_n[0] = n0
    f_top[0] = n0
    f_poff[0] = 0
    f_pn[0] = pn0
    f_ptop[0] = pn0
    f_depth[0] = root_depth
    f_budget[0] = root_budget
    f_phase[0] = ENTER
    f_mo[0] = 0
    f_h1[0] = h1
    f_h2[0] = h2
    f_p1[0] = p1
    f_p2[0] = p2
    ret = np.int64(0)
    nodes = stats[0]
    start_nodes = nodes
    entries = mcount

    while sp >= 0:
        f = sp
        if f_phase[f] == ENTER:
            n = f_n[f]
            d = f_depth[f]
            budget = f_budget[f]
            off = f_off[f]
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
            k1, k2 = memo_key(f_h1[f], f_h2[f], f_p1[f], f_p2[f], d)
            f_k1[f] = k1
            f_k2[f] = k2
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
                    u1, u2 = memo_key(f_h1[f], f_h2[f], f_p1[f], f_p2[f], fd)
                    us = memo_find(mk1, mk2, mflag, u1, u2)
                    if mflag[us] != EMPTY and mval[us] > lower:
                        lower = mval[us]
                if lower >= budget:
                    ret = lower
                    sp -= 1
                    continue
                nodes += 1
                if nodes - start_nodes > node_limit:
                    stats[0] = nodes
                    stats[1] = entries
                    return NODE_LIMIT, 0, -1
                # endgame: a candidate that leaves only singletons proves 2n - 1
                if n <= small_n and lower <= 2 * n - 1:
                    found = perfect_candidate(table, guess_of_answer, cand, off, n, seen)
                    if found >= 0:
                        if entries * 10 >= cap * 7:
                            stats[0] = nodes
                            stats[1] = entries
                            return MEMO_FULL, 0, -1
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
                if delta0 > 0 and lower + f_delta[f] < budget:
                    budget = lower + f_delta[f]
            f_trial[f] = budget
            # one scan: every allowed guess's bound
            mo = f_mo[f]
            nm = 0
            rem = d - 1 if d < UNLIMITED else UNLIMITED
            n_opts = 1 if is_root_forced else (f_pn[f] if mode else n_g)
            min_lb = INF
            thresh = budget - (2 * n - 1)  # collisions that push a guess's bound to the budget
            for q in range(n_opts):
                if is_root_forced:
                    alive[q] = forced
                elif mode:
                    alive[q] = pool_guess[pool[f_poff[f] + q]]
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
            f_lower[f] = lower
            if nm == 0 or lower >= budget:
                ret = max(lower, budget) if lower < INF else INF
                retry = ret < f_budget[f] and budget < f_budget[f]
                if not is_root_forced:
                    if entries * 10 >= cap * 7:
                        stats[0] = nodes
                        stats[1] = entries
                        return MEMO_FULL, 0, -1
                    slot = memo_find(mk1, mk2, mflag, k1, k2)
                    entries += memo_record(
                        mk1, mk2, mflag, mval, mguess, slot, k1, k2, ret >= INF, ret, -1
                    )
                if retry:
                    f_delta[f] *= 2
                    f_phase[f] = ENTER
                    continue
                sp -= 1
                continue
            sort_moves(moves_g, moves_lb, moves_ex, mo, nm, n_g, sort_i, sort_g, sort_e)
            f_nm[f] = nm
            f_mi[f] = 0
            f_best[f] = budget
            f_bestg[f] = -1
            f_phase[f] = MOVES
            continue

        if f_phase[f] == MOVES:
            n = f_n[f]
            off = f_off[f]
            d = f_depth[f]
            rem = d - 1 if d < UNLIMITED else UNLIMITED
            mo = f_mo[f]
            entered = False
            while f_mi[f] < f_nm[f]:
                i = f_mi[f]
                f_mi[f] += 1
                g = moves_g[mo + i]
                lbg = moves_lb[mo + i]
                if lbg >= f_best[f]:
                    f_mi[f] = f_nm[f]
                    break
                if moves_ex[mo + i] & 1:
                    f_best[f] = lbg
                    f_bestg[f] = g
                    f_mi[f] = f_nm[f]
                    break
                # partition the candidates by g (counting sort), with each class's key
                parts += 1
                cb = f * max_cls
                part_cls = (cls_code, cls_start, cls_size, cls_h1, cls_h2)
                nc = partition_node(
                    table, g, cand, off, n, f_top[f], cb, counts, offs, seen, ch1, ch2,
                    rnd_a1, rnd_a2, answer_of_guess[g], part_cls,
                )  # fmt: skip
                if hard is None:
                    pass  # normal mode: compiled without the pools below
                elif mode == 2:
                    # strict hard mode: group the pool by the colours each word would show; a
                    # class's pool is its own group
                    gsb = f * (n_codes + 1)
                    grp_n[f] = strict_groups(
                        gcodes, glens, g, rule_id, pool_guess, pool, f_poff[f], f_pn[f], f_ptop[f],
                        f * n_codes, gsb, counts, offs, seen, colours, used, grp_codes, grp_start,
                        grp_h1, grp_h2, rnd_p1, rnd_p2, cls_code, cls_p1, cls_p2, cb, nc,
                    )  # fmt: skip
                else:
                    # the game's rule: the allowed words are fixed by the demands so far (greens
                    # by position, least copies per letter), so a class's pool key is the
                    # frame's plus what its colours add to those demands
                    gl = glens[g]
                    first_positions(gcodes, g, gl, first_pos)
                    for j in range(nc):
                        d1, d2 = demand_delta(
                            gcodes, g, gl, cls_code[cb + j], first_pos, st_green, st_need, f, rg1,
                            rg2, rn1, rn2, digits,
                        )  # fmt: skip
                        cls_p1[cb + j] = f_p1[f] + d1
                        cls_p2[cb + j] = f_p2[f] + d2
                # child bounds
                cls = (cls_size, cls_start, cls_h1, cls_h2, cls_p1, cls_p2, cls_lb)
                memo = (mk1, mk2, mflag, mval, mguess)
                rest, nb, entries = child_bounds(
                    cb, nc, rem, cls, memo, entries,
                    (need_bound, big_n, use_tt, child_n, floor_shift),
                    table, guess_of_answer, cand, seen,
                )  # fmt: skip
                if n + rest >= f_best[f]:
                    continue
                # large classes without a memo entry: their one-level bounds, if still needed
                if tt is not None and nb > 0:
                    guesses = (need_bound, mode, n_g, pool_guess, pool, f_poff[f], f_pn[f])
                    scan = (
                        tt, alive, goa_mark, guess_of_answer, answer_of_guess, n_codes - 1,
                        bits, scan_state, moves_g, moves_lb, moves_ex, mo + f_nm[f],
                    )  # fmt: skip
                    rest, entries, steps, cut = big_class_bounds(
                        cb, n, nb, rest, f_best[f], rem, cls, memo, entries, guesses, scan, cand
                    )
                    work += steps
                    if cut:
                        continue
                # children largest first
                sort_children(
                    cb,
                    nc,
                    (cls_start, cls_size, cls_code, cls_lb),
                    (cls_h1, cls_h2, cls_p1, cls_p2),
                )
                f_g[f] = g
                f_nc[f] = nc
                f_ci[f] = 0
                f_acc[f] = n
                f_rest[f] = rest
                f_phase[f] = CHILD
                entered = True
                break
            if entered:
                continue
            # node finished
            best = f_best[f]
            bestg = f_bestg[f]
            is_root_forced = f == 0 and forced >= 0
            if bestg >= 0:
                ret = best
            else:
                ret = max(f_lower[f], f_trial[f])
            if not is_root_forced:
                if entries * 10 >= cap * 7:
                    stats[0] = nodes
                    stats[1] = entries
                    return MEMO_FULL, 0, -1
                slot = memo_find(mk1, mk2, mflag, f_k1[f], f_k2[f])
                entries += memo_record(
                    mk1, mk2, mflag, mval, mguess, slot, f_k1[f], f_k2[f], bestg >= 0, ret, bestg
                )
            if bestg < 0 and ret < f_budget[f] and f_trial[f] < f_budget[f] and not is_root_forced:
                f_delta[f] *= 2  # the trial budget failed: again with a larger one
                f_phase[f] = ENTER
                continue
            if f == 0:
                stats[0] = nodes
                stats[1] = entries
                stats[2] += work
                stats[3] += parts
                return DONE, ret, bestg
            sp -= 1
            continue

        # CHILD: fold in the value of the child just searched, then the next child
        if f_ci[f] > 0:
            f_acc[f] += ret
            if f_acc[f] + f_rest[f] >= f_best[f]:
                f_phase[f] = MOVES  # cut: this guess cannot beat the best
                continue
        if f_ci[f] < f_nc[f]:
            j = f * max_cls + f_ci[f]
            f_ci[f] += 1
            f_rest[f] -= cls_lb[j]
            budget = f_best[f] - f_acc[f] - f_rest[f]
            m = cls_size[j]
            d = f_depth[f]
            rem = d - 1 if d < UNLIMITED else UNLIMITED
            if m <= 2:
                # closed form: no frame needed
                ret = (2 * m - 1) if rem >= m else INF
                # loop back into CHILD to fold it in
                continue
            if sp + 1 >= F:
                stats[0] = nodes
                stats[1] = entries
                return TOO_DEEP, 0, -1
            nf = sp + 1
            f_off[nf] = cls_start[j]
            f_n[nf] = m
            f_top[nf] = f_top[f] + f_n[f]
            f_depth[nf] = rem
            f_budget[nf] = budget
            f_delta[nf] = max(delta0, 1)
            f_phase[nf] = ENTER
            f_mo[nf] = f_mo[f] + f_nm[f]
            f_h1[nf] = cls_h1[j]
            f_h2[nf] = cls_h2[j]
            f_p1[nf] = cls_p1[j]
            f_p2[nf] = cls_p2[j]
            if hard is not None:
                if mode == 2:
                    # the child's pool: its group in the parent's grouped pool
                    gb = f * n_codes
                    gsb = f * (n_codes + 1)
                    ng = grp_n[f]
                    code = cls_code[j]
                    for t in range(ng):
                        if grp_codes[gb + t] == code:
                            f_poff[nf] = grp_start[gsb + t]
                            f_pn[nf] = grp_start[gsb + t + 1] - grp_start[gsb + t]
                            break
                    f_ptop[nf] = grp_start[gsb + ng]
                else:
                    # the child's demands and the parent's pool words that meet the new ones
                    pos = game_child_pool(
                        gcodes, glens, f_g[f], cls_code[j], f, nf, first_pos, digits, st_green,
                        st_need, new_g, new_l, pool_guess, pool, f_poff[f], f_pn[f], f_ptop[f],
                    )  # fmt: skip
                    f_poff[nf] = f_ptop[f]
                    f_pn[nf] = pos - f_ptop[f]
                    f_ptop[nf] = pos
            sp = nf
            continue
        # all children searched within the budget: a new best
        if f_acc[f] < f_best[f]:
            f_best[f] = f_acc[f]
            f_bestg[f] = f_g[f]
        f_phase[f] = MOVES
    stats[0] = nodes
    stats[1] = entries
    stats[2] += work
    stats[3] += parts
    return DONE, ret, -1
