"""Pictures: a fold like the seed paper's Figure 2 (chain on the grid, H orange, P blue, dotted
HH contacts) and a score histogram like its Figure 4 (log scale, star bands shaded)."""

from __future__ import annotations

import numpy as np

from gamelab.core.report import new_figure
from gamelab.lattice.rules import Fold, hh_contacts
from gamelab.lattice.stars import star_bands

H_COLOUR, P_COLOUR = "#f28e2b", "#4e79a7"
STAR_COLOURS = ("#dddddd", "#cfe8cf", "#9fd49f", "#5fb85f")


def draw_fold(fold: Fold, title: str | None = None):
    """A matplotlib figure of `fold` (3D axes for the cubic lattice)."""
    sites = np.array(fold.sites, dtype=float)
    contacts = hh_contacts(fold.sequence, fold.conformation, fold.lattice)
    colours = [H_COLOUR if c == "H" else P_COLOUR for c in fold.sequence]
    if fold.lattice == "cubic":
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(6, 6))
        ax = fig.add_subplot(projection="3d")
        ax.plot(sites[:, 0], sites[:, 1], sites[:, 2], color="#333333", lw=2, zorder=1)
        for i, j in contacts:
            ax.plot(*zip(sites[i], sites[j], strict=True), ls=":", color=H_COLOUR, lw=2)
        ax.scatter(
            sites[:, 0],
            sites[:, 1],
            sites[:, 2],
            c=colours,
            s=160,
            edgecolors="k",
            depthshade=False,
        )
        # a cube of the fold's largest extent on each axis, so that lattice steps look equal
        centre = (sites.max(axis=0) + sites.min(axis=0)) / 2
        half = max(1.0, float(np.ptp(sites, axis=0).max()) / 2 + 0.5)
        ax.set_xlim(centre[0] - half, centre[0] + half)
        ax.set_ylim(centre[1] - half, centre[1] + half)
        ax.set_zlim(centre[2] - half, centre[2] + half)
        ax.set_box_aspect((1, 1, 1))
        ax.view_init(elev=22, azim=35)
    else:
        size = max(4.0, 0.6 * (np.ptp(sites[:, 0]) + 2))
        fig, ax = new_figure(size, max(4.0, 0.6 * (np.ptp(sites[:, 1]) + 2)))
        ax.plot(sites[:, 0], sites[:, 1], color="#333333", lw=3, zorder=1.8)
        for i, j in contacts:
            ax.plot(
                *zip(sites[i, :2], sites[j, :2], strict=True),
                ls=":",
                color=H_COLOUR,
                lw=2.5,
                zorder=1.7,
            )
        ax.scatter(sites[:, 0], sites[:, 1], c=colours, s=420, edgecolors="k", zorder=2)
        for k, (x, y) in enumerate(sites[:, :2]):
            ax.annotate(
                str(k), (x, y), ha="center", va="center", fontsize=8, color="white", zorder=3
            )
        lo, hi = sites[:, :2].min(axis=0) - 1, sites[:, :2].max(axis=0) + 1
        ax.set_xticks(np.arange(lo[0], hi[0] + 1))
        ax.set_yticks(np.arange(lo[1], hi[1] + 1))
        ax.grid(True, color="#e0e0e0")
        ax.set_aspect("equal")
        ax.tick_params(labelbottom=False, labelleft=False, length=0)
    ax.set_title(
        title or f"{fold.sequence}\n{fold.conformation or '-'}  ({len(contacts)} HH contacts)",
        fontsize=9,
    )
    return fig


def draw_histogram(hist: np.ndarray, title: str = "", banding: str = "paper"):
    """Conformations per score (log scale) with star bands coloured."""
    hist = np.asarray(hist)
    bands = star_bands(hist, banding)
    fig, ax = new_figure(6, 3.5)
    scores = np.arange(len(hist))
    colours = [STAR_COLOURS[bands.stars(int(s))] for s in scores]
    ax.bar(scores, hist, color=colours, edgecolor="k")
    ax.set_yscale("log")
    ax.set_xlabel("HH contacts (score)")
    ax.set_ylabel("conformations")
    ax.set_xticks(scores)
    ax.set_title(title + f"  [{banding} stars: {bands.thresholds}]", fontsize=9)
    return fig
