"""Voltorb Flip (Pokémon HeartGold/SoulSilver): the game's real board generator, exact
posterior, the published strategies, the win-maximising policy, campaigns and an assistant.

Modules: :mod:`~gamelab.voltorb.rules` (board, clues, flips, payout, level progression,
generators), :mod:`~gamelab.voltorb.prior` (exact valid-board counts and prior weights),
:mod:`~gamelab.voltorb.posterior` (enumeration of consistent boards),
:mod:`~gamelab.voltorb.deduction` (the blog's label board), :mod:`~gamelab.voltorb.strategies`,
:mod:`~gamelab.voltorb.expectimax` (optimal policies, exact policy evaluation),
:mod:`~gamelab.voltorb.simulate` (paired simulation, campaigns).
"""
