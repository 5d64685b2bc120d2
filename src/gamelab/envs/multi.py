"""PettingZoo AEC environments of the two-player games: Owaré and two-player Yatzy.

A thin shell over the state protocol (``gamelab.oware.state``, ``gamelab.yatzy.state``) and the
oracles: agents take turns as the game says (chance, the Yatzy dice, is drawn from the
environment's seeded generator), each observation is ``{"observation": ..., "action_mask": ...}``
(the mask is all zeros when it is not the agent's turn) and the agent to move also finds its
mask in ``infos[agent]["action_mask"]`` (PettingZoo's two conventions), rewards come at the end (+1 win, -1
loss, 0 draw) and ``infos[agent]["regret"]`` holds what the agent's last move cost against the
oracle (``regret=True``): for Owaré in seeds, exact from the endgame tablebase where the board
holds at most ``tablebase_seeds`` seeds and the engine's estimate at ``depth`` plies elsewhere
(:class:`gamelab.oware.oracle.OwareOracle`, ``infos[agent]["regret_exact"]`` says which); for
Yatzy in expected points of the agent's own final score (the expected-score optimum,
:class:`gamelab.yatzy.oracle.YatzyOracle`) and, in the agent's last ``win_turns`` turns (3 by
default), ``infos[agent]["win_regret"]``: what the move cost in P(win) + P(tie)/2 against win
play versus an expected-score opponent (:class:`gamelab.yatzy.win_oracle.WinPlayOracle`).
Both are played on lean steppers of their rules (:class:`gamelab.oware.stepper.GameStepper`,
:class:`gamelab.yatzy.stepper.DuelStepper`); the protocol's state is built only for the oracle,
the text and the picture. ``pickle`` and ``copy.deepcopy`` work mid-game with the oracle on and
the copy goes on as the original would (the oracle, a cache of exact values, is rebuilt).

An illegal (masked) action raises :class:`gamelab.core.state.IllegalActionError` and changes
nothing (PettingZoo agents sample from the mask).

>>> env = oware_env(); env.reset(seed=0); env.agent_selection  # doctest: +SKIP
'south'
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from gamelab.core.state import illegal, resolve_chance
from gamelab.envs.render import check_render_mode, picture
from gamelab.oware.rules import TABLEBASE_SEEDS
from gamelab.yatzy.rules import ROLLS


class GameAEC(AECEnv):
    """A two-player game as a PettingZoo AEC environment, played on a lean stepper of its rules
    (``stepper``: ``reset``, ``step``, ``to_move``, ``done``, ``returns``, ``state``); the
    protocol's state is built from it only when something asks (the oracle, the text, the
    picture) and kept in step from then on."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "gamelab_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, game: Any, agents: tuple[str, str], render_mode: str | None, regret: bool
    ) -> None:
        super().__init__()
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.game = game
        self.render_mode = render_mode
        self.with_regret = bool(regret)
        self.possible_agents = list(agents)
        self._player = {a: k for k, a in enumerate(agents)}
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in agents}
        self._oracle: Any = None
        self._rng = np.random.default_rng()
        self._state: Any = None
        self.stepper: Any = None

    # -- what each game says -------------------------------------------------------------
    def make_oracle(self) -> Any:
        raise NotImplementedError

    def features(self, player: int) -> np.ndarray:
        raise NotImplementedError

    def mover_mask(self) -> np.ndarray:
        """The legal actions of the player to move (int8, a new array)."""
        raise NotImplementedError

    def is_legal(self, action: int) -> bool:
        raise NotImplementedError

    def restart(self) -> None:
        """A new game on the stepper (chance from ``self._rng``)."""
        raise NotImplementedError

    def sync(self, action: int) -> None:
        """Apply to the protocol's state the action just stepped (and the chance it drew)."""
        self._state.apply(action)

    def grid(self) -> np.ndarray:
        raise NotImplementedError

    def text(self) -> str:
        return str(self.state.to_text())

    def regret_info(self, state: Any, action: int) -> dict[str, Any]:
        oracle = self.oracle
        value = oracle.value(state)
        return {"regret": max(0.0, value - oracle.action_value(state, action))}

    # -- the PettingZoo API --------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The game's state (protocol), built on first use in a game and kept in step."""
        if self._state is None:
            self._state = self.stepper.state()
        return self._state

    @property
    def oracle(self) -> Any:
        if self._oracle is None:
            self._oracle = self.make_oracle()
        return self._oracle

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._player[agent]
        st = self.stepper
        if not st.done and st.to_move == player:
            mask = self.mover_mask()
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.features(player), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.restart()
        self._state = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.stepper.to_move]
        if not self.stepper.done:
            self.infos[self.agent_selection]["action_mask"] = self.mover_mask()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not self.is_legal(int(action)):
            legal = np.flatnonzero(self.mover_mask()).tolist()
            raise illegal(action, legal, f"{self.game.name} ({self.state.to_text()})")
        action = int(action)
        self._cumulative_rewards[agent] = 0.0
        info: dict[str, Any] = self.regret_info(self.state, action) if self.with_regret else {}
        st = self.stepper
        st.step(action)
        if self._state is not None:
            self.sync(action)
        self.infos[agent] = info
        if st.done:
            self.rewards = dict(zip(self.possible_agents, map(float, st.returns()), strict=True))
            self.terminations = {a: True for a in self.agents}
            self.agent_selection = self.possible_agents[1 - self._player[agent]]
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = following = self.possible_agents[st.to_move]
            self.infos[following]["action_mask"] = self.mover_mask()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return self.text()
        if self.render_mode == "rgb_array":
            return picture(self.grid())
        return None

    def close(self) -> None:
        pass

    # -- copies ----------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        """Everything but the oracle, a cache of exact values: a copy (``pickle``,
        ``copy.deepcopy``) builds its own when it first needs one and, the values being exact,
        reports the same regrets. The generator, the stepper and the game so far are copied, so
        the copy's future is the original's."""
        state = self.__dict__.copy()
        state["_oracle"] = None
        return state


class OwareEnv(GameAEC):
    """Owaré (:class:`gamelab.oware.state.OwareGame`); agents ``south`` (moves first) and
    ``north``; action = house offset 0-5 of the mover's row; `start` a position's text
    (``gamelab.oware.rules.Position.from_text``, the initial position by default). Observation (14 integers, from the
    agent's side): its six houses, the opponent's six, its store, the opponent's store."""

    metadata = {**GameAEC.metadata, "name": "gamelab_oware_v0"}

    def __init__(
        self,
        render_mode: str | None = None,
        regret: bool = False,
        tablebase_seeds: int = TABLEBASE_SEEDS,
        depth: int = 6,
        grand_slam: str = "no-capture",
        cycle: str = "own-row",
        start: str | None = None,
    ) -> None:
        from gamelab.oware.rules import Position, Rules
        from gamelab.oware.state import SIDES, OwareGame
        from gamelab.oware.stepper import GameStepper
        from gamelab.oware.tablebase import MAX_SUPPORTED

        if not -1 <= tablebase_seeds <= MAX_SUPPORTED:
            raise ValueError(
                f"tablebase_seeds must be -1 (none) to {MAX_SUPPORTED}, got {tablebase_seeds}"
            )
        rules = Rules(grand_slam=grand_slam, cycle=cycle)
        game = OwareGame(rules, None if start is None else Position.from_text(start, rules))
        super().__init__(game, (SIDES[0], SIDES[1]), render_mode, regret)
        self.stepper = GameStepper(game)
        self.tablebase_seeds = tablebase_seeds
        self.depth = depth
        if regret:
            self.make_oracle()  # settings errors now, not at the first move
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 48, (14,), np.int64),
                    "action_mask": spaces.Box(0, 1, (6,), np.int8),
                }
            )
            for a in self.possible_agents
        }

    def make_oracle(self) -> Any:
        from gamelab.oware.oracle import OwareOracle

        if self._oracle is None:
            self._oracle = OwareOracle(self.tablebase_seeds, self.depth)
        return self._oracle

    def regret_info(self, state: Any, action: int) -> dict[str, Any]:
        info = super().regret_info(state, action)
        info["regret_exact"] = bool(self.oracle.exact(state))
        return info

    def text(self) -> str:
        return str(self.state)

    def mover_mask(self) -> np.ndarray:
        mask = np.zeros(6, dtype=np.int8)
        mask[self.stepper.legal] = 1
        return mask

    def is_legal(self, action: int) -> bool:
        return action in self.stepper.legal

    def restart(self) -> None:
        self.stepper.reset()

    def features(self, player: int) -> np.ndarray:
        st = self.stepper
        h, s = st.houses, st.stores
        own, other = (h[:6], h[6:]) if player == 0 else (h[6:], h[:6])
        return np.array([*own, *other, s[player], s[1 - player]], dtype=np.int64)

    def grid(self) -> np.ndarray:
        p = self.state.position
        grid = np.zeros((2, 6), dtype=np.int64)
        grid[0] = [min(7, x) for x in reversed(p.houses[6:])]
        grid[1] = [min(7, x) for x in p.houses[:6]]
        return grid


class YatzyDuelEnv(GameAEC):
    """Two-player Yatzy (:class:`gamelab.yatzy.state.YatzyGame` with ``players=2``) under
    `rules`; agents ``player_0`` (starts every round) and ``player_1``. Actions as in
    :class:`gamelab.envs.single.YatzySolitaireEnv`. Observation (integers): the dice (count per
    face), the rolls left, the agent's card (points per box, -1 open) then the opponent's.
    Played on :class:`gamelab.yatzy.stepper.DuelStepper` (the dice drawn as the protocol's
    chance nodes would be, from the environment's generator)."""

    metadata = {**GameAEC.metadata, "name": "gamelab_yatzy_duel_v0"}

    def __init__(
        self,
        rules: str = "yatzy",
        render_mode: str | None = None,
        regret: bool = False,
        win_turns: int = 3,
    ) -> None:
        from gamelab.yatzy.rules import get_rules
        from gamelab.yatzy.state import YatzyGame
        from gamelab.yatzy.stepper import DuelStepper
        from gamelab.yatzy.win_oracle import check_turns

        game = YatzyGame(get_rules(rules), players=2)
        super().__init__(game, ("player_0", "player_1"), render_mode, regret)
        self.stepper = DuelStepper(game)
        self.win_turns = check_turns(game.rules, win_turns)
        self._win: Any = None
        self._make_win()
        n = game.rules.n_boxes
        self._no_dice = np.zeros(6, dtype=np.int64)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-1, 100, (7 + 2 * n,), np.int64),
                    "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }

    def _make_win(self) -> None:
        from gamelab.yatzy.win_oracle import WinPlayOracle

        if self.with_regret and self.win_turns:
            self._win = WinPlayOracle(self.game.rules, self.win_turns)

    def make_oracle(self) -> Any:
        from gamelab.yatzy.oracle import YatzyOracle

        return YatzyOracle(self.game.rules)

    def regret_info(self, state: Any, action: int) -> dict[str, Any]:
        info = super().regret_info(state, action)
        if self._win is not None and self._win.applies(state):
            values = self._win.values(state)
            info["win_regret"] = max(0.0, max(values.values()) - values[action])
        return info

    def mover_mask(self) -> np.ndarray:
        return self.stepper.mask.copy()

    def is_legal(self, action: int) -> bool:
        return 0 <= action < self.game.num_actions and bool(self.stepper.mask[action])

    def restart(self) -> None:
        self.stepper.reset(self._rng)

    def sync(self, action: int) -> None:
        self.stepper.sync(self._state, action)

    def features(self, player: int) -> np.ndarray:
        st = self.stepper
        if st.done:
            dice, rolls = self._no_dice, 0
        else:
            dice, rolls = ROLLS[st.roll], st.rolls_left
        own, other = st.card_of(player), st.card_of(1 - player)
        return np.concatenate((dice, (rolls,), own, other))

    def grid(self) -> np.ndarray:
        s = self.state
        n = self.game.rules.n_boxes
        grid = np.zeros((3, max(n, 6)), dtype=np.int64)
        for row, card in ((1, s.cards[0]), (2, s.cards[1])):
            for b, v in enumerate(card.entries):
                grid[row, b] = 1 if v is None else 4
        if s.dice is not None:
            faces = [f for f in range(6) for _ in range(int(s.dice[f]))]
            for k, f in enumerate(faces):
                grid[0, k] = 3 + (f % 5)
        return grid

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_win"] = None  # a cache too (one solve per turn): the copy makes its own
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._make_win()


class ProtocolStepper:
    """The stepper interface :class:`GameAEC` plays on, over the protocol's state itself (for a
    game without a lean stepper of its own): chance is drawn from the environment's generator
    as soon as it is to move."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.live: Any = None
        self.rng = np.random.default_rng()

    def reset(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.live = self.game.new_initial_state()
        resolve_chance(self.live, rng)

    def step(self, action: int) -> None:
        self.live.apply(action)
        resolve_chance(self.live, self.rng)

    @property
    def to_move(self) -> int:
        return 0 if self.live.is_terminal() else int(self.live.current_player())

    @property
    def done(self) -> bool:
        return bool(self.live.is_terminal())

    def returns(self) -> list[float]:
        return [float(r) for r in self.live.returns()]

    def state(self) -> Any:
        return self.live


class ProtocolAEC(GameAEC):
    """Any registered game of two players through its record alone: ``game`` names it (its
    settings as keyword arguments over the record's defaults), agents ``player_0`` and
    ``player_1``, and each agent's ``observation`` is the record's ``view`` as OpenSpiel's
    observer shows it to that player, flattened (float32 in 0..1). Rewards are the game's
    returns at the end; ``infos[agent]["regret"]`` with ``regret=True`` (the record's oracle,
    for the player to move). :func:`gamelab.envs.aec_env` makes it for a record that names no
    PettingZoo class of its own (``aec_env``)."""

    metadata = {**GameAEC.metadata, "render_modes": ["ansi"], "name": "gamelab_protocol_v0"}

    def __init__(
        self, game: str, render_mode: str | None = None, regret: bool = False, **settings: Any
    ) -> None:
        from gamelab.core.state import game_info
        from gamelab.envs.observers import OBSERVATION, view_of

        info = game_info(game)
        value = info.make(**settings)
        if value.num_players != 2:
            raise ValueError(f"{info.title} has {value.num_players} players, not 2")
        view = view_of(game, value)  # (a ValueError when the record gives none)
        super().__init__(value, ("player_0", "player_1"), render_mode, regret)
        self.metadata = {**self.metadata, "name": f"gamelab_{game}_v0"}
        self.stepper = ProtocolStepper(value)
        self.view = view
        self._pieces = self.view.pieces(OBSERVATION)
        size = sum(int(np.prod(shape)) for _, shape in self._pieces)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (value.num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }

    def make_oracle(self) -> Any:
        from gamelab.core.state import game_info

        info = game_info(self.game.name)  # (a record need not pickle: looked up, not kept)
        if info.new_oracle is None:
            raise ValueError(f"{info.title} has no oracle; leave regret off")
        return info.new_oracle(self.game)

    def features(self, player: int) -> np.ndarray:
        from gamelab.envs.observers import OBSERVATION

        out = {name: np.zeros(shape, np.float32) for name, shape in self._pieces}
        self.view.fill(OBSERVATION, self.stepper.live, player, out)
        return np.concatenate([piece.ravel() for piece in out.values()])

    def mover_mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if not self.stepper.done:
            mask[self.stepper.live.legal_actions()] = 1
        return mask

    def is_legal(self, action: int) -> bool:
        return not self.stepper.done and action in self.stepper.live.legal_actions()

    def restart(self) -> None:
        self.stepper.reset(self._rng)

    def sync(self, action: int) -> None:
        """Nothing to do: the protocol's state is the stepper's."""


def oware_env(**kwargs: Any) -> OwareEnv:
    """The Owaré AEC environment (keyword arguments as :class:`OwareEnv`)."""
    return OwareEnv(**kwargs)


def yatzy_duel_env(**kwargs: Any) -> YatzyDuelEnv:
    """The two-player Yatzy AEC environment (keyword arguments as :class:`YatzyDuelEnv`)."""
    return YatzyDuelEnv(**kwargs)
