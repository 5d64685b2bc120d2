"""Players and paired-colour matches.

Player specifications (``parse_player``):

* ``random`` — a uniformly random legal move;
* ``greedy`` — the move capturing the most seeds now (ties broken at random);
* ``blog:depth=D`` — the seed blog's plain alpha-beta with its evaluation;
* ``engine:time=T`` or ``engine:depth=D`` (options ``eval=auale|blog``, ``tb=N`` tablebase seeds,
  -1 for none) — :class:`gamelab.oware.search.Engine`;
* ``mcts:sims=N`` (option ``rollouts=R``, ``uct=C``) — OpenSpiel's C++ ``pyspiel.MCTSBot`` with a
  random-rollout evaluator, on a pyspiel state replayed from the move list (needs the optional
  ``open-spiel`` package).

A match of N games plays N/2 openings (``opening_plies`` random moves from the start), each once
with A as South and once with A as North, so neither side profits from the first move or a lucky
opening. Games run in parallel through :func:`gamelab.core.parallel.run_tasks` (one opening
pair per task) and are saved in the results store, so an interrupted match resumes. The score
rate counts a draw as half a win; its 95% interval is Wilson's (it stays sensible at 100%), and
the Elo difference maps that interval through the logistic curve.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamelab.core.parallel import Backend, run_tasks
from gamelab.core.results import ResultStore
from gamelab.core.stats import Elo, Estimate, elo_difference, wilson_interval
from gamelab.oware.rules import TABLEBASE_SEEDS, Position, apply_move

MATCH_VERSION = 1
#: OpenSpiel aborts games longer than this; the repetition rule ends every game long before.
MAX_PLIES = 1000

KINDS = ("random", "greedy", "blog", "engine", "mcts")


#: The range of each numeric player option (every shell applies them; the web narrows a few).
#: Beyond them a value is a mistake that would overflow a clock (time=1e20), fill memory
#: (blog:depth=10**9: the blog's search is full width, 6**depth leaves) or run for days.
LIMITS: dict[tuple[str, str], tuple[float, float]] = {
    ("blog", "depth"): (1, 12),
    ("engine", "time"): (0.001, 3600),
    ("engine", "depth"): (1, 60),
    ("engine", "tb"): (-1, 48),  # past 16: the endgame database on disk, where built
    ("mcts", "sims"): (1, 10_000_000),
    ("mcts", "rollouts"): (1, 10_000),
    ("mcts", "uct"): (0.001, 100),
}


def _check_range(kind: str, key: str, value: float) -> None:
    low, high = LIMITS[kind, key]
    if not low <= value <= high:  # nan fails this too
        raise ValueError(f"option {key} of player {kind} is {low} to {high}, got {value}")


class _Spec:
    """What every player spec has: its kind, its options as they are written, its text form."""

    kind: str = ""

    @property
    def options(self) -> dict[str, Any]:
        """The options as written in the text form (``tb`` for the tablebase)."""
        return {}

    def __str__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.kind}:{opts}" if opts else self.kind


@dataclass(frozen=True)
class RandomSpec(_Spec):
    """A uniformly random legal move."""

    kind = "random"


@dataclass(frozen=True)
class GreedySpec(_Spec):
    """The move capturing the most seeds now (ties broken at random)."""

    kind = "greedy"


@dataclass(frozen=True)
class BlogSpec(_Spec):
    """The seed blog's plain alpha-beta to `depth` plies with its evaluation."""

    depth: int = 6
    kind = "blog"

    def __post_init__(self) -> None:
        _check_range("blog", "depth", self.depth)

    @property
    def options(self) -> dict[str, Any]:
        return {"depth": self.depth}


@dataclass(frozen=True)
class EngineSpec(_Spec):
    """The engine's search limits, like python-chess's ``engine.Limit``: a `time` per move in
    seconds or a fixed `depth` (one of them; neither is 0.5 s), its evaluation (``auale`` or
    ``blog``) and its endgame `tablebase` (seeds; -1 for none)."""

    time: float | None = None
    depth: int | None = None
    eval: str = "auale"
    tablebase: int = TABLEBASE_SEEDS
    book: bool = False  # play the shipped opening book's move where it has one
    kind = "engine"

    def __post_init__(self) -> None:
        if self.time is not None and self.depth is not None:
            raise ValueError("give the engine a time or a depth, not both")
        if self.time is None and self.depth is None:
            object.__setattr__(self, "time", 0.5)
        if self.time is not None:
            _check_range("engine", "time", self.time)
        if self.depth is not None:
            _check_range("engine", "depth", self.depth)
        _check_range("engine", "tb", self.tablebase)
        if self.eval not in ("auale", "blog"):
            raise ValueError(f"engine eval must be auale or blog, got {self.eval!r}")

    @property
    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {"time": self.time} if self.time is not None else {}
        if self.depth is not None:
            out["depth"] = self.depth
        if self.eval != "auale":
            out["eval"] = self.eval
        if self.tablebase != TABLEBASE_SEEDS:
            out["tb"] = self.tablebase
        if self.book:
            out["book"] = 1
        return out

    @property
    def timed(self) -> bool:
        """Stopped by the clock: its move is not a pure function of the position."""
        return self.time is not None


@dataclass(frozen=True)
class MctsSpec(_Spec):
    """OpenSpiel's MCTS with `sims` simulations, `rollouts` random rollouts each, UCT `uct`."""

    sims: int = 1000
    rollouts: int = 1
    uct: float = 2.0
    kind = "mcts"

    def __post_init__(self) -> None:
        _check_range("mcts", "sims", self.sims)
        _check_range("mcts", "rollouts", self.rollouts)
        _check_range("mcts", "uct", self.uct)

    @property
    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sims": self.sims}
        if self.rollouts != 1:
            out["rollouts"] = self.rollouts
        if self.uct != 2.0:
            out["uct"] = self.uct
        return out


#: A player, typed: what the shells parse once (:func:`parse_player`) and the library takes.
PlayerSpec = RandomSpec | GreedySpec | BlogSpec | EngineSpec | MctsSpec


def _flag(text: str) -> bool:
    if text not in ("0", "1"):
        raise ValueError(f"engine option book is 0 or 1, got {text!r}")
    return text == "1"


_flag.__name__ = "0 or 1"


_ALLOWED: dict[str, dict[str, tuple[str, Callable[[str], Any]]]] = {
    "random": {},
    "greedy": {},
    "blog": {"depth": ("depth", int)},
    "engine": {
        "time": ("time", float),
        "depth": ("depth", int),
        "eval": ("eval", str),
        "tb": ("tablebase", int),
        "book": ("book", _flag),
    },
    "mcts": {"sims": ("sims", int), "rollouts": ("rollouts", int), "uct": ("uct", float)},
}
_TYPES: dict[str, Callable[..., PlayerSpec]] = {
    "random": RandomSpec,
    "greedy": GreedySpec,
    "blog": BlogSpec,
    "engine": EngineSpec,
    "mcts": MctsSpec,
}


def parse_player(text: str) -> PlayerSpec:
    """``kind[:key=value,...]`` → its typed spec (validated by the spec's constructor): the one
    parser of a player's text form, called where a shell reads its input.

    >>> parse_player("engine:depth=8,tb=-1")
    EngineSpec(time=None, depth=8, eval='auale', tablebase=-1, book=False)
    >>> str(parse_player("blog"))
    'blog:depth=6'
    """
    kind, _, rest = text.strip().partition(":")
    if kind not in _ALLOWED:
        raise ValueError(
            f"unknown player {kind!r}; players are {', '.join(KINDS)} "
            "(e.g. blog:depth=6, engine:time=0.5, mcts:sims=1000)"
        )
    fields: dict[str, Any] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or key not in _ALLOWED[kind]:
            allowed = ", ".join(_ALLOWED[kind]) or "none"
            raise ValueError(f"bad option {item!r} for player {kind}; options: {allowed}")
        name, convert = _ALLOWED[kind][key]
        try:
            fields[name] = convert(value)
        except ValueError:
            raise ValueError(
                f"option {key} of player {kind} must be a {convert.__name__}, got {value!r}"
            ) from None
    return _TYPES[kind](**fields)


def have_open_spiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


class Player:
    """Chooses moves; `moves` is the whole game so far (needed to replay pyspiel states)."""

    def new_game(self) -> None:
        pass

    def choose(self, position: Position, moves: list[int], rng: np.random.Generator) -> int:
        raise NotImplementedError


class RandomPlayer(Player):
    def choose(self, position, moves, rng):
        return int(rng.choice(position.legal_moves()))


def captured_by(position: Position, move: int) -> int:
    houses, stores = list(position.houses), list(position.stores)
    return apply_move(houses, stores, position.to_move, move, position.rules)


class GreedyPlayer(Player):
    def choose(self, position, moves, rng):
        legal = position.legal_moves()
        gains = [captured_by(position, m) for m in legal]
        best = max(gains)
        return int(rng.choice([m for m, g in zip(legal, gains, strict=True) if g == best]))


class BlogPlayer(Player):
    def __init__(self, depth: int) -> None:
        self.depth = depth

    def choose(self, position, moves, rng):
        from gamelab.oware.search import blog_alphabeta

        return blog_alphabeta(position, self.depth)[0]


class EnginePlayer(Player):
    def __init__(self, spec: EngineSpec) -> None:
        from gamelab.oware.search import Engine

        self.time, self.depth, self.book = spec.time, spec.depth, spec.book
        self.engine = Engine(evaluation=spec.eval, tablebase_seeds=spec.tablebase)

    def new_game(self) -> None:
        self.engine.clear()

    def choose(self, position, moves, rng):
        if self.book:
            from gamelab.oware.book import book_move
            from gamelab.oware.rules import parse_move

            letter = book_move(position)
            if letter is not None:
                return parse_move(letter, position)
        return self.engine.search(position, time_limit=self.time, depth=self.depth).best_move


class MctsPlayer(Player):
    def __init__(self, sims: int, rollouts: int = 1, uct: float = 2.0, seed: int = 0) -> None:
        if not have_open_spiel():
            raise ValueError(
                "mcts players need the optional open-spiel package (pip install open-spiel)"
            )
        import pyspiel

        self.game = pyspiel.load_game("oware")
        evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
        self.bot = pyspiel.MCTSBot(self.game, evaluator, uct, sims, 1000, False, seed, False)

    def choose(self, position, moves, rng):
        if not position.rules.is_abapa:
            raise ValueError("OpenSpiel's oware plays Abapa only")
        state = self.game.new_initial_state()
        for m in moves:
            state.apply_action(m)
        return int(self.bot.step(state))


def make_player(spec: PlayerSpec, seed: int = 0) -> Player:
    """The player a spec describes (`seed` seeds MCTS)."""
    if isinstance(spec, RandomSpec):
        return RandomPlayer()
    if isinstance(spec, GreedySpec):
        return GreedyPlayer()
    if isinstance(spec, BlogSpec):
        return BlogPlayer(spec.depth)
    if isinstance(spec, EngineSpec):
        return EnginePlayer(spec)
    return MctsPlayer(spec.sims, spec.rollouts, spec.uct, seed)


def random_opening(plies: int, rng: np.random.Generator) -> list[int]:
    """`plies` random moves from the start (never a finished game)."""
    while True:
        p, moves = Position.initial(), []
        for _ in range(plies):
            m = int(rng.choice(p.legal_moves()))
            moves.append(m)
            p = p.play(m)
            if p.is_over():
                break
        if not p.is_over():
            return moves


def play_game(south: Player, north: Player, opening: list[int], rng: np.random.Generator) -> dict:
    """Play one game from the opening; returns final stores, plies and the move list."""
    p = Position.initial()
    moves = list(opening)
    for m in opening:
        p = p.play(m)
    south.new_game()
    north.new_game()
    thinking = [0.0, 0.0]
    counts = [0, 0]
    while not p.is_over():
        if len(moves) >= MAX_PLIES:
            raise RuntimeError(f"game passed {MAX_PLIES} plies: {moves}")
        player = south if p.to_move == 0 else north
        t0 = time.perf_counter()
        m = player.choose(p, moves, rng)
        thinking[p.to_move] += time.perf_counter() - t0
        counts[p.to_move] += 1
        p = p.play(m)
        moves.append(m)
    return {
        "result": list(p.result()),
        "plies": len(moves),
        "moves": moves,
        "seconds": thinking,
        "moves_made": counts,
    }


def play_pair(item: tuple, rng: np.random.Generator) -> list[dict]:
    """Task: one opening played twice, A as South then A as North."""
    a_spec, b_spec, opening_plies = item
    seed = int(rng.integers(2**31))
    a = make_player(a_spec, seed)
    b = make_player(b_spec, seed + 1)
    opening = random_opening(opening_plies, rng)
    records = []
    for a_side in (0, 1):
        south, north = (a, b) if a_side == 0 else (b, a)
        game = play_game(south, north, opening, rng)
        s = game["result"]
        mine, theirs = s[a_side], s[1 - a_side]
        game["a_side"] = a_side
        game["a_points"] = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        records.append(game)
    return records


@dataclass(frozen=True)
class MatchSummary:
    """A match seen from player A: W-D-L, the score rate (draws half) with its Wilson interval,
    the Elo gap it implies, mean seed margin and game length, thinking time per move."""

    a: str
    b: str
    seed: int
    opening_plies: int
    games: int
    wins: int
    draws: int
    losses: int
    score: Estimate
    elo: Elo
    mean_seed_margin: float
    mean_plies: float
    a_seconds_per_move: float | None = None
    b_seconds_per_move: float | None = None

    @property
    def record(self) -> str:
        """``W-D-L``."""
        return f"{self.wins}-{self.draws}-{self.losses}"

    def __json__(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "a_score_rate": self.score.value,
            "ci95": [self.score.lo, self.score.hi],
            "elo": self.elo.value,
            "elo_ci95": [self.elo.lo, self.elo.hi],
            "elo_sweep": self.elo.sweep,
            "mean_seed_margin": self.mean_seed_margin,
            "mean_plies": self.mean_plies,
        }
        if self.a_seconds_per_move is not None:
            out["a_seconds_per_move"] = self.a_seconds_per_move
            out["b_seconds_per_move"] = self.b_seconds_per_move
        out.update(a=self.a, b=self.b, seed=self.seed, opening_plies=self.opening_plies)
        return out


def summarise(
    records: list[dict[str, Any]], a: str = "", b: str = "", seed: int = 0, opening_plies: int = 2
) -> MatchSummary:
    """The :class:`MatchSummary` of game records from :func:`play_pair`."""
    points = [r["a_points"] for r in records]
    wins = sum(1 for x in points if x == 1.0)
    draws = sum(1 for x in points if x == 0.5)
    losses = len(points) - wins - draws
    rate = wilson_interval(wins + 0.5 * draws, len(points))
    margins = [r["result"][r["a_side"]] - r["result"][1 - r["a_side"]] for r in records]
    per_move: dict[str, float | None] = {"a": None, "b": None}
    timed = [r for r in records if "seconds" in r]
    if timed:
        for name, side in (("a", lambda r: r["a_side"]), ("b", lambda r: 1 - r["a_side"])):
            secs = sum(r["seconds"][side(r)] for r in timed)
            made = sum(r["moves_made"][side(r)] for r in timed)
            per_move[name] = secs / made if made else 0.0
    return MatchSummary(
        a=a,
        b=b,
        seed=seed,
        opening_plies=opening_plies,
        games=len(points),
        wins=wins,
        draws=draws,
        losses=losses,
        score=rate,
        elo=elo_difference(rate),
        mean_seed_margin=float(np.mean(margins)),
        mean_plies=float(np.mean([r["plies"] for r in records])),
        a_seconds_per_move=per_move["a"],
        b_seconds_per_move=per_move["b"],
    )


def run_match(
    a: PlayerSpec,
    b: PlayerSpec,
    games: int,
    seed: int = 0,
    opening_plies: int = 2,
    backend: Backend | None = None,
    use_store: bool = True,
    store: ResultStore | None = None,
) -> MatchSummary:
    """Play `games` games (an even number, paired colours) and summarise them for A.

    Games are saved in `store` (by default the standard results store) and reused when the
    same match (players, games, openings, seed) is run again."""
    if games < 2 or games % 2:
        raise ValueError(
            f"games must be an even number of at least 2 (paired colours), got {games}"
        )
    sa, sb = a, b
    for s in (sa, sb):
        if isinstance(s, MctsSpec) and not have_open_spiel():
            raise ValueError(
                "mcts players need the optional open-spiel package (pip install open-spiel)"
            )
        if isinstance(s, EngineSpec) and s.tablebase >= 0:
            from gamelab.oware.tablebase import load_tablebase

            load_tablebase(s.tablebase)  # build once here, not in every worker
    items = [(sa, sb, opening_plies)] * (games // 2)
    own_store = use_store and store is None
    if own_store:
        store = ResultStore()
    elif not use_store:
        store = None
    params = match_params(str(sa), str(sb), games, seed, opening_plies)
    try:
        pairs = run_tasks(
            play_pair,
            items,
            seed=seed,
            backend=backend,
            label=f"{sa} vs {sb}",
            store=store,
            experiment="oware-match",
            params=params,
        )
    finally:
        if own_store and store is not None:
            store.close()
    records = [g for pair in pairs for g in pair]
    return summarise(records, str(sa), str(sb), seed, opening_plies)


def match_params(a: str, b: str, games: int, seed: int, opening_plies: int) -> dict[str, Any]:
    """The parameters that identify a match in the results store."""
    return {
        "a": a,
        "b": b,
        "games": games,
        "opening_plies": opening_plies,
        "seed": seed,
        "version": MATCH_VERSION,
    }


def stored_match(
    store: ResultStore,
    a: PlayerSpec,
    b: PlayerSpec,
    games: int,
    seed: int,
    opening_plies: int = 2,
) -> MatchSummary | None:
    """The summary of a match already complete in `store`, else None (nothing is played)."""
    sa, sb = str(a), str(b)
    done = store.finished(
        "oware-match", match_params(sa, sb, games, seed, opening_plies), games // 2
    )
    if len(done) < games // 2:
        return None
    return summarise([g for i in sorted(done) for g in done[i]], sa, sb, seed, opening_plies)
