"""Hard mode inside the search kernel: the allowed words of a class, as numba kernels.

Allowed words are positions in the full-length word list (``pool_guess`` maps them to guess
indices); a frame's pool is a slice of one arena, a child's pool is written above its parent's.

* the game's rule (``hard`` 1): the pool is fixed by the demands so far (a green letter per
  position, least copies per letter), so a class's pool key is its parent's plus what its colours
  add to the demands (:func:`demand_delta`, with :func:`first_positions`), and its pool is filtered
  from the parent's only when it is searched (:func:`game_child_pool`);
* strict (``hard`` 2): when a guess is expanded the pool is grouped by the colours each pool word
  would show (:func:`strict_groups`); a class's pool is the group with its colours.

Plain-Python twin: :meth:`gamelab.wordle.table.Game.hard_pool` (and ``hard_demands``), which
:class:`gamelab.wordle.solver.optimal.OptimalSolver`'s Python search uses; these helpers are compared
through :func:`gamelab.wordle.solver._search_kernels.search_kernel` against it
(``tests/wordle/test_wordle_search_kernel.py``, every mode).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gamelab.wordle._kernels import feedback_code


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def first_positions(gcodes, g, gl, first_pos):
    """first_pos[j] = the first position of guess g holding the letter at position j."""
    for j in range(gl):
        first_pos[j] = j
        for t in range(j):
            if gcodes[g, t] == gcodes[g, j]:
                first_pos[j] = t
                break


@njit(cache=True, inline="always")
def _decode_colours(code, gl, digits):
    """digits[t] = the colour (0 grey, 1 yellow, 2 green) at position t of pattern `code`."""
    for t in range(gl - 1, -1, -1):
        digits[t] = code % 3
        code //= 3


@njit(cache=True, inline="always")
def _shown_copies(gcodes, g, gl, t, digits):
    """Copies of the letter at position t of guess g (its first) that the colours show present."""
    letter = gcodes[g, t]
    cnt = 0
    for u in range(t, gl):
        if gcodes[g, u] == letter and digits[u] != 0:
            cnt += 1
    return cnt


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def demand_delta(gcodes, g, gl, code, first_pos, st_green, st_need, f, rg1, rg2, rn1, rn2, digits):
    """What (guess g, colours `code`) adds to frame f's hard-mode demands, as two hash terms."""
    _decode_colours(code, gl, digits)
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
        cnt = _shown_copies(gcodes, g, gl, t, digits)
        old = st_need[f, letter]
        if cnt > old:
            d1 += rn1[letter, cnt] - rn1[letter, old]
            d2 += rn2[letter, cnt] - rn2[letter, old]
    return d1, d2


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def strict_groups(
    gcodes,
    glens,
    g,
    rule_id,
    pool_guess,
    pool,
    poff,
    pn,
    go,
    gb,
    gsb,
    counts,
    offs,
    seen,
    colours,
    used,
    grp_codes,
    grp_start,
    grp_h1,
    grp_h2,
    rnd_p1,
    rnd_p2,
    cls_code,
    cls_p1,
    cls_p2,
    cb,
    nc,
):
    """Strict hard mode, guess g expanded: the pool ``pool[poff:poff + pn]`` grouped by the
    colours g would show on each word (written from `go`; group starts at `gsb`, their codes and
    pool hashes at `gb`), and each of the `nc` classes at `cb` given its group's pool hash.
    Returns the number of groups. `counts` and `seen` must be zero and are left zero."""
    gl = glens[g]
    pcode = np.empty(pn, dtype=np.int64)
    for j in range(pn):
        wd = pool_guess[pool[poff + j]]
        c = feedback_code(gcodes[g], gl, gcodes[wd], glens[wd], rule_id, colours, used)
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
    for j in range(nc):
        s = seen[cls_code[cb + j]] - 1
        cls_p1[cb + j] = grp_h1[gb + s]
        cls_p2[cb + j] = grp_h2[gb + s]
    for j in range(ng):
        seen[grp_codes[gb + j]] = 0
    return ng


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def game_child_pool(
    gcodes,
    glens,
    g,
    code,
    f,
    nf,
    first_pos,
    digits,
    st_green,
    st_need,
    new_g,
    new_l,
    pool_guess,
    pool,
    poff,
    pn,
    top,
):
    """The game's hard mode, the class of colours `code` of guess g entered as frame nf: its
    demands (frame f's plus what the colours add) and the words of the parent's pool
    ``pool[poff:poff + pn]`` that meet them, written from `top`. Returns the end of the child's
    pool."""
    gl = glens[g]
    first_positions(gcodes, g, gl, first_pos)
    _decode_colours(code, gl, digits)
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
        cnt = _shown_copies(gcodes, g, gl, t, digits)
        if cnt > st_need[f, letter]:
            st_need[nf, letter] = cnt
            new_l[n_new_l] = letter
            n_new_l += 1
    pos = top
    for u in range(poff, poff + pn):
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
    return pos
