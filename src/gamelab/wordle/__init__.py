"""Pokémon Wordle (and any Wordle-like word list): feedback rules, entropy ranking, greedy
charts, the blog post's pruned search, a proven-optimal solver, hill climbing and an assistant.

    >>> from gamelab.wordle.rules import load_word_list, feedback
    >>> words = load_word_list("gen1-4")
    >>> len(words.guesses), len(words.answers)
    (493, 285)
    >>> feedback("レントラー", "ゴルダック", rule="blog")
    (0, 0, 0, 0, 0)
"""
