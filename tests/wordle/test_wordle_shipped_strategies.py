"""The optimal strategies shipped with the package (tools/make_wordle_strategies.py): one per
setting the page precomputes, each replayed answer by answer with the rules' own feedback."""

from pathlib import Path

import pytest

from gamelab.wordle.rules import Setting, feedback, parse_names, parse_setting, pattern_code
from gamelab.wordle.solver.strategy import (
    PRECOMPUTED,
    SHIPPED,
    check_strategy,
    optimal_strategy,
    shipped_strategy_path,
)

# settings not shipped: none (every setting the page precomputes has a proven optimum, shipped;
# python tools/make_wordle_strategies.py builds any that a list or version change leaves out)
OPEN: set[tuple[str, str, str | None]] = set()
SHIPPABLE = [s for s in PRECOMPUTED if (s.names.name, s.rule, s.hard) not in OPEN]


def test_every_shippable_setting_is_shipped_and_nothing_else():
    want = {shipped_strategy_path(s).name for s in SHIPPABLE}
    have = {p.name for p in SHIPPED.glob("strategy-*.npz")}
    assert have == want, "run python tools/make_wordle_strategies.py (a list or version changed)"


@pytest.mark.parametrize(
    "setting", SHIPPABLE, ids=lambda s: "-".join([s.names.name, s.rule, str(s.hard)])
)
def test_a_shipped_strategy_plays_every_answer_within_the_limit(setting):
    assert shipped_strategy_path(setting).is_file()  # (else the next line would solve it)
    table = optimal_strategy(setting)
    total = check_strategy(table)
    # gen1-4: the seed post's 964 (normal mode; both rules) and the proven 972 in hard mode
    # (strict = game on this list); all, standard rule: the proven 2076, and 2099 in the
    # game's hard mode (docs/wordle.md)
    pinned = {
        ("gen1-4", "standard", None): 964,
        ("gen1-4", "blog", None): 964,
        ("gen1-4", "standard", "game"): 972,
        ("gen1-4", "standard", "strict"): 972,
        ("gen1-4", "blog", "strict"): 972,
        ("all", "standard", None): 2076,
        ("all", "standard", "game"): 2099,
        # the live daily game (answers gen 1-4, any species guessed): our proven optima
        # (docs/wordle.md, `gamelab wordle solve-optimal --names daily [--hard]`)
        ("daily", "standard", None): 953,
        ("daily", "standard", "game"): 960,
    }
    key = (setting.names.name, setting.rule, setting.hard)
    if key in pinned:
        assert total == pinned[key]
    assert int(table.worst[0]) <= table.guess_limit


def test_a_damaged_table_is_refused_by_the_check():
    import dataclasses

    import numpy as np

    table = optimal_strategy(parse_setting("gen1-4", "standard"))
    wrong = table.guess.copy()
    wrong[1] = wrong[2]
    with pytest.raises(ValueError):
        check_strategy(dataclasses.replace(table, guess=np.asarray(wrong)))


DOCS = Path(__file__).resolve().parents[2] / "docs" / "wordle.md"
MODES = {"normal": None, "game's hard": "game", "strict hard": "strict"}


def _docs_live_rows() -> list[list[str]]:
    """The rows of docs/wordle.md's table "Their proven optima (10 guesses)" (the section's
    first table)."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### Their proven optima (10 guesses)", 1)[1]
    lines = section.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("| Setting"))
    table = []
    for line in lines[first + 2 :]:
        if not line.startswith("|"):
            break
        table.append([c.strip() for c in line.strip().strip("|").split("|")])
    return table


def _depths(table) -> dict[int, int]:
    """Guesses needed -> answers, each answer played through the table with the rules'
    feedback."""
    words, out = table.words, {}
    for answer in words.answers:
        node, n = 0, 1
        while words.guesses[int(table.guess[node])] != answer:
            colours = feedback(words.guesses[int(table.guess[node])], answer, table.rule)
            node, n = table.child(node, pattern_code(colours)), n + 1
        out[n] = out.get(n, 0) + 1
    return dict(sorted(out.items()))


def test_the_docs_table_of_the_live_settings_is_the_shipped_tables():
    # issue 30.1: every live setting's proven optimum (docs/wordle.md, "Their proven optima")
    # is the shipped table's: total, average, first guess, distribution and worst case
    rows = _docs_live_rows()
    specs = {r[0].split("`")[1] for r in rows}
    assert specs == {"daily", "daily-2022", *(f"upto-gen{n}" for n in (1, 2, 3, 5, 6, 7, 8))}
    assert len(rows) == 5 * len(specs)  # standard x 3 modes, blog x 2 (no game hard on blog)
    for row in rows:
        spec, rule, mode, total, average, first, dist, worst = (
            row[0].split("`")[1],
            *row[1:8],
        )
        setting = Setting(parse_names(spec), rule, MODES[mode])
        assert shipped_strategy_path(setting).is_file(), row
        table = optimal_strategy(setting)
        n = len(table.words.answers)
        assert f"({n} answers, {len(table.words.guesses)} guesses)" in row[0]
        assert int(table.total[0]) == int(total) and f"{int(total) / n:.4f}" == average, row
        assert table.words.guesses[int(table.guess[0])] == first, row
        assert int(table.worst[0]) == int(worst), row
        shown = " ".join(f"{k}:{v}" for k, v in _depths(table).items())
        assert shown == dist, row
