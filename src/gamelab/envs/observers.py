"""What a player of each game sees, as a tensor and a string: the observers behind OpenSpiel's
``observation_tensor``, ``observation_string``, ``information_state_tensor`` and
``information_state_string`` for gamelab's registered games (:mod:`gamelab.envs.openspiel`).

A :class:`GameObserver` follows OpenSpiel's Python observer interface (``make_py_observer``,
the ``PyObserver`` of ``open_spiel/python/observation.py``): a flat float32 ``tensor``, a
``dict`` of named, shaped views into it, ``set_from(state, player)`` and ``string_from(state,
player)``. What it holds depends on the observation type OpenSpiel asks for
(``pyspiel.IIGObservationType``):

* **perfect-information games** (Owaré, Yatzy, the lattice): everything is public. The
  observation is the position from the player's side; with perfect recall (the information
  state) the string is the history of actions (``history_str``, as OpenSpiel's own
  ``IIGObserverForPublicInfoGame``) and there is no tensor; private information is empty.
* **hidden-information games** (Voltorb: the unrevealed tiles; Wordle: the answer): one player,
  who sees only what the game shows (clues, revealed tiles, colours). That is the player's
  private information; the public part is empty. The observation is the current view; the
  information state adds the order of what was seen (Voltorb's flips in turn; Wordle's rows are
  already in order, so both are the same there).

Every number is scaled to about 0..1 (counts by their maximum, one-hot codes); the shapes,
per game (``L`` residues, ``M`` lattice moves, ``P`` players, ``B`` boxes, ``G`` guesses
allowed, ``N`` letters per name, ``A`` letters of the list's alphabet):

=========  =========================================================  ========================
game       observation pieces                                         information state
=========  =========================================================  ========================
oware      houses (2, 6) own row first, stores (2,), to_move (2,)    history string
lattice    sequence (L,) H = 1, moves (L-1, M) one-hot                history string
yatzy      dice (6,), rolls_left (3,), filled (P, B), points (P, B),  history string
           upper (P,), yahtzee_bonuses (P,), to_move (P,); own first
voltorb    clues (4, 5): row sums, row Voltorbs, column sums,         clues (4, 5), flips
           column Voltorbs; tiles (5, 5, 5): hidden, 0, 1, 2, 3       (26, 30): tile or quit,
                                                                      then the value seen
wordle     letters (G, N, A), colours (G, N, 3): grey, yellow, green  the same
=========  =========================================================  ========================

The views read the game's state through its protocol adapter (``gamelab.<game>.state``), or
Owaré's lean stepper (:class:`gamelab.oware.stepper.GameStepper`, which keeps the same
``houses``, ``stores`` and ``to_move`` as a position).

>>> from gamelab.lattice.state import LatticeGame
>>> view = view_for("lattice", LatticeGame("HPPH"))
>>> view.pieces(OBSERVATION)
[('sequence', (4,)), ('moves', (3, 4))]
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: What an observer shows: the current view, the information state, the history string only
#: (perfect-information games with perfect recall), or nothing (a part the game does not have).
OBSERVATION, INFORMATION, HISTORY, NOTHING = "observation", "information", "history", "nothing"

Pieces = list[tuple[str, tuple[int, ...]]]


class GameView:
    """One game's observation: its pieces, how to fill them, and its strings."""

    perfect_information = True

    def pieces(self, mode: str) -> Pieces:
        raise NotImplementedError

    def fill(self, mode: str, inner: Any, player: int, out: dict[str, np.ndarray]) -> None:
        raise NotImplementedError

    def text(self, mode: str, inner: Any, player: int) -> str:
        raise NotImplementedError

    def mode(self, public: bool, private: bool, recall: bool) -> str:
        """What an observer of this kind shows (see the module)."""
        if self.perfect_information:
            if not public:
                return NOTHING
            return HISTORY if recall else OBSERVATION
        if not private:
            return NOTHING
        return INFORMATION if recall else OBSERVATION


class GameObserver:
    """OpenSpiel's Python observer over a :class:`GameView` (see the module)."""

    def __init__(self, view: GameView, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"gamelab's observers take no parameters, got {dict(params)}")
        if iig_obs_type is None:  # OpenSpiel's default: public and own private info, no recall
            self.mode = view.mode(True, True, False)
        else:
            import pyspiel

            self.mode = view.mode(
                bool(iig_obs_type.public_info),
                iig_obs_type.private_info != pyspiel.PrivateInfoType.NONE,
                bool(iig_obs_type.perfect_recall),
            )
        self.view = view
        self.dict: dict[str, np.ndarray] = {}
        self.tensor: np.ndarray | None = None
        if self.mode == HISTORY:
            return
        pieces = view.pieces(self.mode) if self.mode != NOTHING else []
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: Any, player: int) -> None:
        """Fill ``tensor`` (and so ``dict``) from `state` as `player` sees it."""
        if self.tensor is None:
            return
        self.tensor.fill(0.0)
        if self.mode != NOTHING:
            self.view.fill(self.mode, state.inner, player, self.dict)

    def string_from(self, state: Any, player: int) -> str:
        if self.mode == NOTHING:
            return ""
        if self.mode == HISTORY:
            return str(state.history_str())
        return self.view.text(self.mode, state.inner, player)


def _one_hot_side(out: np.ndarray, to_move: int, player: int, terminal: bool) -> None:
    """`out[0]` = 1 when `player` is to move, `out[k]` when the k-th next player is."""
    if not terminal and to_move >= 0:
        out[(to_move - player) % len(out)] = 1.0


class OwareView(GameView):
    def pieces(self, mode: str) -> Pieces:
        return [("houses", (2, 6)), ("stores", (2,)), ("to_move", (2,))]

    @staticmethod
    def board(inner: Any) -> Any:
        """The object holding houses, stores and to_move: a position, or the lean stepper."""
        return getattr(inner, "position", inner)

    def fill(self, mode: str, inner: Any, player: int, out: dict[str, np.ndarray]) -> None:
        from gamelab.oware.rules import SEEDS

        board = self.board(inner)
        houses = board.houses
        own, other = (houses[:6], houses[6:]) if player == 0 else (houses[6:], houses[:6])
        out["houses"][0] = own
        out["houses"][1] = other
        out["houses"] /= SEEDS
        out["stores"][:] = (board.stores[player], board.stores[1 - player])
        out["stores"] /= SEEDS
        over = inner.done if hasattr(inner, "done") else inner.is_terminal()  # stepper or state
        _one_hot_side(out["to_move"], board.to_move, player, over)

    def text(self, mode: str, inner: Any, player: int) -> str:
        board = self.board(inner)
        numbers = "-".join(str(x) for x in (*board.houses, *board.stores))
        return f"{numbers}-{'SN'[board.to_move]}"


class LatticeView(GameView):
    def __init__(self, game: Any) -> None:
        from gamelab.lattice.rules import MOVES

        self.game = game
        self.moves = MOVES[game.lattice]

    def pieces(self, mode: str) -> Pieces:
        return [
            ("sequence", (self.game.length,)),
            ("moves", (self.game.length - 1, len(self.moves))),
        ]

    def fill(self, mode: str, inner: Any, player: int, out: dict[str, np.ndarray]) -> None:
        out["sequence"][:] = [c == "H" for c in self.game.sequence]
        for k, letter in enumerate(inner.conformation):
            out["moves"][k, self.moves.index(letter)] = 1.0

    def text(self, mode: str, inner: Any, player: int) -> str:
        return str(inner.to_text())


class YatzyView(GameView):
    def __init__(self, game: Any) -> None:
        self.game = game
        rules = game.rules
        self.upper = [b for b in range(rules.n_boxes) if rules.upper_face(b) > 0]
        self.top = float(max(50, int(rules.base_scores.max())))  # the largest box score

    def pieces(self, mode: str) -> Pieces:
        p, b = self.game.players, self.game.rules.n_boxes
        return [
            ("dice", (6,)),
            ("rolls_left", (3,)),
            ("filled", (p, b)),
            ("points", (p, b)),
            ("upper", (p,)),
            ("yahtzee_bonuses", (p,)),
            ("to_move", (p,)),
        ]

    def fill(self, mode: str, inner: Any, player: int, out: dict[str, np.ndarray]) -> None:
        from gamelab.yatzy.rules import DICE, UPPER_CAP

        if inner.roll >= 0:
            out["dice"][:] = inner.dice
            out["dice"] /= DICE
            out["rolls_left"][inner.rolls_left] = 1.0
        players = self.game.players
        for k in range(players):
            card = inner.cards[(player + k) % players]
            upper = 0
            for b, v in enumerate(card.entries):
                if v is not None:
                    out["filled"][k, b] = 1.0
                    out["points"][k, b] = v / self.top
                    if b in self.upper:
                        upper += v
            out["upper"][k] = min(upper, UPPER_CAP) / UPPER_CAP
            out["yahtzee_bonuses"][k] = card.yahtzee_bonuses
        _one_hot_side(out["to_move"], inner.player, player, inner.is_terminal())

    def text(self, mode: str, inner: Any, player: int) -> str:
        return str(inner.to_text())


class VoltorbView(GameView):
    perfect_information = False
    #: flips a round can hold: every tile, then quit
    MAX_FLIPS = 26

    def pieces(self, mode: str) -> Pieces:
        if mode == INFORMATION:
            return [("clues", (4, 5)), ("flips", (self.MAX_FLIPS, self.MAX_FLIPS + 4))]
        return [("clues", (4, 5)), ("tiles", (5, 5, 5))]

    def fill(self, mode: str, inner: Any, player: int, out: dict[str, np.ndarray]) -> None:
        r = inner.round
        if r is None:
            return  # the deal: nothing shown yet
        c = r.clues
        out["clues"][:] = (c.row_sums / 15, c.row_voltorbs / 5, c.col_sums / 15, c.col_voltorbs / 5)
        if mode == INFORMATION:
            flips = out["flips"]
            for k, tile in enumerate(inner.flips):
                flips[k, tile] = 1.0
                if tile in r.revealed:
                    flips[k, self.MAX_FLIPS + r.revealed[tile]] = 1.0
            return
        tiles = out["tiles"].reshape(5, 25)
        tiles[0] = 1.0
        for tile, value in r.revealed.items():
            tiles[0, tile] = 0.0
            tiles[1 + value, tile] = 1.0

    def text(self, mode: str, inner: Any, player: int) -> str:
        r = inner.round
        if r is None:
            return "dealing"
        c = r.clues
        rows = " ".join(f"{s}/{v}" for s, v in zip(c.row_sums, c.row_voltorbs, strict=True))
        cols = " ".join(f"{s}/{v}" for s, v in zip(c.col_sums, c.col_voltorbs, strict=True))
        head = f"rows {rows} cols {cols}"
        if mode == INFORMATION:
            seen = ["quit" if t not in r.revealed else f"{t}={r.revealed[t]}" for t in inner.flips]
            return f"{head} flips {' '.join(seen) or '-'}"
        grid = "".join(str(r.revealed[t]) if t in r.revealed else "?" for t in range(25))
        return f"{head} tiles {'/'.join(grid[i : i + 5] for i in range(0, 25, 5))}"


class WordleView(GameView):
    perfect_information = False

    def __init__(self, game: Any) -> None:
        from gamelab.wordle.rules import pattern_colours

        self.game = game
        words = game.table.words
        self.alphabet = {ch: i for i, ch in enumerate(sorted(set("".join(words.guesses))))}
        self.letters = max(len(w) for w in words.guesses)
        self._colours = pattern_colours

    def pieces(self, mode: str) -> Pieces:
        g, n = self.game.guess_limit, self.letters
        return [("letters", (g, n, len(self.alphabet))), ("colours", (g, n, 3))]

    def fill(self, mode: str, inner: Any, player: int, out: dict[str, np.ndarray]) -> None:
        guesses = self.game.table.words.guesses
        for row, (guess, code) in enumerate(zip(inner.guesses, inner.codes, strict=True)):
            name = guesses[guess]
            for i, ch in enumerate(name):
                out["letters"][row, i, self.alphabet[ch]] = 1.0
            for i, colour in enumerate(self._colours(code, len(name))):
                out["colours"][row, i, colour] = 1.0

    def text(self, mode: str, inner: Any, player: int) -> str:
        return " ".join(inner.row_text(k) for k in range(len(inner.guesses)))


def view_of(kind: str, game: Any) -> GameView:
    """The observation of the registered game `kind`: its record's ``view``
    (:class:`gamelab.core.state.GameInfo`), else the package's own (:func:`view_for`)."""
    from gamelab.core.state import game_info, load

    info = game_info(kind)
    if info.view:
        return load(info.view)(game)
    try:
        return view_for(kind, game)
    except ValueError:
        raise ValueError(f"{info.title}'s record gives no view (its observation)") from None


def view_for(kind: str, game: Any) -> GameView:
    """The view of a registered game (`kind` as in :mod:`gamelab.envs.openspiel`)."""
    if kind == "oware":
        return OwareView()
    if kind == "lattice":
        return LatticeView(game)
    if kind == "yatzy":
        return YatzyView(game)
    if kind == "voltorb":
        return VoltorbView()
    if kind == "wordle":
        return WordleView(game)
    raise ValueError(f"no observation for {kind!r}; games: oware, lattice, yatzy, voltorb, wordle")
