"""The optimal strategies shipped with the package (tools/make_wordle_strategies.py): one per
setting the page precomputes, each replayed answer by answer with the rules' own feedback."""

import pytest

from gamelab.wordle.rules import parse_setting
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
