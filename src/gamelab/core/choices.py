"""A setting chosen by name from a fixed list (a lattice, a board generator), parsed once.

:class:`NamedChoice` is a :class:`~enum.StrEnum` whose parse is the constructor: ``Kind("name")``
gives the member, and an unknown name is a ``ValueError`` that names the kind of choice and lists
the allowed names, the one message every shell shows. A member is its name as a string, so it
stays its name in JSON, cache keys and comparisons (typing a setting changes no stored key).

>>> class Colour(NamedChoice, noun="colour"):
...     RED = "red"
...     BLUE = "blue"
>>> Colour("blue") is Colour.BLUE, Colour.BLUE == "blue"
(True, True)
>>> Colour("green")
Traceback (most recent call last):
ValueError: unknown colour 'green'; allowed: red, blue
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar


class NamedChoice(StrEnum):
    """Base of the named choices (module docstring); a subclass gives the word for its kind in
    its class line: ``class Lattice(NamedChoice, noun="lattice")``."""

    _choice_noun: ClassVar[str]

    def __init_subclass__(cls, *, noun: str, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._choice_noun = noun

    @classmethod
    def _missing_(cls, value: object) -> Any:
        names = ", ".join(member.value for member in cls)
        raise ValueError(f"unknown {cls._choice_noun} {value!r}; allowed: {names}")
