"""Oware Abapa: rules, the blog's alpha-beta, a numba engine with endgame tablebases, matches.

Rules: :class:`gamelab.oware.rules.Position` (immutable; text form ``h0-...-h11-s0-s1-S|N``)
under a :class:`gamelab.oware.rules.Rules` variant (grand-slam and cycle rules by name).

Entry points (what the command line, the report and the web app call; each returns a dataclass):

* :func:`gamelab.oware.perft.timed_perft` - move sequences of a given length, timed
* :func:`gamelab.oware.analysis.analyse` - the engine's best move, score and principal variation
* :func:`gamelab.oware.tablebase.tablebase_summary` - endgame tablebase sizes and build times
* :func:`gamelab.oware.match.run_match` - a paired-colour match: W-D-L, score rate, Elo
* :class:`gamelab.oware.play.PlaySession` - a game against the engine (injectable I/O)
"""
