"""Machinery shared by every game; it knows no game."""
