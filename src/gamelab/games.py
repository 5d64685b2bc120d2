"""gamelab's five games, each described once (:class:`gamelab.core.state.GameInfo`).

Every tool reads these records: the command line (its groups and their help), the web app (the
pages), ``gamelab warmup`` and the compile notice, the kernel registry's test and the
batteries. The factories import their game only when called, so importing this module (done by
``import gamelab``) costs nothing. A sixth game adds one record (DEVELOPERS.md, "Adding a
game"); a game outside the package registers its own with
:func:`gamelab.core.state.register_game`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamelab.core.state import GameInfo, register_game


def _voltorb(level: int = 1, generator: str = "hgss", objective: str = "win") -> Any:
    from gamelab.voltorb.rules import VoltorbSetting
    from gamelab.voltorb.state import VoltorbGame

    return VoltorbGame(VoltorbSetting(int(level), str(generator)), str(objective))


def _voltorb_oracle(game: Any) -> Any:
    from gamelab.voltorb.oracle import VoltorbOracle

    return VoltorbOracle(game.setting)


def _voltorb_bounds(game: Any) -> tuple[float, float, int]:
    from gamelab.voltorb.rules import MAX_GENERATION_TRIES

    high = 1.0 if game.objective == "win" else 50_000.0  # P(win), or coins
    return 0.0, high, 26 * MAX_GENERATION_TRIES + 26  # (a deal may be drawn again)


def _wordle(names: str = "gen1", rule: str = "standard") -> Any:
    from gamelab.wordle.state import WordleGame

    return WordleGame(str(names), str(rule))


def _wordle_oracle(game: Any) -> Any:
    from gamelab.wordle.oracle import WordleOracle

    return WordleOracle(game)


def _wordle_bounds(game: Any) -> tuple[float, float, int]:
    return -float(game.guess_limit + 1), -1.0, game.guess_limit + 1


def _lattice(sequence: str = "HPHPPHHPHH", lattice: str = "square") -> Any:
    from gamelab.lattice.rules import Chain, Lattice
    from gamelab.lattice.state import LatticeGame

    kind = Lattice(str(lattice))  # checked first, as the pages' settings are
    return LatticeGame(Chain(str(sequence), min_length=2), kind)


def _lattice_oracle(game: Any) -> Any:
    from gamelab.lattice.oracle import LatticeOracle

    return LatticeOracle(game)


def _lattice_bounds(game: Any) -> tuple[float, float, int]:
    return -1.0, float(game.length), game.length


def _oware() -> Any:
    from gamelab.oware.state import OwareGame

    return OwareGame()


def _oware_oracle(game: Any) -> Any:
    from gamelab.oware.oracle import OwareOracle

    return OwareOracle()


def _oware_bounds(game: Any) -> tuple[float, float, int]:
    return -1.0, 1.0, 10_000


def _yatzy(rules: str = "yatzy", players: int = 1) -> Any:
    from gamelab.yatzy.rules import get_rules
    from gamelab.yatzy.state import YatzyGame

    return YatzyGame(get_rules(str(rules)), int(players))


def _yatzy_bounds(game: Any) -> tuple[float, float, int]:
    if game.players == 2:
        return -1.0, 1.0, 6 * 2 * game.rules.n_boxes
    return 0.0, float(game.rules.max_score), 6 * game.rules.n_boxes


def _yatzy_oracle(game: Any) -> Any:
    from gamelab.yatzy.oracle import YatzyOracle

    return YatzyOracle(game.rules)


def _package_game(
    name: str,
    title: str,
    summary: str,
    new_game: Callable[..., Any],
    params: dict[str, Any],
    new_oracle: Callable[[Any], Any],
    **facts: Any,
) -> GameInfo:
    """A game of this package, registered: its shells where the house keeps them
    (``gamelab.<name>.cli:app``, ``gamelab.web.api.<name>``, ``gamelab.<name>.warmup:warm_up``,
    ``gamelab.<name>.report``) and numba kernels."""
    info = GameInfo(
        name,
        title,
        summary,
        new_game,
        params,
        new_oracle,
        kernels=True,
        cli=f"gamelab.{name}.cli:app",
        page=f"gamelab.web.api.{name}",
        warmup=f"gamelab.{name}.warmup:warm_up",
        report=f"gamelab.{name}.report",
        **facts,
    )
    return register_game(info)


# CPU seconds to compile every kernel of a game from empty caches: a cold ``gamelab warmup GAME``
# (that process and its children), measured by ``python benchmarks/compile_seconds.py`` on the
# idle 2-core machine (2026-12-07, main at 0b95700; Voltorb the median of three runs, 38.8-68.7).
# A command compiles only the kernels it calls, so one command takes a part of it (the compile
# notice says so).
VOLTORB = _package_game(
    "voltorb",
    "Voltorb Flip",
    "Voltorb Flip (HGSS): exact posterior, strategies, simulation, the optimal policy.",
    _voltorb,
    {"level": 1, "generator": "hgss", "objective": "win"},
    _voltorb_oracle,
    settings="gamelab.voltorb.rules:VoltorbSetting",
    parse_settings="gamelab.voltorb.rules:VoltorbSetting",
    information="imperfect",
    chance=True,
    compile_seconds=40.0,
    envs=("gamelab/VoltorbFlip-v0",),
    gym_env="gamelab.envs.single:VoltorbFlipEnv",
    vector_env="gamelab.envs.vector:VoltorbFlipVectorEnv",
    bounds=_voltorb_bounds,
)

WORDLE = _package_game(
    "wordle",
    "Pokémon Wordle",
    "Pokémon Wordle (or any word list): rank, chart, search, solve, assist.",
    _wordle,
    {"names": "gen1", "rule": "standard"},
    _wordle_oracle,
    settings="gamelab.wordle.rules:Setting",
    parse_settings="gamelab.wordle.rules:parse_setting",
    information="imperfect",
    chance=True,
    compile_seconds=25.0,
    # v1 masks the guesses already made (v0, kept as published, lets a guess repeat)
    envs=("gamelab/PokemonWordle-v0", "gamelab/PokemonWordle-v1"),
    env_kwargs={"gamelab/PokemonWordle-v1": {"repeats": False}},
    gym_env="gamelab.envs.single:PokemonWordleEnv",
    bounds=_wordle_bounds,
)

LATTICE = _package_game(
    "lattice",
    "HP lattice folding",
    "HP lattice protein folding puzzles: exact enumeration, puzzle objectives, GA / "
    "MAP-Elites generation, star thresholds, level packs and a folding optimiser.",
    _lattice,
    {"sequence": "HPHPPHHPHH"},
    _lattice_oracle,
    settings="gamelab.lattice.rules:Lattice",
    parse_settings="gamelab.lattice.rules:Lattice",
    compile_seconds=17.0,
    envs=("gamelab/LatticeFold-v0",),
    gym_env="gamelab.envs.single:LatticeFoldEnv",
    bounds=_lattice_bounds,
)

OWARE = _package_game(
    "oware",
    "Owaré",
    "Oware Abapa: rules, engine, tablebases, matches, play.",
    _oware,
    {},
    _oware_oracle,
    settings="gamelab.oware.rules:Rules",
    zero_sum=True,
    players=(2, 2),
    compile_seconds=5.0,
    aec_env="gamelab.envs.multi:OwareEnv",
    bounds=_oware_bounds,
)

YATZY = _package_game(
    "yatzy",
    "Yatzy",
    "Optimal solitaire Yahtzee / Scandinavian Yatzy: solver, coach, simulation, studies.",
    _yatzy,
    {"rules": "yatzy", "players": 1},
    _yatzy_oracle,
    settings="gamelab.yatzy.rules:RuleSet",
    parse_settings="gamelab.yatzy.rules:get_rules",
    chance=True,
    players=(1, 2),
    compile_seconds=26.0,
    envs=("gamelab/YatzySolitaire-v0",),
    gym_env="gamelab.envs.single:YatzySolitaireEnv",
    vector_env="gamelab.envs.vector:YatzySolitaireVectorEnv",
    aec_env="gamelab.envs.multi:YatzyDuelEnv",
    bounds=_yatzy_bounds,
)

#: The package's games, in the order the command line and the report list them.
GAMES = tuple(info.name for info in (VOLTORB, WORDLE, LATTICE, OWARE, YATZY))
