"""The proven-optimal strategy of a Pokémon list as a lookup table, computed once and cached.

:class:`gamelab.wordle.solver.optimal.OptimalSolver` proves the optimum (the fewest total guesses over
all answers, under the game's guess limit) and returns its decision tree. This module flattens
that tree into arrays kept by :func:`gamelab.core.cache.cached_arrays`, so an assistant that
follows the strategy answers by walking the table: per node the guess, the number of
candidates, the exact total guesses of the subtree (``total / candidates`` is the expected
number of guesses from that node, its guess included) and the most guesses any candidate needs
(``worst``). A history that leaves the tree (a guess the strategy would not play) is solved
there by the same solver (see :mod:`gamelab.wordle.advice`).

Cost: the solve itself (gen1-4: a few seconds of CPU per setting; ``all``: minutes), once per
(word list, rule, hard mode, guess limit); loading the table takes milliseconds.

    >>> table = optimal_strategy(Setting(POST_SETTING, "blog"))
    >>> table.words.guesses[table.guess[0]], int(table.total[0]), table.is_cached()
    ('ジーランス', 964, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from gamelab.core.cache import cache_key, cached_arrays, is_cached, load_arrays
from gamelab.wordle.rules import (
    POST_SETTING,
    FeedbackRule,
    Setting,
    WordList,
    feedback,
    hard_mode_allows,
    parse_names,
    pattern_code,
)

__all__ = [
    "LIVE_SETTINGS",
    "PRECOMPUTED",
    "SHIPPED",
    "BackgroundBuilds",
    "SettingChoice",
    "SettingChoices",
    "Strategy",
    "StrategyStatus",
    "StrategySummary",
    "check_strategy",
    "optimal_strategy",
    "setting_choices",
    "shipped_strategy_path",
    "strategy_is_cached",
    "strategy_summary",
]

STRATEGY_VERSION = 1
#: the live game's settings (any species may be guessed; the daily answers are generations 1-4,
#: the endless mode's answers generations 1..N); ``upto-gen4`` is ``daily`` and ``upto-gen9``
#: is ``all`` (same lists, so the same tables), hence not listed twice
LIVE_SETTINGS = tuple(
    parse_names(spec)
    for spec in ("daily", *(f"upto-gen{n}" for n in (1, 2, 3, 5, 6, 7, 8)), "daily-2022")
)
#: the settings the web page precomputes: the post's lists, ``all`` and the live settings, both
#: rules, normal and both hard modes (the game's hard mode is defined for the standard rule only)
PRECOMPUTED = tuple(
    Setting(names, rule, hard)
    for names in (POST_SETTING, parse_names("all"), *LIVE_SETTINGS)
    for rule in FeedbackRule
    for hard in (None, "game", "strict")
    if not (hard == "game" and rule == "blog")
)


#: Strategies shipped in the package (``python tools/make_wordle_strategies.py``): the ``all``
#: list costs minutes of CPU per setting, which a player's first visit should not pay. A file
#: is found by the same key as the cache (word-list fingerprint, rule, hard mode, guess limit),
#: so a changed list or version simply falls back to the cache and the solver.
SHIPPED = Path(__file__).parent.parent / "data"


def _params(words: WordList, rule: FeedbackRule, hard: str | None) -> dict[str, Any]:
    return {
        "words": words.fingerprint(),
        "names": words.key,
        "rule": rule,
        "hard": hard,
        "max_guesses": words.guess_limit,
    }


def shipped_strategy_path(setting: Setting) -> Path:
    """Where the package ships (or would ship) the strategy of this setting."""
    params = _params(setting.words, setting.rule, setting.hard)
    key = cache_key("wordle-strategy", params, STRATEGY_VERSION)
    return SHIPPED / f"strategy-{key}.npz"


@dataclass(frozen=True)
class Strategy:
    """The optimal decision tree as arrays; node 0 is the root (before any guess).

    Node i plays ``guess[i]`` with ``candidates[i]`` answers left; its children (one per
    non-green pattern) are ``child_node[child_start[i] : child_start[i] + child_count[i]]``
    with patterns ``child_code[...]``.
    """

    setting: Setting
    words: WordList
    guess: np.ndarray
    candidates: np.ndarray
    total: np.ndarray
    worst: np.ndarray
    child_start: np.ndarray
    child_count: np.ndarray
    child_code: np.ndarray
    child_node: np.ndarray

    @property
    def guess_limit(self) -> int:
        return self.words.guess_limit

    @property
    def rule(self) -> FeedbackRule:
        return self.setting.rule

    @property
    def hard(self) -> str | None:
        return self.setting.hard

    def is_cached(self) -> bool:
        return strategy_is_cached(self.setting)

    def child(self, node: int, code: int) -> int | None:
        """The node reached when node's guess shows pattern `code` (None: solved or impossible)."""
        start, count = int(self.child_start[node]), int(self.child_count[node])
        codes = self.child_code[start : start + count]
        hit = np.flatnonzero(codes == code)
        return int(self.child_node[start + hit[0]]) if len(hit) else None

    def node_of(self, history: Sequence[tuple[int, int]]) -> int | None:
        """The node a history of (guess index, pattern code) reaches, if every guess is the
        strategy's; None once a guess differs (or the history ends the game)."""
        node = 0
        for g, code in history:
            if int(self.guess[node]) != g:
                return None
            nxt = self.child(node, code)
            if nxt is None:
                return None
            node = nxt
        return node


def _solve(setting: Setting) -> dict[str, np.ndarray]:
    from gamelab.wordle.solver.optimal import OptimalSolver

    words = setting.words
    result = OptimalSolver(setting).solve()
    if not result.proven or result.strategy is None:
        raise ValueError(
            f"no strategy finishes every answer of {words.name!r} within "
            f"{words.guess_limit} guesses"
        )
    arrays = result.strategy
    if int(arrays["total"][0]) != result.total:
        raise AssertionError("the strategy's total differs from the solver's")
    return arrays


_known_cached: set[Setting] = set()


def strategy_is_cached(setting: Setting) -> bool:
    """Whether the optimal strategy for this setting is already in the cache."""
    if setting in _known_cached:
        return True
    found = shipped_strategy_path(setting).is_file() or is_cached(
        "wordle-strategy", _params(setting.words, setting.rule, setting.hard), STRATEGY_VERSION
    )
    if found:
        _known_cached.add(setting)
    return found


@lru_cache(maxsize=32)
def optimal_strategy(setting: Setting) -> Strategy:
    """The optimal strategy of a Pokémon setting (``daily``, ``gen1-4``, ``all``...; its rule
    and hard mode) within its guess limit: from the package or the cache, else solved and
    stored (seconds for gen1-4, minutes for ``all``)."""
    if setting.max_guesses is None:
        raise ValueError("a strategy table is for a game with a guess limit")
    words, rule, hard = setting.words, setting.rule, setting.hard
    arrays = load_arrays(shipped_strategy_path(setting))
    if arrays is None:
        arrays = cached_arrays(
            "wordle-strategy",
            _params(words, rule, hard),
            STRATEGY_VERSION,
            lambda: _solve(setting),
        )
    return Strategy(setting, words, **arrays)


def check_strategy(strategy: Strategy) -> int:
    """Play every answer through the table with the rules' own feedback (plain Python:
    :func:`gamelab.wordle.rules.feedback`, not the solver's tables) and return the total number
    of guesses. Raises ValueError when an answer is not found within the guess limit, a guess
    breaks the hard mode, or a node's candidate count or the root's total disagrees: what a
    table must pass before it is shipped (its optimality is the solver's proof)."""
    words, rule, hard = strategy.words, strategy.rule, strategy.hard
    reached = np.zeros(len(strategy.guess), dtype=np.int64)
    total = 0
    for answer in words.answers:
        node: int | None = 0
        seen: list[tuple[str, tuple[int, ...]]] = []
        for n in range(1, strategy.guess_limit + 1):
            assert node is not None
            reached[node] += 1
            guess = words.guesses[int(strategy.guess[node])]
            if hard is not None and not all(
                hard_mode_allows(g, c, guess, hard, rule) for g, c in seen
            ):
                raise ValueError(f"guess {guess} after {seen} breaks the {hard} hard mode")
            if guess == answer:
                total += n
                break
            colours = feedback(guess, answer, rule)
            seen.append((guess, colours))
            node = strategy.child(node, pattern_code(colours))
            if node is None:
                raise ValueError(f"answer {answer}: pattern of {guess} has no branch")
        else:
            raise ValueError(f"answer {answer} is not found within {strategy.guess_limit} guesses")
    if not np.array_equal(reached, strategy.candidates):
        raise ValueError(
            "the candidate counts of the nodes disagree with the answers reaching them"
        )
    if total != int(strategy.total[0]):
        raise ValueError(f"the table's total {int(strategy.total[0])} is not the {total} played")
    return total


@dataclass(frozen=True)
class StrategyStatus:
    """Whether the optimal strategy of a setting is ready, and what the page should say."""

    names: str  # the setting's name
    rule: str
    hard_mode: str
    cached: bool
    building: bool
    message: str


class BackgroundBuilds:
    """Computes missing strategies in background processes (one at a time, lowest priority),
    for a server: ``status(setting)`` returns the status and starts the build if the
    strategy is neither cached nor being built. A build that fails (or a server that stops)
    leaves nothing half-written: the cache writes atomically."""

    def __init__(self) -> None:
        self._running: dict[Setting, Any] = {}
        self._queue: list[Setting] = []

    def status(self, setting: Setting, start: bool = True) -> StrategyStatus:
        key, names = setting, setting.names
        self._reap()
        cached = strategy_is_cached(setting)
        if not cached and start and key not in self._running and key not in self._queue:
            self._queue.append(key)
            self._reap()
        building = key in self._running or key in self._queue
        # in the game's words: a page shows the message as it is
        if cached:
            message = "the best guesses of this game are worked out: every answer is instant"
        elif building:
            message = (
                f"the best guesses for {names.name} ({setting.rule} colours, {setting.mode}) are "
                "being worked out in the background (once; minutes for a long list); until "
                "then each answer is worked out when asked, or a quick one if that takes long"
            )
        else:
            message = f"the best guesses for {names.name} are not worked out yet"
        return StrategyStatus(
            names.name, setting.rule, setting.hard_mode, cached, building, message
        )

    def _reap(self) -> None:
        for key, proc in list(self._running.items()):
            if not proc.is_alive():
                proc.join()
                del self._running[key]
        if not self._running and self._queue:
            import multiprocessing

            key = self._queue.pop(0)
            proc = multiprocessing.get_context("forkserver").Process(
                target=_build_quietly, args=(key,), daemon=True, name=f"wordle-strategy {key}"
            )
            proc.start()
            self._running[key] = proc

    def close(self) -> None:
        self._queue.clear()
        for proc in self._running.values():
            proc.kill()
            proc.join()
        self._running.clear()


def _build_quietly(setting: Setting) -> None:
    import os

    os.nice(10)
    optimal_strategy(setting)


@dataclass(frozen=True)
class StrategySummary:
    """The root of a cached optimal strategy (``gamelab wordle strategy``)."""

    names: str
    rule: str
    hard_mode: str
    mode: str
    guess_limit: int
    first_guess: str
    total: int
    average: float
    worst: int
    nodes: int  # decision nodes in the table
    was_cached: bool  # False: computed by this call
    seconds: float


def strategy_summary(setting: Setting) -> StrategySummary:
    """Load (or compute and cache) the optimal strategy of a setting and summarise its root."""
    import time

    start = time.monotonic()
    was_cached = strategy_is_cached(setting)
    table = optimal_strategy(setting)
    words = table.words
    return StrategySummary(
        setting.names.name,
        setting.rule,
        setting.hard_mode,
        setting.mode,
        words.guess_limit,
        words.guesses[int(table.guess[0])],
        int(table.total[0]),
        int(table.total[0]) / len(words.answers),
        int(table.worst[0]),
        len(table.guess),
        was_cached,
        time.monotonic() - start,
    )


@dataclass(frozen=True)
class SettingChoice:
    """One word-list setting a player picks by name (``/api/wordle/settings``): `group` is
    ``live`` for the live game's daily and endless (``upto-genN``) settings, ``other`` for the
    2022 list and the post's ``gen1-4``; `instant` says the proven strategies of the game's
    rules (standard colours, normal and hard mode) are shipped, so every answer is a lookup;
    `short_label` names it in a few words (a phone's chooser)."""

    spec: str
    label: str
    group: str
    answers: int
    guesses: int
    instant: bool
    short_label: str


@dataclass(frozen=True)
class SettingChoices:
    """The named settings in display order, the live game first; `default` is the daily game,
    `post` the seed post's setting."""

    default: str
    post: str
    choices: tuple[SettingChoice, ...]


@lru_cache(maxsize=1)
def setting_choices() -> SettingChoices:
    """The named word-list settings (:func:`gamelab.wordle.rules.named_settings`) for a page's
    chooser, each with whether its game-rule strategies are shipped."""
    from gamelab.wordle.rules import named_settings

    out = []
    for named in named_settings():
        instant = all(
            shipped_strategy_path(Setting(named.setting, FeedbackRule.STANDARD, hard)).is_file()
            for hard in (None, "game")
        )
        group = "live" if named.spec == "daily" or named.spec.startswith("upto-") else "other"
        out.append(
            SettingChoice(
                named.spec,
                named.label,
                group,
                named.answers,
                named.guesses,
                instant,
                named.short_label,
            )
        )
    return SettingChoices("daily", POST_SETTING.name, tuple(out))
