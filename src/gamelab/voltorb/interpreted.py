"""The win search run by the Python interpreter while its kernels are not compiled (the
kernels' own source, :mod:`gamelab.core.tiers`; see :mod:`gamelab.voltorb.expectimax`): the
Python copies of the search's kernel modules, and the inseparable-boards lists in numpy.
"""

from __future__ import annotations

from functools import cache
from types import SimpleNamespace

import numpy as np

from gamelab.core.tiers import python_modules
from gamelab.voltorb._bounds_kernels import LISTS_MAX

#: the kernel modules of the win search (:meth:`gamelab.voltorb.expectimax.OptimalSolver._interpreted_win_value`)
SEARCH_MODULES = (
    "gamelab.voltorb._table_kernels",
    "gamelab.voltorb._bounds_kernels",
    "gamelab.voltorb._small_kernels",
    "gamelab.voltorb._wide_set_kernels",
    "gamelab.voltorb._wide_kernels",
    "gamelab.voltorb._search_kernels",
)


def _popcount(x: int) -> int:
    """The Python copies' stand-in for the kernels' ``ctpop`` (the set bits of an int64)."""
    return (int(x) & 0xFFFF_FFFF_FFFF_FFFF).bit_count()


@cache
def python_search() -> SimpleNamespace | None:
    """The win search's Python copies (:func:`gamelab.core.tiers.python_modules`), or None if
    they cannot be made (the kernels then run: a test requires the copies)."""
    try:
        copies = python_modules(SEARCH_MODULES, {"ctpop": _popcount})
    except (ValueError, ImportError):
        return None
    table = copies["gamelab.voltorb._table_kernels"]

    def table_entry(memo: np.ndarray, code: int) -> tuple[float, bool, int] | None:
        with np.errstate(over="ignore"):  # the hash's int64 products wrap, as in the kernels
            return table.table_entry(memo, code)

    return SimpleNamespace(
        win_search=copies["gamelab.voltorb._search_kernels"].win_search,
        table_rehash=table.table_rehash,
        table_entry=table_entry,
    )


def inseparable_lists_numpy(
    bits: np.ndarray, n: int, pairs: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`gamelab.voltorb.expectimax.OptimalSolver._inseparable_lists` in numpy (the same arrays as the kernel
    :func:`gamelab.voltorb._bounds_kernels.inseparable_lists`: each board's partners in
    ascending order), for a search run interpreted."""
    if not pairs or n > LISTS_MAX:
        return np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    bits = bits[:n]
    degree = np.zeros(n, dtype=np.int64)
    partners = []
    for lo in range(0, n, 256):
        a = bits[lo : lo + 256, None, :]
        b = bits[None, :, :]
        diff = (a[..., 0] ^ b[..., 0]) | (a[..., 1] ^ b[..., 1])
        ok = (diff != 0) & (diff == (a[..., 2] ^ b[..., 2]))
        ok &= ((a[..., 3] & diff) != 0) & ((b[..., 3] & diff) != 0)
        degree[lo : lo + 256] = ok.sum(axis=1)
        partners.append(np.nonzero(ok)[1])
    start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(degree, out=start[1:])
    nbr = np.concatenate(partners).astype(np.int64) if partners else np.zeros(0, np.int64)
    return start, nbr
