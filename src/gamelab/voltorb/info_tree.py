"""The information states of a Voltorb Flip round over a posterior's boards: their keys (the
revealed tiles) and their expansion (which boards are still possible, and what a flip leads to).
The exact searches (:mod:`gamelab.voltorb.expectimax`) and the exact evaluation of a policy
(:mod:`gamelab.voltorb.evaluate`) walk these states.
"""

from __future__ import annotations

import numpy as np

from gamelab.voltorb.posterior import Posterior, weighted_tile_sums
from gamelab.voltorb.rules import TILES


def key_add(key: int, tile: int, value: int) -> int:
    """`key` with `tile` shown as `value` (3 bits per tile, 0 hidden, else value + 1)."""
    return key | ((value + 1) << (3 * tile))


def revealed_code(revealed: dict[int, int]) -> int:
    """The win search's key of a state: 2 bits per tile, 0 hidden, else the value shown (a
    Voltorb shows as hidden: a state with one is over)."""
    code = 0
    for tile, value in revealed.items():
        if value > 0:
            code |= value << (2 * tile)
    return code


def revealed_key(revealed: dict[int, int]) -> int:
    key = 0
    for tile, value in revealed.items():
        key = key_add(key, tile, value)
    return key


class InfoTree:
    """Shared machinery: root boards, hidden-multiplier counts, state expansion."""

    def __init__(self, posterior: Posterior) -> None:
        self.boards = posterior.boards
        self.weights = posterior.weights
        self.root_revealed = dict(posterior.revealed)
        hidden = np.ones(TILES, dtype=bool)
        hidden[list(self.root_revealed)] = False
        self.hidden_mult = ((self.boards >= 2) & hidden).sum(axis=1)
        self.root_key = revealed_key(self.root_revealed)
        self.root_won = self.hidden_mult == 0
        self.nodes = 0

    def root_state(self):
        live = np.flatnonzero(~self.root_won)
        return live, self.root_key

    def state_for(self, revealed: dict[int, int]):
        """Indices of the root boards consistent with `revealed` and not yet won, and the key."""
        mask = ~self.root_won
        hm = self.hidden_mult.copy()
        for tile, value in revealed.items():
            if tile in self.root_revealed:
                continue
            mask &= self.boards[:, tile] == value
            if value >= 2:
                hm -= 1
        mask &= hm > 0
        return np.flatnonzero(mask), revealed_key(revealed), hm

    def children(self, idx: np.ndarray, hm: np.ndarray, tile: int):
        """For each value 1..3 on `tile`: (won mass, live indices, new hm)."""
        col = self.boards[idx, tile]
        out = []
        for v in (1, 2, 3):
            sel = idx[col == v]
            if sel.size == 0:
                continue
            if v >= 2:
                hm_new = hm.copy()
                hm_new[sel] -= 1
            else:
                hm_new = hm
            won = hm_new[sel] == 0
            out.append((v, float(self.weights[sel[won]].sum()), sel[~won], hm_new))
        return out

    def candidate_tiles(self, idx: np.ndarray, key: int):
        """(tiles that may be a 2/3 and are unrevealed, their Voltorb mass), safest first."""
        sub = self.boards[idx]
        w = self.weights[idx]
        can_mult = (sub >= 2).any(axis=0)
        revealed_tiles = [t for t in range(TILES) if (key >> (3 * t)) & 7]
        can_mult[revealed_tiles] = False
        tiles = np.flatnonzero(can_mult)
        v_mass = weighted_tile_sums(w, sub[:, tiles] == 0)
        order = np.lexsort((tiles, v_mass))
        return tiles[order], v_mass[order]
