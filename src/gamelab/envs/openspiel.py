"""gamelab's games as OpenSpiel Python games (``pip install "gamelab[openspiel]"``), so that
OpenSpiel's own algorithms (MCTS, its random-simulation test, exact solvers on small settings)
run on them. :func:`register` adds, once per process:

=============================  =====================================  ==========================
``pyspiel.load_game(...)``     parameters (defaults)                  information
=============================  =====================================  ==========================
``python_gamelab_oware``       none (Abapa rules)                     perfect, zero-sum
``python_gamelab_yatzy``       ``rules`` ("yatzy"), ``players`` (1),  perfect, chance (dice)
                               ``open`` ("": all boxes)
``python_gamelab_lattice``     ``sequence`` ("HPHPPHHPHH")            perfect, one player
``python_gamelab_voltorb``     ``level`` (1), ``generator`` ("hgss"), imperfect (hidden board)
                               ``objective`` ("win"), ``deal`` (-1)
``python_gamelab_wordle``      ``names`` ("gen1"), ``rule``           imperfect (hidden answer)
=============================  =====================================  ==========================

and every other registered game whose record (:class:`gamelab.core.state.GameInfo`) gives
OpenSpiel's facts, ``bounds`` and ``view``, as ``python_gamelab_<name>``: the records' factories,
defaults, players and type facts are read here (``tests/toy_nim.py``).

``open`` (Yatzy: the boxes left open, e.g. ``sixes+chance``; :func:`yatzy_start`) and ``deal``
(Voltorb: every round dealt to the clues of one board; :func:`voltorb_deal`) make small settings
on which tabular learners meet the same information states again (:data:`START_PARAMS`: the
parameters of this shell, beside the game's own).

Each is a thin wrapper over the game's state protocol adapter (``gamelab.<game>.state``):
actions, chance outcomes, returns and the text of a state are the adapter's (Owaré's, played on
the lean stepper of its rules for speed, :class:`gamelab.oware.stepper.GameStepper`). OpenSpiel's
state ``clone()`` copies the adapter's state (``clone()``), not the game's tables; serialisation
is OpenSpiel's (the Python state pickled). Observations come from the game's ``make_py_observer``
(:mod:`gamelab.envs.observers`): ``observation_tensor`` / ``observation_string`` on every game
and player, ``information_state_string`` on every game, ``information_state_tensor`` on the
hidden-information games (Voltorb, Wordle), so ``rl_environment.Environment`` and OpenSpiel's
learners run on all five.

>>> import pyspiel; register()  # doctest: +SKIP
>>> pyspiel.load_game("python_gamelab_yatzy(players=2)").num_players()  # doctest: +SKIP
2
"""

from __future__ import annotations

from typing import Any

import pyspiel

from gamelab.core.state import (
    CHANCE,
    TERMINAL,
    game_info,
    illegal,
    registered_games,
    resolve_chance,
)
from gamelab.envs.observers import GameObserver, view_of
from gamelab.oware.rules import Position

_REGISTERED: set[str] = set()


#: kind -> the parameters of a game's start that this shell adds to the game's own (defaults)
START_PARAMS: dict[str, dict[str, Any]] = {"yatzy": {"open": ""}, "voltorb": {"deal": -1}}


def _make_game(params: dict[str, Any], kind: str) -> Any:
    """The game `kind` with `params` (its record's factory, :mod:`gamelab.games`; the start
    parameters of :data:`START_PARAMS` are this shell's)."""
    own = {k: v for k, v in params.items() if k not in START_PARAMS.get(kind, {})}
    return game_info(kind).make(**own)


def yatzy_start(game: Any, open_boxes: str) -> str | None:
    """The text of a game of `game` (a ``YatzyGame``) that starts with only `open_boxes` open
    (box names joined by ``+``; every other box holds its lowest score, 0 for all but Yatzy's
    chance): small endgames for tabular learners.
    ``""`` is a whole game (None: the game's own start)."""
    if not open_boxes:
        return None
    boxes = game.rules.boxes
    wanted = open_boxes.split("+")
    unknown = [b for b in wanted if b not in boxes]
    if unknown or len(set(wanted)) != len(wanted):
        raise ValueError(
            f"open must name distinct boxes of {game.rules.name} joined by '+', got "
            f"{open_boxes!r}; boxes: {', '.join(boxes)}"
        )
    lowest = game.rules.base_scores.min(axis=1)  # [box]
    card = ",".join(f"{b}={lowest[k]}" for k, b in enumerate(boxes) if b not in wanted) or "-"
    cards = "|".join([card] * game.players)
    return f"player 0 rolls 0 kept none dice - cards {cards}"


class CluesDeal:
    """A round of Voltorb dealt to fixed clues: one chance node draws one of the boards that
    fit them (:class:`gamelab.voltorb.posterior.Posterior`: every consistent board with the
    generator's probability given the clues), then the round is the adapter's
    (:class:`gamelab.voltorb.state.VoltorbState`). What a learner sees is then the same at
    every start, which makes tabular learning possible."""

    __slots__ = ("game", "posterior", "dealt")

    def __init__(self, game: Any, posterior: Any, dealt: Any = None) -> None:
        self.game = game
        self.posterior = posterior
        self.dealt = dealt

    @property
    def round(self) -> Any:
        return None if self.dealt is None else self.dealt.round

    @property
    def flips(self) -> list[int]:
        return [] if self.dealt is None else list(self.dealt.flips)

    def current_player(self) -> int:
        return CHANCE if self.dealt is None else int(self.dealt.current_player())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealt is not None:
            return []
        return [(k, float(w)) for k, w in enumerate(self.posterior.weights)]

    def legal_actions(self) -> list[int]:
        if self.dealt is None:
            return list(range(len(self.posterior.weights)))
        return list(self.dealt.legal_actions())

    def apply(self, action: int) -> None:
        if self.dealt is not None:
            self.dealt.apply(action)
            return
        if not 0 <= action < len(self.posterior.weights):
            raise illegal(action, self.legal_actions(), "the deal")
        self.dealt = self.game.dealt_state(self.posterior.boards[action])

    def is_terminal(self) -> bool:
        return self.dealt is not None and bool(self.dealt.is_terminal())

    def returns(self) -> list[float]:
        return [0.0] if self.dealt is None else list(self.dealt.returns())

    def clone(self) -> CluesDeal:
        return CluesDeal(
            self.game, self.posterior, None if self.dealt is None else self.dealt.clone()
        )

    def to_text(self) -> str:
        return "dealing to fixed clues" if self.dealt is None else str(self.dealt.to_text())

    def action_to_string(self, action: int) -> str:
        if self.dealt is None:
            return f"board {action}"
        return str(self.dealt.action_to_string(action))


def voltorb_deal(game: Any, deal: int) -> CluesDeal | None:
    """The start of every round of `game` (a ``VoltorbGame``) at the clues of the board that
    the generator deals from seed `deal` (-1: None, every round dealt afresh)."""
    if deal == -1:
        return None
    if not 0 <= deal < 2**63:
        raise ValueError(f"deal must be -1 (a new board every round) or a seed >= 0, got {deal}")
    import numpy as np

    from gamelab.voltorb.posterior import Posterior

    dealt = game.new_initial_state()  # dealt by its chance nodes, as a practice round is
    resolve_chance(dealt, np.random.default_rng(deal))
    return CluesDeal(game, Posterior.from_clues(dealt.round.clues, game.setting))


def _bounds(kind: str, game: Any) -> tuple[float, float, int]:
    """(min utility, max utility, max game length) of a game (its record's ``bounds``)."""
    bounds = game_info(kind).bounds
    assert bounds is not None  # (only games with bounds are registered here)
    return bounds(game)


class _Held:
    """A game's state inside an OpenSpiel state. OpenSpiel's ``clone`` deep-copies a Python
    state's attributes; this one copies itself with the state's own ``clone()``, which shares
    the game's tables instead of copying them."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict) -> _Held:
        return _Held(self.value.clone())


class ProtocolState(pyspiel.State):
    """An OpenSpiel state over a state of gamelab's protocol (``inner``)."""

    def __init__(self, game: Any, inner: Any) -> None:
        super().__init__(game)
        self.held = _Held(inner)

    @property
    def inner(self) -> Any:
        return self.held.value

    def current_player(self) -> int:
        return int(self.held.value.current_player())  # CHANCE -1, TERMINAL -4 as OpenSpiel's

    def _legal_actions(self, player: int) -> list[int]:
        return [int(a) for a in self.held.value.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(int(a), float(p)) for a, p in self.held.value.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        self.held.value.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.held.value.action_to_string(int(action)))

    def is_terminal(self) -> bool:
        return bool(self.held.value.is_terminal())

    def returns(self) -> list[float]:
        return [float(r) for r in self.held.value.returns()]

    def __str__(self) -> str:
        return str(self.held.value.to_text())

    def __deepcopy__(self, memo: dict) -> Any:
        return self.clone()


class OwareSpielState(pyspiel.State):
    """Owaré on the lean stepper of its rules (:class:`gamelab.oware.stepper.GameStepper`,
    played side by side with the protocol's state in the tests): a random playout calls the
    state several times per move through OpenSpiel's C++ layer, so each call does as little as
    it can. The text is the protocol's (start position, then the moves)."""

    def __init__(self, game: Any, stepper: Any) -> None:
        super().__init__(game)
        self.held = _Held(stepper)

    @property
    def inner(self) -> Any:
        return self.held.value

    def current_player(self) -> int:
        st = self.held.value
        return TERMINAL if st.done else st.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return self.held.value.legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def _apply_action(self, action: int) -> None:
        st = self.held.value
        if action not in st.legal:
            raise illegal(action, st.legal, f"Owaré ({self})")
        st.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        from gamelab.oware.rules import move_letter

        return move_letter(player, int(action))

    def is_terminal(self) -> bool:
        return bool(self.held.value.done)

    def returns(self) -> list[float]:
        return list(self.held.value.returns())

    def __str__(self) -> str:
        st = self.held.value
        start = st.game.start or Position.initial(st.rules)
        return f"{start.to_text()}: {' '.join(map(str, st.moves))}".rstrip()

    def __deepcopy__(self, memo: dict) -> Any:
        return self.clone()


def _game_class(kind: str, game_type: Any) -> type:
    class ProtocolGame(pyspiel.Game):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            info = game_info(kind)
            merged = {**info.params, **START_PARAMS.get(kind, {}), **(params or {})}
            self.inner = _make_game(merged, kind)
            self.view = view_of(kind, self.inner)
            self.start: Any = None  # a state every game starts from (a small setting), if any
            chance = int(self.inner.num_chance_outcomes)
            if kind == "yatzy":
                text = yatzy_start(self.inner, str(merged["open"]))
                self.start = None if text is None else self.inner.state_from_text(text)
            elif kind == "voltorb":
                self.start = voltorb_deal(self.inner, int(merged["deal"]))
                if self.start is not None:
                    chance = max(chance, len(self.start.legal_actions()))
            low, high, length = _bounds(kind, self.inner)
            spiel_info = pyspiel.GameInfo(
                num_distinct_actions=int(self.inner.num_actions),
                max_chance_outcomes=chance,
                num_players=int(self.inner.num_players),
                min_utility=low,
                max_utility=high,
                utility_sum=0.0 if info.zero_sum else None,
                max_game_length=length,
            )
            super().__init__(game_type, spiel_info, merged)

        def new_initial_state(self) -> Any:
            if kind == "oware":
                from gamelab.oware.stepper import GameStepper

                stepper = GameStepper(self.inner)
                stepper.reset()
                return OwareSpielState(self, stepper)
            if self.start is not None:
                return ProtocolState(self, self.start.clone())
            return ProtocolState(self, self.inner.new_initial_state())

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GameObserver:
            """The observer OpenSpiel asks for (:mod:`gamelab.envs.observers`)."""
            return GameObserver(self.view, iig_obs_type, params)

    ProtocolGame.__name__ = f"Gamelab{kind.capitalize()}Game"
    return ProtocolGame


def register() -> list[str]:
    """Register every game with OpenSpiel (idempotent); their short names."""
    names = []
    for info in registered_games():
        if info.bounds is None:
            continue  # (a game without OpenSpiel's facts)
        kind, players = info.name, info.players
        params = {**info.params, **START_PARAMS.get(kind, {})}
        name = f"python_gamelab_{kind}"
        names.append(name)
        if name in _REGISTERED:
            continue
        game_type = pyspiel.GameType(
            short_name=name,
            long_name=f"gamelab {kind}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=(
                pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
                if info.chance
                else pyspiel.GameType.ChanceMode.DETERMINISTIC
            ),
            information=(
                pyspiel.GameType.Information.PERFECT_INFORMATION
                if info.information == "perfect"
                else pyspiel.GameType.Information.IMPERFECT_INFORMATION
            ),
            utility=(
                pyspiel.GameType.Utility.ZERO_SUM
                if info.zero_sum
                else pyspiel.GameType.Utility.GENERAL_SUM
            ),
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=players[1],
            min_num_players=players[0],
            provides_information_state_string=True,
            provides_information_state_tensor=info.information != "perfect",
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=params,
        )
        pyspiel.register_game(game_type, _game_class(kind, game_type))
        _REGISTERED.add(name)
    return names
