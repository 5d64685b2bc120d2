"""A game of Owaré as a front end sees it: replayed from its start and moves, each move checked
with the reason it is illegal, the sowing of the last move (for an animation), the opponent's
reply, exact endgame verdicts from the tablebase and hints (the engine's review of a whole
game: :mod:`gamelab.oware.game_review`).

The state is the start position (its text form), the rule variant and the moves as house letters
(``A``-``F`` South, ``a``-``f`` North, as in :mod:`gamelab.oware.play`'s records), so a page or
any other shell holds the whole game and the library replays it on every call.

>>> view = game_view(START_TEXT, ABAPA, ["C"])
>>> view.houses, view.to_move, view.legal
([4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4], 'North', ['a', 'b', 'c', 'd', 'e', 'f'])
>>> view.last.path
[3, 4, 5, 6]
>>> play_move(START_TEXT, ABAPA, ["C"], "C")
Traceback (most recent call last):
...
ValueError: C is a South house, but it is North's move: play one of a-f (North's houses)
>>> score_label(-60), score_label(10000 - 9 + 25 * 4)
('-2.4 seeds', 'a won game')

Scores are the engine's (:mod:`gamelab.oware.analysis`): for the side to move, 25 units per
seed, ``±(10000 − plies) + 25 × margin`` for a decided game. Boards with at most 12 seeds under
Abapa (or up to the endgame database's reach where it is built and verified: ``tablebase.ready_reach``) are
looked up in the endgame tablebase (:mod:`gamelab.oware.tablebase`): the verdict is exact for the game of the board seeds played out (a capture-free cycle valued as an even split).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from gamelab.oware import _search_kernels as K
from gamelab.oware.analysis import Analysis, analyse, move_letter, table_words
from gamelab.oware.book import book_analysis
from gamelab.oware.evaluation import SEED_UNIT
from gamelab.oware.match import (
    LIMITS,
    BlogSpec,
    EngineSpec,
    MctsSpec,
    PlayerSpec,
    make_player,
)
from gamelab.oware.rules import (
    ABAPA,
    SEEDS,
    START_TEXT,
    TABLEBASE_SEEDS,
    Position,
    Rules,
    format_record,
    is_grand_slam,
    parse_record,
)
from gamelab.oware.state import OwareGame, OwareState, record_trail
from gamelab.oware.tablebase import Tablebase, engine_seeds, load_tablebase, ready_reach
from gamelab.oware.verdicts import (
    SIDES,
    Evaluation,
    Exact,
    evaluation_of,
    loss_label,
    score_label,
)

__all__ = [
    "START_TEXT",
    "GameView",
    "Sowing",
    "Exact",
    "Evaluation",
    "EngineReply",
    "PositionAnalysis",
    "GameRecord",
    "game_view",
    "play_move",
    "take_back",
    "engine_reply",
    "analyse_position",
    "game_record",
    "load_record",
    "score_label",
    "loss_label",
]

#: the longest game a request may carry (the repetition rule ends real games far sooner)
MAX_MOVES = 1000
#: longest engine time per move / analysis offered (seconds)
MAX_ENGINE_SECONDS = 10.0
#: deepest fixed-depth search offered per player kind (the blog's search is full width)
MAX_PAGE_DEPTH = {"engine": 20, "blog": 10}
#: depth of the analysis's and the review's labelled fallbacks when the budget runs out
FALLBACK_DEPTH = 4


@dataclass(frozen=True)
class Sowing:
    """The last move as it happened: the board before it, every house a seed fell in (in
    order, house indices 0-11), and the houses it captured (emptied) with the seeds taken."""

    move: str
    side: str
    house: int  # the sown house, 0-11
    before: list[int]
    before_stores: list[int]
    path: list[int]
    captured: int
    captured_houses: list[int]
    grand_slam: bool  # the move would take every opponent seed (Abapa: it then captures nothing)


@dataclass(frozen=True)
class GameView:
    """The game after its moves: the board, whose move, the legal moves, the result, the last
    sowing, and the tablebase's exact verdict once the board is small enough."""

    start: str
    grand_slam: str
    cycle: str
    moves: list[str]
    position: str
    houses: list[int]
    stores: list[int]
    to_move: str
    legal: list[str]
    over: bool
    result: list[int] | None
    winner: str | None
    end_reason: str | None
    last: Sowing | None
    exact: Exact | None
    #: when the last move ended the game: the houses and stores right after it, before the seeds
    #: left on the board were collected into the stores (what the player saw happen)
    end_board: list[int] | None = None
    end_stores: list[int] | None = None
    #: once over, in words: the stores, then apart the rule that gave the seeds left on the
    #: board, then the final score ("Stores 20-18. The 10 seeds left on the board ...")
    end_text: str | None = None
    #: who played South and North, as a loaded record names them ("human", "engine:time=0.5")
    players: list[str] | None = None
    #: how far exact verdicts reach on this server, in words (:func:`exact_scope`)
    exact_scope: str = ""


def _end_text(stores: list[int], result: list[int], reason: str | None) -> str:
    """The stores, the rule that assigns the rest, and the final score, each said apart."""
    rest = [result[0] - stores[0], result[1] - stores[1]]
    text = f"Stores: South {stores[0]}, North {stores[1]}."
    left = sum(rest)
    if left:
        why = {
            "repetition": "the position repeated",
            "no moves": "the side to move could not play",
            "score": "a side has more than 24 seeds",
        }.get(reason or "", "the game ended")
        gains = ", ".join(f"{side} +{n}" for side, n in zip(SIDES, rest, strict=True) if n)
        text += (
            f" {why.capitalize()}, so the {left} seed{'s' if left != 1 else ''} left on the "
            f"board {'go' if left != 1 else 'goes'} to the side whose row "
            f"{'they are' if left != 1 else 'it is'} on ({gains})."
        )
    return text + f" Final score {result[0]}-{result[1]}."


@dataclass(frozen=True)
class EngineReply:
    """The opponent's move, its analysis when the opponent is the engine, and the game after it."""

    opponent: str
    move: str
    analysis: Analysis | None
    evaluation: Evaluation | None
    view: GameView
    note: str | None = None
    book: bool = False  # the move is the opening book's (the analysis is the book's entry)


@dataclass(frozen=True)
class MoveValue:
    """One legal move of an analysed position with its value for the mover: the engine's score
    (searched one ply less deep than the root, whose own best move keeps the root's score), or
    exact when the game ends with it or the tablebase covers the position after it."""

    move: str  # the house letter
    score: int  # for the mover, engine units (exact: ±(WIN − 1) + unit × the final margin)
    text: str  # whose advantage after it, in words: "South ahead by 2.4 seeds", "North wins 26-22"
    exact: bool
    depth: int  # plies searched after the move (0: exact)


@dataclass(frozen=True)
class PositionAnalysis:
    """The engine's analysis of a position (hint or analysis view), with the exact verdict when
    the tablebase covers it, and what the evaluation bar shows; with `ranking` asked for, every
    legal move with its value, best first."""

    analysis: Analysis
    evaluation: Evaluation
    exact: Exact | None
    houses: list[int]
    stores: list[int]
    note: str | None = None
    ranking: list[MoveValue] | None = None
    book: bool = False  # the best move is the opening book's (the analysis is its entry)
    exact_scope: str = ""  # how far exact verdicts reach on this server (:func:`exact_scope`)

    def _repr_svg_(self) -> str:
        """The board, the best move outlined and every move's value, in a notebook
        (:func:`gamelab.oware.pictures.analysis_svg`)."""
        from gamelab.oware.pictures import analysis_svg

        a = self.analysis
        moves = [(v.move, v.text + (" (exact)" if v.exact else "")) for v in self.ranking or []]
        to_move = 0 if a.to_move == "South" else 1
        return analysis_svg(
            self.houses, self.stores, to_move, a.best_move_text, moves, self.evaluation.text
        )


def _exact_value(child: Position, mover: int, unit: int) -> tuple[int, str] | None:
    """The mover's exact score and its words after a move into `child` (the game over, or the
    tablebase's verdict), None when neither applies."""
    if child.is_over():
        final = list(child.result())
        how = "the game ends"
    else:
        exact = exact_verdict(child)
        if exact is None:
            return None
        final = list(exact.final)
        how = "with perfect play"
    margin = final[mover] - final[1 - mover]
    if margin == 0:
        return 0, f"a draw {final[0]}-{final[1]} ({how})"
    winner = SIDES[0] if final[0] > final[1] else SIDES[1]
    score = (K.WIN - 1 + unit * margin) if margin > 0 else (-K.WIN + 1 + unit * margin)
    return score, f"{winner} wins {final[0]}-{final[1]} ({how})"


def rank_moves(position: Position, analysis: Analysis, engine: Any, unit: int) -> list[MoveValue]:
    """Every legal move of `position` with its value for the mover, best first (ties: the
    analysis's best move, then house order): exact where the game ends or the tablebase
    covers the position after the move, else the engine's search one ply less deep than
    `analysis` (its best move keeps the analysis's score). Cost: one such search a move, with
    the engine's table still warm from the analysis."""
    mover = position.to_move
    side = SIDES[mover]
    values = []
    for m in position.legal_moves():
        child = position.play(m)
        exact = _exact_value(child, mover, unit)
        if exact is not None:
            score, text = exact
            values.append(MoveValue(move_letter(mover, m), score, text, True, 0))
            continue
        depth = max(1, analysis.depth - 1)
        if m == analysis.best_move:
            score = analysis.score
        else:
            score = -engine.search(child, depth=depth).score
        values.append(
            MoveValue(move_letter(mover, m), score, score_label(score, unit, side), False, depth)
        )
    best = analysis.best_move_text
    return sorted(values, key=lambda v: (-v.score, v.move != best, v.move.upper()))


@dataclass(frozen=True)
class GameRecord:
    """The game in the record format of ``gamelab oware play`` (loadable again)."""

    text: str
    filename: str


def replay(start: str, rules: Rules, moves: list[str]) -> tuple[OwareState, list[Position]]:
    """The game through the state protocol: its state after `moves` (house letters: the
    protocol's notation) from `start`, and the position before each move and after the last;
    an illegal move raises ValueError saying why."""
    if len(moves) > MAX_MOVES:
        raise ValueError(
            f"a game of {len(moves)} moves is longer than allowed (at most {MAX_MOVES})"
        )
    state = OwareGame(rules, Position.from_text(start, rules)).new_initial_state()
    trail = [state.position]
    for i, m in enumerate(moves):
        try:
            state.apply(state.string_to_action(m))
        except ValueError as exc:
            raise ValueError(f"move {i + 1} ({m.strip()}): {exc}") from None
        trail.append(state.position)
    return state, trail


@lru_cache(maxsize=2)
def _tablebase(reach: int) -> Tablebase:
    # the endgame database where this machine has built and verified it past the default table
    return load_tablebase(reach)


def exact_scope(rules: Rules) -> str:
    """How far this server's exact verdicts and engine reach under `rules`, in words: "exact
    endgames from 24 seeds down" where the endgame database is built to 24 and verified
    (``tablebase.ready_reach``: 12 while it is being verified)."""
    if not rules.is_abapa:
        return "no exact endgames under this rule variant: the tables are Abapa's"
    return table_words(ready_reach())


def exact_verdict(position: Position) -> Exact | None:
    """The tablebase's result of `position` under perfect play, or None outside it (the best
    table at hand: ``tablebase.ready_reach``)."""
    if position.is_over() or not position.rules.is_abapa:
        return None
    reach = ready_reach()
    if position.seeds_on_board() > reach:
        return None  # decided without loading the table
    table = _tablebase(reach)
    if not table.covers(position):
        return None
    diff = table.final_difference(position)
    mover = position.to_move
    mine = (SEEDS + diff) // 2
    final = [mine, SEEDS - mine] if mover == 0 else [SEEDS - mine, mine]
    outcome = "win" if diff > 0 else "loss" if diff < 0 else "draw"
    side = SIDES[mover]
    if diff == 0:
        text = f"exact (endgame tablebase): a draw with perfect play, {final[0]}-{final[1]}"
    else:
        winner = SIDES[0] if final[0] > final[1] else SIDES[1]
        text = (
            f"exact (endgame tablebase): {winner} wins with perfect play, {final[0]}-{final[1]} "
            f"when every seed is played out"
        )
    share = 0.5 if final[0] == final[1] else float(final[0] > final[1])
    return Exact(position.seeds_on_board(), outcome, side, final, share, text)


def _sowing(before: Position, after: Position, offset: int, letter: str) -> Sowing:
    """The move from `before` to `after` (the states' positions) as the animation shows it."""
    side, house = before.to_move, 6 * before.to_move + offset
    path = [(house + 1 + k % 11) % 12 for k in range(before.houses[house])]  # itself skipped
    sown = [0 if h == house else n + path.count(h) for h, n in enumerate(before.houses)]
    ending = after.outcome()
    left = after.houses if ending is None else ending.board  # before the rule's share
    theirs = range(6 * (1 - side), 12 - 6 * side)
    captured = [h for h in theirs if sown[h] and not left[h]]
    slam = is_grand_slam(before.houses, side, offset)
    return Sowing(
        letter,
        SIDES[side],
        house,
        list(before.houses),
        list(before.stores),
        path,
        sum(sown[h] for h in captured),
        captured,
        slam,
    )


def _view(state: OwareState, trail: list[Position]) -> GameView:
    """What a page shows of the game in `state` (`trail`: its positions, as :func:`replay`)."""
    p, start = state.position, state.start
    moves = [move_letter(b.to_move, a) for b, a in zip(trail, state.moves, strict=False)]
    last = _sowing(trail[-2], p, state.moves[-1], moves[-1]) if moves else None
    outcome = p.outcome()
    over = state.is_terminal()
    reason = outcome.reason if outcome is not None else None
    winner = {1.0: SIDES[0], -1.0: SIDES[1]}.get(state.returns()[0])
    end_houses = end_stores = None
    if outcome is not None and moves:  # the board the last move left, before the rule's share
        end_houses, end_stores = list(outcome.board), list(outcome.stores)
    return GameView(
        start=start.to_text(),
        grand_slam=start.rules.grand_slam,
        cycle=start.rules.cycle,
        moves=moves,
        position=p.to_text(),
        houses=list(p.houses),
        stores=list(p.stores),
        to_move=SIDES[p.to_move],
        legal=[state.action_to_string(a) for a in state.legal_actions()],
        over=over,
        result=list(p.result()) if over else None,
        winner=winner,
        end_reason=reason,
        last=last,
        exact=exact_verdict(p),
        end_board=end_houses,
        end_stores=end_stores,
        end_text=_end_text(end_stores or list(p.stores), list(p.result()), reason)
        if over
        else None,
        exact_scope=exact_scope(start.rules),
    )


def game_view(start: str, rules: Rules, moves: list[str]) -> GameView:
    """The game replayed from `start` through `moves` (house letters), checked move by move."""
    return _view(*replay(start, rules, moves))


def play_move(start: str, rules: Rules, moves: list[str], move: str) -> GameView:
    """The game after the side to move plays `move`; a ValueError says why an illegal one is."""
    state, trail = replay(start, rules, moves)
    state.apply(state.string_to_action(move))
    return _view(state, [*trail, state.position])


def take_back(start: str, rules: Rules, moves: list[str], side: str) -> GameView:
    """The game back at `side`'s previous turn: the last move is taken back, and the moves before
    it too until `side` is to move again (the opponent's reply and your move)."""
    if side not in SIDES:
        raise ValueError(f"side must be South or North, got {side!r}")
    if not moves:
        raise ValueError("there is no move to take back")
    state, trail = replay(start, rules, moves)
    n = len(moves) - 1
    while n > 0 and SIDES[trail[n].to_move] != side:
        n -= 1
    return _view(OwareState(state.game, state.start, trail[n], state.moves[:n]), trail[: n + 1])


@lru_cache(maxsize=4)
def game_engine(evaluation: str, tablebase_seeds: int) -> Any:
    """The process's engine for this evaluation and tablebase (one per setting: its tables and
    caches are reused across calls; callers clear its search state)."""
    from gamelab.oware.search import Engine

    return Engine(evaluation=evaluation, tablebase_seeds=tablebase_seeds)


def _analyse(
    position: Position,
    time_limit: float | None = None,
    depth: int | None = None,
    evaluation: str = "auale",
    tablebase_seeds: int = TABLEBASE_SEEDS,
) -> Analysis:
    # tablebase_seeds: resolved by the caller (engine_seeds), so the ranking uses the same table
    engine = game_engine(evaluation, tablebase_seeds)
    engine.clear()  # the same answer whatever this process searched before
    return analyse(
        position,
        time_limit=time_limit,
        depth=depth,
        evaluation=evaluation,
        tablebase_seeds=tablebase_seeds,
        engine=engine,
    )


def check_opponent(spec: PlayerSpec) -> PlayerSpec:
    """`spec` if this page offers it (not OpenSpiel's MCTS; engine times, depths and the
    tablebase within the page's limits), else a ValueError saying what is offered."""
    if isinstance(spec, MctsSpec):
        raise ValueError(
            "the mcts opponent needs OpenSpiel and is not offered here; "
            "choose engine, blog, greedy or random"
        )
    if isinstance(spec, EngineSpec) and (spec.time or 0) > MAX_ENGINE_SECONDS:
        raise ValueError(
            f"engine time per move is at most {MAX_ENGINE_SECONDS:g} s here, got {spec.time:g}"
        )
    depth = spec.depth if isinstance(spec, EngineSpec | BlogSpec) else None
    most = MAX_PAGE_DEPTH[spec.kind] if isinstance(spec, EngineSpec | BlogSpec) else 0
    if depth is not None and depth > most:
        raise ValueError(f"{spec.kind} search depth is at most {most} here, got {depth}")
    if isinstance(spec, EngineSpec) and spec.tablebase not in (-1, TABLEBASE_SEEDS):
        raise ValueError(
            "the engine here probes the best endgame table this server has (or none with "
            f"tb=-1), got tb={spec.tablebase}"
        )
    return spec


def engine_reply(
    start: str, rules: Rules, moves: list[str], opponent: PlayerSpec, seed: int = 0
) -> EngineReply:
    """The opponent's move (an :class:`~gamelab.oware.match.EngineSpec`, a blog spec, greedy or
    random); random choices are seeded by (seed, ply), so a game replays."""
    spec = check_opponent(opponent)
    state, trail = replay(start, rules, moves)
    p = state.position
    if state.is_terminal():
        raise ValueError("the game is over; there is no move to reply")
    analysis, evaluation, book = None, None, None
    if isinstance(spec, EngineSpec):
        book = book_analysis(p) if spec.book else None
        analysis = book or _analyse(
            p,
            time_limit=spec.time,
            depth=spec.depth,
            evaluation=spec.eval,
            # the default table means the best at hand (the page's engines are players)
            tablebase_seeds=engine_seeds(None if spec.tablebase == TABLEBASE_SEEDS else -1),
        )
        off = analysis.best_move
    else:
        rng = np.random.default_rng([seed, len(moves)])
        off = make_player(spec, seed).choose(p, state.legal_actions(), rng)
    letter = state.action_to_string(off)
    state.apply(off)
    view = _view(state, [*trail, state.position])
    if analysis is not None and analysis.score_unit.startswith("auale"):
        evaluation = evaluation_of(
            analysis.score,
            p.to_move,
            _source(analysis, book is not None),
            None if state.is_terminal() else exact_verdict(state.position),
        )
    return EngineReply(str(spec), letter, analysis, evaluation, view, book=book is not None)


def _source(analysis: Analysis, book: bool) -> str:
    if book:
        return f"opening book, depth {analysis.depth}"
    return f"engine, depth {analysis.depth}"


def analyse_position(
    position: str,
    rules: Rules = ABAPA,
    time_limit: float | None = 1.0,
    moves: list[str] | None = None,
    depth: int | None = None,
    evaluation: str = "auale",
    tablebase_seeds: int | None = None,
    rank: bool = False,
    book: bool = False,
) -> PositionAnalysis:
    """The engine's analysis of a position given in its text form (or of the game from it
    through `moves`, so the repetition history counts), within `time_limit` seconds or to
    `depth` plies (a depth wins when both are given), with the engine's `evaluation`
    (``auale`` or ``blog``) and endgame tablebase (seeds, -1 for none; None: the best this
    machine has verified, ``tablebase.ready_reach``, named in the analysis); `rank` adds every legal
    move with its value (:func:`rank_moves`); `book` answers a position of the opening book with
    the book's entry instead of a search (the hint: the book searched deeper). The document of ``gamelab oware analyse --json``,
    ``oware hint --json`` and ``/api/oware/analyse``."""
    if evaluation not in SEED_UNIT:
        raise ValueError(f"evaluation must be one of {', '.join(SEED_UNIT)}, got {evaluation!r}")
    low, high = LIMITS["engine", "tb"]
    if tablebase_seeds is not None and not low <= tablebase_seeds <= high:
        raise ValueError(
            f"tablebase must be {low:g} (none) to {high:g} seeds, got {tablebase_seeds}"
        )
    # the position and the moves are read before the tablebase is looked up (its kernels
    # compile on first use): bad input is refused at once
    p = replay(position, rules, list(moves or []))[0].position
    if depth is not None:
        if not 1 <= depth <= 20:
            raise ValueError(f"analysis depth must be 1-20, got {depth}")
        time_limit = None
    elif time_limit is None or not 0 < time_limit <= MAX_ENGINE_SECONDS:
        raise ValueError(
            f"analysis time must be more than 0 and at most {MAX_ENGINE_SECONDS:g} "
            f"seconds, got {time_limit}"
        )
    tablebase_seeds = engine_seeds(tablebase_seeds)
    entry = book_analysis(p) if book and not rank and evaluation == "auale" else None
    a = entry or _analyse(
        p,
        time_limit=time_limit,
        depth=depth,
        evaluation=evaluation,
        tablebase_seeds=tablebase_seeds,
    )
    exact = exact_verdict(p)
    unit = SEED_UNIT[evaluation]
    ranking = rank_moves(p, a, game_engine(evaluation, tablebase_seeds), unit) if rank else None
    return PositionAnalysis(
        a,
        evaluation_of(a.score, p.to_move, _source(a, entry is not None), exact, unit),
        exact,
        list(p.houses),
        list(p.stores),
        ranking=ranking,
        book=entry is not None,
        exact_scope=exact_scope(rules),
    )


def game_record(
    start: str, rules: Rules, moves: list[str], south: str = "?", north: str = "?"
) -> GameRecord:
    """The game's record (the text ``gamelab oware play`` saves and loads)."""
    for name in (south, north):
        if len(name) > 60 or "\n" in name or "#" in name:
            raise ValueError(
                f"a player name is one line of at most 60 characters without '#', got {name!r}"
            )
    state = replay(start, rules, moves)[0]
    return GameRecord(
        format_record(state.start, state.moves, south or "?", north or "?"),
        f"oware-{len(state.moves)}-moves.txt",
    )


def load_record(text: str) -> GameView:
    """A game record (the text ``gamelab oware play`` saves) opened as a game, with the players
    it names (its `players`: South's, North's; "?" where it names none)."""
    start, offsets, headers = parse_record(text)
    if len(offsets) > MAX_MOVES:
        raise ValueError(
            f"a game of {len(offsets)} moves is longer than allowed (at most {MAX_MOVES})"
        )
    state, trail = record_trail(start, offsets)
    players = [headers.get("south", "?") or "?", headers.get("north", "?") or "?"]
    return dataclasses.replace(_view(state, trail), players=players)
