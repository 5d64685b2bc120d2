"""One serialiser for every result a shell prints: the CLI's ``--json``, the report's
``results.json`` and the web API all turn a library result into JSON through :func:`to_plain`.

The policy, in one place:

* a dataclass becomes an object of its fields, in declaration order, unless it defines
  ``__json__(self)``, which returns the plain form to use instead (for a value type whose
  document differs from its fields, e.g. :class:`gamelab.core.stats.Estimate` adds ``ci95``);
  fields whose ``metadata`` has ``{"json": False}`` are left out (caches, large arrays);
* numpy scalars and arrays become Python numbers and lists; tuples, sets and frozensets become
  lists (sets sorted); ``Enum`` members their value; ``Path`` its text;
* mapping keys become strings (``str(key)``);
* a float that is not finite (NaN, ±inf) becomes ``null``: JSON has no such numbers, and a
  value type that needs to say *why* (an Elo for a match one side won every game) carries an
  explicit field for it.

>>> from dataclasses import dataclass
>>> @dataclass
... class R:
...     name: str
...     value: float
>>> to_json(R("a", float("nan")))
'{"name": "a", "value": null}'
>>> to_plain({1: (2, 3)})
{'1': [2, 3]}
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

import numpy as np

__all__ = ["attributes", "to_plain", "to_json"]


def to_plain(obj: Any) -> Any:
    """`obj` as JSON-ready Python values (dict, list, str, int, float, bool, None)."""
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, int) and not isinstance(obj, enum.Enum):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, np.generic):
        return to_plain(obj.item())
    if isinstance(obj, np.ndarray):
        return [to_plain(x) for x in obj.tolist()] if obj.dtype.kind in "fc" else obj.tolist()
    custom = getattr(obj, "__json__", None)
    if custom is not None and callable(custom):
        return to_plain(custom())
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {
            f.name: to_plain(getattr(obj, f.name))
            for f in dataclasses.fields(obj)
            if f.metadata.get("json", True)
        }
    if isinstance(obj, enum.Enum):
        return to_plain(obj.value)
    if isinstance(obj, Mapping):
        return {str(k): to_plain(v) for k, v in obj.items()}
    if isinstance(obj, (set, frozenset)):
        return [to_plain(x) for x in sorted(obj)]
    if isinstance(obj, (list, tuple)):
        return [to_plain(x) for x in obj]
    if isinstance(obj, PurePath):
        return str(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def attributes(obj: Any, *names: str) -> dict[str, Any]:
    """The named attributes of `obj` (fields or properties), in that order: the start of a
    ``__json__`` whose document keeps some fields and adds derived values.

    >>> from types import SimpleNamespace
    >>> attributes(SimpleNamespace(a=1, b=2), "b", "a")
    {'b': 2, 'a': 1}
    """
    return {name: getattr(obj, name) for name in names}


def to_json(obj: Any, indent: int | None = None) -> str:
    """JSON text for `obj` under the policy above (UTF-8 text, katakana kept as is)."""
    return json.dumps(to_plain(obj), ensure_ascii=False, allow_nan=False, indent=indent)
