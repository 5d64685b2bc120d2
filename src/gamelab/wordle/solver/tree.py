"""A proven strategy as arrays, and its JSON tree as a rendering of them.

:func:`strategy_arrays` walks the strategy the solver proved below a first guess (one exact
``best_guess`` per decision node, depth first, as the search left its memo) and returns it as
the arrays of :class:`gamelab.wordle.solver.strategy.Strategy`, breadth first: per node the guess
index, the candidates, the exact total guesses of its subtree and its worst case, and the
children (one per non-green pattern: ``child_code``, ``child_node`` from ``child_start``,
``child_count``). :func:`render_tree` turns them into the nested document of
``solve-optimal --tree`` files (``{"guess", "candidates", "next": {colours: node}}``, colours as
base-3 digits, one per guess character); nothing parses that document back.

    >>> from gamelab.wordle.rules import Setting, parse_names
    >>> from gamelab.wordle.solver.optimal import OptimalSolver
    >>> arrays = OptimalSolver(Setting(parse_names("gen1"), "standard", None, None)).solve().strategy
    >>> int(arrays["total"][0]), int(arrays["worst"][0]), int(arrays["candidates"][0])
    (248, 5, 84)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gamelab.wordle.rules import WordList, pattern_colours

#: the arrays of a strategy, in :class:`~gamelab.wordle.solver.strategy.Strategy`'s order
FIELDS = (
    "guess",
    "candidates",
    "total",
    "worst",
    "child_start",
    "child_count",
    "child_code",
    "child_node",
)


def strategy_arrays(solver: Any, first: int) -> dict[str, np.ndarray]:
    """The strategy of `solver` (an :class:`~gamelab.wordle.solver.optimal.OptimalSolver` whose
    search has settled `first`) below the first guess `first`, as arrays (breadth first)."""
    game = solver.game
    guesses: list[int] = []
    cands_of: list[int] = []
    kids: list[list[tuple[int, int]]] = []  # per node (depth-first id): [(code, child id)]

    def add(guess: int, n: int) -> int:
        guesses.append(guess)
        cands_of.append(n)
        kids.append([])
        return len(guesses) - 1

    def walk(node: int, cands, guess: int, depth, pool, history) -> None:
        sub = None if depth is None else depth - 1
        for code, part, cpool in sorted(solver._children(guess, cands, pool), key=lambda x: x[0]):
            if len(part) == 1:  # the one candidate left is guessed next
                kids[node].append((code, add(int(game.guess_of_answer[part[0]]), 1)))
                continue
            path = [*history, (guess, code)]
            _, g = solver.best_guess(part, sub, cpool, path)
            child = add(int(g), len(part))
            kids[node].append((code, child))
            walk(child, part, int(g), sub, cpool, path)

    cands = game.all_answers()
    root = add(int(first), len(cands))
    walk(root, cands, int(first), solver.max_guesses, game.full_pool() if solver.hard else None, [])
    # breadth first: a node's children follow in order of their patterns
    order, i = [root], 0
    while i < len(order):
        order.extend(child for _, child in kids[order[i]])
        i += 1
    bfs = {old: new for new, old in enumerate(order)}
    n = len(order)
    total = np.zeros(n, dtype=np.int64)
    worst = np.zeros(n, dtype=np.int32)
    for new in range(n - 1, -1, -1):  # children come after their parent
        old = order[new]
        children = [bfs[c] for _, c in kids[old]]
        total[new] = cands_of[old] + sum(int(total[c]) for c in children)
        worst[new] = 1 + max((int(worst[c]) for c in children), default=0)
    counts = np.array([len(kids[old]) for old in order], dtype=np.int32)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int32)
    flat = [(code, bfs[c]) for old in order for code, c in kids[old]]
    return {
        "guess": np.array([guesses[old] for old in order], dtype=np.int32),
        "candidates": np.array([cands_of[old] for old in order], dtype=np.int32),
        "total": total,
        "worst": worst,
        "child_start": starts,
        "child_count": counts,
        "child_code": np.array([c for c, _ in flat], dtype=np.int32),
        "child_node": np.array([k for _, k in flat], dtype=np.int32),
    }


def render_tree(words: WordList, arrays: dict[str, np.ndarray], node: int = 0) -> dict[str, Any]:
    """The strategy's arrays as the nested JSON document (see the module doc)."""
    word = words.guesses[int(arrays["guess"][node])]
    out: dict[str, Any] = {"guess": word, "candidates": int(arrays["candidates"][node])}
    start, count = int(arrays["child_start"][node]), int(arrays["child_count"][node])
    if count:
        out["next"] = {
            "".join(map(str, pattern_colours(int(arrays["child_code"][k]), len(word)))): (
                render_tree(words, arrays, int(arrays["child_node"][k]))
            )
            for k in range(start, start + count)
        }
    return out
