"""The leaderboard as a picture: per environment, each agent's score (percent of optimal) as a
bar with its 95% interval, beside its regret per decision.

>>> from gamelab.core.stats import Estimate
>>> page = leaderboard_html([("voltorb", "random", 20, Estimate(40.0, 30.0, 50.0, 20), "0.1 [0.05, 0.2] P(win)")])
>>> "voltorb" in page and "40.0 [30.0, 50.0]" in page
True
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from gamelab.core.pictures import line, rect, svg_document
from gamelab.core.stats import Estimate, format_estimate

BAR_W, BAR_H = 200, 14


def score_bar(score: Estimate) -> str:
    """A 0-100 bar filled to the score, its interval as a whisker."""
    x = BAR_W / 100
    parts = [
        rect(0, 1, BAR_W, BAR_H, "#eef1f4", "#9aa4ae"),
        rect(0, 1, max(x * score.value, 0.5), BAR_H, "#6aaa64", "#3d7a38"),
        line(x * score.lo, BAR_H / 2 + 1, x * score.hi, BAR_H / 2 + 1, "#222"),
    ]
    return svg_document(BAR_W, BAR_H + 2, parts)


def leaderboard_html(rows: Sequence[tuple[str, str, int, Estimate, str]]) -> str:
    """The leaderboard (:class:`gamelab.envs.baselines.Leaderboard`): one row per environment
    and agent (environment, agent, episodes, score in percent of optimal, regret per decision
    as text with its unit), the score drawn as a bar."""
    cells = "".join(
        "<tr>"
        f"<td style='text-align:left'>{html.escape(env)}</td>"
        f"<td style='text-align:left'>{html.escape(agent)}</td><td>{episodes}</td>"
        f"<td>{score_bar(score)}</td><td>{html.escape(format_estimate(score, '.1f'))}</td>"
        f"<td>{html.escape(regret)}</td></tr>"
        for env, agent, episodes, score, regret in rows
    )
    return (
        "<table><tr><th>environment</th><th>agent</th><th>episodes</th>"
        "<th colspan='2'>score (% of optimal, 95% interval)</th><th>regret per decision</th>"
        f"</tr>{cells}</table>"
    )
