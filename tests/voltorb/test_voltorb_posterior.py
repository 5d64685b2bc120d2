"""Enumeration kernel vs its Python twin, posterior weights, deduction, calibration."""

import numpy as np
import pytest

from gamelab.voltorb._posterior_kernels import (
    ROW_PATTERNS,
    enumerate_boards,
    enumerate_boards_python,
)
from gamelab.voltorb.deduction import label_board, safe_tiles
from gamelab.voltorb.posterior import InconsistentCluesError, Posterior, posterior_for
from gamelab.voltorb.prior import valid_board_count
from gamelab.voltorb.rules import (
    CONFIGS,
    Clues,
    VoltorbSetting,
    generate_board,
    level_configs,
    passes_free_test,
)
from gamelab.voltorb.simulate import simulate


def _random_case(rng, level, generator="hgss", reveal=None):
    board, _ = generate_board(VoltorbSetting(level, generator), rng)
    clues = Clues.from_board(board)
    k = int(rng.integers(0, 6)) if reveal is None else reveal
    tiles = rng.choice(25, size=k, replace=False)
    revealed = {int(t): int(board.flat[t]) for t in tiles}
    return board, clues, revealed


def test_kernel_matches_python_twin_on_random_inputs():
    rng = np.random.default_rng(0)
    for i in range(24):
        gen = ("hgss", "iid", "iid-as-coded", "bulbapedia")[i % 4]
        board, clues, revealed = _random_case(rng, 1 + i % 8, gen)
        known = np.full(25, -1, dtype=np.int64)
        for t, v in revealed.items():
            known[t] = v
        args = (
            ROW_PATTERNS,
            clues.row_sums,
            clues.row_voltorbs,
            clues.col_sums,
            clues.col_voltorbs,
            known,
        )
        b1, f1 = enumerate_boards(*args)
        b2, f2 = enumerate_boards_python(*args)
        assert b1.shape == b2.shape and (b1 == b2).all() and (f1 == f2).all()
        # the true board is among them, every board fits the clues
        assert (b1 == board.ravel()).all(axis=1).any()
        for b in b1[:: max(1, len(b1) // 50)]:
            assert Clues.from_board(b.reshape(5, 5)).key() == clues.key()


def test_hgss_weights_follow_the_research_formula():
    rng = np.random.default_rng(4)
    board, _ = generate_board(VoltorbSetting(3), rng)
    clues = Clues.from_board(board)
    post = Posterior.from_clues(clues, VoltorbSetting(3))
    # w(b) = sum over matching configs of [b passes c's test] / N_c  (research note section 2)
    raw = []
    for b in post.boards:
        bb = b.reshape(5, 5)
        counts = ((bb == 0).sum(), (bb == 2).sum(), (bb == 3).sum())
        raw.append(
            sum(
                passes_free_test(bb, c) / valid_board_count(c.id)
                for c in level_configs(3)
                if (c.voltorbs, c.twos, c.threes) == counts
            )
        )
    raw = np.array(raw)
    assert (raw > 0).all()
    assert post.weights == pytest.approx(raw / raw.sum(), rel=1e-9)
    assert abs(post.tile_probabilities().sum(axis=1) - 1).max() < 1e-12


def test_iid_weights_are_tile_products():
    rng = np.random.default_rng(8)
    board, _ = generate_board(VoltorbSetting(4, "iid"), rng)
    post = Posterior.from_clues(Clues.from_board(board), VoltorbSetting(4, "iid"))
    p = np.array([0.368, 1 - 0.368 - 0.144 - 0.112, 0.144, 0.112])
    raw = np.array([np.prod(p[b]) for b in post.boards])
    assert post.weights == pytest.approx(raw / raw.sum(), rel=1e-9)


def test_posterior_observe_equals_fresh_enumeration():
    rng = np.random.default_rng(9)
    board, clues, _ = _random_case(rng, 5)
    post = Posterior.from_clues(clues, VoltorbSetting(5))
    t = int(np.argmin(post.p_voltorb()))
    after = post.observe(t, int(board.flat[t]))
    fresh = Posterior.from_clues(clues, VoltorbSetting(5), {t: int(board.flat[t])})
    assert after.tile_probabilities() == pytest.approx(fresh.tile_probabilities())


def test_inconsistent_clues_name_the_problem():
    clues = Clues.from_board(np.ones((5, 5), dtype=np.int8))
    with pytest.raises(
        InconsistentCluesError, match="no board is consistent with these clues: row 1"
    ):
        Posterior.from_clues(clues, VoltorbSetting(1, "iid"), {0: 0})
    with pytest.raises(InconsistentCluesError, match="none can come from the hgss generator"):
        Posterior.from_clues(clues, VoltorbSetting(1))


def test_label_board_is_sound_and_weaker_than_the_posterior():
    rng = np.random.default_rng(12)
    for level in (1, 4, 8):
        for _ in range(5):
            board, clues, revealed = _random_case(rng, level, reveal=3)
            labels = label_board(clues, revealed)
            try:
                post = Posterior.from_clues(clues, VoltorbSetting(level), revealed)
            except InconsistentCluesError:
                continue
            probs = post.tile_probabilities()
            for t in range(25):
                r, c = divmod(t, 5)
                assert str(board.flat[t]) in labels[r][c]
                support = {v for v in range(4) if probs[t, v] > 0}
                assert support <= {int(x) for x in labels[r][c]}
            for t in safe_tiles(clues, revealed):
                assert board.flat[t] != 0


def test_label_board_blog_rules():
    b = np.array(
        [[1, 1, 1, 1, 1], [0, 2, 1, 1, 1], [0, 0, 3, 1, 1], [1, 0, 1, 1, 2], [1, 1, 0, 0, 0]]
    )
    labels = label_board(Clues.from_board(b))
    assert labels[0] == ["1"] * 5  # no Voltorb and R = 0
    assert labels[1][1] == "012"  # row 2: R = 1 -> no 3
    assert labels[4] == ["01"] * 5  # row 5: R = 0


def test_calibration_predicted_voltorbs_match_losses():
    # Over many games the summed P(Voltorb) of flipped tiles equals the expected number of losses.
    sim = simulate(VoltorbSetting(3), "minrisk", 500, seed=21, calibrate=True)
    losses = sim.games - int(sim.wins.sum()) - 0
    # each game ends with at most one loss; variance <= expected count
    assert abs(losses - sim.predicted_losses) < 4 * np.sqrt(sim.predicted_losses) + 1
    assert sim.predicted_losses > 50


def test_posterior_for_drops_won_boards():
    rng = np.random.default_rng(1)
    board, _ = generate_board(VoltorbSetting(1), rng)
    clues = Clues.from_board(board)
    revealed = {int(t): int(board.flat[t]) for t in np.flatnonzero(board.ravel() >= 2)}
    post = Posterior.from_clues(clues, VoltorbSetting(1), revealed)
    won = post.won_mask()
    assert won[(post.boards == board.ravel()).all(axis=1)].all()
    live = posterior_for(clues, VoltorbSetting(1), revealed)
    if won.all():
        assert live.count == post.count
    else:
        assert live.count == post.count - int(won.sum()) and not live.won_mask().any()
    assert CONFIGS[0].voltorbs == 6
