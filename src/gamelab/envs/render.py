"""Pictures of the boards for ``render_mode="rgb_array"``: a grid of coloured cells, each with an
optional short label (digits, a few letters) drawn in a small bitmap font.

>>> picture(np.array([[0, 1], [2, 3]]), cell=2).shape
(4, 4, 3)
>>> picture(np.array([[FACES[0], CLUE]]), labels={(0, 0): "1", (0, 1): "15\\n2"}).shape
(16, 32, 3)
"""

from __future__ import annotations

import numpy as np


def check_render_mode(render_mode: str | None, modes: list[str]) -> None:
    """A ValueError naming the render modes an environment has, for one it has not."""
    if render_mode is not None and render_mode not in modes:
        allowed = ", ".join(repr(m) for m in modes)
        raise ValueError(f"render_mode must be {allowed} or None, got {render_mode!r}")


#: The colours cells are painted with, by index: background, the pages' colours, dice faces.
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
        (214, 69, 65),  # 8 die face 1 / red
        (235, 137, 52),  # 9 die face 2 / orange
        (236, 205, 60),  # 10 die face 3 / yellow
        (92, 170, 92),  # 11 die face 4 / green
        (70, 130, 210),  # 12 die face 5 / blue
        (150, 95, 185),  # 13 die face 6 / purple
        (205, 220, 238),  # 14 a clue / a header
        (150, 185, 220),  # 15 a P residue (light blue)
    ],
    dtype=np.uint8,
)
#: the palette index of each die face (1-6), six distinct colours
FACES = (8, 9, 10, 11, 12, 13)
CLUE = 14
#: a residue of the HP chain: H dark, P light blue
H_RESIDUE, P_RESIDUE = 7, 15

# 3 x 5 glyphs, one string of 15 bits a character (rows top to bottom)
_GLYPHS = {
    "0": "111101101101111",
    "1": "010110010010111",
    "2": "111001111100111",
    "3": "111001111001111",
    "4": "101101111001001",
    "5": "111100111001111",
    "6": "111100111101111",
    "7": "111001010010010",
    "8": "111101111101111",
    "9": "111101111001111",
    "-": "000000111000000",
    "?": "111001011000010",
    "V": "101101101101010",
    "z": "000111001010111",
}


def _ink(colour: np.ndarray) -> np.ndarray:
    """Dark ink on a light cell, white on a dark one."""
    return np.array((255, 255, 255) if int(colour.sum()) < 330 else (25, 25, 25), np.uint8)


def _stamp(image: np.ndarray, top: int, left: int, cell: int, text: str) -> None:
    """Draw `text` (lines split by newlines) centred in the cell at (`top`, `left`)."""
    lines = text.split("\n")
    width = max(4 * len(line) - 1 for line in lines)
    height = 6 * len(lines) - 1
    scale = max(1, min((cell - 3) // width, (cell - 3) // height))
    ink = _ink(image[top + cell // 2, left + 1])
    y0 = top + (cell - scale * height + 1) // 2
    for k, line in enumerate(lines):
        x0 = left + (cell - scale * (4 * len(line) - 1) + 1) // 2
        for i, ch in enumerate(line):
            bits = _GLYPHS.get(ch, _GLYPHS["?"])
            for b, bit in enumerate(bits):
                if bit == "1":
                    y = y0 + scale * (6 * k + b // 3)
                    x = x0 + scale * (4 * i + b % 3)
                    image[y : y + scale, x : x + scale] = ink


def picture(
    grid: np.ndarray, cell: int = 16, labels: dict[tuple[int, int], str] | None = None
) -> np.ndarray:
    """An RGB image (uint8, height x width x 3) of a grid of palette indices, one square each,
    with a one-pixel line between cells, and each of `labels` ({(row, col): text}, digits and
    ``- ? V z``, lines split by a newline) drawn in its cell."""
    grid = np.asarray(grid, dtype=np.int64)
    image = PALETTE[grid].repeat(cell, axis=0).repeat(cell, axis=1)
    image[::cell, :, :] = 90
    image[:, ::cell, :] = 90
    for (row, col), text in (labels or {}).items():
        _stamp(image, row * cell, col * cell, cell, text)
    return np.ascontiguousarray(image)
