"""The Voltorb Flip assistant: what the clues and flips say, and the interactive session.

:func:`analyse_position` is the analysis behind ``gamelab voltorb solve``, ``POST
/api/voltorb/solve`` (through :func:`solve_position`, from the same text forms) and every step of
``assist``: the exact posterior's P(Voltorb) and P(2 or 3) per tile, the safe tiles, the blog's
label board, the flip recommended by the chosen policy (a :class:`Policy`: ``optimal``, the
win-maximising expectimax of :mod:`gamelab.voltorb.expectimax`; ``minrisk``; ``fom``, the blog's
figure of merit) and P(win) of optimal play from here (``Policy(..., search=False)`` skips that
search and leaves ``win_probability`` None; ``Policy.parse(None, search=False)`` recommends
minrisk). The position and the deal are typed values parsed once by the shell
(:class:`~gamelab.voltorb.rules.Position`, :class:`~gamelab.voltorb.rules.VoltorbSetting`).
The search usually takes well under a second at level 8 but has a heavy tail, which is why the
web app runs it under a time budget.

>>> p = Position.parse("4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1")
>>> a = solve_position(p, VoltorbSetting(2))
>>> a.consistent_boards, a.recommended, round(a.win_probability, 4)
(198, [2, 1], 0.303)

:class:`AssistSession` is ``gamelab voltorb assist`` as a :class:`gamelab.core.interactive.Session`:
row clues, then column clues (each line checked as it is typed), then one flip per line as
``row,col=value``; ``undo`` takes back the last entry, ``help`` lists the commands, a blank line
asks again, ``q``/``quit`` leaves.

>>> s = AssistSession(VoltorbSetting(1), search=False)
>>> s.handle("4,1 5,1 6,0 5,1 16,4")
Traceback (most recent call last):
ValueError: no board is consistent with these clues: row 5 has sum 16 with 4 Voltorbs, but its 1 other cards sum to between 1 and 3
>>> s.handle("4,1 5,1 6,0 5,1 5,1")
'row clues: 4,1 5,1 6,0 5,1 5,1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from gamelab.core.interactive import Session
from gamelab.voltorb.objectives import Objective, ObjectiveDecision, objective_decision
from gamelab.voltorb.posterior import Posterior, playing_posterior
from gamelab.voltorb.rules import (
    SIZE,
    Clues,
    Position,
    VoltorbSetting,
    check_line_clues,
    clues_from_text,
    parse_lines,
)


@dataclass
class PostMortem:
    """A lost round's last decision: the flip that showed a Voltorb, against what optimal play
    would have done from the same position (the clues and the other flips); tiles from 1."""

    flipped: list[int]  # [row, col] of the Voltorb
    p_voltorb: float  # its P(Voltorb) when it was chosen
    best: list[int]  # optimal play's flip there (MinRisk's when the search was skipped)
    best_policy: str  # "optimal" or "minrisk"
    best_p_voltorb: float  # P(Voltorb) of that flip
    p_win_before: float | None  # P(win) of optimal play from that position (None: no search)
    p_win_choice: float | None  # P(win) of the flip chosen, then optimal play
    safe_tiles: list[list[int]]  # tiles that were certainly not a Voltorb there


@dataclass
class BoardAnalysis:
    """The assistant's answer for one position (rows and columns count from 1).

    After a Voltorb (``outcome`` "lost") the round is over: no recommendation, no P(win) and no
    safe tiles; the grids are those of the last decision (before the Voltorb) and
    ``post_mortem`` says what optimal play would have done there.
    """

    p_voltorb: list[list[float]]  # 5 x 5, rows top to bottom
    p_two_or_three: list[list[float]]
    consistent_boards: int
    safe_tiles: list[list[int]]  # hidden tiles that cannot be a Voltorb, as [row, col]
    safe_useful_tiles: list[list[int]]  # ... that can still be a 2 or a 3
    labels: list[list[str]]  # the blog's label board: values each tile may hold
    win_probability: float | None  # P(win) of optimal play from here (None without the search)
    recommended: list[int] | None  # [row, col]; None once the round is lost
    policy: str = "optimal"  # whose flip `recommended` is
    note: str | None = None  # set by a front end that answered with less than asked (time budget)
    # "optimal" (the exact search answered), "fallback: minrisk, because ..." (it did not), or
    # the chosen policy's name when no exact search was asked for (gamelab.voltorb.budget)
    answer: str = "optimal"
    outcome: str | None = None  # "lost" after a Voltorb, else None (the round goes on)
    post_mortem: PostMortem | None = None  # the lost round's last decision

    def _repr_svg_(self) -> str:
        """Every tile's P(Voltorb) and the recommended flip, in a notebook."""
        from gamelab.voltorb.pictures import analysis_svg

        return analysis_svg(self.p_voltorb, self.recommended)


POLICIES = ("optimal", "minrisk", "fom")


@dataclass(frozen=True)
class Policy:
    """Whose flip the assistant recommends (`name`, one of ``POLICIES``) and whether it runs
    the exact search for P(win) (`search`; the optimal policy needs it). Frozen, validated
    here: shells build it once (:meth:`parse`) and the library never checks the name again.

    >>> Policy.parse(None, search=False)
    Policy(name='minrisk', search=False)
    """

    name: str = "optimal"
    search: bool = True

    def __post_init__(self) -> None:
        if self.name not in POLICIES:
            raise ValueError(f"unknown policy {self.name!r}; allowed: {', '.join(POLICIES)}")
        if self.name == "optimal" and not self.search:
            raise ValueError(
                "the optimal policy needs its search; choose minrisk or fom to skip it"
            )

    @classmethod
    def parse(cls, name: str | None, search: bool = True) -> Policy:
        """The policy named `name`; None: optimal with the search, else minrisk."""
        return cls(name if name is not None else "optimal" if search else "minrisk", search)

    def without_search(self) -> Policy:
        """The same flips without the exact search (minrisk in place of optimal)."""
        return Policy("minrisk" if self.name == "optimal" else self.name, False)


def position_posterior(position: Position, setting: VoltorbSetting) -> Posterior:
    """The posterior of a position given that the round is not yet won.

    Raises ValueError if no board fits, or the round is already won.
    """
    return playing_posterior(position.clues, position.shown, setting)


def analyse_position(
    clues: Clues,
    revealed: dict[int, int],
    post: Posterior,
    policy: Policy = Policy(),
    state_limit: int | None = None,
    deal: VoltorbSetting | None = None,
) -> BoardAnalysis:
    """Probabilities, safe tiles, labels and the recommended flip for `post` (see the module doc).

    With a `state_limit`, an optimal search that needs more states stops there and the answer
    is minrisk's (or the chosen policy's) without P(win), saying so in ``note``. With `deal`
    (the setting the clues were dealt under) the search is the deal's
    (:mod:`gamelab.voltorb.solved`): what it solved for an earlier position of the round
    answers this one.
    """
    from gamelab.voltorb import solved
    from gamelab.voltorb.deduction import label_board
    from gamelab.voltorb.expectimax import OptimalSolver, SearchLimitError
    from gamelab.voltorb.strategies import fom_tile, minrisk_tile

    optimal, name = policy.search, policy.name
    probs = post.tile_probabilities()
    p_v = probs[:, 0].reshape(SIZE, SIZE)
    p_m = (probs[:, 2] + probs[:, 3]).reshape(SIZE, SIZE)
    hidden = [t for t in range(SIZE * SIZE) if t not in revealed]
    tile, value, note = -1, None, None
    answer = "optimal" if optimal else name
    if optimal:
        try:
            if deal is None:
                tile, value = OptimalSolver(post, state_limit=state_limit).decide(revealed)
            else:
                tile, value = solved.decide(clues, deal, revealed, state_limit)
        except SearchLimitError:
            note = f"exact optimal search stopped after {state_limit:,} states; showing "
            if name == "optimal":
                name = "minrisk"
            note += "MinRisk" if name == "minrisk" else f"{name} without P(win)"
            answer = (
                f"fallback: {name}, because the exact search stopped after {state_limit:,} states"
            )
    if name == "minrisk":
        tile = minrisk_tile(post)
    elif name == "fom":
        tile = fom_tile(clues, revealed, "fom")
    return BoardAnalysis(
        p_voltorb=np.round(p_v, 6).tolist(),
        p_two_or_three=np.round(p_m, 6).tolist(),
        consistent_boards=post.count,
        safe_tiles=[[t // SIZE + 1, t % SIZE + 1] for t in hidden if probs[t, 0] == 0],
        safe_useful_tiles=[
            [t // SIZE + 1, t % SIZE + 1] for t in hidden if probs[t, 0] == 0 and p_m.flat[t] > 0
        ],
        labels=label_board(clues, revealed),
        win_probability=value,
        recommended=[tile // SIZE + 1, tile % SIZE + 1],
        policy=name,
        note=note,
        answer=answer,
    )


def solve_position(
    position: Position,
    setting: VoltorbSetting = VoltorbSetting(),
    policy: Policy = Policy(),
    state_limit: int | None = None,
) -> BoardAnalysis:
    """:func:`analyse_position` of a position the CLI or the web API parsed (clues and
    revealed tiles, :meth:`Position.parse`), or its post-mortem once a Voltorb is revealed."""
    clues, shown = position.clues, position.shown
    if position.lost:
        return lost_position(clues, shown, setting, policy.search, state_limit)
    post = playing_posterior(clues, shown, setting)
    return analyse_position(
        clues, shown, post, policy=policy, state_limit=state_limit, deal=setting
    )


def lost_position(
    clues: Clues,
    revealed: dict[int, int],
    setting: VoltorbSetting,
    optimal: bool = True,
    state_limit: int | None = None,
) -> BoardAnalysis:
    """The answer once a Voltorb is revealed: the round is lost; the post-mortem compares the
    flip that showed it with optimal play's from the position before it (the other flips).

    The flips' order is not needed: the round ends at its first Voltorb, so every other flip
    came before it. More than one Voltorb is an error."""
    from gamelab.voltorb import solved
    from gamelab.voltorb.deduction import label_board
    from gamelab.voltorb.expectimax import SearchLimitError, choice_value
    from gamelab.voltorb.strategies import minrisk_tile

    voltorbs = [t for t, v in revealed.items() if v == 0]
    if len(voltorbs) > 1:
        where = ", ".join(f"row {t // SIZE + 1}, column {t % SIZE + 1}" for t in voltorbs)
        raise ValueError(
            f"only one Voltorb can be revealed ({where}): the round ends at the first one"
        )
    tile = voltorbs[0]
    Posterior.from_clues(clues, setting, revealed)  # raises if the Voltorb cannot be
    before = {t: v for t, v in revealed.items() if t != tile}
    post = playing_posterior(clues, before, setting)
    probs = post.tile_probabilities()
    hidden = [t for t in range(SIZE * SIZE) if t not in before]
    best, policy, p_before, p_choice, note = minrisk_tile(post), "minrisk", None, None, None
    if optimal:
        solver = solved.deal_solver(clues, setting)
        solver.state_limit = state_limit
        nodes = solver.nodes
        try:
            best, p_before = solver.decide(before)
            p_choice = choice_value(solver, before, tile)
            policy = "optimal"
        except SearchLimitError:
            note = f"exact optimal search stopped after {state_limit:,} states; showing MinRisk"
        finally:
            solved.searched(solver, solver.nodes - nodes)
    p_m = (probs[:, 2] + probs[:, 3]).reshape(SIZE, SIZE)
    return BoardAnalysis(
        p_voltorb=np.round(probs[:, 0].reshape(SIZE, SIZE), 6).tolist(),
        p_two_or_three=np.round(p_m, 6).tolist(),
        consistent_boards=post.count,
        safe_tiles=[],
        safe_useful_tiles=[],
        labels=label_board(clues, before),
        win_probability=None,
        recommended=None,
        policy=policy,
        note=note,
        outcome="lost",
        post_mortem=PostMortem(
            flipped=[tile // SIZE + 1, tile % SIZE + 1],
            p_voltorb=round(float(probs[tile, 0]), 6),
            best=[best // SIZE + 1, best % SIZE + 1],
            best_policy=policy,
            best_p_voltorb=round(float(probs[best, 0]), 6),
            p_win_before=p_before,
            p_win_choice=p_choice,
            safe_tiles=[[t // SIZE + 1, t % SIZE + 1] for t in hidden if probs[t, 0] == 0],
        ),
    )


def advise_objective(
    position: Position,
    setting: VoltorbSetting,
    objective: Objective,
    state_limit: int | None = None,
) -> ObjectiveDecision:
    """The exact best action for a round `objective` from a position (as
    :func:`solve_position`): a tile or quitting, and the optimal value
    (:func:`gamelab.voltorb.objectives.objective_decision`)."""
    post = position_posterior(position, setting)
    return objective_decision(post, position.shown, objective, setting.level, state_limit)


def compile_reference_kernels() -> None:
    """Compile (``gamelab warmup voltorb``) the kernel only the plain-Python reference search
    calls (``OptimalSolver(..., python=True)``: :func:`gamelab.voltorb._bounds_kernels.flip_bounds`),
    on the first few boards of a small position."""
    import numpy as np

    from gamelab.voltorb._bounds_kernels import flip_bounds

    example = Position.parse("4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1")
    post = position_posterior(example, VoltorbSetting(2))
    boards = post.boards[:4]
    hidden = np.ones(boards.shape[1], dtype=bool)
    flip_bounds(
        boards,
        np.ascontiguousarray(post.weights[:4], dtype=np.float64),
        ((boards >= 2) & hidden).sum(axis=1),
        ~hidden,
    )


def _grid_lines(grid: list[list[float]], revealed: dict[int, int]) -> list[str]:
    lines = ["   " + "".join(f"{'c' + str(c + 1):>6}" for c in range(SIZE))]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            t = r * SIZE + c
            cells.append(
                f"{'[' + str(revealed[t]) + ']':>6}" if t in revealed else f"{grid[r][c]:6.3f}"
            )
        lines.append(f"r{r + 1} " + "".join(cells))
    return lines


def format_analysis(analysis: BoardAnalysis, revealed: dict[int, int]) -> str:
    """The analysis as text: the two probability grids side by side, then the advice."""
    left = ["P(Voltorb)", *_grid_lines(analysis.p_voltorb, revealed)]
    right = ["P(2 or 3)", *_grid_lines(analysis.p_two_or_three, revealed)]
    width = max(len(s) for s in left) + 3
    lines = [f"{a:<{width}}{b}" for a, b in zip(left, right, strict=True)]
    lines.append("[v] = revealed value")
    lines.append(f"consistent boards: {analysis.consistent_boards}")
    if analysis.outcome == "lost" and analysis.post_mortem is not None:
        lines[-1] += " (at the last decision, before the Voltorb)"
        lines.extend(format_post_mortem(analysis.post_mortem))
        return "\n".join(lines)
    safe = " ".join(f"{r},{c}" for r, c in analysis.safe_useful_tiles) or "none"
    lines.append(f"safe tiles worth flipping (row,col): {safe}")
    assert analysis.recommended is not None
    r, c = analysis.recommended
    msg = f"recommended flip: row {r}, column {c}"
    if analysis.win_probability is not None:
        msg += f"; P(win) with optimal play from here: {analysis.win_probability:.4f}"
    lines.append(msg)
    return "\n".join(lines)


def format_post_mortem(pm: PostMortem) -> list[str]:
    """A lost round in words: no P(win), no recommendation; what optimal play would have done."""
    (r, c), (br, bc) = pm.flipped, pm.best
    lines = [
        f"A Voltorb at row {r}, column {c}: the round is lost.",
        f"post-mortem of the last decision: row {r}, column {c} was a Voltorb with "
        f"P = {pm.p_voltorb:.4f}",
    ]
    who = "optimal play" if pm.best_policy == "optimal" else "MinRisk (no exact search)"
    if pm.best == pm.flipped:
        lines.append(f"  {who} would have flipped the same tile")
    else:
        lines.append(
            f"  {who} would have flipped row {br}, column {bc} (P(Voltorb) {pm.best_p_voltorb:.4f})"
        )
    if pm.p_win_before is not None and pm.p_win_choice is not None:
        lines.append(
            f"  P(win) from there: {pm.p_win_before:.4f} with optimal play, "
            f"{pm.p_win_choice:.4f} with the flip chosen"
        )
    safe = " ".join(f"{a},{b}" for a, b in pm.safe_tiles) or "none"
    lines.append(f"  tiles that were certainly safe then (row,col): {safe}")
    return lines


_FLIP = re.compile(r"^\s*(\d+)\s*[,\s]\s*(\d+)\s*=\s*(\d+)\s*$")

HELP = """Voltorb Flip assistant. Enter the clues the game shows, then what each flip revealed.
  clues     5 entries S,V per line: S = sum of the line's cards, V = number of Voltorbs in it,
            e.g. 4,2 8,0 4,2 4,2 5,1 (rows top to bottom, then columns left to right)
  r,c=v     tile at row r, column c (1-5) showed value v (0 = Voltorb, 1-3 = card);
            spaces are fine (2, 1 = 3); several flips on one line with ';'
  undo      take back the last flip (or the clues typed last)
  board     show the analysis again
  help      this text
  q, quit   leave"""


class AssistSession(Session):
    """``gamelab voltorb assist`` with injectable I/O (see the module doc)."""

    #: (on a terminal: the search's kernels compile while the clues are typed)
    warm_while_typing = "gamelab.voltorb.warmup:warm_assistant"

    def __init__(self, setting: VoltorbSetting = VoltorbSetting(), search: bool = True) -> None:
        self.setting, self.policy = setting, Policy.parse(None, search)
        self.rows: str | None = None
        self.cols: str | None = None
        self.flips: list[tuple[int, int]] = []  # (tile, value) in the order typed
        self.finished = False
        self.outcome: str | None = None  # "won", "lost" or None

    # -- what is shown ---------------------------------------------------------------------
    @property
    def prompt(self) -> str:
        if self.rows is None:
            return (
                "row clues, top to bottom (5 x S,V: S = sum of the row's cards, V = its Voltorbs)> "
            )
        if self.cols is None:
            return "column clues, left to right (5 x S,V: S = sum of the column's cards, V = its Voltorbs)> "
        return "flip as row,col=value (0 = Voltorb), undo, help or quit> "

    def intro(self) -> str:
        return (
            f"Voltorb Flip assistant (level {self.setting.level}, {self.setting.generator} "
            "generator). "
            "Type 'help' for the commands."
        )

    @property
    def revealed(self) -> dict[int, int]:
        return dict(self.flips)

    # -- commands -----------------------------------------------------------------------------
    def handle(self, line: str) -> str:
        text = line.strip()
        word = text.lower()
        known = self.leave_or_help(word, HELP)
        if known is not None:
            return known
        if word == "undo":
            return self._undo()
        if not text:
            return self._hint()
        if self.rows is None:
            return self._enter_rows(text)
        if self.cols is None:
            return self._enter_cols(text)
        if word in ("board", "show"):
            return self._analysis(self.revealed)
        return self._flip(text)

    def _hint(self) -> str:
        if self.cols is None:
            what = "row" if self.rows is None else "column"
            return (
                f"type the {what} clues, e.g. 4,2 8,0 4,2 4,2 5,1 ('help' explains, 'quit' leaves)"
            )
        return "type a flip like 2,1=3, or undo, help, quit"

    def _enter_rows(self, text: str) -> str:
        sums, volts = parse_lines(text, "rows", label="row clues")
        check_line_clues("row", sums, volts)
        self.rows = " ".join(f"{s},{v}" for s, v in zip(sums, volts, strict=True))
        return f"row clues: {self.rows}"

    def _enter_cols(self, text: str) -> str:
        sums, volts = parse_lines(text, "cols", label="column clues")
        check_line_clues("column", sums, volts)
        cols = " ".join(f"{s},{v}" for s, v in zip(sums, volts, strict=True))
        out = self._analysis({}, cols=cols)  # raises (and keeps nothing) if no board fits
        self.cols = cols
        return out

    def _flip(self, text: str) -> str:
        if self.outcome is not None:
            raise ValueError(
                f"the round is over ({self.outcome}); type undo to take back the last flip "
                "(a typo), or quit"
            )
        new: list[tuple[int, int]] = []
        for piece in text.split(";"):
            if not piece.strip():
                continue
            m = _FLIP.match(piece)
            if not m:
                raise ValueError(
                    f"a flip looks like row,col=value (e.g. 2,1=3), got {piece.strip()!r}; "
                    "type 'help' for the commands"
                )
            r, c, v = (int(x) for x in m.groups())
            if not (1 <= r <= SIZE and 1 <= c <= SIZE and 0 <= v <= 3):
                raise ValueError(
                    f"{piece.strip()!r}: rows and columns are 1-5, values 0-3 (0 = Voltorb)"
                )
            tile = (r - 1) * SIZE + (c - 1)
            seen = dict(self.flips + new)
            if tile in seen:
                raise ValueError(
                    f"row {r}, column {c} is already revealed ({seen[tile]}); "
                    "type undo to take back a flip"
                )
            new.append((tile, v))
        revealed = dict(self.flips + new)
        clues = self._clues()
        post = Posterior.from_clues(clues, self.setting, revealed)  # raises if impossible
        if any(v == 0 for _, v in new):
            lost = lost_position(clues, revealed, self.setting, self.policy.search)
            self.flips += new
            self.outcome = "lost"  # the session stays open: the flip may be a typo (undo)
            assert lost.post_mortem is not None
            lines = format_post_mortem(lost.post_mortem)
            lines[0] += " (the coins of this round are gone)"
            lines.append("mistyped? type undo to take back the flip; quit to leave")
            return "\n".join(lines)
        won = post.won_mask()
        if won.all():
            self.flips += new
            self.outcome = "won"
            return (
                "Board cleared: every 2 and 3 is revealed, the round is won. "
                "(mistyped? type undo to take back the flip; quit to leave)"
            )
        out = self._analysis(revealed)
        self.flips += new
        if won.any():
            p = float(post.weights[won].sum())
            out = (
                f"if the round just ended, the board is cleared and the round is won "
                f"(P = {p:.4f} before knowing); if it goes on:\n" + out
            )
        return out

    def _undo(self) -> str:
        self.outcome = None
        if self.flips:
            tile, v = self.flips[-1]
            out = self._analysis(dict(self.flips[:-1]))
            self.flips.pop()
            return f"took back row {tile // SIZE + 1}, column {tile % SIZE + 1} = {v}\n" + out
        if self.cols is not None:
            self.cols = None
            return "took back the column clues; type them again"
        if self.rows is not None:
            self.rows = None
            return "took back the row clues; type them again"
        return "nothing to undo"

    def _clues(self, cols: str | None = None) -> Clues:
        rows, cols = self.rows, cols or self.cols
        if rows is None or cols is None:
            raise ValueError("type the row and column clues first")
        return clues_from_text(rows, cols)

    def _analysis(self, revealed: dict[int, int], cols: str | None = None) -> str:
        clues = self._clues(cols)
        post = playing_posterior(clues, revealed, self.setting)
        return format_analysis(analyse_position(clues, revealed, post, self.policy), revealed)
