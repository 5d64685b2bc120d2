"""Round objectives: parsing, the general kernel against its twin and against the win and coin
searches, and the optimum against every other strategy's exact value, for every objective."""

import numpy as np
import pytest

from gamelab.voltorb.expectimax import OptimalSolver
from gamelab.voltorb.objectives import (
    Objective,
    ObjectiveSolver,
    objective_decision,
    policy_objective_value,
)
from gamelab.voltorb.posterior import posterior_for
from gamelab.voltorb.rules import Clues, VoltorbSetting, generate_board
from gamelab.voltorb.strategies import fom_tile, minrisk_tile

NAMED = ["win", "survive", "eight", "coins>=4", "coins>=24"]


def _posteriors(n, levels, lo, hi, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        level = levels[len(out) % len(levels)]
        board, _ = generate_board(VoltorbSetting(level), rng)
        flat = board.reshape(-1)
        # the opening, or after one card of the true board
        shown = {}
        if rng.random() < 0.5:
            t = int(rng.choice(np.flatnonzero(flat > 0)))
            shown = {t: int(flat[t])}
            if all(flat[u] < 2 or u in shown for u in range(25)):
                continue
        post = posterior_for(Clues.from_board(board), VoltorbSetting(level), shown)
        if lo <= post.count <= hi:
            out.append((post, level, shown))
    return out


def test_objectives_parse_once_and_validate():
    assert Objective.parse(" Coins >= 120 ") == Objective("coins>=", 120)
    assert Objective.parse("eight").name == "eight"
    assert Objective.parse("coins>=7").name == "coins>=7"
    for bad in ("", "wins", "coins>=0", "coins>=x", "coins>=999999", "survive>=3"):
        with pytest.raises(ValueError, match="objective"):
            Objective.parse(bad)
    with pytest.raises(ValueError, match="from 1 to 50000"):
        Objective("coins>=", 0)
    with pytest.raises(ValueError, match="takes no number"):
        Objective("win", 3)
    assert "level 6" in Objective.parse("survive").describe(level=6)


def test_kernel_matches_twin_for_every_objective():
    for post, level, shown in _posteriors(6, [1, 2, 3], 2, 40, seed=41):
        for name in NAMED:
            obj = Objective.parse(name)
            fast = ObjectiveSolver(post, obj, level).decide(shown)
            twin = ObjectiveSolver(post, obj, level, python=True).decide(shown)
            assert fast[1] == pytest.approx(twin[1], abs=1e-12), name
            assert fast[0] == twin[0], name  # the same tie-breaking (safer tile first)


def test_general_kernel_equals_the_win_search_and_survive_at_level_one_is_certain():
    for post, level, shown in _posteriors(4, [1, 2], 2, 120, seed=42):
        general = ObjectiveSolver(post, Objective("win"), level).decide(shown)[1]
        assert general == pytest.approx(OptimalSolver(post).decide(shown)[1], abs=1e-12)
        if level == 1:
            assert ObjectiveSolver(post, Objective("survive"), 1).decide(shown)[1] == pytest.approx(
                1
            )
        # quitting pays for survive once enough cards are shown: never below P(win)
        surv = ObjectiveSolver(post, Objective("survive"), level).decide(shown)[1]
        assert surv >= general - 1e-12


def test_optimum_beats_every_other_strategy_exactly_for_every_objective():
    def minrisk(view, flips):
        return minrisk_tile(view)

    def fom(view, flips):
        return fom_tile(view.clues, view.revealed, "fom")

    def safest_multiplier(view, flips):
        tiles = view.candidates()
        return int(tiles[np.argmin(view.p_voltorb()[tiles])])

    strictly = 0
    for post, level, shown in _posteriors(4, [2, 3], 4, 40, seed=43):
        for name in NAMED:
            obj = Objective.parse(name)
            best = ObjectiveSolver(post, obj, level).decide(shown)[1]
            others = [
                policy_objective_value(post, obj, level, minrisk),
                policy_objective_value(post, obj, level, fom),
                policy_objective_value(post, obj, level, safest_multiplier),
                # minrisk that quits as soon as it has `level` cards (the survive rule)
                policy_objective_value(post, obj, level, minrisk, lambda v, n, lv=level: n >= lv),
            ]
            for p in others:
                assert p <= best + 1e-12, name
                strictly += p < best - 1e-9
    assert strictly > 0


def test_objective_decision_is_the_one_call_for_a_position():
    post, level, shown = _posteriors(1, [2], 10, 60, seed=44)[0]
    for name in ["win", "coins", "survive", "coins>=12"]:
        d = objective_decision(post, shown, Objective.parse(name), level)
        assert d.objective == name and d.description
        assert d.tile == -1 or 0 <= d.tile < 25
        assert d.value >= 0
    win = objective_decision(post, shown, Objective("win"), level)
    assert win.value == pytest.approx(OptimalSolver(post).decide(shown)[1], abs=1e-12)
