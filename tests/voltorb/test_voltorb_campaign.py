"""Issue 26 item 3: the campaign chain, exact round profiles, and the campaign policy."""

import numpy as np
import pytest

from gamelab.voltorb.campaign import (
    OUTCOMES,
    STATES,
    CampaignSettings,
    baseline_profile,
    campaign_policy,
    campaign_profile,
    chain_step,
    sample_deals,
    solve_chain,
    state_index,
)
from gamelab.voltorb.expectimax import OptimalSolver
from gamelab.voltorb.rules import next_level


def test_the_chain_state_level_and_streak_is_enough_for_the_rules_level():
    """Random round sequences through the real rule with the whole history, and through the
    chain's (level, streak): the same level after every round."""
    rng = np.random.default_rng(3)
    level, history = 1, []
    state = (1, 0)
    for _ in range(3000):
        outcome = OUTCOMES[rng.integers(3)]
        cards = int(rng.choice([0, 1, 3, 7, 8, 9, 12]))
        history.append((outcome, cards))
        level = next_level(level, outcome, cards, history)
        state = chain_step(*state, outcome, cards)
        assert state[0] == level
    assert chain_step(5, 4, "quit", 8) == (8, 4)  # the fifth round in a row with 8 cards
    assert chain_step(5, 3, "quit", 8) == (5, 4)
    assert chain_step(4, 4, "won", 9) == (5, 4)  # level 8 only from level 5 or more
    assert chain_step(8, 2, "lost", 3) == (3, 0)


def _small_deal(level=2, index=0):
    return sample_deals(CampaignSettings(deals=(2,) * 8))[level][index]


def test_round_profiles_are_exact_distributions_of_the_solvers_policies():
    post = _small_deal()
    win = baseline_profile(post, "win", None)
    coins = baseline_profile(post, "coins", None)
    for prof in (win, coins):
        assert prof[0].sum() == pytest.approx(1.0, abs=1e-12)
    # P(won) of win-play is the optimal P(win); the coins profile's coins are the coin optimum
    assert win[0, 0].sum() == pytest.approx(OptimalSolver(post).win_probability(), abs=1e-12)
    tile, multiplier = OptimalSolver(post, "coins").decide({})
    assert coins[1].sum() == pytest.approx(multiplier, rel=1e-9)
    assert win[0, 1].sum() == 0.0  # win-play never quits


def test_a_campaign_round_with_no_chain_values_is_coin_play():
    """With h = 0 the round's utility is its coins, so the general search's best round earns
    what the coin solver earns (two independent routes)."""
    post = _small_deal(2, 1)
    prof = campaign_profile(post, state_index(3, 0), np.zeros(len(STATES)), None)
    coins = baseline_profile(post, "coins", None)
    assert prof[0].sum() == pytest.approx(1.0, abs=1e-12)
    assert prof[1].sum() == pytest.approx(coins[1].sum(), rel=1e-9)


def test_solve_chain_gives_the_stationary_gain_and_the_relative_values():
    posts = sample_deals(CampaignSettings(deals=(1,) * 8))
    profiles = np.stack([baseline_profile(posts[lv][0], "win", None) for lv, _ in STATES])
    chain = solve_chain(profiles)
    assert np.allclose(chain.P.sum(axis=1), 1.0)
    assert np.allclose(chain.share @ chain.P, chain.share, atol=1e-10)
    assert chain.gain == pytest.approx(float(chain.share @ chain.reward))
    assert np.allclose(chain.h + chain.gain, chain.reward + chain.P @ chain.h, atol=1e-8)


def test_the_menu_policy_is_never_below_either_baseline_and_states_its_samples():
    """The menu is never below always-coins (it starts there and improves on the sample), and
    the result states its samples."""
    res = campaign_policy(
        CampaignSettings(
            deals=(2, 2, 2, 2, 1, 1, 1, 1), iterations=0, bootstrap=20, state_limit=20_000
        )
    )
    by = {p.name: p for p in res.policies}
    assert by["menu"].coins_per_round >= by["coins"].coins_per_round - 1e-9
    assert by["menu"].coins_per_round >= by["win"].coins_per_round - 1e-9
    assert sum(res.deals_used.values()) + sum(res.deals_dropped.values()) == 12
    for p in res.policies:
        assert 0.0 <= p.ci95[0] <= p.ci95[1]
        assert sum(p.level_share.values()) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="one count per level"):
        CampaignSettings(deals=(1, 2))
