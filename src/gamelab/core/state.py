"""The common game-state protocol: every game seen as an OpenSpiel-style ``State``.

A game (:class:`GameDef`) makes states; a state (:class:`GameState`) says whose turn it is
(a player 0, 1, ..., :data:`CHANCE` or :data:`TERMINAL`), which actions are legal, and, at a
chance node, every outcome with its exact probability. ``apply(action)`` changes the state in
place (``clone()`` first to keep it), ``returns()`` gives each player's result at the end, and
``to_text()`` / ``GameDef.state_from_text`` are a lossless round trip.

Actions are small non-negative integers: a player's action below ``GameDef.num_actions`` and a
chance outcome below ``GameDef.num_chance_outcomes``. An illegal action raises
:class:`IllegalActionError` (a ``ValueError`` that names the action and the legal ones) and
leaves the state unchanged.

The games adapt their own rules to this protocol (``gamelab.<game>.state``); nothing here knows
a game. Shells that play games (the environments of ``gamelab.envs``, the playout battery) drive
every game through it alone.

Each game is described once by a :class:`GameInfo` record (its name, title, how to make its
:class:`GameDef` and oracle, its settings type and parser, and where its command line, page,
warm-up and report live), registered with :func:`register_game`; the command line, the web
app, the compile notice, the kernel registry's test and the batteries read the records
(:func:`registered_games`, :func:`game_info`). gamelab's own games register in
:mod:`gamelab.games`; DEVELOPERS.md has the recipe for another one.

>>> class Coin:  # a one-flip game: chance, then terminal
...     def __init__(self): self.face = None
...     def current_player(self): return CHANCE if self.face is None else TERMINAL
...     def chance_outcomes(self): return [(0, 0.5), (1, 0.5)] if self.face is None else []
...     def legal_actions(self): return [a for a, _ in self.chance_outcomes()]
...     def apply(self, action): self.face = action
...     def is_terminal(self): return self.face is not None
>>> import numpy as np
>>> s = Coin(); play_random(s, np.random.default_rng(0)), s.face in (0, 1)
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # (numpy is imported where a chance node is drawn: the registry stays light)
    import numpy as np

#: `current_player()` at a chance node (OpenSpiel's kChancePlayerId).
CHANCE = -1
#: `current_player()` once the game is over (OpenSpiel's kTerminalPlayerId).
TERMINAL = -4


class IllegalActionError(ValueError):
    """An action that is not legal in the state it was applied to."""


def illegal(action: object, legal: Sequence[int], where: str) -> IllegalActionError:
    """The error every adapter raises: what was asked, where, and what is allowed."""
    shown = list(legal)
    if len(shown) > 30:
        allowed = f"{len(shown)} legal actions, e.g. {shown[:10]}"
    else:
        allowed = f"legal actions: {shown}" if shown else "no action is legal (the game is over)"
    return IllegalActionError(f"action {action!r} is not legal in {where}; {allowed}")


@runtime_checkable
class GameState(Protocol):
    """One position of a game, changed in place by :meth:`apply`."""

    def current_player(self) -> int: ...

    def legal_actions(self) -> list[int]: ...

    def chance_outcomes(self) -> list[tuple[int, float]]: ...

    def apply(self, action: int) -> None: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]: ...

    def clone(self) -> Any: ...

    def to_text(self) -> str: ...

    def action_to_string(self, action: int) -> str: ...


@runtime_checkable
class GameDef(Protocol):
    """A game with its settings: makes initial states and parses the text of a state."""

    name: str
    num_players: int
    num_actions: int  # player actions are 0 .. num_actions - 1
    num_chance_outcomes: int  # chance outcomes are 0 .. num_chance_outcomes - 1 (0: no chance)
    zero_sum: bool

    def new_initial_state(self) -> Any: ...

    def state_from_text(self, text: str) -> Any: ...


def sample_chance(state: Any, rng: np.random.Generator) -> int:
    """One outcome of a chance node, drawn with its probability (one uniform per draw).

    A state may offer ``resolve_chance(rng)`` to draw a whole run of chance nodes at once with
    the same law (Voltorb's deal, by the game's own generator); :func:`resolve_chance` uses it."""
    import numpy as np

    outcomes = state.chance_outcomes()
    cumulative = np.cumsum([p for _, p in outcomes])
    k = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    return int(outcomes[min(k, len(outcomes) - 1)][0])


def resolve_chance(state: Any, rng: np.random.Generator) -> None:
    """Play chance nodes until a player (or the end) is to move."""
    fast = getattr(state, "resolve_chance", None)
    if fast is not None:
        fast(rng)
    while state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))


def play_random(state: Any, rng: np.random.Generator, max_steps: int = 100_000) -> int:
    """Play `state` to the end with uniform random actions and sampled chance; the step count."""
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            raise RuntimeError(f"no end after {max_steps} steps")
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            action = int(legal[int(rng.integers(len(legal)))])
        state.apply(action)
        steps += 1
    return steps


# ------------------------------------------------------------------------------ the registry


@dataclass(frozen=True, eq=False)
class GameInfo:
    """One game, as every tool finds it (OpenSpiel's ``GameType`` plus ``load_game``).

    ``new_game(**params)`` makes the game's :class:`GameDef` (keyword settings; ``params`` are
    the defaults, a small game the batteries and environments start from) and
    ``new_oracle(game)`` its exact move values (:mod:`gamelab.core.oracle`). The other places
    are ``"module:attribute"`` (or module) names, imported only when used, so reading the
    registry costs nothing: an empty name means the game has no such thing (no command line,
    no page), never an empty one."""

    name: str  # the package, command group and page name: lower-case letters
    title: str  # what a user calls it
    summary: str  # one line: the command group's help and the home page
    new_game: Callable[..., Any]
    params: Mapping[str, Any] = field(default_factory=dict)
    new_oracle: Callable[[Any], Any] | None = None
    settings: str = ""  # the settings value type ("module:Type")
    parse_settings: str = ""  # its parser at the edge ("module:function": text -> value)
    information: str = "perfect"  # or "imperfect" (hidden cards, an answer not yet seen)
    zero_sum: bool = False
    chance: bool = False  # chance nodes (dice, a deal)
    players: tuple[int, int] = (1, 1)  # fewest and most players
    kernels: bool = False  # numba kernels, each with a twin in gamelab.kernel_twins
    compile_seconds: float = 0.0  # CPU seconds to compile them all from an empty cache
    cli: str = ""  # the typer app ("module:app")
    page: str = ""  # the web module with PAGE and router
    warmup: str = ""  # reaches every kernel ("module:function")
    report: str = ""  # the report section's module (TITLE, build)
    # The environments (gamelab.envs builds them from these): Gymnasium ids, their class
    # ("module:Class"; empty: the generic one over the state protocol, observed through `view`),
    # a native vector class (make_vec's "vector_entry_point"), and for a game of two players
    # its PettingZoo class (empty: the generic one, again through `view`)
    envs: tuple[str, ...] = ()
    # settings an id is registered with (a later version's changed rules, e.g. {"repeats": False})
    env_kwargs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    gym_env: str = ""
    vector_env: str = ""
    aec_env: str = ""
    # OpenSpiel's facts of a game (gamelab.envs.openspiel registers every game that has them):
    # (lowest return, highest return, longest game in actions) of a game value
    bounds: Callable[[Any], tuple[float, float, int]] | None = None
    view: str = ""  # its observation ("module:factory": game -> envs.observers.GameView)

    def __post_init__(self) -> None:
        if not (self.name.isascii() and self.name.isalpha() and self.name.islower()):
            raise ValueError(f"a game's name is lower-case letters, not {self.name!r}")
        if self.information not in ("perfect", "imperfect"):
            raise ValueError(f"information is perfect or imperfect, not {self.information!r}")
        if not 1 <= self.players[0] <= self.players[1]:
            raise ValueError(f"players must be (fewest, most) from 1, got {self.players}")

    def make(self, **params: Any) -> Any:
        """The game with these settings over the defaults."""
        return self.new_game(**{**self.params, **params})


_REGISTRY: dict[str, GameInfo] = {}


def register_game(info: GameInfo) -> GameInfo:
    """Add a game to the registry (again with the same record: nothing happens)."""
    known = _REGISTRY.get(info.name)
    if known is not None and known is not info:
        raise ValueError(f"a game named {info.name!r} is registered already")
    _REGISTRY[info.name] = info
    return info


def registered_games() -> tuple[GameInfo, ...]:
    """Every registered game, in the order of registration (gamelab's own first: ``import
    gamelab`` registers them, :mod:`gamelab.games`)."""
    return tuple(_REGISTRY.values())


def game_info(name: str) -> GameInfo:
    """The registered game `name`; a ValueError naming the games there are otherwise."""
    games = {info.name: info for info in registered_games()}
    if name not in games:
        raise ValueError(f"unknown game {name!r}; choose from {', '.join(games)}")
    return games[name]


def load(spec: str) -> Any:
    """The attribute a ``"module:attribute"`` name gives (a bare module name: the module)."""
    import importlib

    module, _, attribute = spec.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded
