"""Text as a person types it on any keyboard, read once at the edge of every game's parser.

Full-width digits, letters and commas (what a Japanese keyboard types: ``４，２``) are read as
their ASCII forms (NFKC), in every game's text input and in the command line's numbers
(``--depth ３``), as ``int`` reads such digits (a JSON number is ASCII by its grammar). Signs that
look like digits but are not decimal digits (superscripts ``²``, circled ``②``, fractions
``½``: Unicode category ``No``) are refused, since NFKC would silently read ``²`` as 2.
"""

from __future__ import annotations

import unicodedata


def typed(text: str) -> str:
    """`text` in ASCII digits, letters and punctuation where a keyboard typed their full-width
    forms; a ValueError quotes a digit-like sign that is not a digit.

    >>> typed("４，２")
    '4,2'
    """
    odd = [ch for ch in text if unicodedata.category(ch) == "No"]
    if odd:
        raise ValueError(f"{odd[0]!r} is not a digit: type the digits 0-9, got {text!r}")
    return unicodedata.normalize("NFKC", text)
