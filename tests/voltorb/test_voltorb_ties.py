"""Choices between tiles of equal odds never depend on the order of a floating-point sum.

The posterior's per-tile probabilities are summed the same way on every machine
(:func:`weighted_tile_sums`, never a BLAS call) and the strategies treat values within
:data:`TIE_TOLERANCE` as equal, then apply their stated next criterion and the lowest tile. So
the boards' order, which changes the order of the sums, must not change any decision.
"""

from __future__ import annotations

import numpy as np

from gamelab.voltorb.posterior import Posterior, weighted_tile_sums
from gamelab.voltorb.rules import Clues, VoltorbSetting, generate_board
from gamelab.voltorb.strategies import minrisk_tile, scorefirst_tile


def _posteriors(count: int):
    rng = np.random.default_rng(11)
    for _ in range(count):
        board, _ = generate_board(VoltorbSetting(), rng)
        yield Posterior.from_clues(Clues.from_board(board), VoltorbSetting()).still_playing()


def test_tile_sums_agree_with_the_dot_product():
    for post in _posteriors(5):
        for mask in (post.boards == 0, post.boards >= 2):
            ours = weighted_tile_sums(post.weights, mask)
            assert np.allclose(ours, post.weights @ mask, rtol=0, atol=1e-12)


def test_tile_sums_are_each_columns_own_pairwise_sum_bit_for_bit():
    # the reference: one numpy sum per column (its pairwise summation), the rule every machine
    # follows; the one-reduction form must give the same bits, or a seed's games could change
    rng = np.random.default_rng(3)
    for n in (1, 7, 8, 9, 127, 128, 129, 300, 1025, 9000):
        weights = rng.random(n) ** 3
        weights /= weights.sum()
        mask = rng.random((n, 25)) < rng.random()
        reference = [np.where(mask[:, j], weights, 0.0).sum() for j in range(25)]
        assert weighted_tile_sums(weights, mask).tolist() == reference
    posts = list(_posteriors(17))
    big = max(posts, key=lambda p: p.count)
    assert big.count > 4096  # one summed a value at a time (posterior._STACKED_SUMS)
    for post in posts:
        probs = post.tile_probabilities()
        for v in range(4):
            assert (
                probs[:, v].tolist() == weighted_tile_sums(post.weights, post.boards == v).tolist()
            )
        assert post.p_voltorb().tolist() == probs[:, 0].tolist()
        probs[:] = -1  # a caller's copy: the posterior's own stays as it was
        assert post.tile_probabilities().min() >= 0


def test_decisions_do_not_depend_on_the_order_of_the_boards():
    rng = np.random.default_rng(5)
    for post in _posteriors(12):
        order = rng.permutation(post.count)
        shuffled = Posterior(post.boards[order], post.weights[order], post.revealed, post.clues)
        assert minrisk_tile(shuffled) == minrisk_tile(post)
        assert scorefirst_tile(shuffled) == scorefirst_tile(post)


def test_equal_odds_within_rounding_go_to_the_likelier_multiplier():
    # four boards weighted .1 .2 .3 .4: tile 0 is a Voltorb on the first two (P = .1 + .2, which
    # rounds to 0.30000000000000004), tile 1 on the third (P = .3): equal odds, so MinRisk's
    # stated next criterion decides: tile 0 is a 3 on the other two boards (P(3) = .7), tile 1
    # a 2 on the first only (P(2) = .1)
    boards = np.ones((4, 25), dtype=np.int8)
    boards[:, 0] = [0, 0, 3, 3]
    boards[:, 1] = [2, 1, 0, 1]
    weights = np.array([0.1, 0.2, 0.3, 0.4])
    post = Posterior(boards, weights, {}, None)  # type: ignore[arg-type]
    p_voltorb = post.p_voltorb()
    assert p_voltorb[0] != p_voltorb[1] and abs(p_voltorb[0] - p_voltorb[1]) < 1e-15
    assert minrisk_tile(post) == 0
    # equal again on the next criterion (tile 0: P(3) = .3; tile 1: P(2 or 3) = .1 + .2): the
    # lowest tile
    boards[:, 0] = [0, 0, 3, 1]
    boards[:, 1] = [2, 3, 0, 1]
    post = Posterior(boards, weights, {}, None)  # type: ignore[arg-type]
    assert minrisk_tile(post) == 0
