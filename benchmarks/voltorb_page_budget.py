"""How often the Voltorb page's exact answer fits its 2 s budget, for two settings of the state
cap (``budget.STATES_PER_SECOND``) side by side, on the same seeded deals.

The page answers a position with ``budget.solve_plan(..., seconds)``: the exact search capped at
``STATES_PER_SECOND * seconds`` states, else MinRisk labelled as a fallback. This runs that very
call (the library's plan, board enumeration included) on the openings of a seeded sample of deals
per level (deal i of level L is ``task_rng(seed * 100 + L, i)``, the deals of
``benchmarks/voltorb_optimal.py``), once per rate, alternating the rates deal by deal, and prints
per level and rate: decisions, exact answers, fallbacks, and the wall and CPU seconds of the call
(p50 / p99 / max, and the max over the exact answers: what the budget must hold).

    nice -n 19 python benchmarks/voltorb_page_budget.py [--levels 5-8] [--deals 100]
        [--rates 20000,40000] [--seconds 2] [--path]

``--path`` adds every later decision of the round MinRisk plays on the true board.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gamelab.voltorb.rules import VoltorbSetting


def _levels(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",")]


def _text(sums, volts) -> str:
    return " ".join(f"{s},{v}" for s, v in zip(sums, volts, strict=True))


def positions(level: int, deals: int, seed: int, generator: str, path: bool):
    """(rows, cols, revealed) of each decision: the openings, and with `path` MinRisk's round."""
    from gamelab.core.parallel import task_rng
    from gamelab.voltorb.posterior import posterior_for
    from gamelab.voltorb.rules import Round, generate_board
    from gamelab.voltorb.strategies import minrisk_tile

    for i in range(deals):
        board, _ = generate_board(VoltorbSetting(level, generator), task_rng(seed * 100 + level, i))
        rnd = Round(board)
        c = rnd.clues
        rows = _text(c.row_sums, c.row_voltorbs)
        cols = _text(c.col_sums, c.col_voltorbs)
        while rnd.outcome is None:
            shown = [f"{t // 5 + 1},{t % 5 + 1}={v}" for t, v in rnd.revealed.items()]
            yield rows, cols, shown
            if not path:
                break
            rnd.flip(
                minrisk_tile(
                    posterior_for(rnd.clues, VoltorbSetting(level, generator), dict(rnd.revealed))
                )
            )


def answer(rows, cols, shown, level, generator, rate, seconds) -> tuple[bool, float, float]:
    """(exact?, wall s, CPU s) of the page's plan for this position at `rate` states/s."""
    from gamelab.voltorb import budget
    from gamelab.voltorb.assistant import Policy
    from gamelab.voltorb.rules import Position

    # the same cap as a page whose STATES_PER_SECOND were `rate` (state_budget is rate x seconds)
    scaled = seconds * rate / budget.STATES_PER_SECOND
    position, setting = Position.parse(rows, cols, shown), VoltorbSetting(level, generator)
    plan = budget.solve_plan(position, setting, Policy("optimal"), scaled)
    w0, c0 = time.perf_counter(), time.process_time()
    out = plan.fn(*plan.args)
    return out.answer == "optimal", time.perf_counter() - w0, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="5-8")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--rates", default="20000,40000", help="states per second, comma-separated")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--generator", default="hgss")
    ap.add_argument("--path", action="store_true", help="also the later decisions of the round")
    args = ap.parse_args()
    rates = [int(r) for r in args.rates.split(",")]
    for pos in positions(1, 1, 0, args.generator, False):  # compile / load the kernels
        answer(*pos, 1, args.generator, rates[0], 1.0)
    print(
        f"{'level':>5} {'rate/s':>7} {'cap':>8} {'decisions':>9} {'exact':>6} {'fallback':>8} "
        f"{'wall p50':>8} {'p99':>6} {'max':>6} {'max exact':>9} {'CPU max exact':>13}"
    )
    for level in _levels(args.levels):
        got: dict[int, list] = {r: [] for r in rates}
        for k, (rows, cols, shown) in enumerate(
            positions(level, args.deals, args.seed, args.generator, args.path)
        ):
            order = rates if k % 2 == 0 else rates[::-1]  # alternate which rate runs first
            for r in order:
                got[r].append(answer(rows, cols, shown, level, args.generator, r, args.seconds))
        for r in rates:
            a = np.array(got[r], dtype=float)
            exact = a[:, 0] == 1
            wall = a[:, 1]
            print(
                f"{level:>5} {r:>7,} {int(r * args.seconds):>8,} {len(a):>9} {int(exact.sum()):>6} "
                f"{int((~exact).sum()):>8} {np.percentile(wall, 50):>8.3f} "
                f"{np.percentile(wall, 99):>6.2f} {wall.max():>6.2f} "
                f"{wall[exact].max() if exact.any() else 0:>9.2f} "
                f"{a[exact, 2].max() if exact.any() else 0:>13.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
