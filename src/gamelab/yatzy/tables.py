"""The optimal strategy's tables of each rule set, loaded once per process and only when used.

A front end that serves several rule sets (the web page) asks :func:`optimal_values` for the
expected-remaining-score table E of a rule set: the first call loads it from the disk cache
(:func:`gamelab.yatzy.solver.solve`; a fraction of a second) or, the very first time on a
machine, builds it (about 10-15 core-seconds per rule set); later calls return the same array.
:func:`tables_status` says which of these a call would do, so a page can tell its user that a
first build is running, and how far it is (`progress`). Threads asking for the same rule set
wait for one build; :func:`start_preparing` starts it in a background thread and returns at
once, so a page can let its player play (without the coach) while the tables are built.

>>> tables_status(RULES["yatzy"]).rules
'yatzy'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from gamelab.core.memo import Kept
from gamelab.yatzy.distribution import ScoreDistribution, is_distribution_cached, score_distribution
from gamelab.yatzy.rules import RULES, RuleSet
from gamelab.yatzy.solver import is_solved, solve

#: Rough cost of a first build on one idle core (E and its second moment, docs/yatzy.md), for the
#: message shown while it runs; a loaded machine takes about twice as long (measured: 44 s wall,
#: 31 s user for yatzy at load average 4 on 2 cores).
BUILD_SECONDS = {
    "yahtzee": 5,
    "yahtzee-free-joker": 5,
    "yahtzee-no-bonus": 4,
    "yatzy": 16,
    "yatzy-ls2012": 16,
}

#: E of each named rule set and its exact final-score distribution from the empty card, kept in
#: this process once loaded or built (:class:`gamelab.core.memo.Kept`)
VALUES: Kept[str, np.ndarray] = Kept()
DISTRIBUTIONS: Kept[str, ScoreDistribution] = Kept()


@dataclass(frozen=True)
class TablesStatus:
    """Whether the tables of a rule set are in this process, on disk, or still to be built."""

    rules: str
    loaded: bool  # E is in this process: coach answers are immediate
    cached: bool  # E is on disk: loading takes a fraction of a second
    distribution_cached: bool  # the exact final-score distribution from the empty card
    message: str  # what a user is told ("" when loaded)
    boxes: list[str]  # the rule set's boxes, in card order
    labels: list[str]  # as players of the rule set name them (Yatzy's "yatzy")
    upper_bonus: int
    yahtzee_bonus: int  # per extra Yahtzee, 0 = none
    description: str
    building: bool = False  # a build or load is running in this process
    progress: str | None = None  # how far a running build is, in words
    failed: str | None = None  # why the last background build failed (it can be retried)


def _named(rules: RuleSet) -> str:
    """The name of a named rule set (these tables are kept per name); a reduced rule set built
    for a test is refused."""
    if RULES.get(rules.name) != rules:
        raise ValueError(f"not a named rule set: {rules.name!r}; allowed: {', '.join(RULES)}")
    return rules.name


def tables_status(rules: RuleSet) -> TablesStatus:
    """What :func:`optimal_values` would do for `rules` now."""
    name = _named(rules)
    status = VALUES.status(name)
    loaded = status.kept
    cached = loaded or is_solved(rules)
    if loaded:
        message = ""
    elif cached:
        message = f"loading the {name} decision tables"
    else:
        message = (
            f"building the {name} decision tables: first use on this server, about "
            f"{BUILD_SECONDS[name]} s on an idle core (longer on a busy one); cached afterwards"
        )
    r = rules
    return TablesStatus(
        name,
        loaded,
        cached,
        is_distribution_cached(rules),
        message,
        list(r.boxes),
        [r.box_label(b) for b in range(r.n_boxes)],
        r.upper_bonus,
        r.yahtzee_bonus,
        r.description,
        building=status.building,
        progress=status.progress,
        failed=status.failed,
    )


def optimal_values(rules: RuleSet) -> np.ndarray:
    """E of the optimal strategy of `rules` (a named rule set), loaded or built once."""
    return VALUES.get_or_build(_named(rules), partial(_solved_values, rules))


def _solved_values(rules: RuleSet, progress: Callable[[str], None]) -> np.ndarray:
    return solve(rules, progress=progress).E


def prepare(rules: RuleSet) -> TablesStatus:
    """Load (or build) the tables of `rules`; returns the status afterwards."""
    optimal_values(rules)
    return tables_status(rules)


def start_preparing(rules: RuleSet) -> TablesStatus:
    """Start loading (or building) the tables of `rules` in a background thread, unless they
    are loaded or on their way; returns the status at once (poll :func:`tables_status`)."""
    name = _named(rules)
    if name not in VALUES and not VALUES.building(name):
        VALUES.start(name, partial(_solved_values, rules), what=f"building the {name} tables")
        _wait_until_started(name)
    return tables_status(rules)


def _wait_until_started(name: str, seconds: float = 1.0) -> None:
    """Give a new build thread a moment to start, so the status says 'building'."""
    import time

    deadline = time.monotonic() + seconds
    while not VALUES.building(name) and name not in VALUES and time.monotonic() < deadline:
        time.sleep(0.005)


def optimal_distribution(rules: RuleSet) -> ScoreDistribution:
    """The exact final-score distribution of optimal play from the empty card (cached on disk;
    the first computation takes about a core-minute for Yatzy)."""
    return DISTRIBUTIONS.get_or_build(_named(rules), lambda progress: score_distribution(rules))


def build_page_tables() -> None:
    """Build (or load) the tables of every rule set the web page offers, the one it opens with
    (Yatzy's) first: run by ``gamelab serve``'s warm-up process, so that the page's first exact
    answer for any rule set only loads them from the disk (a fraction of a second) instead of
    solving them (4-16 CPU-s each the first time on a machine, about 50 for all five). The
    reviews' distributions ship with the package (:mod:`gamelab.yatzy.distribution`)."""
    for name in sorted(RULES, key=lambda n: n != "yatzy"):
        solve(RULES[name])  # on disk afterwards; the server loads it when first asked
