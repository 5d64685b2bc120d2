"""Issue 26 item 3 made sound: the study's blocks deal the same deals, and the rounds-to-level-8
goal's expected hitting times."""

import numpy as np
import pytest

from gamelab.core.parallel import task_rng
from gamelab.voltorb.campaign import STATES, STREAK_CAP, baseline_profile, chain_step, state_index
from gamelab.voltorb.campaign_study import (
    _deal,
    baseline_block,
    rounds_to_eight,
    sample_seed,
    search_block,
)


def test_the_blocks_deal_the_same_deals_and_a_search_for_coins_alone_earns_the_coin_optimum():
    seed = sample_seed(0, 1, "choose")
    base = baseline_block((1, "hgss", 1, 1_000_000), task_rng(seed, 0))
    h0 = tuple([0.0] * len(STATES))
    found = search_block((1, "hgss", 1, 1_000_000, h0, 1.0, (0, 1, 2, 3, 4)), task_rng(seed, 0))
    rng = task_rng(seed, 0)
    for j in range(1):
        post = _deal("hgss", 1, rng)
        coins = np.asarray(base["coins"][j])
        assert np.allclose(coins, baseline_profile(post, "coins", None))
        for k in range(STREAK_CAP + 1):
            prof = np.asarray(found["profiles"][j][k])
            assert prof[0].sum() == pytest.approx(1.0, abs=1e-12)
            assert prof[1].sum() == pytest.approx(coins[1].sum(), rel=1e-9)


def test_rounds_to_eight_is_the_expected_hitting_time_of_the_chain():
    """A made-up round (the same at every state): won with 9 cards w.p. 0.3, quit with 8 cards
    w.p. 0.2, lost with 2 cards otherwise. T solves T = 1 + P T off level 8 and matches the mean
    first-passage time of simulated campaigns through the rules' own chain step."""
    prof = np.zeros((2, 3, 26))
    prof[0, 0, 9], prof[0, 1, 8], prof[0, 2, 2] = 0.3, 0.2, 0.5
    profiles = np.repeat(prof[None], len(STATES), axis=0)
    T = rounds_to_eight(profiles)
    assert T[state_index(8, 0)] == 0.0 and np.isfinite(T).all()
    rng = np.random.default_rng(5)
    runs = []
    for _ in range(4000):
        state, n = (1, 0), 0
        while state[0] != 8:
            u = rng.random()
            outcome, cards = ("won", 9) if u < 0.3 else ("quit", 8) if u < 0.5 else ("lost", 2)
            state = chain_step(*state, outcome, cards)
            n += 1
        runs.append(n)
    mean, se = np.mean(runs), np.std(runs) / np.sqrt(len(runs))
    assert abs(T[state_index(1, 0)] - mean) < 4 * se


def test_the_shipped_study_is_whole_and_its_differences_are_its_own_values():
    """data/campaign_study.json (issue 26 item 3), written by benchmarks/voltorb_campaign.py
    --write from the session-16 run: both goals, every policy evaluated on sample B, each point
    inside its bootstrap interval and each paired difference the difference of the two points."""
    from gamelab.voltorb.campaign_study import shipped_study

    study = shipped_study()
    assert study is not None and study["command"].startswith("python benchmarks/voltorb_campaign")
    assert min(study["settings"]["evaluate"]) >= 40 and min(study["settings"]["choose"]) >= 40
    for goal in ("gain", "rounds"):
        rows = {r["policy"]: r for r in study["goals"][goal]["evaluate"]}
        assert set(rows) == {"win", "coins", "menu", "campaign"}
        for name, r in rows.items():
            lo, hi = r["ci95"]
            assert lo <= r["value"] <= hi, (goal, name)
            assert abs(sum(r["level_share"]) - 1) < 1e-9
            for ref in ("win", "coins"):
                if name != ref:
                    d, dlo, dhi = r[f"minus_{ref}"]
                    assert d == pytest.approx(r["value"] - rows[ref]["value"])
                    assert dlo <= dhi
