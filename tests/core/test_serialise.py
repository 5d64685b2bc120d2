"""The one serialiser: dataclasses, numpy, non-finite floats, custom __json__, round trips."""

import json
import math
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

import numpy as np
import pytest

from gamelab.core.serialise import to_json, to_plain
from gamelab.core.stats import wilson_interval


class Colour(Enum):
    RED = "red"


@dataclass
class Inner:
    x: float
    cache: list = field(default_factory=list, metadata={"json": False})


@dataclass
class Outer:
    name: str
    inner: Inner
    values: np.ndarray
    pair: tuple
    colour: Colour
    where: Path


def test_dataclass_tree_numpy_and_policy():
    obj = Outer(
        "a",
        Inner(float("inf"), [1]),
        np.array([1.5, np.nan]),
        (np.int64(3), 4),
        Colour.RED,
        Path("/x"),
    )
    plain = to_plain(obj)
    assert plain == {
        "name": "a",
        "inner": {"x": None},
        "values": [1.5, None],
        "pair": [3, 4],
        "colour": "red",
        "where": "/x",
    }
    assert json.loads(to_json(obj)) == plain


def test_estimate_uses_its_own_document():
    est = wilson_interval(7, 10)
    plain = to_plain(est)
    assert (
        plain["ci95"] == [est.lo, est.hi]
        and plain["n"] == 10
        and plain["value"] == pytest.approx(0.7)
    )


def test_keys_become_strings_and_sets_sorted():
    assert to_plain({1: {3, 1, 2}}) == {"1": [1, 2, 3]}


def test_katakana_kept_and_unknown_types_refused():
    assert to_json({"w": "レントラー"}) == '{"w": "レントラー"}'
    with pytest.raises(TypeError, match="not JSON serialisable"):
        to_plain(object())
    assert to_plain(-math.inf) is None
