"""Pictures of the boards for ``render_mode="rgb_array"``: a grid of coloured cells.

>>> picture(np.array([[0, 1], [2, 3]]), cell=2).shape
(4, 4, 3)
"""

from __future__ import annotations

import numpy as np

#: The colours cells are painted with, by index: background, and the pages' colours.
PALETTE = np.array(
    [
        (245, 245, 240),  # 0 empty / background
        (160, 160, 160),  # 1 hidden / grey
        (200, 60, 50),  # 2 Voltorb / red
        (240, 240, 240),  # 3 a 1 / white (a P residue)
        (120, 180, 90),  # 4 a 2 / green (correct)
        (80, 120, 200),  # 5 a 3 / blue
        (230, 190, 60),  # 6 present / yellow
        (40, 40, 40),  # 7 dark (an H residue, the chain)
    ],
    dtype=np.uint8,
)


def picture(grid: np.ndarray, cell: int = 16) -> np.ndarray:
    """An RGB image (uint8, height x width x 3) of a grid of palette indices, one square each,
    with a one-pixel line between cells."""
    grid = np.asarray(grid, dtype=np.int64)
    image = PALETTE[grid].repeat(cell, axis=0).repeat(cell, axis=1)
    image[::cell, :, :] = 90
    image[:, ::cell, :] = 90
    return np.ascontiguousarray(image)
