"""The Yatzy section of `gamelab report`."""

from __future__ import annotations

import time

import numpy as np

from gamelab.core.report import ReportContext, Section
from gamelab.core.stats import Difference, Estimate, format_difference, format_estimate
from gamelab.yatzy.rules import RULES

TITLE = "Yatzy / Yahtzee: optimal play"

# Published expected scores (research notes section 1) shown next to ours.
PUBLISHED = {
    "yahtzee": 254.5877287,
    "yahtzee-free-joker": 254.5896095,
    "yahtzee-no-bonus": 245.8707745,
    "yatzy": 248.4399894,
    "yatzy-ls2012": 248.6328539,
}


def build(section: Section, ctx: ReportContext) -> None:
    if ctx.quick:
        _quick(section)
        return
    from gamelab.yatzy.distribution import plot_distributions, score_distribution
    from gamelab.yatzy.simulate import simulate
    from gamelab.yatzy.solver import solve

    names = tuple(PUBLISHED)
    rows = []
    for name in names:
        t0 = time.perf_counter()
        sol = solve(RULES[name])
        rows.append(
            [
                name,
                f"{sol.expected_score:.7f}",
                f"{PUBLISHED[name]:.7f}",
                f"{sol.std_dev:.4f}",
                sol.widgets,
                round(sol.solve_seconds, 1),
                round(time.perf_counter() - t0, 1),
            ]
        )
    section.table(
        "rule_sets",
        ["rules", "expected score", "published", "SD", "widgets", "solve s", "this run s"],
        rows,
        caption="Optimal expected final score and its SD per rule set (float64 DP; solve time "
        "as measured when the table was built, 'this run' includes loading from the cache).",
    )
    dist_names = ("yahtzee-no-bonus", "yatzy", "yahtzee")
    dists = [score_distribution(RULES[n]) for n in dist_names]
    section.figure(
        "distribution",
        plot_distributions(dists),
        caption="Exact P(final score = s) under the optimal strategy (forward "
        "propagation, no sampling).",
    )
    targets = (200, 250, 300, 350)
    section.table(
        "distribution",
        [
            "rules",
            "mean",
            "SD",
            "P(>=200)",
            "P(>=250)",
            "P(>=300)",
            "P(>=350)",
            "median",
            "seconds",
        ],
        [
            [
                d.rules.name,
                f"{d.mean:.7f}",
                f"{d.std_dev:.4f}",
                *[d.at_least(t) for t in targets],
                d.quantile(0.5),
                round(d.compute_seconds, 1),
            ]
            for d in dists
        ],
        caption="Exact score distribution of the expected-score strategy; its mean equals the DP "
        "value.",
    )
    games = 200_000
    sim_rows = []
    for strategy in ("optimal", "greedy", "random"):
        res = simulate(
            RULES["yahtzee"],
            strategy,
            games,
            ctx.seed,
            ctx.backend,
            ctx.store,
        )
        sim_rows.append(
            [
                strategy,
                games,
                res.mean.value,
                f"[{res.mean.lo:.2f}, {res.mean.hi:.2f}]",
                res.std_dev,
            ]
        )
    section.text(
        "Strategies: optimal = each decision maximises the expected final score (the DP tables "
        "above); greedy = each turn maximises that turn's expected points (future turns worth "
        "0); random = a uniformly random keep at each reroll, then a random legal box. Columns: "
        "games simulated, mean final score with its 95% interval, SD of the final score."
    )
    section.table(
        "strategies",
        ["strategy", "games", "mean", "95% CI", "SD"],
        sim_rows,
        caption="Simulated games under the official Yahtzee rules (yahtzee).",
    )
    if not ctx.quick:
        from gamelab.yatzy.target import target_table

        target_rows = []
        for name in ("yahtzee-no-bonus", "yahtzee"):
            tt = target_table(RULES[name])
            target_rows += [
                [
                    name,
                    row.target,
                    f"{row.max_probability:.6f}",
                    f"{row.expected_score_strategy:.6f}",
                    round(tt.compute_seconds),
                ]
                for row in tt.targets
            ]
        section.table(
            "target_play",
            ["rules", "T", "max P(score >= T)", "P(score >= T), expected-score play", "solve s"],
            target_rows,
            caption="The best probability of reaching T (a separate optimal policy per T; "
            "with the Yahtzee bonus and forced joker for yahtzee) next to the expected-score "
            "strategy's (exact distribution).",
        )
        _winplay_tables(section, ctx)
        _comeback_tables(section, ctx)
    best = rows[0]
    section.set_headline(
        f"{best[0]} optimal expected score {best[1]} (SD {best[3]}); "
        + "; ".join(f"{r[0]} {r[1]}" for r in rows[1:])
    )


def _quick(section: Section) -> None:
    """The quick report's section (the README's first command): exact figures of small games
    that numpy solves in about a second (:mod:`gamelab.yatzy.array_solver`), since the full
    game's solver needs numba to compile its kernels first (tens of CPU-seconds)."""
    from gamelab.yatzy.array_solver import solve_by_arrays
    from gamelab.yatzy.rules import UPPER_NAMES, RuleSet

    official = RULES["yahtzee"]
    singles = [solve_by_arrays(RuleSet(f"{box}-alone", (box,), 0)) for box in official.boxes]
    section.text(
        "The quick report solves small games exactly without compiling anything: a single "
        "turn played for one box (the best keeps for that box over three rolls), and the upper "
        "section alone (six boxes, one turn each, with and without the 35-point bonus at 63). "
        "The full report (`gamelab report`) solves the whole game for five rule sets (the "
        "published optimal expected scores, e.g. 254.5877 for Yahtzee), its exact score "
        "distribution, simulated strategies, play for the win and comebacks."
    )
    section.table(
        "one_turn",
        ["box", "best expected points in one turn"],
        [[official.box_label(s.boxes[0]), f"{s.expected_score:.4f}"] for s in singles],
        caption="Yahtzee's boxes: the maximal expected points of one turn (three rolls) played "
        "for that box alone, exact (the optimal keeps; no joker or bonus). For the yahtzee box "
        "it is 50 x P(five of a kind within a turn).",
    )
    upper = [
        solve_by_arrays(RuleSet(f"upper-section-bonus-{bonus}", UPPER_NAMES, bonus))
        for bonus in (35, 0)
    ]
    section.table(
        "upper_section",
        ["game", "optimal expected score", "states", "seconds"],
        [
            [
                f"upper section, bonus {u.upper_bonus}",
                f"{u.expected_score:.4f}",
                u.states,
                round(u.seconds, 2),
            ]
            for u in upper
        ],
        caption="The six upper boxes as a game of six turns, played optimally (exact dynamic "
        "programme over filled boxes and the capped upper total): the bonus is worth "
        f"{upper[0].expected_score - upper[1].expected_score:.2f} points to a player who plays "
        "for it.",
    )
    yahtzee = singles[official.boxes.index("yahtzee")].expected_score / 50
    section.set_headline(
        f"P(Yahtzee in one turn) {yahtzee:.5f}; upper section alone, optimal: "
        f"{upper[0].expected_score:.2f} with the bonus (full game: in the full report)"
    )


def _fmt(e: Estimate | None) -> str:
    if e is None:
        return "-"
    return format_difference(e, ".4f") if isinstance(e, Difference) else format_estimate(e, ".4f")


def _value(e: Estimate | None) -> str:
    return "-" if e is None else f"{e.value:.4f}"


def _winplay_tables(section: Section, ctx: ReportContext) -> None:
    """The win-play tables (the REPORT_STUDY runs, resumed from the results store)."""
    from gamelab.yatzy.winplay_study import (
        REPORT_EXACT_STUDIES,
        REPORT_STUDY,
        win_from_start,
        winplay_study,
    )

    res = winplay_study(**REPORT_STUDY, backend=ctx.backend, store=ctx.store)
    rows = [
        [label, _fmt(getattr(res, key))]
        for key, label in (
            ("expectation_exact", "expectation play, exact P(win) per game"),
            ("single_exact", "one win-play solve at the switch, exact P(win) per game"),
            ("single_minus_expectation", "single solve minus expectation (paired, exact)"),
            ("single_simulated", "single solve, simulated"),
            ("retarget_simulated", "re-targeting at each turn, simulated"),
            ("retarget_minus_single", "re-targeting minus single solve (same dice)"),
            ("expectation_simulated", "expectation play, simulated (check)"),
        )
    ]
    section.table(
        "win_play",
        ["quantity (A's win rate, ties half)", "mean [95% CI]"],
        rows,
        caption=f"{res.rules}: A plays for the expectation, then for the win in its last "
        f"{res.turns_left} turns, against the expected-score player B (A moves first; "
        f"{res.games} sampled switch positions). {res.seconds_per_single_solve:.2f} s per "
        f"solve on average over {res.mean_states_per_solve:.0f} states.",
    )
    studies = [
        winplay_study(**p, backend=ctx.backend, store=ctx.store) for p in REPORT_EXACT_STUDIES
    ] + [res]
    studies.sort(key=lambda r: r.turns_left)
    start = win_from_start(REPORT_STUDY["rules"])
    k_rows = [
        [
            r.turns_left,
            r.games,
            _fmt(r.single_minus_expectation),
            f"{r.seconds_per_single_solve:.3g}",
        ]
        for r in studies
    ]
    k_rows.append(
        [13, "- (exact)", f"{start.single - start.expectation:.4f}", f"{start.seconds:.0f}"]
    )
    section.table(
        "win_play_by_k",
        ["K", "switch positions", "single solve - expectation [95% CI]", "s per solve"],
        k_rows,
        caption=f"{res.rules}: the exact gain in A's win probability from playing for the "
        "win in its last K turns (one solve at the switch, A first); K = 13 plays for the win "
        "from the empty card (nothing sampled).",
    )


def _comeback_tables(section: Section, ctx: ReportContext) -> None:
    """The comeback tables: exact, estimated the thesis' way, and the risk-taker."""
    from gamelab.yatzy.comeback import DEFICITS, ROUNDS, comeback_study
    from gamelab.yatzy.risk import risk_study

    table = comeback_study(RULES["yahtzee"])
    p = table.p_win
    rows = []
    for i, y in enumerate(ROUNDS):
        rows.append([y] + [("-" if np.isnan(v) else f"{v:.4f}") for v in p[i]])
    section.table(
        "comeback_exact",
        ["Y \\ X"] + [str(x) for x in DEFICITS],
        rows,
        caption="Exact P(win) of an optimal player behind by at least X points after Y rounds "
        "against an optimal player (yahtzee rules; wins / (wins + losses) as in the thesis; "
        f"computed in {table.compute_seconds:.0f} s).",
    )
    rounds = [y for y in ROUNDS if y < 13]
    est = risk_study(
        RULES["yahtzee"],
        rounds,
        2,
        1000,
        chunk=1000,
        seed=ctx.seed,
        backend=ctx.backend,
        store=ctx.store,
    ).rows
    rows = []
    for y in rounds:
        cells = {r.deficit: r for r in est if r.rounds == y}
        row: list[int | str] = [y]
        for j, x in enumerate(DEFICITS):
            r = cells.get(x)
            exact = p[ROUNDS.index(y), j]
            if r is None or r.opt is None:
                row.append("-")
                continue
            o = r.opt
            inside = o.lo <= exact <= o.hi
            row.append(f"{o.value:.3f}{'' if inside else ' *'}")
        rows.append(row)
    section.table(
        "comeback_thesis_style",
        ["Y \\ X"] + [str(x) for x in DEFICITS],
        rows,
        caption="The same probabilities estimated the thesis' way (1000 simulated games per "
        "cell); * marks an estimate whose 95% Wilson interval misses the exact value.",
    )
    if ctx.quick:
        return
    big = risk_study(
        RULES["yahtzee"],
        rounds,
        2,
        100_000,
        chunk=5000,
        seed=0,
        backend=ctx.backend,
        store=ctx.store,
    ).rows
    rows = [
        [
            r.rounds,
            r.deficit,
            r.games,
            _value(r.opt),
            _value(r.risk),
            format_difference(r.win_difference),
            f"{r.score_difference:+.2f}",
        ]
        for r in big
    ]
    section.table(
        "risk_taker",
        [
            "Y",
            "X",
            "games",
            "optimal wins",
            "risk-taker wins",
            "difference (95% CI)",
            "score change",
        ],
        rows,
        caption="Trailing player's win rate (wins / (wins + losses)) when it keeps playing "
        "optimally vs when it takes the thesis' risky keeps (valence 2) whenever it is behind "
        "by at least X, on the same dice (paired); yahtzee rules.",
    )
