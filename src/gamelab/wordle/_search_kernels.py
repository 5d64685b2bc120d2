"""The exact search as one numba kernel (explicit stack, no Python per node).

:func:`search_kernel` computes the same recursion as :class:`gamelab.wordle.optimal.OptimalSolver`
(its plain-Python twin; the tests compare them): f(S) = |S| + min over allowed guesses t of the
sum of f over t's non-green classes, with a budget (a node's result is exact when below its
budget, else a proven lower bound at least the budget), a depth limit and both hard modes.
What makes it fast, besides running without the interpreter:

* **endgame shortcuts**: |S| <= 2 is closed form; for small S the candidates alone are tried
  first, and a candidate leaving only singletons proves the minimum 2|S| - 1 without scanning
  the other guesses; otherwise every node's value is at least 2|S|;
* **one scan per node** gives every allowed guess's bound |S| + 2(|S| - hit) - classes, exact
  when no class exceeds 2 (the scan stops at a guess whose exact bound equals the node's proven
  floor), and only guesses whose bound beats the budget are kept, sorted by bound;
* **cut-offs**: a guess is abandoned as soon as its partial sum plus the bounds of its other
  classes reaches the best total found (children largest first, each searched with the budget
  that is left);
* **canonical memo**: exact values (with the best guess, for the tree) and proven lower bounds
  of every searched node, keyed by its candidate set, the guesses left and (hard mode) the set of
  allowed words, so the same subproblem reached by different histories is solved once. Keys
  are two independent 64-bit sums of random words per element (a set hash, so a class's key is
  summed while it is partitioned); entries store both, so a wrong hit needs a 128-bit collision.

Hard mode: ``hard`` 1 = the game's rule, 2 = strict (see
:func:`gamelab.wordle.rules.hard_mode_allows`); allowed words are positions in the full-length
word list (`pool_guess` maps them to guess indices). Strict: when a guess is expanded the pool
is sorted by the colours each pool word would show (computed on the fly) and a class's pool is
the group with its colours. The game's rule: the allowed words are fixed by the demands so far
(a letter per green position, least copies per letter), so a class's pool key is its parent's
plus what its colours add to the demands, and its pool is filtered from the parent's only
when it is searched.

The node scan (:func:`scan_transposed`, for patterns that fit a byte) reads the transposed
table one candidate at a time over the guesses still alive; a guess dies as soon as its
collisions push its bound to the budget, which under a tight budget is after a few candidates.

Large classes (at least `big_n`) without a memo entry get the best one-level bound over the
guesses when their guess is expanded, scanned with the budget at which that guess would be cut.

The kernel returns a status (0 done, 1 node limit, 2 memo full, 3 stack too deep) so the caller
can check a time limit, grow the memo and call again; the memo keeps everything proven so far.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.wordle._kernels import _feedback_code

INF = 1 << 30
UNLIMITED = 1 << 20  # depth value meaning "no guess limit" (never decremented)
MAX_FRAMES = 64

DONE, NODE_LIMIT, MEMO_FULL, TOO_DEEP = 0, 1, 2, 3
EMPTY, EXACT, LOWER = 0, 1, 2

# frame phases
ENTER, MOVES, CHILD = 0, 1, 2


@njit(cache=True)
def _mix(x):
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def _key(h1, h2, p1, p2, depth):
    d = np.uint64(depth)
    k1 = _mix(h1 + _mix(p1 + d * np.uint64(0x9E3779B97F4A7C15)))
    k2 = _mix(h2 ^ _mix(p2 + d * np.uint64(0xD6E8FEB86659FD93) + np.uint64(1)))
    return k1, k2


@njit(cache=True)
def memo_find(mk1, mk2, mflag, k1, k2):
    """Slot of key (k1, k2), or the empty slot where it would go."""
    mask = mk1.shape[0] - 1
    i = np.int64(k1 & np.uint64(mask))
    while mflag[i] != EMPTY and not (mk1[i] == k1 and mk2[i] == k2):
        i = (i + 1) & mask
    return i


@njit(cache=True)
def memo_rehash(mk1, mk2, mflag, mval, mguess, nk1, nk2, nflag, nval, nguess):
    """Copy every entry into the (larger, empty) new table."""
    for i in range(mk1.shape[0]):
        if mflag[i] != EMPTY:
            j = memo_find(nk1, nk2, nflag, mk1[i], mk2[i])
            nk1[j] = mk1[i]
            nk2[j] = mk2[i]
            nflag[j] = mflag[i]
            nval[j] = mval[i]
            nguess[j] = mguess[i]


@njit(cache=True)
def _first_positions(gcodes, g, gl, first_pos):
    """first_pos[j] = the first position of guess g holding the letter at position j."""
    for j in range(gl):
        first_pos[j] = j
        for t in range(j):
            if gcodes[g, t] == gcodes[g, j]:
                first_pos[j] = t
                break


@njit(cache=True)
def _demand_delta(gcodes, g, gl, code, first_pos, st_green, st_need, f, rg1, rg2, rn1, rn2, digits):
    """What (guess g, colours `code`) adds to frame f's hard-mode demands, as two hash terms."""
    for t in range(gl - 1, -1, -1):
        digits[t] = code % 3
        code //= 3
    d1 = np.uint64(0)
    d2 = np.uint64(0)
    for t in range(gl):
        if digits[t] == 2 and st_green[f, t] < 0:
            d1 += rg1[t, gcodes[g, t]]
            d2 += rg2[t, gcodes[g, t]]
    for t in range(gl):
        if first_pos[t] != t:
            continue
        letter = gcodes[g, t]
        cnt = 0
        for u in range(t, gl):
            if gcodes[g, u] == letter and digits[u] != 0:
                cnt += 1
        old = st_need[f, letter]
        if cnt > old:
            d1 += rn1[letter, cnt] - rn1[letter, old]
            d2 += rn2[letter, cnt] - rn2[letter, old]
    return d1, d2


@njit(cache=True)
def _perfect_candidate(table, guess_of_answer, cand, off, n, seen):
    """The lowest-index guess among the candidates that leaves the others all apart, or -1."""
    found = -1
    for q in range(n):
        ga = guess_of_answer[cand[off + q]]
        if found >= 0 and ga > found:
            continue
        ok = True
        for i in range(n):
            b = cand[off + i]
            if i == q:
                continue
            c = table[ga, b]
            if seen[c] != 0:
                ok = False
                break
            seen[c] = 1
        for i in range(n):
            seen[table[ga, cand[off + i]]] = 0
        if ok:
            found = ga
    return found


@njit(cache=True)
def scan_transposed(tt, cand, off, n, alive, n_alive, goa_mark, answer_of_guess, green, thresh,
                    rem, bits, state, out_g, out_lb, out_ex, out_off, budget, keep_useless):
    """Every guess's bound at a node, one candidate at a time over the guesses still alive.

    `tt` is the transposed table (answers x guesses, one byte per pattern), so each step reads
    one contiguous row; per guess, two 256-bit sets (one cache line of `bits`) record the
    patterns seen once and twice, and the alive list carries its collisions (answers joining a
    class already seen) and whether a class reached three. A guess dies once its collisions push
    its bound to the budget, or, with one guess left after it, at its first collision.
    `goa_mark[g]` is 1 for the guesses that are candidates. Survivors are written from
    `out_off`: (guess, bound, exact | 2 * candidate). Returns (number written, least bound over
    usable guesses with a dead guess counted as the budget, steps)."""
    for q in range(n_alive):
        base = alive[q] * 8
        for w in range(8):
            bits[base + w] = 0
        state[q] = 0
    limit = 1 if rem == 1 else thresh
    min_lb = INF
    steps = 0
    any_dead_budget = False
    for i in range(n):
        b = cand[off + i]
        row = tt[b]
        w_out = 0
        for q in range(n_alive):
            g = alive[q]
            st = state[q]
            c = np.int64(row[g])
            if c == green and answer_of_guess[g] == b:
                alive[w_out] = g  # the guess itself: its green class is solved
                state[w_out] = st
                w_out += 1
                continue
            base = g * 8 + (c >> 6)
            m = np.uint64(1) << np.uint64(c & 63)
            if bits[base] & m:
                st += 1
                if bits[base + 4] & m:
                    st |= 1 << 32  # a class of three or more
                else:
                    bits[base + 4] |= m
                if (st & 0xFFFFFFFF) >= limit:
                    if rem != 1:
                        any_dead_budget = True
                    continue  # dead
            else:
                bits[base] |= m
            alive[w_out] = g
            state[w_out] = st
            w_out += 1
        steps += n_alive
        n_alive = w_out
        if n_alive == 0:
            break
    if any_dead_budget:
        min_lb = budget
    nm = 0
    for q in range(n_alive):
        g = alive[q]
        coll = state[q] & 0xFFFFFFFF
        big = state[q] >> 32
        hit = 1 if goa_mark[g] == 1 else 0
        k = n - hit - coll
        if k < 2 and hit == 0 and not keep_useless:
            continue  # no information
        lb = 3 * n - 2 * hit - k
        if lb < min_lb:
            min_lb = lb
        if lb >= budget:
            continue
        exact = big == 0 and (rem >= 2 or coll == 0)
        out_g[out_off + nm] = g
        out_lb[out_off + nm] = lb
        out_ex[out_off + nm] = (1 if exact else 0) + 2 * hit
        nm += 1
    return nm, min_lb, steps


@njit(cache=True)
def search_kernel(table, tt, answer_of_guess, guess_of_answer, n_codes,
                  gcodes, glens, rule_id, pool_guess, hard,
                  root_cands, root_pool, root_green, root_need, root_depth, root_budget, forced,
                  rnd_a1, rnd_a2, rnd_p1, rnd_p2, rg1, rg2, rn1, rn2,
                  mk1, mk2, mflag, mval, mguess, mcount,
                  node_limit, stats, small_n, delta0, child_n, big_n):
    """Exact value of the root node (or of playing `forced` there): returns (status, value,
    best guess). See the module docstring; `stats` = [nodes, memo entries] (updated)."""
    n_g = table.shape[0]
    n_a = table.shape[1]
    cap = mk1.shape[0]
    F = MAX_FRAMES
    max_cls = min(n_codes, n_a) + 1
    # arenas
    cand = np.empty(n_a * (F + 1), dtype=np.int32)
    moves_g = np.empty(n_g * F + 16, dtype=np.int32)
    moves_lb = np.empty(n_g * F + 16, dtype=np.int64)
    moves_ex = np.empty(n_g * F + 16, dtype=np.uint8)  # bit 0: bound exact, bit 1: a candidate
    cls_start = np.empty(max_cls * F, dtype=np.int64)
    cls_size = np.empty(max_cls * F, dtype=np.int64)
    cls_code = np.empty(max_cls * F, dtype=np.int64)
    cls_lb = np.empty(max_cls * F, dtype=np.int64)
    cls_h1 = np.empty(max_cls * F, dtype=np.uint64)
    cls_h2 = np.empty(max_cls * F, dtype=np.uint64)
    cls_p1 = np.zeros(max_cls * F, dtype=np.uint64)
    cls_p2 = np.zeros(max_cls * F, dtype=np.uint64)
    n_pool_words = pool_guess.shape[0]
    pool = np.empty(max(1, n_pool_words) * (2 * F + 2), dtype=np.int32)
    grp_start = np.empty((n_codes + 1) * F, dtype=np.int64)
    grp_h1 = np.zeros(n_codes * F, dtype=np.uint64)
    grp_h2 = np.zeros(n_codes * F, dtype=np.uint64)
    grp_codes = np.empty(n_codes * F, dtype=np.int64)
    grp_n = np.zeros(F, dtype=np.int64)
    # frames
    f_off = np.zeros(F, dtype=np.int64)
    f_n = np.zeros(F, dtype=np.int64)
    f_poff = np.zeros(F, dtype=np.int64)
    f_pn = np.zeros(F, dtype=np.int64)
    f_depth = np.zeros(F, dtype=np.int64)
    f_budget = np.zeros(F, dtype=np.int64)
    f_trial = np.zeros(F, dtype=np.int64)
    f_delta = np.full(F, max(delta0, 1), dtype=np.int64)
    f_lower = np.zeros(F, dtype=np.int64)
    f_best = np.zeros(F, dtype=np.int64)
    f_bestg = np.zeros(F, dtype=np.int64)
    f_phase = np.zeros(F, dtype=np.int64)
    f_mo = np.zeros(F, dtype=np.int64)
    f_nm = np.zeros(F, dtype=np.int64)
    f_mi = np.zeros(F, dtype=np.int64)
    f_nc = np.zeros(F, dtype=np.int64)
    f_ci = np.zeros(F, dtype=np.int64)
    f_acc = np.zeros(F, dtype=np.int64)
    f_rest = np.zeros(F, dtype=np.int64)
    f_g = np.zeros(F, dtype=np.int64)
    f_k1 = np.zeros(F, dtype=np.uint64)
    f_k2 = np.zeros(F, dtype=np.uint64)
    f_h1 = np.zeros(F, dtype=np.uint64)
    f_h2 = np.zeros(F, dtype=np.uint64)
    f_p1 = np.zeros(F, dtype=np.uint64)
    f_p2 = np.zeros(F, dtype=np.uint64)
    f_top = np.zeros(F, dtype=np.int64)   # cand arena top above this frame's set
    f_ptop = np.zeros(F, dtype=np.int64)  # pool arena top above this frame's pool

    counts = np.zeros(n_codes, dtype=np.int64)
    scnt = np.zeros(n_codes, dtype=np.int64)
    stamp = np.zeros(n_codes, dtype=np.int64)
    gen = 0
    use_tt = tt.shape[0] > 0
    alive = np.empty(n_g, dtype=np.int32)
    goa_mark = np.zeros(n_g, dtype=np.uint8)
    bits = np.zeros((n_g if use_tt else 1) * 8, dtype=np.uint64)
    scan_state = np.zeros(n_g, dtype=np.int64)
    need_bound = np.zeros(max_cls, dtype=np.int64)
    work = 0
    parts = 0
    offs = np.zeros(n_codes, dtype=np.int64)
    seen = np.zeros(n_codes, dtype=np.int64)
    ch1 = np.zeros(n_codes, dtype=np.uint64)
    ch2 = np.zeros(n_codes, dtype=np.uint64)
    colours = np.zeros(gcodes.shape[1], dtype=np.int64)
    used = np.zeros(gcodes.shape[1], dtype=np.bool_)
    first_pos = np.zeros(gcodes.shape[1], dtype=np.int64)
    digits = np.zeros(gcodes.shape[1], dtype=np.int64)
    new_g = np.zeros(gcodes.shape[1], dtype=np.int64)
    new_l = np.zeros(gcodes.shape[1], dtype=np.int64)
    st_green = np.full((F, gcodes.shape[1]), -1, dtype=np.int64)  # game rule: green letter per position
    st_need = np.zeros((F, rn1.shape[0]), dtype=np.int64)          # game rule: least copies per letter

    # root frame
    n0 = root_cands.shape[0]
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    for i in range(n0):
        cand[i] = root_cands[i]
        h1 += rnd_a1[root_cands[i]]
        h2 += rnd_a2[root_cands[i]]
    p1 = np.uint64(0)
    p2 = np.uint64(0)
    pn0 = root_pool.shape[0] if hard else 0
    for i in range(pn0):
        pool[i] = root_pool[i]
        if hard == 2:
            p1 += rnd_p1[root_pool[i]]
            p2 += rnd_p2[root_pool[i]]
    if hard == 1:
        # the game's rule: the pool is fixed by the demands, so they are its key
        for t in range(root_green.shape[0]):
            st_green[0, t] = root_green[t]
            if root_green[t] >= 0:
                p1 += rg1[t, root_green[t]]
                p2 += rg2[t, root_green[t]]
        for t in range(root_need.shape[0]):
            st_need[0, t] = root_need[t]
            p1 += rn1[t, root_need[t]]
            p2 += rn2[t, root_need[t]]
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
            k1, k2 = _key(f_h1[f], f_h2[f], f_p1[f], f_p2[f], d)
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
                    found = -1
                    for q in range(n):
                        a = cand[off + q]
                        ga = guess_of_answer[a]
                        ok = True
                        for i in range(n):
                            b = cand[off + i]
                            if b == a:
                                continue
                            c = table[ga, b]
                            if seen[c] != 0:
                                ok = False
                                break
                            seen[c] = 1
                        for i in range(n):
                            seen[table[ga, cand[off + i]]] = 0
                        if ok and (found < 0 or ga < found):
                            found = ga
                    if found >= 0:
                        if entries * 10 >= cap * 7:
                            stats[0] = nodes
                            stats[1] = entries
                            return MEMO_FULL, 0, -1
                        slot = memo_find(mk1, mk2, mflag, k1, k2)
                        if mflag[slot] == EMPTY:
                            entries += 1
                        mk1[slot] = k1
                        mk2[slot] = k2
                        mflag[slot] = EXACT
                        mval[slot] = 2 * n - 1
                        mguess[slot] = found
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
            n_opts = 1 if is_root_forced else (f_pn[f] if hard else n_g)
            min_lb = INF
            thresh = budget - (2 * n - 1)  # collisions that push a guess's bound to the budget
            floor_found = use_tt
            if use_tt:
                for q in range(n_opts):
                    if is_root_forced:
                        alive[q] = forced
                    elif hard:
                        alive[q] = pool_guess[pool[f_poff[f] + q]]
                    else:
                        alive[q] = q
                for i in range(n):
                    ga = guess_of_answer[cand[off + i]]
                    goa_mark[ga] = 1
                if rem >= 1:
                    nm, scan_lb, steps = scan_transposed(tt, cand, off, n, alive, n_opts, goa_mark,
                                                  answer_of_guess, n_codes - 1, thresh, rem,
                                                  bits, scan_state, moves_g, moves_lb,
                                                  moves_ex, mo, budget, is_root_forced)
                    work += steps
                    if scan_lb < min_lb:
                        min_lb = scan_lb
                for i in range(n):
                    goa_mark[guess_of_answer[cand[off + i]]] = 0
            for q in range(0 if use_tt else n_opts):
                if is_root_forced:
                    r = forced
                elif hard:
                    r = pool_guess[pool[f_poff[f] + q]]
                else:
                    r = q
                aog = answer_of_guess[r]
                if floor_found and aog < 0:
                    continue  # only a candidate could still tie (and be preferred)
                gen += 1
                k = 0
                hit = 0
                largest = 0
                coll = 0
                dead = 0
                for i in range(n):
                    b = cand[off + i]
                    if aog == b:
                        hit = 1
                        continue
                    c = table[r, b]
                    if stamp[c] != gen:
                        stamp[c] = gen
                        scnt[c] = 1
                        k += 1
                        if largest == 0:
                            largest = 1
                    else:
                        scnt[c] += 1
                        coll += 1
                        if scnt[c] > largest:
                            largest = scnt[c]
                        if rem == 1:
                            dead = 2  # a class would need more than the one guess left
                            break
                        if coll >= thresh:
                            dead = 1  # its bound is at least the budget
                            break
                work += i + 1
                if dead == 2 or rem <= 0:
                    continue
                if dead == 1:
                    if budget < min_lb:
                        min_lb = budget
                    continue
                if not is_root_forced:
                    if k < 2 and hit == 0:
                        continue  # no information
                lb = 3 * n - 2 * hit - k
                if lb < min_lb:
                    min_lb = lb
                if lb >= budget:
                    continue
                exact = largest <= 2 and (rem >= 2 or largest <= 1)
                moves_g[mo + nm] = r
                moves_lb[mo + nm] = lb
                moves_ex[mo + nm] = (1 if exact else 0) + 2 * hit
                nm += 1
                if exact and lb <= lower and not is_root_forced:
                    if hit == 1:
                        break  # cannot be beaten (and candidates win ties)
                    floor_found = True
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
                    if mflag[slot] == EMPTY:
                        entries += 1
                        mk1[slot] = k1
                        mk2[slot] = k2
                        mval[slot] = 0
                    if ret >= INF:
                        mflag[slot] = EXACT
                        mval[slot] = INF
                        mguess[slot] = -1
                    elif mflag[slot] != EXACT:
                        mval[slot] = max(mval[slot], ret) if mflag[slot] == LOWER else ret
                        mflag[slot] = LOWER
                if retry:
                    f_delta[f] *= 2
                    f_phase[f] = ENTER
                    continue
                sp -= 1
                continue
            # sort the kept guesses by bound (ties: candidates first, then index)
            keys = np.empty(nm, dtype=np.int64)
            for i in range(nm):
                g = moves_g[mo + i]
                cnd = 0 if moves_ex[mo + i] & 2 else 1
                keys[i] = (moves_lb[mo + i] * 2 + cnd) * (n_g + 1) + g
            order = np.argsort(keys)
            tg = moves_g[mo: mo + nm].copy()
            tl = moves_lb[mo: mo + nm].copy()
            te = moves_ex[mo: mo + nm].copy()
            for i in range(nm):
                moves_g[mo + i] = tg[order[i]]
                moves_lb[mo + i] = tl[order[i]]
                moves_ex[mo + i] = te[order[i]]
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
                top = f_top[f]
                for j in range(n):
                    c = table[g, cand[off + j]]
                    counts[c] += 1
                nc = 0
                cb = f * max_cls
                pos = top
                for j in range(n):
                    c = table[g, cand[off + j]]
                    if counts[c] > 0:
                        cls_code[cb + nc] = c
                        cls_start[cb + nc] = pos
                        cls_size[cb + nc] = counts[c]
                        offs[c] = pos
                        seen[c] = nc + 1
                        pos += counts[c]
                        counts[c] = 0
                        nc += 1
                h1s = ch1
                h2s = ch2
                for j in range(n):
                    b = cand[off + j]
                    c = table[g, b]
                    cand[offs[c]] = b
                    offs[c] += 1
                    h1s[c] += rnd_a1[b]
                    h2s[c] += rnd_a2[b]
                aog = answer_of_guess[g]
                w = 0
                for j in range(nc):
                    c = cls_code[cb + j]
                    seen[c] = 0
                    cls_h1[cb + j] = h1s[c]
                    cls_h2[cb + j] = h2s[c]
                    h1s[c] = 0
                    h2s[c] = 0
                    if cls_size[cb + j] == 1 and cand[cls_start[cb + j]] == aog:
                        continue  # the green class: solved
                    if w != j:
                        cls_code[cb + w] = cls_code[cb + j]
                        cls_start[cb + w] = cls_start[cb + j]
                        cls_size[cb + w] = cls_size[cb + j]
                        cls_h1[cb + w] = cls_h1[cb + j]
                        cls_h2[cb + w] = cls_h2[cb + j]
                    w += 1
                nc = w
                # strict hard mode: group the pool by the colours each word would show; a
                # class's pool is its own group
                if hard == 2:
                    poff = f_poff[f]
                    pn = f_pn[f]
                    gl = glens[g]
                    go = f_ptop[f]
                    gb = f * n_codes
                    gsb = f * (n_codes + 1)
                    pcode = np.empty(pn, dtype=np.int64)
                    for j in range(pn):
                        wd = pool_guess[pool[poff + j]]
                        c = _feedback_code(gcodes[g], gl, gcodes[wd], glens[wd], rule_id, colours, used)
                        pcode[j] = c
                        counts[c] += 1
                    ng = 0
                    pos = go
                    for j in range(pn):
                        c = pcode[j]
                        if counts[c] > 0:
                            grp_codes[gb + ng] = c
                            grp_start[gsb + ng] = pos
                            offs[c] = pos
                            seen[c] = ng + 1
                            pos += counts[c]
                            counts[c] = 0
                            ng += 1
                    grp_start[gsb + ng] = pos
                    for j in range(ng):
                        grp_h1[gb + j] = 0
                        grp_h2[gb + j] = 0
                    for j in range(pn):
                        pw = pool[poff + j]
                        c = pcode[j]
                        pool[offs[c]] = pw
                        offs[c] += 1
                        s = seen[c] - 1
                        grp_h1[gb + s] += rnd_p1[pw]
                        grp_h2[gb + s] += rnd_p2[pw]
                    grp_n[f] = ng
                    for j in range(nc):
                        s = seen[cls_code[cb + j]] - 1
                        cls_p1[cb + j] = grp_h1[gb + s]
                        cls_p2[cb + j] = grp_h2[gb + s]
                    for j in range(ng):
                        seen[grp_codes[gb + j]] = 0
                elif hard == 1:
                    # the game's rule: the allowed words are fixed by the demands so far (greens
                    # by position, least copies per letter), so a class's pool key is the
                    # frame's plus what its colours add to those demands
                    gl = glens[g]
                    _first_positions(gcodes, g, gl, first_pos)
                    for j in range(nc):
                        d1, d2 = _demand_delta(gcodes, g, gl, cls_code[cb + j], first_pos, st_green,
                                               st_need, f, rg1, rg2, rn1, rn2, digits)
                        cls_p1[cb + j] = f_p1[f] + d1
                        cls_p2[cb + j] = f_p2[f] + d2
                # child bounds
                rest = 0
                nb = 0
                for j in range(nc):
                    m = cls_size[cb + j]
                    if m == 1:
                        lbc = 1 if rem >= 1 else INF
                    elif m == 2:
                        lbc = 3 if rem >= 2 else INF
                    elif rem <= 1:
                        lbc = INF
                    else:
                        lbc = 2 * m - 1
                        ck1, ck2 = _key(cls_h1[cb + j], cls_h2[cb + j], cls_p1[cb + j], cls_p2[cb + j], rem)
                        slot = memo_find(mk1, mk2, mflag, ck1, ck2)
                        if mflag[slot] != EMPTY and mval[slot] > lbc:
                            lbc = mval[slot]
                        elif mflag[slot] == EMPTY and m >= big_n and use_tt and rem >= 3:
                            need_bound[nb] = j  # one-level bound below, if the sum leaves room
                            nb += 1
                        elif mflag[slot] == EMPTY and m <= child_n and entries * 10 < cap * 7:
                            # endgame check for the class now: its value is 2m - 1 if a candidate
                            # leaves only singletons, else at least 2m (a tighter sum to cut on)
                            found = _perfect_candidate(table, guess_of_answer, cand,
                                                       cls_start[cb + j], m, seen)
                            entries += 1
                            mk1[slot] = ck1
                            mk2[slot] = ck2
                            if found >= 0:
                                mflag[slot] = EXACT
                                mval[slot] = lbc
                                mguess[slot] = found
                            else:
                                lbc = 2 * m
                                mflag[slot] = LOWER
                                mval[slot] = lbc
                    cls_lb[cb + j] = lbc
                    rest += lbc
                if n + rest >= f_best[f]:
                    continue
                # large classes without a memo entry: the best one-level bound over the guesses
                # (the frame's pool is a superset of the class's, so it is still a bound), scanned
                # with the budget at which this guess would be cut, so a cut is found cheaply
                cut = False
                for t in range(nb):
                    j = need_bound[t]
                    m = cls_size[cb + j]
                    if entries * 10 >= cap * 7:
                        break
                    room = f_best[f] - n - (rest - cls_lb[cb + j])
                    n_b = f_pn[f] if hard else n_g
                    for q in range(n_b):
                        alive[q] = pool_guess[pool[f_poff[f] + q]] if hard else q
                    st0 = cls_start[cb + j]
                    for i in range(m):
                        goa_mark[guess_of_answer[cand[st0 + i]]] = 1
                    _, one_level, steps = scan_transposed(
                        tt, cand, st0, m, alive, n_b, goa_mark, answer_of_guess, n_codes - 1,
                        room - (2 * m - 1), UNLIMITED, bits, scan_state, moves_g, moves_lb,
                        moves_ex, mo + f_nm[f], room, False)
                    work += steps
                    for i in range(m):
                        goa_mark[guess_of_answer[cand[st0 + i]]] = 0
                    lbc = cls_lb[cb + j]
                    if one_level > lbc:
                        rest += one_level - lbc
                        lbc = one_level
                        cls_lb[cb + j] = lbc
                    ck1, ck2 = _key(cls_h1[cb + j], cls_h2[cb + j], cls_p1[cb + j], cls_p2[cb + j], rem)
                    slot = memo_find(mk1, mk2, mflag, ck1, ck2)
                    if mflag[slot] == EMPTY:
                        entries += 1
                        mk1[slot] = ck1
                        mk2[slot] = ck2
                        mflag[slot] = LOWER
                        mval[slot] = lbc
                    if n + rest >= f_best[f]:
                        cut = True
                        break
                if cut:
                    continue
                # children largest first (insertion sort; few classes)
                for j in range(1, nc):
                    t = j
                    while t > 0 and cls_size[cb + t - 1] < cls_size[cb + t]:
                        for arr in (cls_start, cls_size, cls_code, cls_lb):
                            tmp = arr[cb + t]
                            arr[cb + t] = arr[cb + t - 1]
                            arr[cb + t - 1] = tmp
                        for arr in (cls_h1, cls_h2, cls_p1, cls_p2):
                            tmpu = arr[cb + t]
                            arr[cb + t] = arr[cb + t - 1]
                            arr[cb + t - 1] = tmpu
                        t -= 1
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
                if mflag[slot] == EMPTY:
                    entries += 1
                    mk1[slot] = f_k1[f]
                    mk2[slot] = f_k2[f]
                    mval[slot] = 0
                if bestg >= 0:
                    mflag[slot] = EXACT
                    mval[slot] = best
                    mguess[slot] = bestg
                elif mflag[slot] != EXACT:
                    mval[slot] = max(mval[slot], ret) if mflag[slot] == LOWER else ret
                    mflag[slot] = LOWER
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
            if hard:
                if hard == 2:
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
                    g = f_g[f]
                    gl = glens[g]
                    _first_positions(gcodes, g, gl, first_pos)
                    code = cls_code[j]
                    for t in range(gl - 1, -1, -1):
                        digits[t] = code % 3
                        code //= 3
                    for t in range(st_green.shape[1]):
                        st_green[nf, t] = st_green[f, t]
                    for t in range(st_need.shape[1]):
                        st_need[nf, t] = st_need[f, t]
                    n_new_g = 0
                    for t in range(gl):
                        if digits[t] == 2 and st_green[f, t] < 0:
                            st_green[nf, t] = gcodes[g, t]
                            new_g[n_new_g] = t
                            n_new_g += 1
                    n_new_l = 0
                    for t in range(gl):
                        if first_pos[t] != t:
                            continue
                        letter = gcodes[g, t]
                        cnt = 0
                        for u in range(t, gl):
                            if gcodes[g, u] == letter and digits[u] != 0:
                                cnt += 1
                        if cnt > st_need[f, letter]:
                            st_need[nf, letter] = cnt
                            new_l[n_new_l] = letter
                            n_new_l += 1
                    pos = f_ptop[f]
                    for u in range(f_poff[f], f_poff[f] + f_pn[f]):
                        wd = pool_guess[pool[u]]
                        ok = True
                        for t in range(n_new_g):
                            if gcodes[wd, new_g[t]] != gcodes[g, new_g[t]]:
                                ok = False
                                break
                        if ok:
                            for t in range(n_new_l):
                                letter = new_l[t]
                                cnt = 0
                                for v in range(glens[wd]):
                                    if gcodes[wd, v] == letter:
                                        cnt += 1
                                if cnt < st_need[nf, letter]:
                                    ok = False
                                    break
                        if ok:
                            pool[pos] = pool[u]
                            pos += 1
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
