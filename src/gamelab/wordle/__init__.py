"""Pokémon Wordle (and any Wordle-like word list): feedback rules, entropy ranking, greedy
charts, the blog post's pruned search, a proven-optimal solver, hill climbing and an assistant.

    >>> from gamelab.wordle.rules import load_word_list, feedback
    >>> from gamelab.wordle.rules import parse_names
    >>> words = load_word_list(parse_names("gen1-4"))
    >>> len(words.guesses), len(words.answers)
    (493, 285)
    >>> feedback("レントラー", "ゴルダック", rule="blog")
    (0, 0, 0, 0, 0)

Rules: :class:`gamelab.wordle.table.Game` (a :class:`gamelab.wordle.rules.WordList` under a
feedback rule, ``blog`` or ``standard``, with its feedback tables).

Entry points (what the command line, the report and the web app call; each returns a dataclass):

* :func:`gamelab.wordle.entropy.ranking` - first guesses by entropy under both rules
* :func:`gamelab.wordle.chart.chart` - every pattern of a first guess and the greedy totals
* :func:`gamelab.wordle.chart.tree_chart` - the same from a decision tree file
* :func:`gamelab.wordle.pruned.pruned_totals` - the post's pruned search per first guess
* :func:`gamelab.wordle.hillclimb.made_up_first_guess` - the best made-up first guess
* :func:`gamelab.wordle.advice.advise` - the assistant of the page, ``next`` and ``assist``
  (:class:`gamelab.wordle.advice.AdviceSession`, injectable I/O): candidates, optimal next
  guess, entropy ranking (from :func:`gamelab.wordle.solver.strategy.optimal_strategy`, the
  cached optimum)
* :func:`gamelab.wordle.review.review` - each guess against the optimum: guesses lost, luck
* :func:`gamelab.wordle.practice.play_round` - a seeded practice game replayed from its guesses
* :func:`gamelab.wordle.names.suggest` / :func:`gamelab.wordle.names.lookup_name` - names typed
  in romaji, kana or English
* :func:`gamelab.wordle.solver.summary.solve_summary` - the proven optimum (``solve-optimal``),
  :func:`gamelab.wordle.solver.opening.prove_opening` (``prove-opening``) and
  :func:`gamelab.wordle.solver.feasible.prove_feasible` (``feasible``); the analysis takes one
  :class:`gamelab.wordle.rules.Setting` (a custom word list too; ``max_guesses`` None: no limit)
"""
