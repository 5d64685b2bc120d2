"""Voltorb Flip (Pokémon HeartGold/SoulSilver): the game's real board generator, exact
posterior, the published strategies, the win-maximising policy, campaigns and an assistant.

Modules: :mod:`~gamelab.voltorb.rules` (board, clues, flips, payout, level progression,
generators), :mod:`~gamelab.voltorb.prior` (exact valid-board counts and prior weights),
:mod:`~gamelab.voltorb.posterior` (enumeration of consistent boards),
:mod:`~gamelab.voltorb.deduction` (the blog's label board), :mod:`~gamelab.voltorb.strategies`,
:mod:`~gamelab.voltorb.expectimax` (optimal policies, exact policy evaluation),
:mod:`~gamelab.voltorb.simulate` (paired simulation, campaigns).

Rules: :class:`gamelab.voltorb.rules.Clues` (row and column sums and Voltorb counts) and the
board generators named in :data:`gamelab.voltorb.rules.GENERATORS`.

Entry points (what the command line, the report and the web app call; each returns a dataclass):

* :func:`gamelab.voltorb.simulate.simulate_study` - rounds of a strategy, optionally paired
* :func:`gamelab.voltorb.simulate.campaign` - consecutive rounds under the level progression
* :func:`gamelab.voltorb.assistant.solve_position` - probabilities, safe tiles, the best flip
* :func:`gamelab.voltorb.evaluate.evaluate_position` - a strategy's exact chance to clear a board
* :class:`gamelab.voltorb.assistant.AssistSession` - the interactive assistant (injectable I/O)
"""
