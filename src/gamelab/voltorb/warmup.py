"""Voltorb's warm-up: one small call of each library entry point, so that numba compiles (once,
into its cache) or loads every kernel the commands, the report and the web page use."""

from __future__ import annotations

from gamelab.core.tiers import compiled_kernels
from gamelab.core.warm import PageWarmup

#: What the page needs warm (``gamelab serve``): voltorb's kernels start no threads, so they are
#: warmed once in the forkserver and every solver starts warm.
PAGE_WARMUP = PageWarmup(
    prefork=("gamelab.voltorb.warmup:warm_page",),
    seconds=31.3,  # benchmarks/page_warm.py --only voltorb (load 7-8: CPU-s on empty caches)
)


ROWS, COLS = "4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"


@compiled_kernels()  # (a search of the level-2 position would otherwise run interpreted)
def warm_page() -> None:
    """What the web page's solver processes load before serving (``gamelab serve`` runs it
    once in the pool's forkserver): the advice on a level-2 position, the searches of the
    round goals (the general objective search on ``survive``, and the coin search), and the
    review of a practice round. Without the goals' kernels a first goal waited for numba to
    compile them (11-16 s on a loaded machine, ``benchmarks/web_first_answers.py
    --fresh-install``), then got MinRisk. None of these kernels starts a thread."""
    from gamelab.voltorb.assistant import position_posterior, solve_position
    from gamelab.voltorb.expectimax import OptimalSolver
    from gamelab.voltorb.objectives import Objective, objective_decision
    from gamelab.voltorb.review import review_practice
    from gamelab.voltorb.rules import Position, VoltorbSetting

    position, level_2 = Position.parse(ROWS, COLS), VoltorbSetting(2)
    solve_position(position, level_2)
    post = position_posterior(position, level_2)
    objective_decision(post, {}, Objective.parse("survive"), 2)
    OptimalSolver(post, "coins").decide({})
    review_practice(VoltorbSetting(1), 0, [[3, 3]])


@compiled_kernels()
def warm_assistant() -> None:
    """What ``gamelab voltorb assist`` compiles while a person types the first clues: the
    posterior's enumeration and the general win search (a position of level 5 or more usually
    has more boards than the bit-mask searches take; a smaller one runs interpreted at first),
    on the README's level-2 position searched without the bit-mask searches."""
    from gamelab.voltorb.assistant import position_posterior
    from gamelab.voltorb.expectimax import OptimalSolver
    from gamelab.voltorb.rules import Position, VoltorbSetting

    post = position_posterior(Position.parse(ROWS, COLS), VoltorbSetting(2))
    OptimalSolver(post, small_max=0, wide_max=0).decide({})


@compiled_kernels()
def warm_up() -> None:
    """Solve and evaluate a level-2 position (its coin-maximising policy, and the general
    objective search on ``survive``), simulate a few
    rounds of MinRisk, FoM and the optimal policy, run a short campaign, and compile the
    reference search's bound kernel."""
    from gamelab.core.parallel import Backend
    from gamelab.voltorb.assistant import (
        compile_reference_kernels,
        position_posterior,
        solve_position,
    )
    from gamelab.voltorb.evaluate import evaluate_position
    from gamelab.voltorb.expectimax import OptimalSolver
    from gamelab.voltorb.rules import BoardGenerator, Position, VoltorbSetting
    from gamelab.voltorb.simulate import campaign, simulate_study

    one = Backend(workers=1, quiet=True)  # in this process: the compiled code lands in the cache
    position, level_2 = Position.parse(ROWS, COLS), VoltorbSetting(2)
    solve_position(position, level_2)
    # the general objective kernel (win and coins go to the two searches above)
    from gamelab.voltorb.objectives import Objective, objective_decision

    post = position_posterior(position, level_2)
    objective_decision(post, {}, Objective.parse("survive"), 2)
    OptimalSolver(position_posterior(position, level_2), "coins").decide({})
    evaluate_position(position, level_2, "fom")
    simulate_study(VoltorbSetting(1), "minrisk", 20, 0, one, None, compare_with="fom")
    simulate_study(VoltorbSetting(1), "optimal", 3, 0, one, None)
    campaign(BoardGenerator.HGSS, "greedy-coins", 2, 2, 0, one, None)
    compile_reference_kernels()
    compile_environment_kernels()


def compile_environment_kernels() -> None:
    """The environments' dealer and the native vector environment's rounds, with the argument
    types of :mod:`gamelab.voltorb.stepper` and :mod:`gamelab.envs.vector`."""
    import numpy as np

    from gamelab.voltorb._deal_kernels import level_tables
    from gamelab.voltorb._vector_kernels import deal_rounds, new_rounds, step_rounds
    from gamelab.voltorb.rules import BoardGenerator, VoltorbSetting
    from gamelab.voltorb.stepper import BoardQueue

    BoardQueue(VoltorbSetting(1)).take(np.random.default_rng(0))
    tables = level_tables(BoardGenerator.HGSS, 1)
    stream = (np.random.default_rng(0).random((1, 64)), np.zeros(1, np.int64), np.full(1, 64))
    rounds, pending = new_rounds(1), np.zeros(1, dtype=np.int64)
    one = np.zeros(1, dtype=np.int64)
    deal_rounds(one, stream, tables, rounds, pending)
    outcome = (np.zeros(1), np.zeros(1, dtype=bool), np.zeros(1, dtype=bool), pending)
    step_rounds(one, True, stream, tables, rounds, outcome)
