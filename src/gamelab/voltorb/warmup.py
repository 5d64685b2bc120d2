"""Voltorb's warm-up: one small call of each library entry point, so that numba compiles (once,
into its cache) or loads every kernel the commands, the report and the web page use."""

from __future__ import annotations

ROWS, COLS = "4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"


def warm_up() -> None:
    """Solve and evaluate a level-2 position (its coin-maximising policy, and the general
    objective search on ``survive``), simulate a few
    rounds of MinRisk, FoM and the optimal policy, run a short campaign, and compile the
    reference search's bound kernel."""
    from gamelab.core.parallel import Backend
    from gamelab.voltorb.assistant import (
        compile_reference_kernels,
        position_from_text,
        solve_position,
    )
    from gamelab.voltorb.evaluate import evaluate_position
    from gamelab.voltorb.expectimax import OptimalSolver
    from gamelab.voltorb.simulate import campaign, simulate_study

    one = Backend(workers=1, quiet=True)  # in this process: the compiled code lands in the cache
    solve_position(ROWS, COLS, None, 2)
    # the general objective kernel (win and coins go to the two searches above)
    from gamelab.voltorb.objectives import Objective, objective_decision

    post = position_from_text(ROWS, COLS, None, 2, "hgss")[2]
    objective_decision(post, {}, Objective.parse("survive"), 2)
    OptimalSolver(position_from_text(ROWS, COLS, None, 2, "hgss")[2], "coins").decide({})
    evaluate_position(ROWS, COLS, None, 2, "hgss", "fom")
    simulate_study("hgss", 1, "minrisk", 20, 0, one, None, compare_with="fom")
    simulate_study("hgss", 1, "optimal", 3, 0, one, None)
    campaign("hgss", "greedy-coins", 2, 2, 0, one, None)
    compile_reference_kernels()
