"""Upper bounds derived from this machine's memory, for sizes a person types.

A size option (a population, a number of samples) beyond what fits in memory is refused before
any work starts, with the bound in the message, instead of a ``MemoryError`` (or the kernel's
OOM killer) later: :func:`check_memory` is called with an estimate of the bytes a computation
holds at once.
"""

from __future__ import annotations

import os

#: Share of the physical memory one command may plan to hold.
USABLE_SHARE = 0.5


def physical_memory() -> int:
    """Bytes of physical memory (8 GiB where the system does not say)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def usable_memory() -> int:
    return int(physical_memory() * USABLE_SHARE)


def _gib(n: float) -> str:
    return f"{n / (1 << 30):,.1f} GiB"


def check_memory(n_bytes: float, what: str, units: int, unit_bytes: float, unit: str) -> None:
    """A ValueError unless `n_bytes` fits in :func:`usable_memory`: "`what` needs about X GiB;
    at most N `unit` fit in this machine's memory (M GiB)". `units` is the size the person
    gave, `unit_bytes` what one unit costs (for the bound)."""
    budget = usable_memory()
    if n_bytes <= budget:
        return
    most = int(budget // max(unit_bytes, 1.0))
    raise ValueError(
        f"{what} needs about {_gib(n_bytes)} of memory; at most {most:,} {unit} fit in half "
        f"of this machine's {_gib(physical_memory())} (got {units:,})"
    )


class OutOfBudget(RuntimeError):
    """A computation stopped at its budget (wall time, CPU time or a state count) before it
    finished: the one exception type for that, whatever the game. Each search subclasses it
    with its own name (``wordle``'s ``SearchTimeout``, ``voltorb``'s ``SearchLimitError``, the
    web pool's ``BudgetExceeded``) and a message that says which budget ran out; a shell that
    only needs to know "no exact answer in time" catches ``OutOfBudget``."""
