"""The optimal solver: published expected scores and SDs, and the numba kernel vs its twin."""

import numpy as np
import pytest

from gamelab.core.serialise import to_plain
from gamelab.yatzy._turn_kernels import new_workspace, upper_subset
from gamelab.yatzy._widget_kernels import widget, widget_python
from gamelab.yatzy.rules import get_rules
from gamelab.yatzy.solver import solve, state_index, upper_reach

# Expected scores: issue 3 and research notes section 1 (precisit/yatzy-solver, Verhoeff 1999,
# Glenn 2006, Larsson & Sjoberg 2012 code); SDs: issue 3 / research notes section 1 ("our solver").
PUBLISHED = {
    "yahtzee": (254.5877287, 59.6079),
    "yahtzee-free-joker": (254.5896095, 59.6117),
    "yahtzee-no-bonus": (245.8707745, 39.8208),
    "yatzy": (248.4399894, 38.4964),
    "yatzy-ls2012": (248.6328539, None),
}
# Widget counts: research notes sections 2.3 and 2.4.
WIDGETS = {
    "yahtzee": 536_320,
    "yahtzee-free-joker": 536_320,
    "yahtzee-no-bonus": 357_568,
    "yatzy": 1_430_464,
    "yatzy-ls2012": 1_430_464,
}


def _check(name):
    sol = solve(get_rules(name))
    e, sd = PUBLISHED[name]
    assert sol.expected_score == pytest.approx(e, abs=1e-6)
    if sd is not None:
        assert sol.std_dev == pytest.approx(sd, abs=5e-5)
    assert sol.widgets == WIDGETS[name]


@pytest.mark.parametrize("name", ["yahtzee-no-bonus", "yahtzee"])
def test_published_values_fast(name):
    _check(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["yahtzee-free-joker", "yatzy", "yatzy-ls2012"])
def test_published_values_slow(name):
    _check(name)


def test_upper_reach_counts():
    # research notes 2.4: 1302 of the 4096 (upper-subset, m) pairs are unreachable
    assert int((~upper_reach()).sum()) == 1302


def _random_state(rules, rng):
    tab = rules.kernel_tables()
    reach = upper_reach()
    nb = rules.n_boxes
    while True:
        mask = int(rng.integers(0, (1 << nb) - 1))
        u = int(upper_subset(mask, tab["upper_face"], nb))
        m = int(rng.integers(0, 64))
        if not reach[u, m]:
            continue
        f = 0
        ybox = int(tab["params"][4])
        if rules.has_bonus_flag and (mask >> ybox) & 1:
            f = int(rng.integers(0, 2))
        return mask, m, f


@pytest.mark.parametrize(
    "name", ["yahtzee", "yahtzee-free-joker", "yahtzee-no-bonus", "yatzy", "yatzy-ls2012"]
)
def test_widget_kernel_matches_python_twin(name):
    rules = get_rules(name)
    rng = np.random.default_rng(7)
    size = rules.n_states
    E = rng.uniform(0, 200, size)
    W = E**2 + rng.uniform(0, 900, size)
    nb = rules.n_boxes
    ws = new_workspace(nb)
    states = [_random_state(rules, rng) for _ in range(6)]
    # a late state with the Yahtzee box filled exercises the joker paths
    if "yahtzee" in rules.boxes:
        yb = rules.boxes.index("yahtzee")
        full = (1 << nb) - 1
        states.append(((full & ~0b1001) | (1 << yb), 5, 1 if rules.has_bonus_flag else 0))
        states.append(((1 << yb) | 0b1000, 12, 1 if rules.has_bonus_flag else 0))
    for mask, m, f in states:
        e, w = widget(E, W, True, mask, m, f, rules.kernel_rules(), ws)
        e2, w2 = widget_python(E, W, mask, m, f, rules)
        assert e == pytest.approx(e2, rel=1e-12), (mask, m, f)
        assert w == pytest.approx(w2, rel=1e-12), (mask, m, f)
        assert state_index(rules, mask, m, f) < size


def test_19_a_cached_solution_says_it_was_loaded(tmp_path, monkeypatch):
    """Issue 29 item 19: `yatzy solve --json` said "seconds": 24.6 when it loaded the tables in
    1.3 s (the stored solve time, printed as if current). A solution now says how long this
    call took, whether it came from the cache, and apart, how long the solve took."""
    from gamelab.yatzy.rules import RuleSet
    from gamelab.yatzy.solver import solve

    monkeypatch.setenv("GAMELAB_CACHE", str(tmp_path))
    mini = RuleSet("mini-timing", ("ones", "twos", "chance"), 35)
    first = solve(mini)
    assert first.from_cache is False and first.seconds >= first.solve_seconds > 0
    assert first.timing().startswith("solved in")
    again = solve(mini)
    assert again.from_cache is True and again.solve_seconds == first.solve_seconds
    assert again.timing().startswith("loaded from the cache in")
    assert "solved earlier in" in again.timing()
    doc = again.__json__()
    assert doc["from_cache"] is True and doc["solve_seconds"] == first.solve_seconds
    assert doc["expected_score"] == first.expected_score


def test_19_cached_distribution_comeback_and_target_say_they_were_loaded(tmp_path, monkeypatch):
    """Issue 29 item 19, the rest: `yatzy distribution`, `comeback` and `target` printed their
    stored "computed in" time as this run's. Each now says whether it computed or loaded its
    table, and the document keeps the computation's time apart (`compute_seconds`)."""
    from typer.testing import CliRunner

    from gamelab.yatzy import comeback, distribution, target
    from gamelab.yatzy.cli import app
    from gamelab.yatzy.rules import RuleSet

    monkeypatch.setenv("GAMELAB_CACHE", str(tmp_path))
    boxes = ("fours", "fives", "sixes", "three_kind", "full_house", "yahtzee", "chance")
    mini = RuleSet("mini-timing-2", boxes, 35)  # 7 boxes: the comeback table starts at round 7
    calls = {
        "distribution": lambda: distribution.score_distribution(mini),
        "comeback": lambda: comeback.comeback_study(mini, cap=200),
        "target": lambda: target.target_table(mini, (20, 40)),
    }
    loaded = {}
    for name, call in calls.items():
        first = call()
        assert first.from_cache is False, name
        assert first.timing().split(" in ")[0] in ("computed", "solved"), (name, first.timing())
        again = call()
        assert again.from_cache is True and again.compute_seconds == first.compute_seconds, name
        assert again.timing().startswith("loaded from the cache in "), name
        assert f"earlier in {first.compute_seconds:.1f} s" in again.timing(), name
        doc = to_plain(again)
        assert doc["from_cache"] is True and doc["compute_seconds"] == first.compute_seconds
        assert doc["seconds"] == again.seconds
        loaded[name] = again
    # the commands print the timing line (the tables here are the mini ones, loaded)
    monkeypatch.setattr(distribution, "score_distribution", lambda rules: loaded["distribution"])
    monkeypatch.setattr(comeback, "comeback_study", lambda rules: loaded["comeback"])
    monkeypatch.setattr(target, "target_table", lambda rules, chosen: loaded["target"])
    for command in ("distribution", "comeback", "target"):
        out = CliRunner().invoke(app, [command], env={"COLUMNS": "100"}).output
        assert "loaded from the cache in " in out and "earlier in " in out, (command, out)
        assert "computed in" not in out.replace("computed earlier in", ""), (command, out)


def test_a_warm_up_beside_the_solve_runs_once_and_not_for_cached_kernels():
    from gamelab.yatzy._turn_kernels import state_index
    from gamelab.yatzy.solver import compile_beside_the_solve

    calls: list[str] = []
    finish = compile_beside_the_solve(lambda: calls.append("warm"))
    finish()  # no solve under way: the warm-up runs now, and has run when this returns
    assert calls == ["warm"]
    state_index(0, 0, 0, 1)  # compiled (or loaded): now in numba's cache
    compile_beside_the_solve(lambda: calls.append("again"), (state_index,))()
    assert calls == ["warm"]
