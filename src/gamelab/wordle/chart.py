"""The chart of a first guess: every feedback pattern it can show, what each leaves, and the
greedy (max-entropy) next guess, with the greedy strategy's totals under both countings.

This is the post's "chart" table (:mod:`gamelab.wordle.entropy` builds the greedy tree), used
by `gamelab wordle chart` and the report alike. :func:`tree_chart` reads the same kind of chart
off a decision tree written by ``gamelab wordle solve-optimal --tree``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamelab.core.serialise import attributes
from gamelab.wordle import entropy
from gamelab.wordle.rules import pattern_text
from gamelab.wordle.solver.optimal import answer_depths
from gamelab.wordle.table import Game

#: The post prints a total its own distribution does not add up to (docs/wordle.md).
POST_SLIP = (
    "the post prints a total of 1030 guesses, but its own distribution "
    "1:1 2:13 3:126 4:107 5:33 6:5 sums to 1028 (an addition slip in the post)"
)


@dataclass(frozen=True)
class ChartPattern:
    """One feedback pattern (base-3 digits, 0 grey 1 yellow 2 green) of the first guess."""

    pattern: str
    remaining: int
    next: str | None  # the greedy next guess; None when the pattern solves the game
    candidates: list[str]


@dataclass(frozen=True)
class GreedyTotals:
    """Guesses the greedy strategy needs over all answers under one way of counting."""

    total: int
    average: float
    distribution: dict[int, int]  # guesses needed -> answers
    worst: int
    worst_answers: list[str]


@dataclass(frozen=True)
class Chart:
    """The chart of `first`: its patterns and the greedy totals (``normal`` counting and the
    post's, ``post_counting``, where an entropy guess that hits the answer costs one more)."""

    first: str
    rule: str
    names: str
    patterns: list[ChartPattern]
    greedy: dict[str, GreedyTotals]
    note: str | None = None

    @property
    def n_patterns(self) -> int:
        return len(self.patterns)

    @property
    def all_grey(self) -> ChartPattern | None:
        """The all-grey pattern, if the first guess can show it."""
        return next((p for p in self.patterns if int(p.pattern, 3) == 0), None)

    def __json__(self) -> dict[str, Any]:
        return attributes(
            self, "first", "rule", "names", "n_patterns", "patterns", "greedy", "note"
        )


def chart(game: Game, first: str | None = None) -> Chart:
    """The chart of `first` (default: the max-entropy first guess)."""
    if first is None:
        first = game.words.guesses[entropy.rank(game, 1)[0][0]]
    g = game.words.check_guess(first)
    tree = entropy.greedy_tree(game, g)
    patterns = []
    for code, part in sorted(game.partition(g, game.all_answers()).items()):
        child = tree.children.get(code)
        patterns.append(
            ChartPattern(
                pattern=pattern_text(code, len(first)),
                remaining=int(len(part)),
                next=game.words.guesses[child.guess] if child else None,
                candidates=[game.words.answers[a] for a in part],
            )
        )
    totals = {}
    for key, quirk in (("normal", False), ("post_counting", True)):
        counts = entropy.guess_counts(game, tree, quirk)
        dist = entropy.distribution(counts)
        worst = max(dist)
        totals[key] = GreedyTotals(
            total=sum(counts.values()),
            average=sum(counts.values()) / len(counts),
            distribution=dict(dist),
            worst=worst,
            worst_answers=[game.words.answers[a] for a, v in counts.items() if v == worst],
        )
    note = POST_SLIP if (game.words.name, first) == ("gen1-4", "レントラー") else None
    return Chart(first, game.rule, game.words.name, patterns, totals, note)


@dataclass(frozen=True)
class TreePattern:
    pattern: str
    remaining: int
    next: str


@dataclass(frozen=True)
class TreeChart:
    """The first level of a decision tree file and the guesses it needs in total."""

    first: str
    n_patterns: int
    patterns: list[TreePattern]
    total: int
    answers: int
    distribution: dict[int, int]


#: Largest decision tree file read (the proven gen1-4 tree is about 60 KB).
MAX_TREE_BYTES = 64 * 1024 * 1024


def pattern_key(code: int, length: int) -> str:
    """A feedback code as a tree file writes it (``OptimalSolver.tree``): one digit 0-2 per
    position, the code's most significant digit first (``int(key, 3) == code``)."""
    return "".join(str(code // 3 ** (length - 1 - i) % 3) for i in range(length))


def check_tree(tree: Any, game: Game) -> None:
    """A ValueError unless `tree` is a decision tree of `game`: every guess allowed, every
    pattern one the guess can show, every node's candidate count the rules' own, every answer
    covered, and a single candidate guessed by name. The path to the wrong node is named."""
    words = game.words
    stack: list[tuple[Any, Any, str]] = [(tree, game.all_answers(), "the root")]
    while stack:
        node, cands, where = stack.pop()
        if not isinstance(node, dict) or not isinstance(node.get("guess"), str):
            raise ValueError(f"{where} is not a node with a guess ({{'guess': ..., ...}})")
        word, count, kids = node["guess"], node.get("candidates"), node.get("next", {})
        if word not in words.guess_index:
            raise ValueError(f"{where}: {word} is not an allowed guess of word list {words.name}")
        if type(count) is not int or count != len(cands):
            raise ValueError(
                f"{where}: the tree says {count!r} candidates, the rules leave {len(cands)} "
                f"(rule {game.rule}, word list {words.name}: is the tree for other settings?)"
            )
        if not isinstance(kids, dict):
            raise ValueError(f"{where}: 'next' must map feedback patterns to nodes")
        guess = words.guess_index[word]
        parts = {pattern_key(c, len(word)): p for c, p in game.partition(guess, cands).items()}
        for key, part in parts.items():
            solved = len(part) == 1 and game.is_answer(guess, int(part[0]))
            if key not in kids and not solved:
                raise ValueError(
                    f"{where}: after {word}, feedback {key} ({len(part)} answers) has no next node"
                )
        for key, child in kids.items():
            if key not in parts:
                raise ValueError(f"{where}: {word} cannot show the feedback {key!r} here")
            stack.append((child, parts[key], f"{where} → {word} {key}"))


def tree_chart(path: Path, game: Game | None = None) -> TreeChart:
    """Read a decision tree written by ``solve-optimal --tree`` (JSON) and chart its root;
    with `game`, the tree is first checked against its rules (:func:`check_tree`)."""
    from gamelab.core.files import read_text_file

    text = read_text_file(path, "decision tree", MAX_TREE_BYTES)
    try:
        tree = json.loads(text)
    except RecursionError:
        raise ValueError(f"cannot read a decision tree from {path}: nested too deeply") from None
    except ValueError as exc:
        raise ValueError(f"cannot read a decision tree from {path}: not JSON ({exc})") from None
    if game is not None:
        try:
            check_tree(tree, game)
        except ValueError as exc:
            raise ValueError(f"{path} is not a decision tree of these rules: {exc}") from None
    try:
        first, kids = tree["guess"], tree.get("next", {})
        depths = answer_depths(tree)
        rows = [TreePattern(p, int(k["candidates"]), k["guess"]) for p, k in kids.items()]
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise ValueError(
            f"cannot read a decision tree from {path}: it is not a tree of guesses "
            "({'guess': ..., 'candidates': ..., 'next': {pattern: node}})"
        ) from None
    dist: dict[int, int] = {}
    for d in depths.values():
        dist[d] = dist.get(d, 0) + 1
    solved_at_root = len(depths) > sum(r.remaining for r in rows)
    return TreeChart(
        first,
        len(rows) + solved_at_root,
        rows,
        sum(depths.values()),
        len(depths),
        dict(sorted(dist.items())),
    )
