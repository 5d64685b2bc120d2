"""gamelab: solve, simulate and generate small games, and show the work."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("gamelab")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+unknown"

#: The game packages, in the order the command line and the report list them.
GAMES = ("voltorb", "wordle", "lattice", "oware", "yatzy")
