"""The environments' section of `gamelab report`: the leaderboard of baseline agents against
the exact optimum (:func:`gamelab.envs.baselines.leaderboard`).

It plays 40 seeded episodes per environment and agent, resumable from the report's results
store (a few CPU-minutes the first time, seconds once stored). The quick report leaves it out
(it would solve Voltorb boards, the Yatzy table and Wordle's optimum) and says how to get it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from gamelab.core.report import ReportContext, Section

if TYPE_CHECKING:
    from gamelab.envs.baselines import Leaderboard, LeaderboardSetting

TITLE = "Environments: baseline agents against the exact optimum"
EPISODES = 40


def setting_of(ctx: ReportContext) -> LeaderboardSetting:
    """The report's leaderboard: every environment and agent, :data:`EPISODES` episodes."""
    from gamelab.envs.baselines import LeaderboardSetting

    return LeaderboardSetting(episodes=EPISODES, seed=ctx.seed)


def build(section: Section, ctx: ReportContext) -> None:
    if ctx.quick:
        section.text(
            "The leaderboard of the environments' baseline agents is in the full report "
            "(`gamelab report`), or `python benchmarks/envs_baselines.py`; the quick report "
            "leaves it out, since it solves every episode's positions exactly."
        )
        section.leave_out("not computed in the quick report", "in the full report (gamelab report)")
        return
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        section.text(
            'The environments need Gymnasium: `pip install "gamelab[envs]"`, then run the '
            "report again."
        )
        section.leave_out("not computed: needs Gymnasium", 'pip install "gamelab[envs]"')
        return
    from gamelab.envs.baselines import ENVIRONMENTS, TABLE_COLUMNS, leaderboard, table_cells

    setting = setting_of(ctx)
    ids = ", ".join(f"{e.name}: {e.env_id}" for e in ENVIRONMENTS if e.name in setting.environments)
    board = leaderboard(setting, backend=ctx.backend, store=ctx.store)
    section.text(
        "Each agent plays the same seeded episodes (episode k starts with env.reset(seed=k)) "
        "with regret=True. The score of an episode is 100 times the product, over its "
        "decisions, of the share (Q - L) / (V - L) of the state's value each decision kept "
        "(V the optimal value, Q the value of the action taken, L the game's lowest return): "
        "it lies in [0, 100], is 100 for optimal play and holds no luck of the draw but which "
        "positions were reached. The return share is the mean of (V0 - loss - L) / (V0 - L) "
        "(V0 the optimum at the start, loss the sum of the regrets): unbiased for the expected "
        "return's share of the optimum, but one episode can leave 0-100. Regret per decision "
        "is the mean of the episodes' loss / decisions, in the game's unit. Intervals are 95% "
        "and inside their bounds: a bootstrap for the score and the regret, Wilson for a 0/1 "
        "return, a t interval cut to [0, 100] for the share. 'strong' is gamelab's published "
        "policy (Voltorb MinRisk, Wordle best entropy); Yatzy's is the optimum and the lattice "
        "has none move by move, so those rows play as shown."
    )
    section.table(
        "leaderboard",
        TABLE_COLUMNS,
        [table_cells(row) for row in board.rows],
        caption=f"{setting.episodes} seeded episodes per row; {board.episodes_computed} played in this "
        f"run, the rest from the results store. Environments (Gymnasium ids): {ids}.",
    )
    section.figure(
        "percent_of_optimal",
        percent_figure(board),
        caption="Each agent's score (percent of optimal, compounded over its decisions) with "
        "its 95% interval; the optimum scores 100 by definition.",
    )
    heuristic = [
        f"{r.environment.split()[0]} {r.percent_of_optimal.value:.0f}%"
        for r in board.rows
        if r.agent == "heuristic"
    ]
    section.set_headline("heuristic agents' score: " + ", ".join(heuristic))
    learners_part(section, ctx, board)


def learners_part(section: Section, ctx: ReportContext, board: Leaderboard) -> None:
    """The learners' leaderboard and curves, read from the results store (training needs
    CPU-minutes and, for MaskablePPO, the rl extra: benchmarks/envs_learners.py computes them;
    the report never does)."""
    from gamelab.envs.learners import LEARNERS, LearnerSetting, learners_table, stored_curves

    settings = [LearnerSetting(learner=name) for name in LEARNERS]
    found = [stored_curves(s, ctx.store) if ctx.store is not None else None for s in settings]
    curves = [c for c in found if c is not None]
    missing = [s.learner for s, c in zip(settings, found, strict=True) if c is None]
    if missing or board.setting.episodes != settings[0].episodes:
        section.text(
            f"Learners not in the results store yet ({', '.join(missing) or 'other episodes'}): "
            "run `python benchmarks/envs_learners.py` (MaskablePPO needs "
            '`pip install "gamelab[rl]"`) with the same results store, then the report again.'
        )
    if not curves or board.setting.episodes != settings[0].episodes:
        return
    columns, rows = learners_table(curves, board)
    budgets = "; ".join(
        f"{c.setting.learner}: {c.setting.steps:,} environment steps x {c.setting.seeds} seeds"
        for c in curves
    )
    section.table(
        "learners",
        columns,
        rows,
        caption=f"Learners against the optimum ({budgets}): the greedy policy on the "
        f"leaderboard's {settings[0].episodes} episodes (score interval over seeds x episodes); "
        "MaskablePPO from sb3-contrib with no wrapper and its default hyperparameters, "
        "OpenSpiel's tabular Q-learner on the lattice; read from the results store.",
    )
    section.figure(
        "learning_curves",
        curves_figure(curves, board),
        caption="Each learner's score against training steps (95% interval over seeds x "
        "episodes), with the baseline agents' scores on the same episodes as dotted lines.",
    )


def curves_figure(curves: list[Any], board: Leaderboard) -> Any:
    """One panel per environment: each learner's score against steps, the baselines as lines."""
    from gamelab.core.report import new_figure

    names = [
        n for n in board.setting.environments if any(n in c.setting.environments for c in curves)
    ]
    fig, first = new_figure(3.2 * len(names), 3.2)
    fig.delaxes(first)
    axes = np.atleast_1d(fig.subplots(1, len(names)))
    for ax, name in zip(axes, names, strict=True):
        last = 1
        for c in curves:
            points = [p for p in c.points if p.environment == name]
            if not points:
                continue
            steps = [p.steps for p in points]
            last = max(last, steps[-1])
            ax.errorbar(
                steps,
                [p.score.value for p in points],
                yerr=[
                    [p.score.value - p.score.lo for p in points],
                    [p.score.hi - p.score.value for p in points],
                ],
                marker="o",
                capsize=2,
                label=c.setting.learner,
            )
        for r in board.rows:
            if r.environment == name and r.agent in ("random", "heuristic", "optimal"):
                ax.axhline(r.percent_of_optimal.value, linestyle=":", linewidth=1, color="grey")
                ax.annotate(
                    r.agent, (last, r.percent_of_optimal.value), fontsize=7, ha="right", va="bottom"
                )
        ax.set_title(name, fontsize=8)
        ax.set_ylim(0, 105)
        ax.set_xlabel("environment steps")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0.0, 0.93))
    axes[0].set_ylabel("score, % of optimal")
    return fig


def percent_figure(board: Leaderboard) -> Any:
    """Each environment's agents' percent of optimal, with their intervals, side by side."""
    import numpy as np

    from gamelab.core.report import new_figure

    environments = board.setting.environments
    agents = board.setting.agents
    fig, ax = new_figure(7.0, 1.2 + 0.9 * len(environments))
    height = 0.8 / len(agents)
    rows = {(r.environment, r.agent): r for r in board.rows}
    for a, agent in enumerate(agents):
        y = np.arange(len(environments)) + (a - (len(agents) - 1) / 2) * height
        cells = [rows[(e, agent)].percent_of_optimal for e in environments]
        values = np.array([c.value for c in cells])
        errors = np.array([[c.value - c.lo for c in cells], [c.hi - c.value for c in cells]])
        ax.barh(y, values, height=height * 0.9, xerr=errors, capsize=2, label=agent)
    ax.set_yticks(np.arange(len(environments)), [e.split()[0] for e in environments])
    ax.invert_yaxis()
    ax.axvline(100, color="black", linewidth=0.8)
    ax.set_xlabel("score, % of optimal (mean over episodes, 95% interval)")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(agents), frameon=False)
    return fig
