"""Oware Abapa: rules, the blog's alpha-beta, a numba engine with endgame tablebases, matches.

Rules: :class:`gamelab.oware.rules.Position` (immutable; text form ``h0-...-h11-s0-s1-S|N``)
under a :class:`gamelab.oware.rules.Rules` variant (grand-slam and cycle rules by name).

Entry points (what the command line, the report and the web app call; each returns a dataclass):

* :func:`gamelab.oware.perft.timed_perft` - move sequences of a given length, timed
* :func:`gamelab.oware.analysis.analyse` - the engine's best move, score and principal variation
* :func:`gamelab.oware.tablebase.tablebase_summary` - endgame tablebase sizes and build times
* :func:`gamelab.oware.tablebase_disk.build_database` - the endgame database past 16 seeds,
  level by level on disk (resumable, local cores or Dask)
* :func:`gamelab.oware.solve.solve_start` - the start with k seeds a house, solved exactly
* :func:`gamelab.oware.book.build_book` - the opening book: the first plies searched deeply
* :func:`gamelab.oware.match.run_match` - a paired-colour match: W-D-L, score rate, Elo
* :func:`gamelab.oware.game.game_view` - a game replayed from its start and moves (house letters),
  each move checked with the reason it is illegal, the last sowing, the tablebase's exact verdict
* :func:`gamelab.oware.game.play_move` - the game after one more move (a ValueError says why not)
* :func:`gamelab.oware.game.take_back` - the game back at a player's previous turn
* :func:`gamelab.oware.game.engine_reply` - the opponent's move with the engine's analysis
* :func:`gamelab.oware.game.analyse_position` - a position's analysis with its exact verdict
* :func:`gamelab.oware.game_review.review_game` - every move against the engine's best at a fixed depth
* :func:`gamelab.oware.game.game_record` / :func:`gamelab.oware.game.load_record` - game records
* :class:`gamelab.oware.play.PlaySession` - a game against the engine (injectable I/O)
"""
