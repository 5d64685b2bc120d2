"""The Yatzy section of `gamelab report`."""

from __future__ import annotations

import time

from gamelab.core.report import ReportContext, Section

TITLE = "Yatzy / Yahtzee: optimal play"

# Published expected scores (research notes section 1) shown next to ours.
PUBLISHED = {
    "yahtzee": 254.5877287,
    "yahtzee-free-joker": 254.5896095,
    "yahtzee-no-bonus": 245.8707745,
    "yatzy": 248.4399894,
    "yatzy-ls2012": 248.6328539,
}
QUICK_RULES = ("yahtzee-no-bonus", "yahtzee")


def build(section: Section, ctx: ReportContext) -> None:
    from gamelab.yatzy.distribution import plot_distributions, score_distribution
    from gamelab.yatzy.simulate import simulate
    from gamelab.yatzy.solver import solve

    names = QUICK_RULES if ctx.quick else tuple(PUBLISHED)
    rows = []
    for name in names:
        t0 = time.perf_counter()
        sol = solve(name)
        rows.append([name, f"{sol.expected_score:.7f}", f"{PUBLISHED[name]:.7f}", f"{sol.std_dev:.4f}", sol.widgets,
                     round(sol.seconds, 1), round(time.perf_counter() - t0, 1)])
    section.table(
        "rule_sets",
        ["rules", "expected score", "published", "SD", "widgets", "solve s", "this run s"],
        rows,
        caption="Optimal expected final score and its SD per rule set (float64 DP; solve time "
        "as measured when the table was built, 'this run' includes loading from the cache).",
    )
    dist_names = ("yahtzee-no-bonus",) if ctx.quick else ("yahtzee-no-bonus", "yatzy", "yahtzee")
    dists = [score_distribution(n) for n in dist_names]
    section.figure("distribution", plot_distributions(dists),
                   caption="Exact P(final score = s) under the optimal strategy (forward "
                   "propagation, no sampling).")
    targets = (200, 250, 300, 350)
    section.table(
        "distribution",
        ["rules", "mean", "SD", "P(>=200)", "P(>=250)", "P(>=300)", "P(>=350)", "median",
         "seconds"],
        [[d.rules.name, f"{d.mean:.7f}", f"{d.std_dev:.4f}", *[d.at_least(t) for t in targets], d.quantile(0.5),
          round(d.seconds, 1)] for d in dists],
        caption="Exact score distribution of the expected-score strategy; its mean equals the DP "
        "value.",
    )
    games = 4000 if ctx.quick else 200_000
    sim_rows = []
    for strategy in ("optimal", "greedy", "random"):
        res = simulate("yahtzee", strategy, games, ctx.seed, ctx.backend,
                       None if ctx.quick else ctx.store)
        sim_rows.append([strategy, games, res.mean.value, f"[{res.mean.lo:.2f}, {res.mean.hi:.2f}]",
                         res.std_dev])
    section.table("strategies", ["strategy", "games", "mean", "95% CI", "SD"], sim_rows,
                  caption="Simulated games under the official Yahtzee rules (yahtzee).")
    if not ctx.quick:
        from gamelab.yatzy.comeback import comeback_report
        from gamelab.yatzy.target import TARGETS, target_probabilities

        target_rows = []
        for name in ("yahtzee-no-bonus", "yahtzee"):
            tp = target_probabilities(name, max(TARGETS))
            ev = score_distribution(name)
            target_rows += [[name, t, f"{tp['p'][t]:.6f}", f"{ev.at_least(t):.6f}",
                      round(float(tp["seconds"]))] for t in TARGETS]
        section.table(
            "target_play",
            ["rules", "T", "max P(score >= T)", "P(score >= T), expected-score play",
             "solve s"],
            target_rows,
            caption="The best probability of reaching T (a separate optimal policy per T; "
            "with the Yahtzee bonus and forced joker for yahtzee) next to the expected-score "
            "strategy's (exact distribution).",
        )
        from gamelab.yatzy.winplay import winplay_report

        winplay_report(section, ctx)
        comeback_report(section, ctx)
    best = rows[0]
    section.set_headline(
        f"{best[0]} optimal expected score {best[1]} (SD {best[3]}); "
        + "; ".join(f"{r[0]} {r[1]}" for r in rows[1:])
    )
