"""The Gymnasium environments under the conventions learners rely on: sb3-contrib's
``action_masks()``, and copies (``pickle``, ``copy.deepcopy``, subprocess vector environments)
mid-episode with the oracle on, which continue exactly as the original does."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from gamelab.voltorb.rules import VoltorbSetting

gymnasium = pytest.importorskip("gymnasium")

import gamelab.envs  # noqa: E402, F401  (registers the environments)

# small settings: the oracle's solves are cheap
ENVS = {
    "gamelab/VoltorbFlip-v0": {"level": 1},
    "gamelab/YatzySolitaire-v0": {"rules": "yatzy"},
    "gamelab/PokemonWordle-v0": {"names": "gen1"},
    "gamelab/PokemonWordle-v1": {"names": "gen1"},
    "gamelab/LatticeFold-v0": {"sequence": "HPHPPHHPHH"},
}


def test_every_registered_id_is_covered():
    assert set(ENVS) == set(gamelab.envs.ENV_IDS)


@pytest.mark.parametrize("env_id", list(ENVS))
def test_action_masks_is_the_info_mask(env_id):
    env = gymnasium.make(env_id, **ENVS[env_id])
    with pytest.raises(RuntimeError, match="call reset"):
        env.unwrapped.action_masks()
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    done = False
    while not done:
        # through the wrappers, as sb3-contrib reaches it
        mask = env.get_wrapper_attr("action_masks")()
        assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
        assert np.array_equal(mask, info["action_mask"]) and mask.any()
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
    assert not env.unwrapped.action_masks().any()  # nothing is legal after the end


@pytest.mark.parametrize("env_id", list(ENVS))
def test_sb3_contrib_sees_the_masks(env_id):
    utils = pytest.importorskip("sb3_contrib.common.maskable.utils")
    env = gymnasium.make(env_id, **ENVS[env_id])
    assert utils.is_masking_supported(env)
    _, info = env.reset(seed=0)
    assert np.array_equal(utils.get_action_masks(env), info["action_mask"])


def _future(env, rng, steps):
    """`steps` random legal steps (a reset without a seed after each episode): everything the
    agent sees, regrets and optimal actions included."""
    seen = []
    mask = env.unwrapped.action_masks()
    for _ in range(steps):
        obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        seen.append((obs, reward, done, info))
        if done:
            obs, info = env.reset()
            seen.append((obs, info))
        mask = info["action_mask"]
    return seen


def _same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return a == b


@pytest.mark.parametrize("env_id", list(ENVS))
def test_a_copy_mid_episode_with_the_oracle_on_has_the_same_future(env_id):
    env = gymnasium.make(env_id, regret=True, optimal_action=True, **ENVS[env_id])
    obs, info = env.reset(seed=5)
    env.step(info["optimal_action"])  # the oracle has solved something by now
    pickled = pickle.loads(pickle.dumps(env))
    deep = copy.deepcopy(env)
    # enough steps to reach the next episode
    steps = 70 if "Yatzy" in env_id else 14 if "Wordle" in env_id else 25
    futures = [_future(e, np.random.default_rng(9), steps) for e in (env, pickled, deep)]
    assert sum(1 for s in futures[0] if len(s) == 2) >= 1  # a reset happened
    assert any("regret" in s[3] and s[3]["regret"] > 0 for s in futures[0] if len(s) == 4)
    assert _same(futures[0], futures[1]) and _same(futures[0], futures[2])


def test_async_vector_env_with_the_oracle_on():
    envs = gymnasium.make_vec(
        "gamelab/VoltorbFlip-v0",
        num_envs=2,
        vectorization_mode="async",
        level=1,
        regret=True,
        optimal_action=True,
    )
    single = [
        gymnasium.make("gamelab/VoltorbFlip-v0", level=1, regret=True, optimal_action=True)
        for _ in range(2)
    ]
    try:
        _, info = envs.reset(seed=[3, 4])
        first = [e.reset(seed=s)[0] for e, s in zip(single, (3, 4), strict=True)]
        actions = info["optimal_action"]
        _, rewards, _, _, info = envs.step(actions)
        for i, e in enumerate(single):
            assert first[i]["clues"].tolist() == e.unwrapped.observe()["clues"].tolist()
            _, reward, _, _, single_info = e.step(int(actions[i]))
            assert info["regret"][i] == single_info["regret"] == 0.0
            assert rewards[i] == reward
        # each sub-environment, sent back through its pipe (pickled), goes on as the original
        remote = envs.get_attr("unwrapped")
        for i, e in enumerate(single):
            assert remote[i] is not e.unwrapped
            futures = [_future(x, np.random.default_rng(i), 6) for x in (e, remote[i])]
            assert _same(*futures)
    finally:
        envs.close()


@pytest.mark.parametrize("env_id", list(ENVS))
def test_maskable_ppo_trains_on_the_environment_as_it_is(env_id):
    ppo_mask = pytest.importorskip("sb3_contrib.ppo_mask")
    env = gymnasium.make(env_id, **ENVS[env_id])
    model = ppo_mask.MaskablePPO(
        "MultiInputPolicy", env, n_steps=32, batch_size=16, n_epochs=1, seed=0, device="cpu"
    )
    model.learn(64)
    obs, info = env.reset(seed=1)
    done = False
    while not done:  # a greedy episode: the policy's actions are always legal
        action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
        assert info["action_mask"][int(action)] == 1
        obs, _, done, _, info = env.step(int(action))
    assert "illegal_action" not in info


# -- defaults and pictures ---------------------------------------------------------------------
@pytest.mark.parametrize("env_id", list(ENVS))
def test_every_registered_id_makes_with_no_arguments(env_id):
    env = gymnasium.make(env_id)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info["action_mask"].any()


def test_the_lattice_defaults_to_the_stated_pack_level():
    from gamelab.envs.single import DEFAULT_LEVEL
    from gamelab.lattice.puzzle import load_pack

    env = gymnasium.make("gamelab/LatticeFold-v0").unwrapped
    assert env.game.sequence == load_pack().levels[DEFAULT_LEVEL - 1].sequence == "HHPHPPHPPH"


def _colours(frame, cell, row, col):
    """The distinct colours inside a cell of a picture (its border left out)."""
    block = frame[row * cell + 1 : (row + 1) * cell, col * cell + 1 : (col + 1) * cell]
    return {tuple(c) for c in block.reshape(-1, 3)}


def test_the_cubic_lattice_is_drawn_as_labelled_layers():
    from gamelab.envs.render import PALETTE

    env = gymnasium.make(
        "gamelab/LatticeFold-v0", sequence="HPHH", lattice="cubic", render_mode="rgb_array"
    ).unwrapped
    env.reset(seed=0)
    for move in "FRB":  # F and B leave the plane: layers z = 0 and z = 1
        env.step("RULDFB".index(move))
    env.render_mode = "ansi"
    # residue 0 at the origin, F: z + 1, R: x + 1, B: z - 1
    assert env.render() == "z = 0\nHH\nz = 1\nPH\nmoves FRB"
    env.render_mode = "rgb_array"
    frame = env.render()
    grid, labels = env.grid()
    assert labels == {(0, 0): "0", (0, 3): "1"}  # a header cell over each 1 x 2 panel
    assert grid.shape == (2, 5) and frame.shape == (2 * env.cell, 5 * env.cell, 3)
    h, p = (tuple(PALETTE[i]) for i in (7, 15))
    assert _colours(frame, env.cell, 1, 0) == {h} and _colours(frame, env.cell, 1, 3) == {p}
    assert len(_colours(frame, env.cell, 0, 0)) == 2  # the header's colour and its digit


def test_yatzy_faces_have_six_colours_and_voltorb_shows_its_clues():
    from gamelab.envs.render import FACES, PALETTE

    assert len({tuple(PALETTE[f]) for f in FACES}) == 6
    env = gymnasium.make("gamelab/YatzySolitaire-v0", render_mode="rgb_array").unwrapped
    env.reset(seed=0)
    grid, labels = env.grid()
    dice = env.state.dice
    faces = [f for f in range(6) for _ in range(int(dice[f]))]
    assert [labels[(0, k)] for k in range(5)] == [str(f + 1) for f in faces]
    assert grid[0, :5].tolist() == [FACES[f] for f in faces]

    env = gymnasium.make("gamelab/VoltorbFlip-v0", level=1, render_mode="rgb_array").unwrapped
    env.reset(seed=0)
    clues = env.state.round.clues
    grid, labels = env.grid()
    assert [labels[(k, 5)] for k in range(5)] == [
        f"{s}\n{v}" for s, v in zip(clues.row_sums, clues.row_voltorbs, strict=True)
    ]
    assert [labels[(5, k)] for k in range(5)] == [
        f"{s}\n{v}" for s, v in zip(clues.col_sums, clues.col_voltorbs, strict=True)
    ]
    frame = env.render()
    assert frame.shape == (6 * env.cell, 6 * env.cell, 3)
    assert len(_colours(frame, env.cell, 0, 5)) == 2  # the clue's colour and its digits


# -- observation options ------------------------------------------------------------------------
OPTIONS = [
    ("gamelab/VoltorbFlip-v0", {"level": 3}, "lines", {"lines": (10, 6)}),
    ("gamelab/VoltorbFlip-v0", {"level": 3}, "posterior", {"lines": (10, 6), "posterior": (25, 4)}),
    ("gamelab/PokemonWordle-v1", {}, "planes", {"planes": (10, 3, 5, 76)}),
    ("gamelab/LatticeFold-v0", {"sequence": "HPHPH"}, "grid", {"grid": (3, 9, 9)}),
    (
        "gamelab/LatticeFold-v0",
        {"sequence": "HPHPH", "lattice": "cubic"},
        "grid",
        {"grid": (3, 9, 9, 9)},
    ),
]


@pytest.mark.parametrize(("env_id", "kwargs", "option", "shapes"), OPTIONS)
def test_observation_options_pass_the_checker(env_id, kwargs, option, shapes):
    import warnings

    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(env_id, observation=option, **kwargs)
    for name, shape in shapes.items():
        assert env.observation_space[name].shape == shape
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert env.observation_space.contains(obs)


@pytest.mark.parametrize("env_id", list(ENVS))
def test_an_unknown_observation_says_which_exist(env_id):
    with pytest.raises(
        ValueError, match=r"unknown observation 'pixels' for \w+Env; allowed: default"
    ):
        gymnasium.make(env_id, observation="pixels", **ENVS[env_id])


def test_observation_options_hold_what_they_say():
    from gamelab.voltorb.posterior import posterior_for
    from gamelab.wordle.rules import pattern_colours

    env = gymnasium.make("gamelab/VoltorbFlip-v0", level=3, observation="posterior").unwrapped
    obs, info = env.reset(seed=4)
    safe = next(t for t in range(25) if env.stepper.board[t] > 0)
    obs, *_ = env.step(safe)
    r = env.state.round
    expected = posterior_for(r.clues, VoltorbSetting(3), r.revealed).tile_probabilities()
    assert np.allclose(obs["posterior"], expected, atol=1e-6)
    assert obs["posterior"][safe, env.stepper.board[safe]] == pytest.approx(1.0)
    row = safe // 5
    assert obs["lines"][row, :4].tolist() == [
        r.clues.row_sums[row],
        r.clues.row_voltorbs[row],
        4,
        r.clues.row_sums[row] - env.stepper.board[safe],
    ]
    assert obs["lines"][row, 4] == (r.clues.row_voltorbs[row] == 0)

    env = gymnasium.make("gamelab/PokemonWordle-v1", observation="planes").unwrapped
    obs, info = env.reset(seed=0)
    obs, *_ = env.step(7)
    name = env.game.table.words.guesses[7]
    colours = pattern_colours(env.state.codes[0], len(name))
    on = {
        (int(c), int(i), env.alphabet[int(a)])
        for c, i, a in zip(*np.nonzero(obs["planes"][0]), strict=True)
    }
    assert on == {(colours[i], i, ch) for i, ch in enumerate(name)}
    assert not obs["planes"][1:].any()

    env = gymnasium.make("gamelab/LatticeFold-v0", sequence="HPHPH", observation="grid").unwrapped
    obs, info = env.reset(seed=0)
    for move in "RUL":
        obs, *_ = env.step("RULD".index(move))
    grid = obs["grid"]
    # n = 5: row n-1-y, column n-1+x; H at (0,0) and (1,1), P at (1,0) and (0,1), the end (0,1)
    assert {tuple(p) for p in np.argwhere(grid[0])} == {(4, 4), (3, 5)}
    assert {tuple(p) for p in np.argwhere(grid[1])} == {(4, 5), (3, 4)}
    assert {tuple(p) for p in np.argwhere(grid[2])} == {(3, 4)}


# -- the learners' curves and leaderboard -------------------------------------------------------
LATTICE = "LatticeFold HPHPPHHPHPPH"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"environments": ("Chess",)}, r"'Chess' for MaskablePPO; allowed: VoltorbFlip"),
        (
            {"environments": ("VoltorbFlip level 3",), "learner": "QLearner"},
            r"'VoltorbFlip level 3' for QLearner; allowed: LatticeFold HPHPPHHPHPPH$",
        ),
        ({"checkpoints": (0, 100, 50)}, "checkpoints must be increasing step counts"),
        ({"checkpoints": ()}, "checkpoints must be increasing step counts"),
        ({"seeds": 0}, "seeds must be 1 to 100"),
        ({"episodes": 0}, "episodes must be 1 to 10,000"),
        ({"learner": "DQN"}, "unknown learner 'DQN'; allowed: MaskablePPO, QLearner"),
    ],
)
def test_bad_learner_settings_say_what_is_allowed(kwargs, message):
    from gamelab.envs.learners import LearnerSetting

    with pytest.raises(ValueError, match=message):
        LearnerSetting(**kwargs)


def test_learning_curves_are_stored_and_read_back(tmp_path):
    pytest.importorskip("sb3_contrib")
    from gamelab.core.results import ResultStore
    from gamelab.envs import learners
    from gamelab.envs.baselines import LeaderboardSetting, leaderboard

    setting = learners.LearnerSetting(
        environments=(LATTICE,), checkpoints=(0, 64), seeds=1, episodes=2
    )
    with ResultStore(tmp_path / "r.sqlite") as store:
        assert learners.stored_curves(setting, store) is None
        curves = learners.learning_curves(setting, store=store)
        assert curves.runs_computed == 1 and [p.steps for p in curves.points] == [0, 64]
        for p in curves.points:
            assert 0 <= p.score.lo <= p.score.value <= p.score.hi <= 100
        again = learners.learning_curves(setting, store=store)
        assert again.runs_computed == 0 and again.points == curves.points
        assert learners.stored_curves(setting, store).points == curves.points
        board = leaderboard(LeaderboardSetting(episodes=2, environments=(LATTICE,)), store=store)
    columns, rows = learners.learners_table([curves], board)
    assert [r[1] for r in rows] == [
        "optimal",
        "strong (= heuristic)",
        "heuristic",
        "random",
        "MaskablePPO",
    ]
    assert rows[0][3] == "100.0 [100.0, 100.0]" and rows[-1][2] == "64 steps x 1 seeds"


def test_the_report_reads_the_learners_from_the_store_without_training(tmp_path, monkeypatch):
    """Runs stored by benchmarks/envs_learners.py (here: made-up episodes of the stored shape)
    appear in the report's Environments section; nothing is trained (no torch needed)."""
    from gamelab.core.parallel import Backend
    from gamelab.core.report import Report, ReportContext
    from gamelab.core.results import ResultStore
    from gamelab.envs import learners
    from gamelab.envs import report as envs_report
    from gamelab.envs.baselines import LeaderboardSetting

    real = learners.LearnerSetting

    def setting_of(learner):
        return real(learner=learner, environments=(LATTICE,), seeds=2, episodes=2)

    monkeypatch.setattr(learners, "LearnerSetting", setting_of)
    monkeypatch.setattr(
        envs_report,
        "setting_of",
        lambda ctx: LeaderboardSetting(episodes=2, environments=(LATTICE,), seed=ctx.seed),
    )

    def episode(score):
        return {
            "return": 1.0,
            "percent": score,
            "return_share": score,
            "loss": 1.0,
            "optimal": 5.0,
            "decisions": 11,
        }

    report = Report(tmp_path / "out", title="t")
    with ResultStore(tmp_path / "r.sqlite") as store:
        ctx = ReportContext(False, 0, Backend(workers=1, quiet=True), store)
        before = report.section("before", envs_report.TITLE)
        envs_report.build(before, ctx)
        assert "learners" not in before.data["tables"]
        for learner, offset in (("MaskablePPO", 0.0), ("QLearner", 50.0)):
            setting = setting_of(learner)
            params = learners.run_params(setting, learners._BY_NAME[LATTICE])
            for seed in range(2):
                run = [
                    [steps, [episode(offset + 10.0 * (c + 1) + seed)] * 2]
                    for c, steps in enumerate(setting.checkpoints)
                ]
                store.put(learners.EXPERIMENT, params, seed, run)
            if learner == "MaskablePPO":  # one learner stored: its rows, and a note on the other
                partial = report.section("partial", envs_report.TITLE)
                envs_report.build(partial, ctx)
                assert [r[1] for r in partial.data["tables"]["learners"]["rows"]][-1] == learner
        section = report.section("envs", envs_report.TITLE)
        envs_report.build(section, ctx)
    table = section.data["tables"]["learners"]
    ppo, q = table["rows"][-2:]
    assert ppo[1] == "MaskablePPO" and ppo[2] == "16,384 steps x 2 seeds"
    assert ppo[3].startswith("40.5 [")  # the last checkpoint: seeds' 40 and 41
    assert q[1] == "QLearner" and q[3].startswith("90.5 [")
    assert (
        tmp_path / "out" / section.data["figures"]["learning_curves"]["file"]
    ).stat().st_size > 1000


def test_openspiels_q_learner_learns_to_fold():
    """OpenSpiel's tabular Q-learner on the registered lattice game, evaluated on the Gymnasium
    environment's episodes: a short budget already beats the untrained table, and a run is a
    function of its seed."""
    pytest.importorskip("pyspiel")
    from gamelab.envs import learners

    setting = learners.LearnerSetting(
        learner="QLearner", checkpoints=(0, 3000), seeds=1, episodes=2
    )
    curves = learners.learning_curves(setting)
    first, last = curves.points
    assert first.steps == 0 and last.steps == 3000
    assert last.score.value > first.score.value  # (seed 0: 33.3 against 25.0)
    run = learners.train_run(("QLearner", LATTICE, 0, (0, 3000), 2))
    assert run == learners.train_run(("QLearner", LATTICE, 0, (0, 3000), 2))


@pytest.mark.slow  # a full rollout of 2,048 steps and its training (skipped without the extra)
def test_the_docs_recipe_runs():
    """docs/envs.md's recipe, with 64 steps for 16,384 (its learner needs the rl extra)."""
    pytest.importorskip("sb3_contrib")
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "envs.md").read_text(encoding="utf-8")
    block = text.split("**The recipe**", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    assert len(block.strip().splitlines()) <= 14 and ".learn(16_384)" in block
    scope: dict = {"print": lambda *a: scope.setdefault("printed", a)}
    exec(compile(block.replace(".learn(16_384)", ".learn(64)"), "docs/envs.md", "exec"), scope)
    assert 0.0 <= scope["printed"][0] <= 100.0


def test_a_learner_observation_option_is_checked_and_keyed():
    from gamelab.envs import learners

    with pytest.raises(ValueError, match="unknown observation 'grid' for VoltorbFlip level 3"):
        learners.LearnerSetting(observation="grid")
    with pytest.raises(ValueError, match="QLearner observes OpenSpiel's tensor"):
        learners.LearnerSetting(learner="QLearner", observation="grid")
    lattice = learners._BY_NAME[LATTICE]
    plain = learners.LearnerSetting(environments=(LATTICE,))
    grid = learners.LearnerSetting(environments=(LATTICE,), observation="grid")
    assert "observation" not in learners.run_params(plain, lattice)  # older runs keep their key
    assert learners.run_params(grid, lattice)["observation"] == "grid"
