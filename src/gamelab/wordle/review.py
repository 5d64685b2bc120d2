"""Review of a finished (or abandoned) game against the proven-optimal strategy, exactly.

For every guess of a history, with S the candidates before it, n = |S| and d the guesses the
game still allows:

* f(S) -- the optimal total guesses over S (:class:`gamelab.wordle.solver.optimal.OptimalSolver`,
  within the guess limit); f(S)/n is the expected number of guesses from here with optimal play;
* cost(g) = n + sum of f over the classes g leaves (the answer found by g costs nothing more):
  the expected guesses when g is played and then optimal play follows is cost(g)/n;
* **guesses lost** (skill) = (cost(g) - f(S)) / n >= 0, zero exactly when g is an optimal
  guess; **luck** = (cost(g) - n)/n - f(S')/|S'|: how many fewer guesses the class the answer
  actually fell into needs than g's classes need on average (S' the candidates left, f = 0
  once solved).

These are :class:`gamelab.core.review.Decision`'s loss and luck, its values in guesses counted
negative. They add up exactly: a solved game took ``f(S0)/n0 + sum(lost) - sum(luck)`` guesses. Like
NYT's WordleBot in spirit (skill and luck per guess), but from the exact optimum instead of a
heuristic. ``expected_left`` (sum over g's unsolved classes of |c|^2/n) is the average number of
candidates g leaves, shown beside the optimal guess's.

    >>> r = review(Setting(parse_names("gen1")), [("ゴルバット", "00000"), ("ピカチュウ", "22222")])
    >>> r.solved, r.guesses, round(r.optimal_expected + r.total_lost - r.total_luck, 9)
    (True, 2, 2.0)
    >>> r.steps[0].optimal_guess, round(r.steps[0].guesses_lost, 4)
    ('ワンリキー', 0.4048)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from gamelab.core.budget import Plan
from gamelab.core.review import Decision, Totals
from gamelab.wordle.advice import REMAINING_SHOWN, english_names, parse_history, solver_context
from gamelab.wordle.rules import Setting, parse_names, pattern_text  # noqa: F401 (doctest)
from gamelab.wordle.solver.optimal import INF

__all__ = ["Review", "ReviewStep", "review"]


@dataclass(frozen=True)
class ReviewStep:
    number: int
    guess: str
    english: str
    dex: int
    colours: str  # digits, e.g. "00120"
    candidates_before: int
    candidates_after: int  # 0 once the answer is found
    optimal_guess: str  # an optimal guess at this point (the solver's choice)
    optimal_english: str
    is_optimal: bool  # the guess was one of the optimal ones (lost == 0)
    expected_guesses: (
        float | None
    )  # cost(g)/n: this guess, then optimal play (None: cannot finish in the limit)
    optimal_expected_guesses: float  # f(S)/n
    guesses_lost: float | None  # expected guesses lost by this choice (skill)
    luck: float | None  # positive: the feedback was better than this guess's average
    expected_left: float  # this guess's average candidates left
    optimal_expected_left: float  # the optimal guess's
    # as NYT's WordleBot: the answers this guess left (the first REMAINING_SHOWN), and what the
    # optimal guess would have left for the same answer -- its size(s) over the answers still
    # possible at the end (one value once the answer is known), and the names when that is one
    # set of answers (None when the answers still possible would fall in different sets)
    remaining_after: list[str] = field(default_factory=list)
    optimal_candidates_after: list[int] = field(default_factory=list)
    optimal_remaining_after: list[str] | None = None


@dataclass
class Review:
    names: str
    rule: str
    hard_mode: str
    mode: str
    guess_limit: int
    steps: list[ReviewStep]
    solved: bool
    answer: str | None  # the answer when the last guess found it
    guesses: int
    optimal_expected: float  # expected guesses of optimal play from the start
    total_lost: float | None  # sum of guesses_lost (None if a guess could not finish in the limit)
    total_luck: float | None
    summary: str = ""
    notes: list[str] = field(default_factory=list)
    remaining: list[str] = field(default_factory=list)  # answers still possible (unsolved game)
    #: the figures above in the vocabulary every game's review shares (core.review.Totals)
    totals: dict[str, Totals] = field(default_factory=dict)


def _table(setting: Setting):
    """The cached optimal strategy, or None while it is not computed."""
    from gamelab.wordle.solver.strategy import optimal_strategy, strategy_is_cached

    if strategy_is_cached(setting):
        return optimal_strategy(setting)
    return None


def _expected_left(game, g: int, cands: np.ndarray) -> float:
    n = len(cands)
    return (
        sum(
            len(p) ** 2
            for p in game.partition(g, cands).values()
            if not (len(p) == 1 and game.is_answer(g, p[0]))
        )
        / n
    )


def _with_optimal_after(
    game, row: ReviewStep, cands: np.ndarray, best: int, final: np.ndarray, after: np.ndarray
) -> ReviewStep:
    """`row` with what the guess left and what the optimal guess `best` would have left for
    the answers still possible at the end (`final`)."""
    parts = game.partition(best, cands)
    codes = sorted({int(game.table[best, a]) for a in final.tolist()})

    def left(code: int) -> np.ndarray:
        part = parts[code]
        return part[:0] if len(part) == 1 and game.is_answer(best, part[0]) else part

    names = game.words.answers
    sizes = sorted({len(left(c)) for c in codes})
    shown = (
        [names[a] for a in left(codes[0])[:REMAINING_SHOWN].tolist()] if len(codes) == 1 else None
    )
    return replace(
        row,
        remaining_after=[names[a] for a in after[:REMAINING_SHOWN].tolist()],
        optimal_candidates_after=sizes,
        optimal_remaining_after=shown,
    )


def review(setting: Setting, history: Sequence[tuple[str, str]]) -> Review:
    """The review of a history of (name, colours); see the module doc."""
    hard = setting.hard
    ctx = solver_context(setting)
    game, solver = ctx.game, ctx.solver
    steps_in = parse_history(game, history)
    if not steps_in:
        raise ValueError("nothing to review: the history has no guesses")
    ctx.checker.candidates(steps_in)  # names the first guess that contradicts, or breaks hard mode
    limit = game.words.guess_limit
    cands = game.all_answers()
    pool = game.full_pool() if hard else None
    rows: list[ReviewStep] = []
    before: list[tuple[np.ndarray, int]] = []  # per guess: the candidates before it, the optimum
    lost_sum: float | None = 0.0
    luck_sum: float | None = 0.0
    solved, answer = False, None
    table = _table(setting)
    node: int | None = 0 if table is not None else None
    start_total = (
        int(table.total[0]) if table is not None else solver.best_guess(cands, limit, pool)[0]
    )
    for k, (g, code) in enumerate(steps_in):
        if solved:
            raise ValueError(f"guess {k + 1} comes after the answer was found")
        n, depth = len(cands), limit - k
        if node is not None:  # still on the cached optimal strategy: a lookup
            best_total, best = int(table.total[node]), int(table.guess[node])
        else:
            best_total, best = solver.best_guess(cands, depth, pool)
        on_strategy = node is not None and g == best
        node = table.child(node, code) if on_strategy else None
        cost, after_cands, after_pool = n, cands, pool
        for c, part in game.partition(g, cands).items():
            if len(part) == 1 and game.is_answer(g, part[0]):
                if c == code:
                    after_cands = part[:0]
                continue
            cpool = None if pool is None else game.hard_pool(g, c, pool, hard)
            if c == code:
                after_cands, after_pool = part, cpool
            if on_strategy:
                continue
            value = solver.value(part, INF, depth - 1, cpool) if depth > 1 else INF
            cost = INF if value >= INF or cost >= INF else cost + value
        if on_strategy:
            cost = best_total
        found = code == game.green and len(after_cands) == 0
        if found:
            solved, answer = True, game.words.guesses[g]
            after_value: float | None = 0.0
        elif node is not None:
            after_value = int(table.total[node]) / len(after_cands)
        elif depth > 1:
            v = solver.value(after_cands, INF, depth - 1, after_pool)
            after_value = v / len(after_cands) if v < INF else None
        else:
            after_value = None
        exp = None if cost >= INF else cost / n
        # core.review's values in guesses as a negative count: optimal from here, this guess
        # then optimal, and (the guess spent) optimal from the class the answer fell into
        lost = luck = None
        if exp is not None:
            after = -(1 + after_value) if after_value is not None else -exp
            decision = Decision.of(-best_total / n, -exp, after)
            lost, luck = decision.loss, decision.luck if after_value is not None else None
        lost_sum = None if lost is None or lost_sum is None else lost_sum + lost
        luck_sum = None if luck is None or luck_sum is None else luck_sum + luck
        name = game.words.guesses[g]
        en, dex = english_names().get(name, ("", 0))
        bname = game.words.guesses[best]
        rows.append(
            ReviewStep(
                k + 1,
                name,
                en,
                dex,
                pattern_text(code, len(name)),
                n,
                len(after_cands),
                bname,
                english_names().get(bname, ("", 0))[0],
                lost is not None and abs(lost) < 1e-9,
                exp,
                best_total / n,
                None if lost is None else (0.0 if abs(lost) < 1e-9 else lost),
                luck,
                _expected_left(game, g, cands),
                _expected_left(game, best, cands),
            )
        )
        before.append((cands, best))
        cands, pool = after_cands, after_pool
    final = (
        np.array([game.words.answer_index[answer]], dtype=np.int32) if answer is not None else cands
    )
    afters = [*(c for c, _ in before[1:]), cands]  # what each guess left: the next one's start
    rows = [
        _with_optimal_after(game, row, c, b, final, left)
        for row, (c, b), left in zip(rows, before, afters, strict=True)
    ]
    out = Review(
        setting.names.name,
        setting.rule,
        setting.hard_mode,
        setting.mode,
        limit,
        rows,
        solved,
        answer,
        len(rows),
        start_total / game.n_answers,
        lost_sum,
        luck_sum,
    )
    out.totals = {
        "you": Totals.of(
            "guesses (fewer is better: result = start + loss - luck)",
            out.optimal_expected,
            [r.guesses_lost for r in rows],
            [r.luck for r in rows],
            float(len(rows)) if solved else None,
        )
    }
    if solved and lost_sum is not None and luck_sum is not None:
        out.summary = (
            f"solved in {len(rows)} guesses: {out.optimal_expected:.3f} expected with "
            f"optimal play, {lost_sum:.3f} lost by the choices, luck {luck_sum:+.3f} "
            f"({len(rows)} = expected + lost - luck)"
        )
    elif not solved:
        out.remaining = [game.words.answers[a] for a in cands[:REMAINING_SHOWN].tolist()]
        shown = " ".join(out.remaining) + (" …" if len(cands) > REMAINING_SHOWN else "")
        skill = "" if lost_sum is None else f"; {lost_sum:.3f} guesses lost by the choices"
        out.summary = (
            f"not solved: {len(cands)} answer{'s' if len(cands) != 1 else ''} still possible "
            f"after {len(rows)} guess{'es' if len(rows) != 1 else ''} ({shown}){skill}"
        )
        out.notes.append("the last guess did not find the answer, so the review stops there")
    return out


#: A review solves one node per guess: it may take a few budgets.
REVIEW_BUDGETS = 4


def review_plan(setting: Setting, history: Sequence[tuple[str, str]], seconds: float) -> Plan:
    """A review within :data:`REVIEW_BUDGETS` budgets of `seconds`, refused past them (no
    fallback: a review is exact or not shown); never kept, since one that overran while a
    strategy was being built may fit later."""
    return Plan(review, (setting, list(history)), REVIEW_BUDGETS * seconds, cacheable=False)
