"""The assistant (the web page, ``next`` and ``assist``): what a history leaves and the
proven-optimal next guess.

``advise(setting, history)`` -> :class:`Advice`: the remaining candidates (with English
names and dex numbers), the next guess of the proven-optimal strategy with its exact expected
number of guesses from here and its worst case, and the top of the entropy ranking beside it.

Where the answer comes from (``method``):

* ``strategy`` -- the history follows the cached optimal strategy
  (:func:`gamelab.wordle.solver.strategy.optimal_strategy`): a table lookup;
* ``solved here`` -- a guess left the strategy: the node is solved exactly by
  :class:`gamelab.wordle.solver.optimal.OptimalSolver` (a subtree; its memo is kept per process, so
  the next answer below it is quick);
* ``entropy`` -- no exact answer (``exact=False``, used as the web page's fallback when the
  exact search overruns the time budget, or while the strategy of a large list is still being
  computed): the max-entropy allowed guess, without an expected number of guesses.

Every exact answer respects the game's guess limit (Pokémon Wordle: 10) counting the guesses
already made. A history no answer fits raises
:class:`gamelab.wordle.assistant.ContradictionError`, naming the first guess that breaks it.

    >>> a = advise(Setting(POST_SETTING, "blog"), [("レントラー", "00000")])
    >>> a.candidates, a.next.name, a.method
    (67, 'ゴルダック', 'solved here')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

import numpy as np

from gamelab.core.budget import Plan
from gamelab.wordle.assistant import GuessSession, HistoryChecker, _entropy_choice, greedy_play
from gamelab.wordle.names import resolve_name
from gamelab.wordle.rules import (
    HARD_MODE_TEXT,
    POST_SETTING,  # noqa: F401 (the doctest)
    Setting,
    parse_pattern,
    pattern_text,
    pokemon_names,
)
from gamelab.wordle.solver.kernel_search import compile_search_first
from gamelab.wordle.solver.optimal import INF, OptimalSolver, SearchTimeout
from gamelab.wordle.table import Game

__all__ = ["Advice", "Candidate", "GuessOption", "advice_plan", "advise", "parse_history", "worker"]

REMAINING_SHOWN = 120
ENTROPY_TOP = 5
MAX_HISTORY = 10


@dataclass(frozen=True)
class Candidate:
    name: str
    english: str
    dex: int


@dataclass(frozen=True)
class GuessOption:
    """A possible next guess: its entropy over the candidates, how many feedback classes it
    makes, the largest class (the most candidates it can leave), whether it could itself be the
    answer, and -- for the optimal guess -- the exact expected number of guesses from here."""

    name: str
    english: str
    dex: int
    entropy: float
    classes: int
    largest_class: int
    is_candidate: bool
    expected_guesses: float | None = None


@dataclass
class Advice:
    names: str
    rule: str
    hard_mode: str  # "off", "game" or "strict"
    mode: str  # e.g. "normal mode"
    guess_limit: int  # the game's (Pokémon Wordle: 10)
    guesses_used: int
    history: list[str]  # "レントラー:00000", as understood
    candidates: int
    remaining: list[Candidate]  # the first REMAINING_SHOWN of them, in dex order
    solved: bool
    method: str | None = None  # "strategy", "solved here", "entropy" or None when solved
    next: GuessOption | None = None
    expected_total: int | None = None  # exact total guesses over the candidates (optimal play)
    expected_guesses: float | None = None  # expected_total / candidates: guesses from here,
    # next included
    worst_case: int | None = None  # most guesses any candidate needs from here (optimal play)
    entropy_top: list[GuessOption] = field(default_factory=list)
    strategy_cached: bool = False
    note: str | None = None
    # False when no strategy can finish every candidate within the guesses left (proven):
    # `next` is then the max-entropy guess, the best bet anyway, and `warning` says so
    within_limit: bool = True
    warning: str | None = None

    def _repr_svg_(self) -> str:
        """The guesses as tiles and the advice under them, in a notebook
        (:func:`gamelab.wordle.pictures.advice_svg`)."""
        from gamelab.wordle.pictures import advice_svg

        expected = self.expected_guesses
        if expected is None and self.next is not None:
            expected = self.next.expected_guesses
        return advice_svg(
            self.history,
            self.candidates,
            [c.name for c in self.remaining],
            None if self.next is None else self.next.name,
            expected,
            self.mode,
            self.warning,
        )


@lru_cache(maxsize=1)
def english_names() -> dict[str, tuple[str, int]]:
    """{katakana name: (English name, dex number)} of every Pokémon in the shipped list."""
    return {ja: (en, dex) for dex, ja, en, _ in pokemon_names()}


class SolverContext:
    """Per process and setting: the game, the history checker and the solver's memo."""

    def __init__(self, setting: Setting) -> None:
        self.game = Game.of(setting)  # once per process and setting
        self.hard = setting.hard
        self.checker = HistoryChecker(setting)
        # no limit of its own: each search is given the guesses left
        self.solver = OptimalSolver(setting.with_limit(None))


@lru_cache(maxsize=16)
def solver_context(setting: Setting) -> SolverContext:
    """The setting's game, history checker and solver, one per process (their memo is kept)."""
    return SolverContext(setting)


def parse_history(
    game: Game, entries: Sequence[tuple[str, str]], pokemon: bool = True
) -> list[tuple[int, int]]:
    """[(name as typed, colours)] -> [(guess index, pattern code)]; Pokémon names in any
    script, the words of a custom list (`pokemon` False) as listed."""
    if len(entries) > MAX_HISTORY:
        raise ValueError(f"at most {MAX_HISTORY} guesses, got {len(entries)}")
    out = []
    for k, (typed, colours) in enumerate(entries, 1):
        if pokemon:
            name = resolve_name(game.words, typed, field="history")
        else:
            name = typed.strip()
            game.words.check_guess(name)
        g = game.words.guess_index[name]
        try:
            code = parse_pattern(colours, len(name))
        except ValueError as exc:
            raise ValueError(f"guess {k} ({name}): {exc}") from None
        out.append((g, code))
    return out


def _option(game: Game, cands: np.ndarray, g: int, ent: np.ndarray) -> GuessOption:
    name = game.words.guesses[g]
    en, dex = english_names().get(name, ("", 0))
    parts = game.partition(g, cands)
    return GuessOption(
        name,
        en,
        dex,
        float(ent[g]),
        len(parts),
        max(len(p) for p in parts.values()),
        bool(game.answer_of_guess[g] >= 0 and game.answer_of_guess[g] in set(cands.tolist())),
    )


def _allowed(game: Game, pool: np.ndarray | None) -> np.ndarray:
    return (
        np.arange(game.n_guesses, dtype=np.int32) if pool is None else game.full_length_index[pool]
    )


def _worst(
    ctx: SolverContext, cands: np.ndarray, guess: int, depth: int, pool: np.ndarray | None
) -> int:
    """Most guesses any candidate needs when `guess` is played here and then optimally."""
    game, worst = ctx.game, 1
    stack = [(cands, guess, depth, pool, 1)]
    while stack:
        c, g, d, p, level = stack.pop()
        worst = max(worst, level)
        for code, part in game.partition(g, c).items():
            if len(part) == 1 and game.is_answer(g, part[0]):
                continue
            cp = None if p is None else game.hard_pool(g, code, p, ctx.hard)
            _, nxt = ctx.solver.best_guess(part, d - 1, cp)
            stack.append((part, nxt, d - 1, cp, level + 1))
    return worst


def advise(
    setting: Setting,
    history: Sequence[tuple[str, str]],
    exact: bool = True,
    use_strategy: bool | None = None,
    time_limit: float | None = None,
) -> Advice:
    """The assistant's answer for a history of (name, colours) pairs; see the module doc.

    `use_strategy`: look the answer up in the cached optimal strategy (default: when it is
    cached; True when it is not raises, so a caller never starts a long solve by accident).
    `time_limit`: seconds for an exact search off the strategy (None: no limit); past it the
    answer is the max-entropy guess, labelled in ``note`` (the CLI's limit; the web page's is
    its solver pool's budget, with the same fallback)."""
    from gamelab.wordle.solver.strategy import strategy_is_cached

    names = setting.names
    game = Game.of(setting)  # (its feedback table is built when first needed)
    steps = parse_history(game, history, setting.pokemon)
    for k, (g, code) in enumerate(steps[:-1], 1):
        if code == game.green and len(game.words.guesses[g]) == game.words.length:
            raise ValueError(
                f"guess {k} ({game.words.guesses[g]}) already found the answer; "
                f"guess {k + 1} cannot follow it"
            )
    if exact and _searches(setting, game, steps, use_strategy):
        # on an empty cache: the search compiles here while the table's kernels compile in a
        # second process
        compile_search_first(game.words, game.rule, setting.hard)
    ctx = solver_context(setting)
    cands, pool = ctx.checker.candidates(steps)
    limit = game.words.guess_limit
    left = limit - len(steps)
    solved = (
        bool(steps)
        and game.is_answer(steps[-1][0], int(cands[0]))
        and int(game.table[steps[-1][0], cands[0]]) == game.green
    )
    rows = [
        Candidate(game.words.answers[a], *english_names().get(game.words.answers[a], ("", 0)))
        for a in cands[:REMAINING_SHOWN].tolist()
    ]
    is_cached = strategy_is_cached(setting)  # (asked once: it reads the cache's index)
    cached = is_cached if use_strategy is None else use_strategy
    if cached and not is_cached:
        raise ValueError(f"the optimal strategy for {names.name} is not computed yet")
    out = Advice(
        names=names.name,
        rule=setting.rule,
        hard_mode=setting.hard_mode,
        mode=setting.mode,
        guess_limit=limit,
        guesses_used=len(steps),
        history=[
            f"{game.words.guesses[g]}:{pattern_text(c, len(game.words.guesses[g]))}"
            for g, c in steps
        ],
        candidates=int(len(cands)),
        remaining=rows,
        solved=solved,
        strategy_cached=cached,
    )
    if solved:
        out.expected_total, out.expected_guesses, out.worst_case = 0, 0.0, 0
        return out
    if left <= 0:
        raise ValueError(
            f"the history already uses all {limit} guesses the game allows "
            "without finding the answer"
        )
    ent = game.entropies(cands)
    allowed = _allowed(game, pool)
    order = allowed[np.lexsort((allowed, -ent[allowed]))]
    useful = [int(g) for g in order[ent[order] > 0][:ENTROPY_TOP]]  # entropy 0: one class, no help
    out.entropy_top = [_option(game, cands, g, ent) for g in useful]
    if exact:
        try:
            with ctx.solver.deadline(time_limit):
                return _exact(out, setting, ctx, steps, cands, pool, ent, left, cached)
        except SearchTimeout:
            out.note = (
                f"the exact search did not finish within {time_limit:g} s; showing the "
                "max-entropy guess"
            )
    best = useful[0] if useful else int(game.guess_of_answer[cands[0]])
    out.method, out.next = "entropy", _option(game, cands, best, ent)
    return out


def _searches(
    setting: Setting, game: Game, steps: list[tuple[int, int]], use_strategy: bool | None
) -> bool:
    """Whether an exact answer to `steps` is searched (not looked up in the strategy, not a
    solved game, guesses left); told before the feedback table is built, so a first search
    can start compiling at once (:func:`compile_search_first`)."""
    from gamelab.wordle.solver.strategy import optimal_strategy, strategy_is_cached

    if len(steps) >= game.words.guess_limit:
        return False
    if steps and steps[-1][1] == game.green:
        return False  # solved (or contradicted): nothing to search
    is_cached = strategy_is_cached(setting)
    if is_cached if use_strategy is None else use_strategy:
        # (use_strategy without the strategy cached is refused before any search)
        return is_cached and optimal_strategy(setting).node_of(steps) is None
    return True


def _exact(
    out: Advice,
    setting: Setting,
    ctx: SolverContext,
    steps: list[tuple[int, int]],
    cands: np.ndarray,
    pool: np.ndarray | None,
    ent: np.ndarray,
    left: int,
    cached: bool,
) -> Advice:
    """`out` completed with the proven-optimal next guess (a strategy lookup, or solved here)."""
    from gamelab.wordle.solver.strategy import optimal_strategy

    game = ctx.game
    node = None
    if cached:  # never computed here: a pool call must not start a minutes-long solve
        table = optimal_strategy(setting)
        node = table.node_of(steps)
        out.strategy_cached = True
    if node is not None:
        guess, total, worst = int(table.guess[node]), int(table.total[node]), int(table.worst[node])
        out.method = "strategy"
    else:
        total, guess = ctx.solver.best_guess(cands, left, pool)
        if guess < 0 or total >= INF:
            return _beyond_limit(out, game, cands, pool, ctx.hard, ent, left)
        worst = _worst(ctx, cands, guess, left, pool)
        out.method = "solved here"
    option = _option(game, cands, guess, ent)
    out.next = GuessOption(**{**option.__dict__, "expected_guesses": total / len(cands)})
    out.expected_total, out.expected_guesses, out.worst_case = total, total / len(cands), worst
    return out


def _beyond_limit(
    out: Advice,
    game: Game,
    cands: np.ndarray,
    pool: np.ndarray | None,
    hard: str | None,
    ent: np.ndarray,
    left: int,
) -> Advice:
    """The answer when the search proved that no strategy finishes every candidate within the
    `left` guesses: the max-entropy guess (as ``gamelab wordle next`` then recommends), its
    greedy play's worst case, ``within_limit`` False and a warning in words."""
    guess = _entropy_choice(game, cands, pool)
    if guess < 0:
        raise ValueError(f"no word is allowed as the next guess in {HARD_MODE_TEXT[hard]}")
    _, worst = greedy_play(game, cands, pool, hard, guess)
    out.method, out.next, out.within_limit = "entropy", _option(game, cands, guess, ent), False
    out.worst_case = worst if worst < 10**9 else None
    out.warning = (
        f"no strategy can finish all {len(cands)} remaining candidates within the {left} "
        f"guess{'es' if left != 1 else ''} left (proven); the best bet anyway is the "
        f"max-entropy guess {game.words.guesses[guess]}"
    )
    return out


def worker(setting: Setting, history: list[tuple[str, str]], use_strategy: bool) -> Advice:
    """:func:`advise` with exact answers (what the web page runs in its solver pool; the answer
    is a pure function of the arguments, which the pool memoises)."""
    return advise(setting, history, exact=True, use_strategy=use_strategy)


def advice_plan(setting: Setting, history: list[tuple[str, str]], seconds: float) -> Plan:
    """The advice within a budget of `seconds` (:class:`gamelab.core.budget.Plan`): the exact
    answer (:func:`worker`), past the budget the max-entropy guess, labelled. Whether the
    strategy is ready is part of the question, so a kept answer is never stale."""
    from gamelab.wordle.solver.strategy import strategy_is_cached

    return Plan(
        worker,
        (setting, history, strategy_is_cached(setting)),
        seconds,
        partial(advise, setting, history, exact=False),
        "exact optimal search",
        "the max-entropy guess",
    )


def split_history(text: str) -> list[tuple[str, str]]:
    """A shell's history text, ``'レントラー:00120,ゴルダック:22222'`` (or with spaces for colons),
    as (name as typed, colours) pairs."""
    out = []
    for part in (p.strip() for p in text.split(",")):
        if part:
            word, _, colours = part.replace(" ", ":").partition(":")
            out.append((word, colours))
    return out


def format_advice(a: Advice) -> str:
    """The answer as text (``gamelab wordle next`` and ``assist``): the first line names the
    list, the colour rule and the mode in force."""
    from gamelab.wordle.assistant import RULE_TEXT

    lines = [
        f"{a.candidates} candidate(s) left (rule {a.rule}: {RULE_TEXT[a.rule]}; {a.mode}; "
        f"{a.names}; {a.guess_limit - a.guesses_used} guess(es) left)"
    ]
    if a.candidates <= 20:
        lines.append("  " + " ".join(c.name for c in a.remaining))
    if a.solved or a.next is None:
        lines.append("solved")
        return "\n".join(lines)
    how = {"strategy": "optimal: the proven strategy", "solved here": "optimal: solved now"}
    extra = (
        ""
        if a.expected_guesses is None
        else f"; {a.expected_guesses:.3f} guesses expected from here, worst {a.worst_case}"
    )
    lines.append(f"next guess: {a.next.name} ({how.get(a.method or '', a.method)}{extra})")
    if a.note:
        lines.append(f"note: {a.note}")
    if a.warning:
        lines.append(f"warning: {a.warning}")
    return "\n".join(lines)


class AdviceSession(GuessSession):
    """``gamelab wordle assist``: the page's assistant (:func:`advise`) in a terminal (Pokémon
    names in any script, romaji too; a custom list's words as listed)."""

    prompt = "guess and colours (e.g. rentoraa 00120), undo, reset, help or quit> "
    example = "rentoraa 00120"

    def __init__(self, setting: Setting, time_limit: float | None = None) -> None:
        self.setting = setting
        self.time_limit = time_limit
        self.help_text = SESSION_HELP
        if not setting.pokemon:
            word = setting.words.answers[0]
            self.example = f"{word} {'0' * len(word)}"
            self.prompt = f"guess and colours (e.g. {self.example}), undo, reset, help or quit> "
            self.help_text = CUSTOM_HELP.format(example=self.example)
        self.history: list[tuple[str, str]] = []
        self.finished = False

    def intro(self) -> str:
        s = self.setting
        head = (
            f"Wordle assistant: {s.names.name}, rule {s.rule}, {s.mode}, "
            f"at most {s.max_guesses} guesses."
        )
        advice = advise(s, self.history, time_limit=self.time_limit)
        return "\n".join([head, self.help_text, format_advice(advice)])

    def entry(self, text: str) -> tuple[str, str]:
        parts = text.replace(":", " ").split()
        if len(parts) < 2:
            raise ValueError(f"{text!r} needs a guess and its colours, e.g. rentoraa 00120")
        return parts[0], "".join(parts[1:])

    def advise(self, history: list[Any]) -> tuple[str, bool]:
        answer = advise(self.setting, history, time_limit=self.time_limit)  # raises: kept
        self.history = [(h.split(":", 1)[0], h.split(":", 1)[1]) for h in answer.history]
        return format_advice(answer), answer.solved


SESSION_HELP = """Type each guess and the colours the game showed, e.g.
  rentoraa 00120       0 grey, 1 yellow, 2 green (or ⬛🟨🟩, 灰黄緑, b/y/g)
  the guess in katakana, hiragana, romaji or English (レントラー, れんとらー, rentoraa, Luxray)
  undo    take back the last guess
  reset   start again
  help    this text
  q, quit leave"""

CUSTOM_HELP = """Type each guess and the colours the game showed, e.g.
  {example}    0 grey, 1 yellow, 2 green (or ⬛🟨🟩, 灰黄緑, b/y/g)
  undo    take back the last guess
  reset   start again
  help    this text
  q, quit leave"""
