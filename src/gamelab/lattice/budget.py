"""How the folding puzzle's exact answers spend a shell's time budget: the library's plans
(:class:`gamelab.core.budget.Plan`) for the page's calls.

There is no cheaper answer to fall back on (a level's thresholds are exact or wrong), so an
exact analysis may take :data:`EXACT_SECONDS` (or the server's budget, if longer) and is refused
past it. Measured by ``benchmarks/web_lattice.py``: well under a second once a length's
enumeration is cached, about 2-5 s the first time for 18 residues.
"""

from __future__ import annotations

from gamelab.core.budget import Plan
from gamelab.lattice.puzzle import LevelPack, best_fold, generate_level, level_from_sequence
from gamelab.lattice.rules import Chain

#: Seconds an exact analysis may take before it is refused (see the module's docstring).
EXACT_SECONDS = 30.0


def exact_seconds(seconds: float) -> float:
    """What an exact analysis may take under a budget of `seconds`."""
    return max(EXACT_SECONDS, seconds)


def level_plan(sequence: Chain, seconds: float) -> Plan:
    """A level made from a typed sequence (enumerated once per length, then cached)."""
    return Plan(level_from_sequence, (sequence,), exact_seconds(seconds))


def generate_plan(length: int, seed: int, pack: LevelPack, seconds: float) -> Plan:
    """A new level dealt by its seed, never one of `pack`'s, analysed exactly."""
    avoid = tuple(lv.sequence for lv in pack.levels)
    return Plan(generate_level, (length, seed, avoid), exact_seconds(seconds))


def best_plan(sequence: Chain, pack: LevelPack, seconds: float) -> Plan:
    """A best fold of the sequence: a lookup when `pack` stores it, else a search."""
    if sequence in pack.solutions:
        return Plan(best_fold, (sequence, pack), None)
    return Plan(best_fold, (sequence,), exact_seconds(seconds))
