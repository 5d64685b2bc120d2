"""Entropy ranking of first guesses and the greedy max-entropy strategy ("chart").

The ranking is the Shannon entropy of the feedback partition of all answers, as in the post
"ポケモンwordleで最強のポケモンは誰か" (Qiita, 2023): uniform answers, every guess scored. The greedy
strategy plays the max-entropy guess over all allowed guesses at every node (ties to the
lowest dex) and, once one candidate is left, that candidate. Cost: one entropy kernel call
(guesses x candidates) per node; the whole 285-answer tree takes milliseconds.

Counting. Normally an answer costs the number of the guess that equals it. The post's
distribution (1:1, 2:13, 3:126, 4:107, 5:33, 6:5) is reproduced only if an entropy-chosen guess
that happens to be the answer (with 2 or more candidates left) is charged one extra guess -- its
loop apparently only stops once a single candidate remains and then enters it. That is
``quirk=True``. The distribution sums to 1028; the post prints 1030 (an addition slip).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gamelab.wordle.rules import FeedbackRule
from gamelab.wordle.table import Game


def rank(game: Game, top: int | None = None) -> list[tuple[int, float]]:
    """(guess index, entropy) by decreasing entropy, ties to the lowest index."""
    ent = game.entropies()
    order = np.lexsort((np.arange(len(ent)), -ent))
    if top is not None:
        order = order[:top]
    return [(int(i), float(ent[i])) for i in order]


@dataclass(frozen=True)
class RankedGuess:
    guess: str
    entropy: float
    other_entropy: float  # the same guess's entropy under the other feedback rule


@dataclass(frozen=True)
class Ranking:
    """First guesses by entropy under `rule`, each with its entropy under `other_rule`."""

    rule: str
    other_rule: str
    rows: list[RankedGuess]

    def __json__(self) -> list[dict[str, Any]]:
        return [
            {
                "guess": r.guess,
                "rule": self.rule,
                "entropy": round(r.entropy, 10),
                f"entropy_{self.other_rule}": round(r.other_entropy, 10),
            }
            for r in self.rows
        ]


def ranking(game: Game, top: int | None = None) -> Ranking:
    """:func:`rank` with names, and each guess's entropy under the other rule beside it."""
    other_rule = FeedbackRule.STANDARD if game.rule == FeedbackRule.BLOG else FeedbackRule.BLOG
    other = Game(game.words, other_rule).entropies()
    return Ranking(
        game.rule,
        other_rule,
        [RankedGuess(game.words.guesses[i], e, float(other[i])) for i, e in rank(game, top)],
    )


@dataclass
class Node:
    """One node of a strategy tree: the candidates, the guess, children by pattern code."""

    candidates: np.ndarray
    guess: int
    children: dict[int, Node] = field(default_factory=dict)


def greedy_tree(game: Game, first: int, subset: np.ndarray | None = None) -> Node:
    """The greedy max-entropy tree below a fixed first guess."""
    subset = game.all_answers() if subset is None else np.asarray(subset, dtype=np.int32)

    def build(cands: np.ndarray, guess: int) -> Node:
        node = Node(cands, guess)
        for code, part in game.partition(guess, cands).items():
            if len(part) == 1 and game.is_answer(guess, part[0]):
                continue  # solved
            nxt = (
                int(game.guess_of_answer[part[0]])
                if len(part) == 1
                else game.best_entropy_guess(part)
            )
            node.children[code] = build(part, nxt)
        return node

    return build(subset, first)


def guess_counts(game: Game, tree: Node, quirk: bool = False) -> dict[int, int]:
    """Answer index -> number of guesses it needs under the tree.

    With `quirk`, an answer hit by a guess chosen for entropy among 2+ candidates (not the first
    guess) costs one extra guess, as in the post's counts.
    """
    out: dict[int, int] = {}

    def walk(node: Node, depth: int) -> None:
        for a in node.candidates:
            if game.is_answer(node.guess, a):
                extra = 1 if (quirk and depth > 1 and len(node.candidates) > 1) else 0
                out[int(a)] = depth + extra
        for child in node.children.values():
            walk(child, depth + 1)

    walk(tree, 1)
    return out


def distribution(counts: dict[int, int]) -> dict[int, int]:
    dist: dict[int, int] = {}
    for v in counts.values():
        dist[v] = dist.get(v, 0) + 1
    return dict(sorted(dist.items()))
