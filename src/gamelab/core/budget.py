"""How a shell with a time budget runs one answer of the library: one plan for every game.

The library decides (a game's ``*_plan`` functions); the shell (the web page's router, with the
server's budget of a few seconds) only carries the plan out. A :class:`Plan` is

* the call ``fn(*args)``, its own limits (a cap of states or nodes in proportion to the seconds,
  a piece of a long review) already among its arguments;
* ``seconds``: how long it may take, the budget plus any time limit of its own that comes with
  the request (an engine's time per move); None for an instant call, answered at once;
* the labelled ``fallback`` that answers if the call overruns (a picklable
  ``functools.partial`` of a module-level function), ``what`` overran and the ``fallback_name``
  in words, so the answer can say "exact optimal search timed out after 2 s; showing MinRisk".
  Without a fallback, an overrun is refused with the reason;
* ``cacheable``: whether the answer is a pure function of the arguments (not when the clock
  stops the search), so a shell may keep it.

>>> from functools import partial
>>> plan = Plan(max, (1, 2), 2.0, partial(min, 1, 2), "the exact maximum", "the minimum")
>>> plan.run(), plan.instant
(2, False)
>>> Plan(max, (1, 2), None).instant
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any


@dataclass(frozen=True)
class Plan:
    """One answer within a time budget: the call, its seconds and its labelled fallback."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    seconds: float | None  # how long the call may take; None: instant, answered at once
    fallback: partial[Any] | None = None  # picklable: a partial of a module-level function
    what: str = ""  # what may overrun, in words ("exact optimal search")
    fallback_name: str = ""  # what answers instead, in words ("MinRisk")
    cacheable: bool = True  # False when the clock, not the arguments, stops the call

    def __post_init__(self) -> None:
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a plan's seconds must be positive, got {self.seconds}")
        if self.fallback is not None:
            if self.seconds is None:
                raise ValueError("an instant plan has no fallback")
            if not isinstance(self.fallback, partial):
                raise ValueError("a plan's fallback is a functools.partial (it must pickle)")
            if not (self.what and self.fallback_name):
                raise ValueError("a plan with a fallback names what overran and what answers")

    @property
    def instant(self) -> bool:
        """Answered at once, where the request is handled (no budget, no fallback)."""
        return self.seconds is None

    def run(self) -> Any:
        """The call itself, without a budget (a command line, a test)."""
        return self.fn(*self.args)
