"""The environments' lean steppers against the rules they stand for: the batched Voltorb
dealer against its twin and the rules' free test and clues; each stepper played side by side
with the game's state protocol (the same actions, the same chance), step by step; and the
default that keeps the oracle out of an environment that did not ask for it."""

from __future__ import annotations

import numpy as np
import pytest

from gamelab.core.state import resolve_chance
from gamelab.voltorb.rules import VoltorbSetting


# -- Voltorb --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "generator, level",
    [("hgss", 8), ("hgss", 1), ("bulbapedia", 5), ("iid", 4), ("iid-as-coded", 8)],
)
def test_deal_kernel_matches_twin_and_the_rules(generator, level):
    from gamelab.voltorb._deal_kernels import deal_boards, deal_boards_python, level_tables
    from gamelab.voltorb.rules import CONFIGS, passes_free_test

    n = 60
    mode, counts, limits, cumulative = level_tables(generator, level)
    u = np.random.default_rng(level).random(40 * n)
    boards = np.zeros((n, 25), dtype=np.int8)
    configs = np.zeros(n, dtype=np.int64)
    clues = np.zeros((n, 4, 5), dtype=np.int64)
    dealt, pos = deal_boards(u, 3, n, mode, counts, limits, cumulative, boards, configs, clues)
    twin = deal_boards_python(u, 3, n, generator, level)
    assert (dealt, pos) == twin[:2] == (n, pos) and pos > n
    assert np.array_equal(boards, twin[2])
    assert np.array_equal(configs, twin[3])
    assert np.array_equal(clues, twin[4])  # Clues.from_board's
    if generator in ("hgss", "bulbapedia"):
        for board, c in zip(boards, configs, strict=True):
            cfg = CONFIGS[10 * (level - 1) + c]
            assert np.bincount(board, minlength=4)[[0, 2, 3]].tolist() == [
                cfg.voltorbs,
                cfg.twos,
                cfg.threes,
            ]
            if generator == "hgss":
                assert passes_free_test(board.reshape(5, 5), cfg)
        assert len(set(configs.tolist())) > 5  # the ten configurations all come up
    else:
        assert (configs == -1).all()
    # too few uniforms: both stop before the board they cannot finish, at the same place
    short = u[: pos // 2]
    dealt, at = deal_boards(short, 0, n, mode, counts, limits, cumulative, boards, configs, clues)
    assert 0 < dealt < n and (dealt, at) == deal_boards_python(short, 0, n, generator, level)[:2]


def test_dealt_boards_do_not_depend_on_the_batches():
    """The queue (batches of 1, 2, 4, ... from blocks of uniforms) deals what one call over the
    generator's uniforms in order deals."""
    from gamelab.voltorb._deal_kernels import deal_boards_python
    from gamelab.voltorb.stepper import BoardQueue

    q = BoardQueue(VoltorbSetting())
    rng = np.random.default_rng(11)
    ours = np.array([q._boards[q.take(rng)].copy() for _ in range(40)])
    dealt, _, theirs, _, _ = deal_boards_python(
        np.random.default_rng(11).random(4000), 0, 40, "hgss", 8
    )
    assert dealt == 40 and np.array_equal(ours, theirs)


def test_deal_law_matches_the_generator():
    """Tile frequencies of the batched dealer and of rules.generate_board agree (level 8)."""
    from gamelab.voltorb.rules import generate_board
    from gamelab.voltorb.stepper import BoardQueue

    q, rng = BoardQueue(VoltorbSetting()), np.random.default_rng(0)
    ours = np.array([q._boards[q.take(rng)] for _ in range(3000)])
    theirs = np.array([generate_board(VoltorbSetting(), rng)[0].reshape(-1) for _ in range(3000)])
    for v in range(4):
        a, b = (ours == v).mean(), (theirs == v).mean()
        assert abs(a - b) < 0.01, (v, a, b)


def test_voltorb_stepper_plays_as_the_round():
    from gamelab.voltorb.state import QUIT, VoltorbGame
    from gamelab.voltorb.stepper import RoundStepper

    for level, objective in ((1, "win"), (8, "coins"), (5, "win")):
        game = VoltorbGame(VoltorbSetting(level), objective)
        st, rng, pick = RoundStepper(game), np.random.default_rng(level), np.random.default_rng(1)
        outcomes = set()
        for _ in range(40):
            st.reset(rng)
            state = st.state()
            while True:
                r = state.round
                assert np.flatnonzero(st.mask).tolist() == state.legal_actions()
                assert st.coins == r.coins and st.outcome == r.outcome
                assert st.revealed.tolist() == [r.revealed.get(t, -1) for t in range(25)]
                assert st.clues.tolist() == [
                    r.clues.row_sums.tolist(),
                    r.clues.row_voltorbs.tolist(),
                    r.clues.col_sums.tolist(),
                    r.clues.col_voltorbs.tolist(),
                ]
                if st.done:
                    break
                legal = state.legal_actions()
                action = legal[int(pick.integers(len(legal) - 1))] if pick.random() < 0.95 else QUIT
                reward = st.step(action)
                st.sync(state, action)
                assert reward == state.returns()[0]
                assert st.state().to_text() == state.to_text()
            outcomes.add(st.outcome)
        assert outcomes >= {"lost", "quit"}


# -- Yatzy ----------------------------------------------------------------------------------
def _keep_most(stepper, mask, rng):
    """Keep the most common face (Yahtzees, and so the joker rules, come up often)."""
    from gamelab.yatzy.rules import KEEPS, N_KEEPS, keep_index

    legal = np.flatnonzero(mask)
    if legal[0] >= N_KEEPS:  # the box that scores most (a Yahtzee goes in the Yahtzee box)
        state = stepper.state()
        rules, card = stepper.rules, state.cards[state.player]
        points = {rules.boxes.index(b): p for b, p, _ in rules.placements(stepper.dice(), card)}
        return N_KEEPS + max(points, key=lambda b: (points[b], b))
    if rng.random() < 0.2:
        return int(legal[int(rng.integers(len(legal)))])
    dice = stepper.dice()
    keep = np.zeros(6, dtype=np.int64)
    face = int(np.argmax(dice))
    keep[face] = dice[face]
    k = keep_index(keep)
    assert KEEPS[k].sum() == dice[face]
    return k


@pytest.mark.parametrize("rules", ["yatzy", "yahtzee", "yahtzee-free-joker"])
def test_yatzy_stepper_plays_as_the_state(rules):
    """Same generator, same actions: the stepper rolls the dice the state protocol's chance
    draws (sample_chance), and its masks, scores and rewards are the state's and the card's."""
    from gamelab.yatzy.rules import get_rules
    from gamelab.yatzy.state import YatzyGame
    from gamelab.yatzy.stepper import SolitaireStepper

    game = YatzyGame(get_rules(rules))
    st = SolitaireStepper(game)
    bonuses = 0
    for seed in range(60):  # until an extra Yahtzee has scored (a few games in all)
        if seed >= 3 and (bonuses or not rules.startswith("yahtzee")):
            break
        st.reset(np.random.default_rng(seed))
        state, chance = game.new_initial_state(), np.random.default_rng(seed)
        resolve_chance(state, chance)
        pick = np.random.default_rng(100 + seed)
        while True:
            assert np.flatnonzero(st.mask).tolist() == state.legal_actions()
            card = state.cards[0]
            assert st.total == card.total and st.bonuses == card.yahtzee_bonuses
            assert st.card.tolist() == [-1 if v is None else v for v in card.entries]
            assert st.done == state.is_terminal()
            if st.done:
                break
            assert st.rolls_left == state.rolls_left and st.dice().tolist() == state.dice.tolist()
            if st.filled % 4 == 0 and st.rolls_left == 2:  # state() parses a card: not every step
                assert st.state().legal_actions() == state.legal_actions()
            action = _keep_most(st, st.mask, pick)
            before = card.total
            reward = st.step(action)
            state.apply(action)
            resolve_chance(state, chance)
            assert reward == state.cards[0].total - before
        bonuses += st.bonuses
    if rules.startswith("yahtzee"):
        assert bonuses > 0  # the extra-Yahtzee rules were exercised


@pytest.mark.parametrize("names", ["gen1", "gen1-2"])
def test_wordle_stepper_plays_as_the_state(names):
    """Same generator, same guesses: the stepper draws the answer the protocol's chance node
    draws (sample_chance), and its colours, rewards, masks and ends are the state's."""
    from gamelab.wordle.state import WordleGame
    from gamelab.wordle.stepper import GuessStepper

    game = WordleGame(names)
    st, pick = GuessStepper(game), np.random.default_rng(9)
    solved = unsolved = 0
    for seed in range(40):
        st.reset(np.random.default_rng(seed))
        state = game.new_initial_state()
        resolve_chance(state, np.random.default_rng(seed))
        assert st.answer == state.answer
        total = 0.0
        while True:
            assert st.done == state.is_terminal()
            assert np.flatnonzero(st.mask).tolist() == state.legal_actions()
            assert st.state().to_text() == state.to_text()
            if st.done:
                break
            # in odd games guesses among the candidates left (mostly solved), else any guess
            cands = game.table.all_answers()
            for g, code in st.history:
                cands = game.table.filter(cands, g, code)
            if seed % 2:
                action = int(game.table.guess_of_answer[pick.choice(cands)])
            else:
                action = int(pick.integers(game.num_actions))
            total += st.step(action)
            state.apply(action)
            assert (st.guesses, st.codes) == (state.guesses, state.codes)
            assert st.history == tuple(zip(state.guesses, state.codes, strict=True))
        assert total == state.returns()[0]
        solved += st.solved
        unsolved += not st.solved
    assert solved and unsolved  # both ends were played


@pytest.mark.parametrize("rules", ["yatzy", "yahtzee"])
def test_yatzy_duel_stepper_plays_as_the_state(rules):
    """Two players on one stream of dice: the duel stepper rolls what the protocol's chance
    nodes draw with the same generator, and keeps each player's card, the turn and the result."""
    from gamelab.yatzy.rules import get_rules
    from gamelab.yatzy.state import YatzyGame
    from gamelab.yatzy.stepper import DuelStepper

    game = YatzyGame(get_rules(rules), players=2)
    st = DuelStepper(game)
    results = set()
    for seed in range(4):
        st.reset(np.random.default_rng(seed))
        state, chance = game.new_initial_state(), np.random.default_rng(seed)
        resolve_chance(state, chance)
        pick = np.random.default_rng(200 + seed)
        steps = 0
        while True:
            assert st.done == state.is_terminal()
            for player in (0, 1):
                entries = state.cards[player].entries
                assert st.card_of(player).tolist() == [-1 if v is None else v for v in entries]
            assert list(st.totals()) == state.scores()
            if st.done:
                assert list(st.returns()) == state.returns()
                results.add(tuple(st.returns()))
                break
            assert st.to_move == state.player and st.rolls_left == state.rolls_left
            assert st.filled_mask == state.cards[st.to_move].mask  # every card field is the mover's
            assert np.flatnonzero(st.mask).tolist() == state.legal_actions()
            if steps % 25 == 0:  # state() parses the cards: not every step
                assert _position(st.state()) == _position(state)
            action = _keep_most(st, st.mask, pick)
            st.step(action)
            state.apply(action)
            resolve_chance(state, chance)
            steps += 1
        assert _position(st.state()) == _position(state)
    assert len(results) >= 2  # both players won a game


def _position(state):
    """What decides a Yatzy state's future (not the dice kept before the roll shown)."""
    cards = "|".join(card.text() for card in state.cards)
    return state.player, state.rolls_left, state.roll, cards, state.legal_actions()


# -- Owaré ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "grand_slam, cycle",
    [("no-capture", "own-row"), ("forbidden", "split"), ("capture-all", "own-row")],
)
def test_oware_stepper_plays_as_the_position(grand_slam, cycle):
    from gamelab.oware.rules import Position, Rules
    from gamelab.oware.state import OwareGame
    from gamelab.oware.stepper import GameStepper

    rules = Rules(grand_slam=grand_slam, cycle=cycle)
    starts = [None, Position.from_text("0-0-0-1-0-2-1-0-0-0-1-0-20-23-S", rules)]
    reasons = set()
    for start in starts:
        game = OwareGame(rules, start)
        st, rng = GameStepper(game), np.random.default_rng(3)
        for _ in range(25):
            st.reset()
            p = game.new_initial_state().position
            while True:
                assert st.legal == p.legal_moves() and st.done == p.is_over()
                assert st.to_move == p.to_move
                if st.done:
                    assert tuple(st.stores) == p.result()
                    wins = {None: (0.0, 0.0), 0: (1.0, -1.0), 1: (-1.0, 1.0)}
                    assert st.returns() == wins[p.winner()]
                    reasons.add(p.outcome().reason)
                    break
                assert (tuple(st.houses), tuple(st.stores)) == (p.houses, p.stores)
                move = st.legal[int(rng.integers(len(st.legal)))]
                st.step(move)
                p = p.play(move)
            assert st.state().position == p
    assert "repetition" in reasons or cycle == "split"
    assert reasons & {"score", "no moves"}


# -- the oracle only on request -------------------------------------------------------------
def test_level_8_voltorb_never_solves_without_regret():
    """`regret` is off by default: a level-8 reset (whose exact opening solve can take a
    minute) deals and plays without building the oracle or even the protocol's state."""
    gymnasium = pytest.importorskip("gymnasium")
    import gamelab.envs  # noqa: F401

    env = gymnasium.make("gamelab/VoltorbFlip-v0", level=8).unwrapped
    obs, info = env.reset(seed=0)
    for _ in range(3):
        done = False
        while not done:
            obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            assert "regret" not in info
        assert info["summary"]["optimal"] is None and info["summary"]["loss"] is None
        obs, info = env.reset()
    assert env._oracle is None and env._state is None
    with_regret = gymnasium.make("gamelab/VoltorbFlip-v0", level=1, regret=True).unwrapped
    _, info = with_regret.reset(seed=0)
    _, _, _, _, info = with_regret.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert info["regret"] >= 0 and with_regret._oracle is not None


# -- the environments: the stepper's observation is the state's -----------------------------
def _state_observation(env_id, state):
    """The observation as the state protocol says it (the environments' earlier formula)."""
    if "Voltorb" in env_id:
        r, c = state.round, state.round.clues
        return {
            "clues": np.stack([c.row_sums, c.row_voltorbs, c.col_sums, c.col_voltorbs]),
            "revealed": np.array([r.revealed.get(t, -1) for t in range(25)]),
            "coins": np.array([r.coins]),
        }
    if "Wordle" in env_id:
        pad = [-1] * (state.game.guess_limit - len(state.guesses))
        return {"guesses": np.array(state.guesses + pad), "colours": np.array(state.codes + pad)}
    card = state.cards[0]
    return {
        "dice": np.array(state.dice if state.dice is not None else np.zeros(6, dtype=np.int64)),
        "rolls_left": np.array([state.rolls_left]),
        "card": np.array([-1 if v is None else v for v in card.entries]),
        "bonuses": np.array([card.yahtzee_bonuses]),
    }


@pytest.mark.parametrize(
    "env_id, kwargs",
    [
        ("gamelab/VoltorbFlip-v0", {"level": 4}),
        ("gamelab/YatzySolitaire-v0", {"rules": "yahtzee"}),
        ("gamelab/PokemonWordle-v0", {"names": "gen1"}),
    ],
)
def test_env_observations_are_the_states_once_it_is_built(env_id, kwargs):
    """Rendering mid-episode builds the protocol's state; from then on the stepper keeps it in
    step (the dice it rolled included): observations, masks and returns agree to the end."""
    gymnasium = pytest.importorskip("gymnasium")
    import gamelab.envs  # noqa: F401

    env = gymnasium.make(env_id, render_mode="ansi", **kwargs).unwrapped
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=5)
    for episode in range(6):
        done, steps, total = False, 0, 0.0
        while not done:
            if steps == episode % 3:  # build the state at different points of the episodes
                assert isinstance(env.render(), str)
            if env._state is not None:
                state = env.state
                want = _state_observation(env_id, state)
                assert all(np.array_equal(obs[k], want[k]) for k in obs)
                assert np.flatnonzero(info["action_mask"]).tolist() == state.legal_actions()
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, done, _, info = env.step(int(legal[int(rng.integers(len(legal)))]))
            total += reward
            steps += 1
        if env._state is not None:
            assert env.state.is_terminal()
            want = env.state.cards[0].total if "Yatzy" in env_id else env.state.returns()[0]
            assert total == want
        obs, info = env.reset()
