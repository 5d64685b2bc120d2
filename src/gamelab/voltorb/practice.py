"""Practice rounds: a board from the game's own generator at a chosen level, replayable from its
seed, played flip by flip under the game's rules (coins, a Voltorb ends the round, quitting keeps
the coins, the level of the next round from ``CalcNextLevel``).

A round is a state of the common protocol (:class:`gamelab.voltorb.state.VoltorbState`, the
road every shell takes): dealt by its chance nodes from the seed's generator
(:func:`practice_state`), then played by the protocol's actions (a tile 0-24, or
:data:`~gamelab.voltorb.state.QUIT`). Nothing is stored between calls: a round is identified by
(generator, level, seed), and its state is replayed from the flips made so far
(:func:`play_practice`). That is what lets the web page hold the state while the board itself
stays hidden until the round ends.

    >>> r = new_practice(VoltorbSetting(1), seed=7)
    >>> r.rows == play_practice(VoltorbSetting(1), 7, []).rows
    True
    >>> s = play_practice(VoltorbSetting(1), 7, [], quit=True)
    >>> (s.outcome, s.coins, s.next_level)
    ('quit', 0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from gamelab.core.state import resolve_chance
from gamelab.voltorb.rules import SIZE, VoltorbSetting, next_level
from gamelab.voltorb.state import QUIT, VoltorbGame, VoltorbState

if TYPE_CHECKING:
    from gamelab.voltorb.rules import Round

MAX_SEED = 2**63 - 1
#: the coin case holds at most this many coins (a round pays at most 50,000 too)
MAX_BANK = 50_000

__all__ = [
    "PracticeRound",
    "PracticeState",
    "new_practice",
    "play_practice",
    "practice_board",
    "practice_flips",
    "practice_state",
]


@dataclass(frozen=True)
class PracticeRound:
    """A new round: what the player sees before the first flip."""

    generator: str
    level: int
    seed: int
    rows: str  # clues "S,V S,V ..." top to bottom
    cols: str


@dataclass(frozen=True)
class PracticeState:
    """A round after the flips so far. Tiles are ``[row, col]`` from 1; ``revealed`` lists
    ``[row, col, value]`` in flip order (0 = Voltorb). ``board``, ``next_level``,
    ``history`` and ``bank`` are filled in once the round is over (None before)."""

    generator: str
    level: int
    seed: int
    rows: str
    cols: str
    revealed: list[list[int]]
    coins: int  # coins of this round so far (0 after a Voltorb)
    outcome: str | None  # None while playing, else "won", "lost" or "quit"
    cards_flipped: int  # non-Voltorb cards (1s included): drives the level progression
    multipliers_left: int  # 2s and 3s still hidden
    board: list[list[int]] | None = None  # the whole board, once the round is over
    next_level: int | None = None  # the level of the next round
    history: list[list] | None = None  # the last rounds as [outcome, cards flipped], this one last
    bank: int | None = None  # coins in the case after this round


def _check_seed(seed: int) -> None:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be an integer from 0 to {MAX_SEED}, got {seed!r}")


def practice_state(setting: VoltorbSetting, seed: int) -> VoltorbState:
    """Round (setting, seed) dealt, before its first flip: the deal's chance nodes resolved by
    the generator seeded with `seed`, so the board is the same on every call and machine."""
    _check_seed(seed)
    state = VoltorbGame(setting, objective="coins").new_initial_state()
    resolve_chance(state, np.random.default_rng(seed))
    return state


def _round(state: VoltorbState) -> Round:  # the dealt round's figures (clues, coins)
    assert state.round is not None, "a practice state is dealt"
    return state.round


def practice_board(setting: VoltorbSetting, seed: int) -> np.ndarray:
    """The board of round (setting, seed): the same on every call and machine."""
    return _round(practice_state(setting, seed)).board


def new_practice(setting: VoltorbSetting, seed: int) -> PracticeRound:
    """The clues of a new practice round."""
    rows, cols = _round(practice_state(setting, seed)).clues.as_text()
    return PracticeRound(setting.generator, setting.level, seed, rows, cols)


def practice_flips(flips: list) -> tuple[tuple[int, int], ...]:
    """The flips of a practice round to review, ``[[row, col], ...]`` from 1, as ``(row,
    col)`` pairs: ValueError (the shells' message) if there are none or one is malformed."""
    if not flips:
        raise ValueError("no flips to review: play at least one tile")
    out = []
    for tile in flips:
        if len(tile) != 2 or not all(1 <= int(x) <= 5 for x in tile):
            raise ValueError(f"each flip is [row, col] with both from 1 to 5, got {tile!r}")
        out.append((int(tile[0]), int(tile[1])))
    return tuple(out)


def _tile(flip, i: int) -> int:
    try:
        r, c = (int(x) for x in flip)
    except (TypeError, ValueError):
        raise ValueError(f"flip {i + 1}: a flip is [row, col], got {flip!r}") from None
    if not (1 <= r <= SIZE and 1 <= c <= SIZE):
        raise ValueError(f"flip {i + 1}: rows and columns are 1-5, got [{r}, {c}]")
    return (r - 1) * SIZE + (c - 1)


def _check_history(history: list) -> list[tuple[str, int]]:
    out = []
    for i, item in enumerate(history):
        try:
            outcome, cards = item
            cards = int(cards)
        except (TypeError, ValueError):
            raise ValueError(
                f"history entry {i + 1}: expected [outcome, cards flipped], got {item!r}"
            ) from None
        if outcome not in ("won", "lost", "quit") or not 0 <= cards <= 25:
            raise ValueError(
                f"history entry {i + 1}: outcome is won, lost or quit and cards flipped 0-25, "
                f"got {item!r}"
            )
        out.append((outcome, cards))
    return out[-5:]


def play_practice(
    setting: VoltorbSetting,
    seed: int,
    flips: list,
    quit: bool = False,
    history: list | None = None,
    bank: int = 0,
) -> PracticeState:
    """Replay round (setting, seed) with `flips` (``[[row, col], ...]``), then quit if
    asked. `history` (the previous rounds, ``[[outcome, cards], ...]``) and `bank` (coins held
    before this round) give the next level and the coins once the round is over.

    Raises ValueError for a tile flipped twice, a flip after the round ended, or quitting a round
    that is over. Quitting is allowed at any time before that (the round's coins are kept).
    """
    level = setting.level
    past = _check_history(history or [])
    if not isinstance(bank, int) or not 0 <= bank <= MAX_BANK:
        raise ValueError(f"bank must be 0 to {MAX_BANK} coins, got {bank!r}")
    if len(flips) > SIZE * SIZE:
        raise ValueError(f"a round has at most 25 flips, got {len(flips)}")
    played = practice_state(setting, seed)
    rnd = _round(played)  # read only: the state moves by the protocol's actions
    for i, flip in enumerate(flips):
        tile = _tile(flip, i)
        if played.is_terminal():
            raise ValueError(f"flip {i + 1}: the round is already over ({rnd.outcome})")
        if tile not in played.legal_actions():
            raise ValueError(
                f"flip {i + 1}: row {tile // SIZE + 1}, column {tile % SIZE + 1} is already revealed"
            )
        played.apply(tile)
    if quit:
        if played.is_terminal():
            raise ValueError(f"the round is already over ({rnd.outcome}); nothing to quit")
        played.apply(QUIT)
    order = [t for t in played.flips if t != QUIT]
    rows, cols = rnd.clues.as_text()
    state: dict[str, Any] = dict(
        generator=setting.generator,
        level=level,
        seed=seed,
        rows=rows,
        cols=cols,
        revealed=[[t // SIZE + 1, t % SIZE + 1, int(rnd.revealed[t])] for t in order],
        coins=int(rnd.coins),
        outcome=rnd.outcome,
        cards_flipped=int(rnd.cards_flipped),
        multipliers_left=int(rnd.multipliers_left),
    )
    if rnd.outcome is not None:
        done = [*past, (rnd.outcome, int(rnd.cards_flipped))][-5:]
        state.update(
            board=np.asarray(rnd.board).tolist(),
            next_level=next_level(level, rnd.outcome, int(rnd.cards_flipped), done),
            history=[list(x) for x in done],
            bank=min(bank + int(rnd.coins), MAX_BANK),
        )
    return PracticeState(**state)
