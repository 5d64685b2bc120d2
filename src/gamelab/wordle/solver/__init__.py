"""The exact Pokémon Wordle solver, in one place.

The public face is small:

* :class:`OptimalSolver` (:mod:`.optimal`) -- the proven optimum of a word list (fewest total
  guesses over all answers, within a guess limit, both hard modes): ``solve()``, ``best_guess``,
  ``value``, the opening bounds; its search runs in one numba kernel (:mod:`.kernel_search`
  drives :mod:`._search_kernels`, with the memo, scan and hard-mode kernels beside it);
* :class:`Strategy` (:mod:`.strategy`) -- a proven strategy as arrays (per node the guess, the
  candidates, the exact total, the worst case and the children), shipped or cached per
  :class:`~gamelab.wordle.rules.Setting` (:func:`~.strategy.optimal_strategy`); the solver
  returns these arrays (``OptimalResult.strategy``, :mod:`.tree`) and the JSON tree is their
  rendering;
* :func:`prove_feasible` (:mod:`.feasible`) -- whether any strategy finds every answer within a
  guess limit (much cheaper than the optimum), every first guess settled, resumable.

Also here: :mod:`.summary` (``gamelab wordle solve-optimal``'s result: the optimum with depth
limits, kept in the results store) and :mod:`.opening` (every first guess of a large list
evaluated or refuted: ``prove-opening``).

Each takes the setting as one typed value, :class:`~gamelab.wordle.rules.Setting` (a Pokémon
setting or a custom :class:`~gamelab.wordle.rules.WordList`, the rule, the hard mode and the
guess limit, None for no limit), built once by the shell:

    >>> from gamelab.wordle.solver import OptimalSolver
    >>> from gamelab.wordle.rules import Setting, parse_names
    >>> OptimalSolver(Setting(parse_names("gen1"), "standard", max_guesses=None)).solve().total
    248
"""

from gamelab.wordle.solver.feasible import prove_feasible
from gamelab.wordle.solver.optimal import OptimalSolver
from gamelab.wordle.solver.strategy import Strategy

__all__ = ["OptimalSolver", "Strategy", "prove_feasible"]
