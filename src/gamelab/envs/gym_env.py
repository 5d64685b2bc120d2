"""The Gymnasium shell over the state protocol: any registered game, scored against its oracle.

:class:`GameEnv` plays a game of the state protocol (``gamelab.<game>.state``) with its record's
oracle and facts (:class:`gamelab.core.state.GameInfo`): chance (the deal, the answer, the dice)
is drawn from the environment's seeded generator, the agent takes every decision of its player
and, in a game of two players, the opponent (``opponent="random"`` or ``"optimal"``) the others.
A game registered with ``envs=`` ids and a ``view`` gets :class:`ProtocolEnv` (observations
from the view, as OpenSpiel's observer shows them) with nothing else to write; gamelab's four
one-player games have classes of their own (:mod:`gamelab.envs.single`: integer observations,
lean steppers, pictures) over the same shell.

* actions: ``Discrete(game.num_actions)``; ``info["action_mask"]`` (int8) marks the legal ones,
  and so does the method ``action_masks()`` (sb3-contrib's ``MaskablePPO`` finds it through any
  wrapper);
* observations: a ``Dict`` of ``Box`` spaces (``gymnasium.spaces.flatten`` gives a vector);
  ``observation=`` picks a richer one where the game has it (:attr:`GameEnv.OBSERVATIONS`;
  docs/envs.md), an unknown one is a ``ValueError`` naming those it has;
* ``info["regret"]``: what the last action cost against optimal play, in the game's unit
  (:mod:`gamelab.core.oracle`; 0 for an optimal move), with ``regret=True`` (off by default:
  the oracle costs a solve, up to a minute for a hard level-8 Voltorb opening);
  ``info["optimal_action"]`` with ``optimal_action=True`` (off by default, for the same reason);
* at the end ``info["summary"]``: :class:`gamelab.core.oracle.EpisodeSummary` as a dict (the
  return, and with ``regret=True`` the optimum expected at the start, the loss and the luck of
  the decisions in :mod:`gamelab.core.review`'s words, so that the return is the optimum less
  the loss plus the luck, the episode's score ``percent_of_optimal`` in [0, 100] and the
  unbiased but unbounded ``return_percent_estimate``: docs/envs.md, "Scores"; None without it);
* ``render_mode="ansi"`` (text) or, where the game draws one, ``"rgb_array"`` (a picture).

**Illegal actions** (masked ones): with ``illegal_action="terminate"`` (the default, so that
agents that sample the whole action space, as ``gymnasium.utils.env_checker`` does, can run)
the episode ends at once as a failed game: its return becomes the game's failure (the lowest
return of its record's ``bounds``; Yatzy: the boxes left stay empty) and
``info["illegal_action"]`` is True. With ``illegal_action="raise"`` the step raises
:class:`gamelab.core.state.IllegalActionError` and changes nothing. Stepping a finished episode
raises ``RuntimeError``.

**Copies**: ``pickle`` and ``copy.deepcopy`` work mid-episode with every option on, and the
copy continues as the original would (the same chance draws, the same regrets); the oracle's
caches are not copied, the copy solves again what it needs (:meth:`GameEnv.__getstate__`). Bad
settings raise ``ValueError`` with the same messages as the command line (the games validate
them).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gamelab.core.oracle import EpisodeSummary, Oracle, kept_share
from gamelab.core.state import (
    CHANCE,
    GameInfo,
    game_info,
    illegal,
    resolve_chance,
    sample_chance,
)
from gamelab.envs.render import check_render_mode, picture
from gamelab.envs.seeding import first_uniforms, fits, generator_after, np_random

ILLEGAL_ACTIONS = ("terminate", "raise")
OPPONENTS = ("random", "optimal")


class GameEnv(gym.Env):
    """A game of the state protocol as a Gymnasium environment (see the module).

    A game with a lean stepper of its rules (``stepper``: Voltorb's
    :class:`~gamelab.voltorb.stepper.RoundStepper`, Yatzy's
    :class:`~gamelab.yatzy.stepper.SolitaireStepper`) is played on it: ``state`` (the
    protocol's state, for the oracle, the text and the picture) is then built only when asked
    for and kept in step from then on. The oracle, the lowest return and the observation come
    from the game's record unless a subclass says otherwise."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}
    stepper: Any = None
    #: the observation options (``observation=``) the game offers; "default" is today's Dict
    OBSERVATIONS: tuple[str, ...] = ("default",)
    #: the agent's player, and who plays the others (games of two players)
    player = 0
    opponent = "random"

    def __init__(
        self,
        game: Any,
        render_mode: str | None = None,
        regret: bool = False,
        optimal_action: bool = False,
        illegal_action: str = "terminate",
        observation: str = "default",
    ) -> None:
        if observation not in self.OBSERVATIONS:
            raise ValueError(
                f"unknown observation {observation!r} for {type(self).__name__}; "
                f"allowed: {', '.join(self.OBSERVATIONS)}"
            )
        check_render_mode(render_mode, self.metadata["render_modes"])
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(
                f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}"
            )
        self.game = game
        self.render_mode = render_mode
        self.with_regret = bool(regret)
        self.with_optimal_action = bool(optimal_action)
        self.illegal_action = illegal_action
        self.observation = observation
        self.action_space = spaces.Discrete(game.num_actions)
        self._n_actions = int(game.num_actions)
        bounds = self.info.bounds
        self._lowest = bounds(game)[0] if bounds is not None else None
        self._oracle: Oracle | None = None
        self._started = False
        self._state: Any = None
        self._done = True
        self._legal: list[int] = []

    # -- what each game says (defaults from its record) -------------------------------------
    @property
    def info(self) -> GameInfo:
        """The game's record (looked up, not kept: a record need not pickle)."""
        return game_info(self.game.name)

    def make_oracle(self) -> Oracle:
        if self.info.new_oracle is None:
            raise ValueError(f"{self.info.title} has no oracle; leave regret off")
        return self.info.new_oracle(self.game)

    def observe(self) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def score(self, state: Any) -> float:
        """The return collected so far (rewards are its changes)."""
        return state.returns()[self.player] if state.is_terminal() else 0.0

    def failed_return(self, state: Any) -> float:
        """The return of a game that fails at `state` (an illegal action)."""
        return self.lowest_return()

    def lowest_return(self) -> float:
        """The lowest return the game can give (the floor of the episode's score: its record's
        ``bounds``)."""
        if self._lowest is None:
            raise ValueError(f"{self.info.title}'s record gives no bounds (lowest return)")
        return float(self._lowest)

    #: the side of a cell of the picture, in pixels
    cell = 16

    def grid(self) -> tuple[np.ndarray, dict[tuple[int, int], str]]:
        """The picture as palette indices (:mod:`gamelab.envs.render`) and cell labels."""
        raise NotImplementedError

    def text(self) -> str:
        return str(self.state.to_text())

    # -- the Gymnasium API ---------------------------------------------------------------
    # A stepper that deals from a stream of uniforms (``fresh_uniforms``: Voltorb's) starts a
    # reseeded episode from the seed's first uniforms alone (gamelab.envs.seeding): the
    # generator itself, the same as ``seeding.np_random(seed)`` would give and positioned after
    # those draws, is built only when something reads it (``_np_random``: the stepper's next
    # batch, an unseeded reset, Gymnasium's checker, the agent).
    _generator: np.random.Generator | None = None
    _pending: tuple[int, np.ndarray] | None = None

    @property
    def _np_random(self) -> np.random.Generator | None:
        if self._generator is None and self._pending is not None:
            self._generator = generator_after(*self._pending)
            self._pending = None
        return self._generator

    @_np_random.setter
    def _np_random(self, value: np.random.Generator | None) -> None:
        self._generator, self._pending = value, None

    def _continuation(self) -> np.random.Generator:
        return self.np_random

    @property
    def state(self) -> Any:
        """The game's state (protocol), built from the stepper on first use in an episode."""
        if self._state is None and self.stepper is not None and self._started:
            self._state = self.stepper.state()
        return self._state

    @state.setter
    def state(self, value: Any) -> None:
        self._state = value

    @property
    def oracle(self) -> Oracle:
        if self._oracle is None:
            self._oracle = self.make_oracle()
        return self._oracle

    def _resolve_chance(self) -> None:
        """Play chance, and in a game of more players the opponents, until the agent is to move
        (or the game is over)."""
        state, rng = self.state, self.np_random
        resolve_chance(state, rng)
        if self.game.num_players == 1:
            return
        while not state.is_terminal() and state.current_player() != self.player:
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
            elif self.opponent == "optimal":
                state.apply(int(self.oracle.best_action(state)))
            else:
                legal = state.legal_actions()
                state.apply(int(legal[int(rng.integers(len(legal)))]))

    def action_masks(self) -> np.ndarray:
        """The legal actions of the current state, 1 for legal (int8, one per action): the
        method sb3-contrib's ``MaskablePPO`` looks for (``is_masking_supported``); the same
        vector as ``info["action_mask"]``."""
        if not self._started:
            raise RuntimeError("no episode yet; call reset() first")
        if self._done:
            return np.zeros(self._n_actions, dtype=np.int8)
        return self.action_mask()

    def action_mask(self) -> np.ndarray:
        if self.stepper is not None:
            return self.stepper.mask.copy()
        mask = np.zeros(self._n_actions, dtype=np.int8)
        self._legal = [] if self.state.is_terminal() else self.state.legal_actions()
        mask[self._legal] = 1
        return mask

    def _is_legal(self, action: int) -> bool:
        if self.stepper is not None:
            return 0 <= action < self._n_actions and bool(self.stepper.mask[action])
        return action in self._legal

    def _legal_actions(self) -> list[int]:
        if self.stepper is not None:
            return np.flatnonzero(self.stepper.mask).tolist()
        return self._legal

    # An oracle that reads a game's stepper (``stepper_value``, ``stepper_action_value``:
    # Yatzy's, Voltorb's) answers without the protocol's state being built or kept in step.
    def _oracle_value(self) -> float:
        if self.stepper is not None and hasattr(self.oracle, "stepper_value"):
            return float(self.oracle.stepper_value(self.stepper))
        return float(self.oracle.value(self.state))

    def _oracle_action_value(self, action: int) -> float:
        if self.stepper is not None and hasattr(self.oracle, "stepper_action_value"):
            return float(self.oracle.stepper_action_value(self.stepper, action))
        return float(self.oracle.action_value(self.state, action))

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_mask()}
        if self.with_optimal_action and not self.state.is_terminal():
            info["optimal_action"] = int(self.oracle.best_action(self.state))
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        stepper = self.stepper
        fresh = None
        if seed is not None:  # gymnasium.Env.reset's seeding, the same generator made faster
            uniforms = getattr(stepper, "fresh_uniforms", 0)
            if uniforms and fits(seed):
                fresh, state = first_uniforms(seed, uniforms)
                self._generator, self._pending = None, (seed, state)
                self._np_random_seed = seed
            else:
                self._np_random, self._np_random_seed = np_random(seed)
        self._started = True
        if stepper is not None:
            if fresh is not None:
                stepper.reset_fresh(fresh, self._continuation)
            else:
                stepper.reset(self.np_random)
            self._state = None
            self._done = self.stepper.done
        else:
            self.state = self.game.new_initial_state()
            self._resolve_chance()
            self._done = self.state.is_terminal()
        # each decision's (before, chosen) values, and the shares it kept (core.review's words)
        self._befores: list[float] = []
        self._chosen: list[float] = []
        self._shares: list[float] = []
        self._illegal = False
        self._return = 0.0
        self._start_value = self._oracle_value() if self.with_regret and not self._done else None
        return self.observe(), self._info()

    def step(self, action):
        if not self._started or self._done:
            raise RuntimeError("the episode is over; call reset() first")
        action = int(action)
        stepper = self.stepper
        regret = None
        if not self._is_legal(action):  # the last observation's mask
            state = self.state
            legal = self._legal_actions()
            if self.illegal_action == "raise":
                raise illegal(action, legal, f"{self.game.name} ({state.to_text()})")
            reward = self.failed_return(state) - self.score(state)
            if self.with_regret:
                regret = self._judge(self._oracle_value(), self.failed_return(state))
            self._illegal = True
            self._done = True
        elif stepper is not None:
            if self.with_regret:
                # the stepper's oracle path: no protocol state is built
                regret = self._judge(self._oracle_value(), self._oracle_action_value(action))
            reward = stepper.step(action)
            if self._state is not None:
                stepper.sync(self._state, action)
            self._done = stepper.done
        else:
            state = self.state
            before = self.score(state)
            if self.with_regret:
                oracle = self.oracle
                regret = self._judge(oracle.value(state), oracle.action_value(state, action))
            state.apply(action)
            self._resolve_chance()
            reward = self.score(state) - before
            self._done = state.is_terminal()
        self._return += reward
        if self._done:
            info: dict[str, Any] = {"action_mask": np.zeros(self._n_actions, dtype=np.int8)}
        else:
            info = self._info()
        if self._illegal:
            info["illegal_action"] = True
        if self.with_regret:
            info["regret"] = regret if regret is not None else 0.0
        if self._done:
            summary = EpisodeSummary.of_decisions(
                self._return,
                self._start_value,
                self._befores,
                self._chosen,
                self._shares,
                self.lowest_return(),
                self._illegal,
            )
            info["summary"] = dict(vars(summary))  # plain fields (asdict copies deeply)
        obs = self.observe()
        return obs, float(reward), self._done, False, info

    def _judge(self, value: float, action_value: float) -> float:
        """A decision's regret (its loss); its values and the share of the value it kept go to
        the episode's summary."""
        self._befores.append(value)
        self._chosen.append(action_value)
        self._shares.append(kept_share(value, action_value, self.lowest_return()))
        return float(value - action_value) if value > action_value else 0.0

    # -- copies ------------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        """Everything but the oracle, which is a cache of exact values (numba dictionaries, a
        solver's memo): a copy (``pickle``, ``copy.deepcopy``) builds its own when it first needs
        one, and since the values are exact it reports the same regrets. The generator, the
        stepper and the episode so far are copied, so the copy's future is the original's."""
        state = self.__dict__.copy()
        state["_oracle"] = None
        return state

    def render(self):
        if self.render_mode == "ansi":
            return self.text()
        if self.render_mode == "rgb_array":
            grid, labels = self.grid()
            return picture(grid, self.cell, labels)
        return None


class ProtocolEnv(GameEnv):
    """Any registered game through its record alone: ``game`` names it (its settings as keyword
    arguments over the record's defaults, ``GameInfo.make``), and the observation is the
    record's ``view`` as OpenSpiel's observer shows it to the agent's player (a ``Dict`` of its
    pieces, float32 in 0..1). In a game of two players the agent plays `player` and
    `opponent` the other: ``"random"`` (uniform over the legal actions, from the environment's
    generator) or ``"optimal"`` (the oracle's move); the regret and the summary are the agent's
    decisions against optimal play by both sides, so a poor opponent's moves are the agent's
    luck. ``gamelab.envs.register`` registers every id of a record's ``envs`` with this class
    unless the record names one of its own (``gym_env``)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        regret: bool = False,
        optimal_action: bool = False,
        illegal_action: str = "terminate",
        observation: str = "default",
        opponent: str = "random",
        player: int = 0,
        **settings: Any,
    ) -> None:
        from gamelab.envs.observers import OBSERVATION, view_of

        info = game_info(game)
        value = info.make(**settings)
        if value.num_players > 2:
            raise ValueError(f"{info.title} has {value.num_players} players; at most 2 here")
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent must be 'random' or 'optimal', got {opponent!r}")
        if player not in range(value.num_players):
            raise ValueError(f"player must be 0 to {value.num_players - 1}, got {player!r}")
        if info.bounds is None:
            raise ValueError(f"{info.title}'s record gives no bounds: the environment needs them")
        view = view_of(game, value)  # (a ValueError when the record gives none)
        self.player, self.opponent = int(player), opponent
        super().__init__(value, render_mode, regret, optimal_action, illegal_action, observation)
        self.view = view
        self._pieces = self.view.pieces(OBSERVATION)
        self.observation_space = spaces.Dict(
            {name: spaces.Box(0.0, 1.0, shape, np.float32) for name, shape in self._pieces}
        )

    def observe(self) -> dict[str, np.ndarray]:
        from gamelab.envs.observers import OBSERVATION

        out = {name: np.zeros(shape, np.float32) for name, shape in self._pieces}
        if self.state is not None:
            self.view.fill(OBSERVATION, self.state, self.player, out)
        return out
