"""Oware Abapa: rules, the blog's alpha-beta, a numba engine with endgame tablebases, matches."""
