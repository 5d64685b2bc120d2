"""Report section: win rates per level on the real generator, the blog's numbers reproduced on its
buggy generator, the optimal policy, and campaign coins.

Quick mode (the README's first command, a newcomer's first figures) plays only strategies that
need no exact posterior, so numba compiles nothing: the blog's fom on its buggy generator and on
the real one, 250 games each (one task each, played in-process: a few seconds; Wilson intervals
of at most +-6.2 points, enough to read the blog's 50-point gap). The full
report adds the posterior strategies, the optimal policy and campaigns: 2000 games per
(strategy, level) and 1000 per level for ``optimal``. Every run goes through the results store,
so an interrupted full report resumes.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from gamelab.core.report import new_figure
from gamelab.core.stats import paired_difference
from gamelab.voltorb.campaign_study import STUDY_FILE, shipped_study, study_rows
from gamelab.voltorb.optimal_table import TABLE_FILE, optimal_table
from gamelab.voltorb.rules import BoardGenerator, VoltorbSetting
from gamelab.voltorb.simulate import CHUNK, campaign, compare, simulate

TITLE = "Voltorb Flip (HGSS)"

HEURISTICS = ("random", "minrisk", "scorefirst", "cutoff:8", "fom", "fom-r")
# (strategy, level, what the blog reported) — blog part 2; fom-meaningless is the blog's control
BLOG_ROWS = (
    ("fom", 8, 0.7173, "71.73 % (3000 games, significanceTesting.py); text: 71 %"),
    ("fom", 2, 0.71, "71 %"),
    ("fom", 4, 0.73, "73 %"),
    ("fom-r", 8, 0.69, "69 %"),
    ("fom-meaningless", 8, 0.17, "17 %"),
)


def _sizes(quick: bool) -> dict:
    if quick:
        # no posterior strategy (numba would compile its kernels); one task per run (CHUNK
        # games: no worker start-up); equal sizes, so the blog table's real-generator cells are
        # the level table's runs, read from the results store
        return {
            "strategies": ("fom", "fom-r"),
            "heuristic": CHUNK,
            "blog": CHUNK,
            "optimal": 0,
            "optimal_levels": (),
            "campaign_strategies": (),
            "campaigns": 0,
            "rounds": 0,
            "posterior_levels": (),
        }
    return {
        "strategies": HEURISTICS,
        "campaign_strategies": ("greedy-coins", "minrisk", "fom"),
        "heuristic": 2000,
        "blog": 20000,
        "optimal": 1000,
        "optimal_levels": tuple(range(1, 9)),
        "campaigns": 200,
        "rounds": 20,
        "posterior_levels": tuple(range(1, 9)),
    }


def build(section, ctx) -> None:
    size = _sizes(ctx.quick)
    run = {"seed": ctx.seed, "backend": ctx.backend, "store": ctx.store}
    section.text(
        "Boards come from the game's own generator (hgss: 10 configurations per level, uniform "
        "placement, rejection on the free-multiplier limits), probabilities from exact enumeration "
        "of every consistent board weighted by that generator's prior. All strategies of a level "
        "play the same boards (paired)."
    )
    section.text(
        "Strategies: random = a uniformly random hidden tile (BOGOFlip); minrisk = the tile "
        "least likely to be a Voltorb (exact posterior) among tiles that can still be a 2 or 3; "
        "scorefirst = the tile most likely to be a 2 or 3; cutoff:8 = scorefirst for the first "
        "8 flips, then minrisk; fom = the blog's figure of merit as its code plays (no "
        "posterior); fom-r = the blog's first figure (F = R); optimal = the exact policy "
        "maximising P(win); greedy-coins = the tile with the largest expected multiplier, "
        "quitting below 1. Columns: games played, win rate with its Wilson 95% interval "
        "(ci95 lo, ci95 hi), mean flips per round; a paired difference is A - B on the same "
        "boards, with its 95% interval."
    )

    # 1. win rate per level and strategy on hgss
    rows: list[list[Any]] = []
    fig_data: dict[str, Any] = {}
    for strategy in size["strategies"]:
        levels = (
            size["posterior_levels"] if strategy not in ("random", "fom", "fom-r") else range(1, 9)
        )
        for level in levels:
            sim = simulate(VoltorbSetting(level, "hgss"), strategy, size["heuristic"], **run)
            est = sim.win_rate
            rows.append(
                [strategy, level, sim.games, est.value, est.lo, est.hi, float(sim.flips.mean())]
            )
            fig_data.setdefault(strategy, []).append((level, est.value, est.lo, est.hi))
    section.table(
        "win_rate_by_level",
        ["strategy", "level", "games", "win rate", "ci95 lo", "ci95 hi", "mean flips"],
        rows,
        caption="Win rate per level on the real generator (hgss), Wilson 95% intervals",
    )
    fig, ax = new_figure()
    markers = "osD^vP*X"
    for i, (strategy, pts) in enumerate(fig_data.items()):
        # Side by side (a strategy equal to another is not hidden under it), with its interval;
        # lines join adjacent measured levels only, never across a level that was not played.
        shift = (i - (len(fig_data) - 1) / 2) * 0.08
        xs = np.array([p[0] for p in pts], dtype=float) + shift
        ys = np.array([p[1] for p in pts])
        err = np.array([[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]])
        bars = ax.errorbar(
            xs, ys, yerr=err, fmt=markers[i % len(markers)], ms=4, capsize=2, label=strategy
        )
        gaps = np.nonzero(np.diff([p[0] for p in pts]) != 1)[0] + 1
        for segment in np.split(np.arange(len(pts)), gaps):
            if len(segment) > 1:
                ax.plot(xs[segment], ys[segment], lw=1, color=bars[0].get_color())
    ax.set_xticks(range(1, 9))
    ax.set_xlabel("level")
    ax.set_ylabel("win rate")
    ax.legend(fontsize=8)
    section.figure(
        "win_rate_by_level",
        fig,
        caption="Win rate per level (hgss), Wilson 95% intervals; strategies side by "
        "side, lines only between adjacent measured levels",
    )

    # paired comparisons the issue asks for
    paired_rows = []
    for level in (2, 8):
        if level not in size["posterior_levels"]:
            continue
        a = simulate(VoltorbSetting(level, "hgss"), "minrisk", size["heuristic"], **run)
        b = simulate(VoltorbSetting(level, "hgss"), "fom", size["heuristic"], **run)
        d = compare(a, b)
        paired_rows.append(["minrisk - fom", level, a.games, d.value, d.lo, d.hi])

    # 2. the blog's numbers on its as-coded generator next to the real game
    blog_rows = []
    for strategy, level, reported, note in BLOG_ROWS:
        coded = simulate(
            VoltorbSetting(level, "iid-as-coded"), strategy, size["blog"], **run
        ).win_rate
        intended = simulate(VoltorbSetting(level, "iid"), strategy, size["blog"], **run).win_rate
        real = simulate(VoltorbSetting(level, "hgss"), strategy, size["blog"], **run).win_rate
        blog_rows.append(
            [
                strategy,
                level,
                note,
                reported,
                coded.value,
                coded.lo,
                coded.hi,
                intended.value,
                real.value,
                real.lo,
                real.hi,
            ]
        )
    section.table(
        "blog_reproduction",
        [
            "strategy",
            "level",
            "blog reported",
            "blog value",
            "iid-as-coded",
            "lo",
            "hi",
            "iid (intended)",
            "hgss (real)",
            "hgss lo",
            "hgss hi",
        ],
        blog_rows,
        caption="The blog's win rates come from its mis-ordered i.i.d. generator (few Voltorbs); "
        "on the real generator the same heuristic wins far less",
    )

    # 3. the optimal policy
    opt_rows = []
    started = time.monotonic()
    compute = 0.0
    pooled_opt, pooled_base = [], []
    for level in size["optimal_levels"]:
        opt = simulate(VoltorbSetting(level, "hgss"), "optimal", size["optimal"], **run)
        base = simulate(VoltorbSetting(level, "hgss"), "minrisk", size["optimal"], **run)
        d = compare(opt, base)
        est = opt.win_rate
        exact = opt.exact_win_rate
        assert exact is not None and opt.game_seconds is not None  # the optimal policy knows it
        compute += opt.seconds
        opt_rows.append(
            [
                level,
                opt.games,
                est.value,
                est.lo,
                est.hi,
                exact.value,
                exact.lo,
                exact.hi,
                base.win_rate.value,
                d.value,
                d.lo,
                d.hi,
                opt.seconds,
                float(opt.game_seconds.max()),
            ]
        )
        paired_rows.append(["optimal - minrisk", level, opt.games, d.value, d.lo, d.hi])
        pooled_opt.append(opt.wins)
        pooled_base.append(base.wins)
    if len(pooled_opt) > 1:
        wins_a, wins_b = np.concatenate(pooled_opt), np.concatenate(pooled_base)
        d = paired_difference(wins_a, wins_b)
        levels = size["optimal_levels"]
        paired_rows.append(
            [
                "optimal - minrisk",
                f"{levels[0]}-{levels[-1]} pooled",
                wins_a.size,
                d.value,
                d.lo,
                d.hi,
            ]
        )
    if not opt_rows:
        section.text(
            "The quick report leaves out the strategies that use the exact posterior (minrisk, "
            "scorefirst, cutoff:8, optimal) and campaigns: `gamelab report --only voltorb` "
            "adds them (numba compiles their kernels once, about a minute)."
        )
    if opt_rows:
        section.table(
            "optimal_by_level",
            [
                "level",
                "games",
                "optimal win rate",
                "ci95 lo",
                "ci95 hi",
                "exact P(win) mean",
                "exact lo",
                "exact hi",
                "minrisk (same boards)",
                "difference",
                "diff lo",
                "diff hi",
                "compute s",
                "slowest game s",
            ],
            opt_rows,
            caption=f"Exact P(win)-maximising policy on hgss: games won (Wilson interval) and the "
            f"mean of its exact P(win) from each game's clues (t interval; same boards, less "
            f"variance); total compute {compute:.0f} s (wall {time.monotonic() - started:.0f} s, "
            f"results store reused when present)",
        )
    if paired_rows:
        section.table(
            "paired_differences",
            ["comparison", "level", "games", "difference", "ci95 lo", "ci95 hi"],
            paired_rows,
            caption="Paired differences of win rate on the same boards (t intervals)",
        )

    # 3b. the shipped per-level table (issue 26 item 4): read, not computed (quick mode too)
    table = optimal_table()
    section.table(
        "optimal_table",
        [
            "level",
            "optimal P(win)",
            "ci95 lo",
            "ci95 hi",
            "deals, bound",
            "deals, exact",
            "mean bound",
            "mean exact - bound",
            "capped",
        ],
        [
            [
                e["level"],
                e["estimate"],
                e["lo"],
                e["hi"],
                e["control"]["n"],
                e["gap"]["n"],
                e["control"]["mean"],
                e["gap"]["mean"],
                e["gap"]["capped"],
            ]
            for e in table["levels"]
        ],
        caption="The optimal policy's P(win) per level (hgss), mean of the exact opening "
        "value over the generator's deals by two-phase sampling: the opening's inseparable-"
        "boards bound on many deals plus the mean of exact value - bound on other deals "
        "(independent samples, 95 % normal interval); shipped in gamelab/voltorb/data/"
        f"{TABLE_FILE}, made by `{table['command']}`",
    )

    # 3c. the shipped campaign study (issue 26 item 3): read, not computed (quick mode too)
    study = shipped_study()
    if study is not None:
        st = study["settings"]
        section.table(
            "campaign_study",
            ["goal", "policy", "value", "ci95 lo", "ci95 hi"]
            + ["- win", "lo", "hi", "- coins", "lo", "hi"],
            study_rows(study),
            caption="The campaign-optimal policy (round search for coins + h, h from the chain "
            "on sample A) against always-win, always-coins and the per-state menu, evaluated on "
            f"an independent sample B ({st['evaluate'][0]} deals per level; chosen on "
            f"{st['choose'][0]} others), with paired bootstrap intervals over B's deals; "
            f"shipped in gamelab/voltorb/data/{STUDY_FILE}, made by `{study['command']}`",
            missing="a policy is not compared with itself",
        )

    # 4. campaign play under the level progression
    camp_rows = []
    for strategy in size["campaign_strategies"]:
        out = campaign(BoardGenerator.HGSS, strategy, size["rounds"], size["campaigns"], **run)
        dist = out.level_distribution
        camp_rows.append(
            [
                strategy,
                out.campaigns,
                out.rounds,
                out.coins.value,
                out.coins.lo,
                out.coins.hi,
                out.win_rate,
            ]
            + [dist[lv] for lv in range(1, 9)]
        )
    if camp_rows:
        section.table(
            "campaign",
            ["strategy", "campaigns", "rounds", "coins/round", "lo", "hi", "rounds won"]
            + [f"L{lv}" for lv in range(1, 9)],
            camp_rows,
            caption="Consecutive rounds from level 1 under the game's level progression; "
            "greedy-coins quits when no flip is worth it, the others never quit; level columns = "
            "share of rounds played at that level",
        )
    best_fom = blog_rows[0]
    section.set_headline(
        f"fom L8: {best_fom[4]:.3f} on the blog's buggy boards vs {best_fom[8]:.3f} on the real "
        "generator" + (f"; optimal L{opt_rows[-1][0]} {opt_rows[-1][2]:.3f}" if opt_rows else "")
    )
    section.data["sizes"] = {k: list(v) if isinstance(v, tuple) else v for k, v in size.items()}
