"""Solitaire Yahtzee and Scandinavian Yatzy: the optimal strategy by dynamic programming, a
coach, simulation, the exact score distribution, target and win play, and comeback studies.

Rules: :class:`gamelab.yatzy.rules.RuleSet` (looked up by name with
:func:`gamelab.yatzy.rules.get_rules`) and a score :class:`gamelab.yatzy.card.Card`.

Entry points (what the command line, the report and the web app call; each returns a dataclass):

* :func:`gamelab.yatzy.solver.solve` - optimal expected score, SD and the value tables
* :func:`gamelab.yatzy.simulate.simulate` - whole games of a strategy, mean with its interval
* :func:`gamelab.yatzy.distribution.score_distribution` - the exact final-score distribution
* :func:`gamelab.yatzy.target.target_table` - max P(score >= T) beside expected-score play
* :func:`gamelab.yatzy.comeback.comeback_study` - exact P(win) of the trailing player
* :func:`gamelab.yatzy.risk.risk_study` - the thesis' risk-taker against optimal play
* :func:`gamelab.yatzy.winplay_study.winplay_study` - playing for the win in the last K turns
* :func:`gamelab.yatzy.winplay_study.win_from_start` - playing for the win from the empty card
* :func:`gamelab.yatzy.coach.coach` - every keep or box of a position with its expected score
* :func:`gamelab.yatzy.game.game_view` - a seeded game replayed from its moves (solo or against
  the optimal or win-play bot), with the coach; what the web page shows
* :func:`gamelab.yatzy.review.review_game` - every decision's loss, the luck and the percentile
  of the final score in the exact distribution from the same start
* :func:`gamelab.yatzy.tables.tables_status` - whether a rule set's tables are loaded or built
* :class:`gamelab.yatzy.play.PlaySession` - a game in the terminal with the coach (injectable I/O)
"""
