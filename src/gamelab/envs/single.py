"""The Gymnasium environments of gamelab's one-player games: what each game shows and draws.

Each class is the shell of :mod:`gamelab.envs.gym_env` (:class:`~gamelab.envs.gym_env.GameEnv`:
masks, regret, the episode summary, seeding, copies; the oracle and the lowest return from the
game's record) over one game's protocol adapter (``gamelab.<game>.state``), with what only that
game knows: its settings, its integer ``Dict`` observation (and richer ``observation=``
options), its lean stepper where it has one, its text and its picture. The records name them
(``gym_env``: :mod:`gamelab.games`), so ``gamelab.envs`` registers them under their ids.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from gamelab.envs.gym_env import ILLEGAL_ACTIONS, GameEnv
from gamelab.envs.render import CLUE, FACES, H_RESIDUE, P_RESIDUE

__all__ = [
    "ILLEGAL_ACTIONS",
    "GameEnv",
    "VoltorbFlipEnv",
    "YatzySolitaireEnv",
    "PokemonWordleEnv",
    "LatticeFoldEnv",
]

#: the pack level ``LatticeFold-v0`` plays when given no sequence and no level
#: (``gamelab.lattice.puzzle.DEFAULT_LEVEL``, the default of ``puzzle.lattice_game``)
DEFAULT_LEVEL = 1


# ------------------------------------------------------------------------------------------
def line_features(clues: np.ndarray, revealed: np.ndarray) -> np.ndarray:
    """(10, 6): for each row, then each column, of a Voltorb board: its clue's sum and
    Voltorbs, the tiles still hidden, the points still hidden (the sum less the cards shown),
    whether it is safe (no hidden Voltorb) and whether it has nothing left to gain (every hidden
    tile that is not a Voltorb is a 1)."""
    cards = revealed.reshape(5, 5)
    lines = [(clues[0, k], clues[1, k], cards[k]) for k in range(5)]
    lines += [(clues[2, k], clues[3, k], cards[:, k]) for k in range(5)]
    out = np.zeros((10, 6), dtype=np.int64)
    for k, (total, voltorbs, shown) in enumerate(lines):
        hidden = int((shown < 0).sum())
        points = int(total - shown[shown > 0].sum())
        voltorbs_hidden = int(voltorbs - (shown == 0).sum())
        out[k] = (
            total,
            voltorbs,
            hidden,
            points,
            voltorbs_hidden == 0,
            points == hidden - voltorbs_hidden,
        )
    return out


class VoltorbFlipEnv(GameEnv):
    """One round of Voltorb Flip (:class:`gamelab.voltorb.state.VoltorbGame`).

    Actions 0-24 flip a tile (row-major), 25 quits. Observation: ``clues`` (4 x 5: row sums,
    row Voltorbs, column sums, column Voltorbs), ``revealed`` (25 tiles, -1 hidden, else the
    card 0-3), ``coins``. Reward at the end: 1 for a cleared board (``objective="win"``, the
    oracle's measure, P(win)) or the coins (``objective="coins"``, no oracle).
    """

    def __init__(
        self, level: int = 8, generator: str = "hgss", objective: str = "win", **kwargs: Any
    ) -> None:
        from gamelab.voltorb.rules import VoltorbSetting
        from gamelab.voltorb.state import VoltorbGame
        from gamelab.voltorb.stepper import RoundStepper

        game = VoltorbGame(VoltorbSetting(level, generator), objective)  # the kwargs, parsed
        if objective != "win" and kwargs.get("regret", False):
            raise ValueError("regret is measured for objective 'win'; leave regret off")
        super().__init__(game, **kwargs)
        self.stepper = RoundStepper(game)
        parts: dict[str, spaces.Space] = {
            "clues": spaces.Box(0, 15, (4, 5), np.int64),
            "revealed": spaces.Box(-1, 3, (25,), np.int64),
            "coins": spaces.Box(0, 50_000, (1,), np.int64),
        }
        if self.observation in ("lines", "posterior"):
            parts["lines"] = spaces.Box(0, 15, (10, 6), np.int64)
        if self.observation == "posterior":
            parts["posterior"] = spaces.Box(0.0, 1.0, (25, 4), np.float32)
        self.observation_space = spaces.Dict(parts)
        self._root: Any = None  # the posterior of the round's clues (observation="posterior")

    OBSERVATIONS = ("default", "lines", "posterior")

    def observe(self) -> dict[str, np.ndarray]:
        st = self.stepper
        obs = {
            "clues": st.clues.copy(),
            "revealed": st.revealed.copy(),
            "coins": np.array([st.coins], dtype=np.int64),
        }
        if self.observation != "default":
            obs["lines"] = line_features(st.clues, st.revealed)
        if self.observation == "posterior":
            obs["posterior"] = self._tile_posterior()
        return obs

    def _tile_posterior(self) -> np.ndarray:
        """P(tile = Voltorb, 1, 2, 3) for every tile, exact under the generator's law given the
        clues and the flips (:mod:`gamelab.voltorb.posterior`); zeros once the round is over."""
        from gamelab.voltorb.posterior import Posterior

        if self.stepper.done:
            return np.zeros((25, 4), dtype=np.float32)
        r = self.state.round
        key = r.clues.key()
        if self._root is None or self._root[0] != key:
            self._root = (key, Posterior.from_clues(r.clues, self.game.setting))
        post = self._root[1]
        for tile, value in r.revealed.items():
            post = post.observe(tile, value)
        return post.still_playing().tile_probabilities().astype(np.float32)

    def text(self) -> str:
        r = self.state.round
        c = r.clues
        lines = []
        for row in range(5):
            cells = []
            for col in range(5):
                v = r.revealed.get(5 * row + col)
                cells.append("?" if v is None else ("V" if v == 0 else str(v)))
            lines.append(" ".join(cells) + f" | {c.row_sums[row]:>2},{c.row_voltorbs[row]}")
        lines.append(" ".join(f"{s:>1}" for s in c.col_sums) + "   column sums")
        lines.append(" ".join(f"{v:>1}" for v in c.col_voltorbs) + "   column Voltorbs")
        lines.append(f"coins {r.coins}" + (f" ({r.outcome})" if r.outcome else ""))
        return "\n".join(lines)

    cell = 32

    def grid(self) -> tuple[np.ndarray, dict[tuple[int, int], str]]:
        """The 5 x 5 tiles (grey hidden; a flipped one its card: V red, 1 white, 2 green,
        3 blue) and the clues: each row's sum over its Voltorbs to its right, each column's
        below it."""
        r = self.state.round
        c = r.clues
        grid = np.ones((6, 6), dtype=np.int64)
        grid[5, 5] = 0
        labels = {}
        for tile, value in r.revealed.items():
            grid[divmod(tile, 5)] = (2, 3, 4, 5)[value]
            labels[divmod(tile, 5)] = "V" if value == 0 else str(value)
        for k in range(5):
            grid[k, 5] = grid[5, k] = CLUE
            labels[(k, 5)] = f"{c.row_sums[k]}\n{c.row_voltorbs[k]}"
            labels[(5, k)] = f"{c.col_sums[k]}\n{c.col_voltorbs[k]}"
        return grid, labels


class YatzySolitaireEnv(GameEnv):
    """A game of Yatzy alone (:class:`gamelab.yatzy.state.YatzyGame`), under `rules`
    (``yatzy``, ``yahtzee``, ...: :data:`gamelab.yatzy.rules.RULES`).

    Actions below 462 keep dice (:data:`gamelab.yatzy.rules.KEEPS`; keeping all five stops
    rolling), then one per box (462 + box). Observation: ``dice`` (count per face), ``rolls_left``,
    ``card`` (points per box, -1 open), ``bonuses`` (extra Yahtzees). Reward: the points of each
    box (upper and Yahtzee bonuses included), so the return is the final score; the oracle's
    measure is the expected final score.
    """

    def __init__(self, rules: str = "yatzy", **kwargs: Any) -> None:
        from gamelab.yatzy.rules import get_rules
        from gamelab.yatzy.state import YatzyGame
        from gamelab.yatzy.stepper import SolitaireStepper

        game = YatzyGame(get_rules(rules))
        super().__init__(game, **kwargs)
        self.stepper = SolitaireStepper(game)
        self._no_dice = np.zeros(6, dtype=np.int64)
        n = game.rules.n_boxes
        self.observation_space = spaces.Dict(
            {
                "dice": spaces.Box(0, 5, (6,), np.int64),
                "rolls_left": spaces.Box(0, 2, (1,), np.int64),
                "card": spaces.Box(-1, 100, (n,), np.int64),
                "bonuses": spaces.Box(0, n, (1,), np.int64),
            }
        )

    def score(self, state: Any) -> float:
        return float(state.cards[0].total)

    def failed_return(self, state: Any) -> float:
        return float(state.cards[0].total)

    def observe(self) -> dict[str, np.ndarray]:
        st = self.stepper
        return {
            "dice": (self._no_dice if st.done else st.dice()).copy(),
            "rolls_left": np.array([st.rolls_left], dtype=np.int64),
            "card": st.card.copy(),
            "bonuses": np.array([st.bonuses], dtype=np.int64),
        }

    def text(self) -> str:
        from gamelab.yatzy.rules import dice_text

        s = self.state
        dice = dice_text(s.dice) if s.dice is not None else "-"
        return f"dice {dice}, rolls left {s.rolls_left}\ncard {s.cards[0].text()}\nscore {s.cards[0].total}"

    def grid(self) -> tuple[np.ndarray, dict[tuple[int, int], str]]:
        """Row 0: the dice, each face its own colour and number, then the rolls left; row 2:
        the card, box by box (grey open, green filled with its points)."""
        s = self.state
        n = self.game.rules.n_boxes
        grid = np.zeros((3, max(n, 7)), dtype=np.int64)
        labels = {}
        if s.dice is not None:
            faces = [f for f in range(6) for _ in range(int(s.dice[f]))]
            for k, f in enumerate(faces):
                grid[0, k] = FACES[f]
                labels[(0, k)] = str(f + 1)
            grid[0, 6] = CLUE
            labels[(0, 6)] = str(s.rolls_left)
        for b, v in enumerate(s.cards[0].entries):
            grid[2, b] = 1 if v is None else 4
            if v is not None:
                labels[(2, b)] = str(v)
        return grid, labels


class PokemonWordleEnv(GameEnv):
    """Pokémon Wordle (:class:`gamelab.wordle.state.WordleGame`) on the word list `names`
    (``gen1``, ``gen1-4``, ``genN-M``, ``all``) under `rule` (``standard`` or ``blog``).

    Action ``g`` guesses ``words.guesses[g]``. Observation: ``guesses`` (the guess indices so
    far, -1 after) and ``colours`` (each guess's pattern code, base 3 per letter, -1 after).
    Reward -1 per guess, and -1 more if the limit is used up unsolved (the return is minus the
    guesses, ``-(limit + 1)`` unsolved); the oracle's measure is the expected number of guesses.
    With ``repeats=False`` (``PokemonWordle-v1``) a guess already made is masked; a repeat never
    helps, so the oracle's values are unchanged, and a masked guess is an illegal action.
    """

    def __init__(
        self, names: str = "gen1", rule: str = "standard", repeats: bool = True, **kwargs: Any
    ) -> None:
        from gamelab.wordle.state import WordleGame
        from gamelab.wordle.stepper import GuessStepper

        if not isinstance(repeats, bool):
            raise ValueError(f"repeats must be True or False, got {repeats!r}")
        game = WordleGame(names, rule)
        super().__init__(game, **kwargs)
        self.stepper = GuessStepper(game, repeats)
        limit = game.guess_limit
        self._none = np.full(limit, -1, dtype=np.int64)
        parts: dict[str, spaces.Space] = {
            "guesses": spaces.Box(-1, game.num_actions - 1, (limit,), np.int64),
            "colours": spaces.Box(-1, game.table.n_codes - 1, (limit,), np.int64),
        }
        if self.observation == "planes":
            from gamelab.envs.observers import WordleView

            self._view = WordleView(game)
            #: the letters of the word list, in the planes' order
            self.alphabet = tuple(self._view.alphabet)
            shape = (limit, 3, self._view.letters, len(self.alphabet))
            parts["planes"] = spaces.Box(0, 1, shape, np.int8)
        self.observation_space = spaces.Dict(parts)

    OBSERVATIONS = ("default", "planes")

    def score(self, state: Any) -> float:
        return state.returns()[0] if state.is_terminal() else -float(len(state.guesses))

    def observe(self) -> dict[str, np.ndarray]:
        st = self.stepper
        guesses, colours = self._none.copy(), self._none.copy()
        k = len(st.guesses)
        if k:
            guesses[:k] = st.guesses
            colours[:k] = st.codes
        obs = {"guesses": guesses, "colours": colours}
        if self.observation == "planes":
            view = self._view
            pieces = {
                name: np.zeros(shape, np.float32) for name, shape in view.pieces("observation")
            }
            view.fill("observation", self.state, 0, pieces)
            # planes[g, c, i, a]: guess g's letter i is letter a and shows colour c
            planes = np.einsum("gia,gic->gcia", pieces["letters"], pieces["colours"])
            obs["planes"] = planes.astype(np.int8)
        return obs

    def text(self) -> str:
        rows = [self.state.row_text(k) for k in range(len(self.state.guesses))]
        return "\n".join(rows) if rows else "(no guess yet)"

    def grid(self) -> tuple[np.ndarray, dict[tuple[int, int], str]]:
        from gamelab.wordle.rules import pattern_colours

        length = self.game.table.words.length
        grid = np.zeros((self.game.guess_limit, length), dtype=np.int64)
        for k, code in enumerate(self.state.codes):
            name = self.game.table.words.guesses[self.state.guesses[k]]
            for j, c in enumerate(pattern_colours(code, len(name))):
                grid[k, j] = (1, 6, 4)[c]
        return grid, {}


class LatticeFoldEnv(GameEnv):
    """Fold an HP chain move by move (:class:`gamelab.lattice.state.LatticeGame`): a typed
    `sequence` or level `level` (1-based) of the default pack, on `lattice`; with neither, pack
    level :data:`DEFAULT_LEVEL` (HHPHPPHPPH, 10 residues).

    Action k appends move letter k (``R U L D``, then ``F B`` on the cubic lattice).
    Observation: ``sequence`` (1 for H), ``moves`` (the move indices so far, -1 after). Reward
    at the end: the fold's HH contacts, or -1 when the chain is trapped; the oracle's measure is
    the best score still reachable.
    """

    def __init__(
        self,
        sequence: str | None = None,
        level: int | None = None,
        lattice: str = "square",
        **kwargs: Any,
    ) -> None:
        from gamelab.lattice.puzzle import lattice_game

        game = lattice_game(sequence, level, lattice)  # the keywords, parsed once
        super().__init__(game, **kwargs)
        n = game.length
        parts: dict[str, spaces.Space] = {
            "sequence": spaces.Box(0, 1, (n,), np.int64),
            "moves": spaces.Box(-1, game.num_actions - 1, (n - 1,), np.int64),
        }
        if self.observation == "grid":
            side = (2 * n - 1,) * (2 if game.lattice == "square" else 3)
            parts["grid"] = spaces.Box(0, 1, (3, *side), np.int8)
        self.observation_space = spaces.Dict(parts)

    def observe(self) -> dict[str, np.ndarray]:
        from gamelab.lattice.rules import MOVES

        n = self.game.length
        letters = MOVES[self.game.lattice]
        moves = np.full(n - 1, -1, dtype=np.int64)
        conf = self.state.conformation
        moves[: len(conf)] = [letters.index(m) for m in conf]
        seq = np.array([c == "H" for c in self.game.sequence], dtype=np.int64)
        obs = {"sequence": seq, "moves": moves}
        if self.observation == "grid":
            obs["grid"] = self._occupancy()
        return obs

    OBSERVATIONS = ("default", "grid")

    def _occupancy(self) -> np.ndarray:
        """Channels H, P and the chain's end on the (2n - 1)-wide square (or cube) around the
        first residue: 1 where a residue of the kind lies."""
        n = self.game.length
        side = (2 * n - 1,) * (2 if self.game.lattice == "square" else 3)
        grid = np.zeros((3, *side), dtype=np.int8)
        sites = self._sites()
        square = self.game.lattice == "square"
        for k, (x, y, z) in enumerate(sites):
            at = (n - 1 - y, n - 1 + x) if square else (n - 1 - y, n - 1 + x, n - 1 + z)
            grid[(0 if self.game.sequence[k] == "H" else 1, *at)] = 1
            if k == len(sites) - 1:
                grid[(2, *at)] = 1
        return grid

    def _sites(self) -> list[tuple[int, int, int]]:
        return self.state.sites  # the protocol's state keeps them as it moves

    def _layers(self) -> tuple[list[int], list[int], list[int], dict[tuple[int, int, int], int]]:
        """The fold's x, y and z ranges (y downwards from the top) and {site: residue}."""
        sites = self._sites()
        xs, ys, zs = ([s[i] for s in sites] for i in range(3))
        at = {s: k for k, s in enumerate(sites)}
        return (
            list(range(min(xs), max(xs) + 1)),
            list(range(max(ys), min(ys) - 1, -1)),
            list(range(min(zs), max(zs) + 1)),
            at,
        )

    def text(self) -> str:
        """The fold, H and P on their sites (on the cubic lattice one labelled layer a z)."""
        xs, ys, zs, at = self._layers()
        seq = self.game.sequence
        blocks = []
        for z in zs:
            rows = ["".join(seq[at[(x, y, z)]] if (x, y, z) in at else "." for x in xs) for y in ys]
            if self.game.lattice != "square":
                rows.insert(0, f"z = {z}")
            blocks.append("\n".join(rows))
        return "\n".join(blocks) + f"\nmoves {self.state.conformation or '-'}"

    def grid(self) -> tuple[np.ndarray, dict[tuple[int, int], str]]:
        """Square lattice: the fold on a fixed (2n - 1)-square frame around the first residue
        (H dark, P light). Cubic: one panel a layer z, side by side over the fold's extent, each
        under a header cell that shows its z."""
        n = self.game.length
        seq = self.game.sequence
        if self.game.lattice == "square":
            grid = np.zeros((2 * n - 1, 2 * n - 1), dtype=np.int64)
            for k, (x, y, _z) in enumerate(self._sites()):
                grid[n - 1 - y, n - 1 + x] = H_RESIDUE if seq[k] == "H" else P_RESIDUE
            return grid, {}
        xs, ys, zs, at = self._layers()
        width = len(xs) + 1
        grid = np.zeros((len(ys) + 1, width * len(zs) - 1), dtype=np.int64)
        labels = {}
        for p, z in enumerate(zs):
            grid[0, p * width] = CLUE
            labels[(0, p * width)] = str(z)
            for i, y in enumerate(ys):
                for j, x in enumerate(xs):
                    residue = at.get((x, y, z))
                    if residue is not None:
                        grid[1 + i, p * width + j] = H_RESIDUE if seq[residue] == "H" else P_RESIDUE
        return grid, labels
