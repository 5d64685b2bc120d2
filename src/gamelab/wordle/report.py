"""Report section: the post's numbers reproduced, and the proven optimum beside them.

Quick mode (the README's first command: seconds, and numba compiles only the feedback and
entropy kernels): ranking, chart summary, greedy totals and the post's pruned search for its two
best first guesses. The full report adds the pruned search for all ten, the proven optimum for
both rules (about 10 s each once the solver's kernels are compiled; reused from the results
store when ``gamelab wordle solve-optimal`` already proved it) and under each tighter depth
limit.
"""

from __future__ import annotations

from typing import Any

from gamelab.core.report import new_figure
from gamelab.wordle import entropy
from gamelab.wordle.chart import chart
from gamelab.wordle.pruned import PrunedSearch
from gamelab.wordle.rules import POST_SETTING, FeedbackRule, Setting, load_word_list, parse_names
from gamelab.wordle.solver.summary import DepthLimited, OptimalSummary, solve_summary
from gamelab.wordle.table import Game

TITLE = "Pokémon Wordle"
RULES = (FeedbackRule.BLOG, FeedbackRule.STANDARD)  # column order
PRUNED_FIRSTS = 10  # the post searched its top 10 by entropy
QUICK_PRUNED_FIRSTS = 2  # ジーランス, the post's best (964), is the second
SOLVE_OPTIMUM = True  # about 10 s per rule for gen1-4 (tests switch it off)
POST_TOTAL = 1030  # printed in the post; its own distribution sums to 1028


def _optimum(game: Game, ctx: Any) -> OptimalSummary | None:
    if not SOLVE_OPTIMUM or ctx.quick:
        return None
    return solve_summary(
        Setting(POST_SETTING, game.rule),
        time_limit=120 if ctx.quick else 900,
        depth_limits=not ctx.quick,
        store=ctx.store,
    )


def build(section: Any, ctx: Any) -> None:
    words = load_word_list(POST_SETTING)
    games = {rule: Game(words, rule) for rule in RULES}
    blog, std = games[FeedbackRule.BLOG], games[FeedbackRule.STANDARD]

    ranked = entropy.rank(blog, 15)
    std_ent = std.entropies()
    section.text(
        "Entropy of the first guess over the 285 five-character gen1-4 answers (guesses: "
        "dex 1-493). The `blog` rule is the post's own feedback code; `standard` is real "
        "Wordle. They differ only where an answer character matched green makes a second "
        "copy in the guess yellow."
    )
    section.table(
        "ranking",
        ["rank", "guess", "entropy (blog)", "entropy (standard)"],
        [
            [k, words.guesses[i], f"{e:.5f}", f"{std_ent[i]:.5f}"]
            for k, (i, e) in enumerate(ranked, 1)
        ],
        caption="Top 15 by entropy; the blog column equals the post's table to 5 decimals.",
    )

    chart_rows, dists = [], {}
    for rule, game in games.items():
        c = chart(game, "レントラー")
        grey = c.all_grey
        normal, quirk = c.greedy["normal"], c.greedy["post_counting"]
        dists[f"greedy ({rule})"] = normal.distribution
        if rule == "blog":
            dists["greedy, post's counting (blog)"] = quirk.distribution
        chart_rows.append(
            [
                rule,
                c.n_patterns,
                grey.remaining if grey else 0,
                (grey.next or "-") if grey else "-",
                normal.total,
                quirk.total,
            ]
        )
    section.table(
        "chart",
        [
            "rule",
            "patterns",
            "all-grey left",
            "next after all grey",
            "greedy total",
            "greedy total (post's counting)",
        ],
        chart_rows,
        caption=f"First guess レントラー. The post prints {POST_TOTAL}, but its distribution "
        "1:1 2:13 3:126 4:107 5:33 6:5 sums to 1028 (an addition slip); 1028 needs the "
        "post's counting, in which an entropy guess that hits the answer costs one more.",
    )

    top10 = [i for i, _ in entropy.rank(blog, QUICK_PRUNED_FIRSTS if ctx.quick else PRUNED_FIRSTS)]
    pruned_rows = []
    optimum = {rule: _optimum(game, ctx) for rule, game in games.items()}
    searches = {rule: PrunedSearch(game) for rule, game in games.items()}
    for g in top10:
        pruned_rows.append([words.guesses[g]] + [searches[r].total(g) for r in RULES])
    section.table(
        "pruned",
        ["first guess", "pruned total (blog)", "pruned total (standard)"],
        pruned_rows,
        caption="The post's search (top-10 entropy guesses per node, at most 6 "
        "guesses); the blog column equals the post's ten totals.",
    )
    opt_rows: list[list[Any]] = []
    for rule in RULES:
        best_pruned = min(r[1 + RULES.index(rule)] for r in pruned_rows)
        o = optimum[rule]
        if o is None:
            why = "in the full report" if ctx.quick else "not computed"
            opt_rows.append([rule, best_pruned, why, None, None, None, None])
            continue
        dists[f"optimal ({rule})"] = o.distribution
        limits = ", ".join(
            f"<={r.max_guesses}: {_limit_value(r)}" for r in (o.depth_limited or [])[1:]
        )
        opt_rows.append(
            [
                rule,
                best_pruned,
                o.total,
                o.lower_bound,
                " ".join(o.first_guesses),
                o.worst,
                limits or "-",
            ]
        )
    section.table(
        "optimal",
        [
            "rule",
            "best pruned total",
            "optimal total",
            "proven lower bound",
            "optimal first guess(es)",
            "worst case",
            "optimum with a depth limit",
        ],
        opt_rows,
        caption="Optimal = fewest total guesses over all 285 answers, every guess searched "
        "at every node; optimal because the lower bound equals the total.",
        missing="the optimum is computed in the full report (gamelab report)"
        if ctx.quick
        else "the optimum was not computed on this run",
    )
    if not ctx.quick and SOLVE_OPTIMUM:
        all_words = load_word_list(parse_names("all"))
        rows = []
        for rule in RULES:
            o = solve_summary(
                Setting(parse_names("all"), rule),
                time_limit=1800,
                depth_limits=False,
                store=ctx.store,
            )
            rows.append(
                [
                    rule,
                    o.total,
                    o.lower_bound,
                    o.proven,
                    " ".join(o.first_guesses) or o.best_known_first_guess,
                    o.worst,
                ]
            )
        section.table(
            "optimal_all",
            ["rule", "total", "proven lower bound", "proven", "first guess", "worst case"],
            rows,
            caption=f"Every species of at most 5 characters ({len(all_words.guesses)} "
            f"guesses, {len(all_words.answers)} answers).",
        )
    fig, ax = new_figure()
    width = 0.8 / max(1, len(dists))
    for j, (label, dist) in enumerate(dists.items()):
        xs = sorted(dist)
        ax.bar(
            [x + (j - (len(dists) - 1) / 2) * width for x in xs],
            [dist[x] for x in xs],
            width=width,
            label=f"{label}: {sum(k * v for k, v in dist.items())}",
        )
    ax.set_xlabel("guesses needed")
    ax.set_ylabel("answers")
    ax.legend()
    section.figure("distribution", fig, caption="Guesses needed per answer (gen1-4).")
    o = optimum[FeedbackRule.BLOG]
    if o is not None:
        section.set_headline(
            f"optimal total {o.total} (proven) vs the post's pruned 964 and greedy 1028"
        )
    else:
        section.set_headline(
            f"the post's top 15, chart and {len(pruned_rows)} pruned totals reproduced"
        )
    section.data["optimal"] = optimum  # serialised without the trees


def _limit_value(row: DepthLimited) -> str:
    """One depth limit's cell: its optimum, 'infeasible', or its proven bounds."""
    if row.status == "exact":
        return str(row.total)
    if row.status == "infeasible":
        return "infeasible"
    if row.status == "bounds" and row.total is not None:
        return f"{row.lower_bound}..{row.total} (feasible)"
    if row.status == "bounds":
        return f">= {row.lower_bound} (feasible)"
    return f">= {row.lower_bound}"
