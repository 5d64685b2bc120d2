"""Compile every Yatzy kernel ahead (``gamelab warmup yatzy``) on inputs of a few states; the
page's warm-up (:func:`warm_coach` for the coach answered in the server, :func:`warm_page` for
the solver processes) is a part of it.

The warm-up workload's commands (solve, advise, simulate) reach the decision-table kernels; the
layer kernels (distribution, comeback, win play), the two-player and play-to-round kernels (risk,
win play) and the utility kernels (target, win play) are only reached by commands that take
minutes. :func:`compile_kernels` calls each of them once with the argument types of those
commands (a rules bundle, int64 state arrays, float64 tables), so numba compiles and caches the
same signatures; the values are meaningless and discarded.
"""

from __future__ import annotations

import numpy as np

from gamelab.core.warm import PageWarmup
from gamelab.yatzy._distribution_kernels import backward_layer, forward_layer
from gamelab.yatzy._play_kernels import (
    UNIFORMS_PER_TURN,
    decided_turn,
    duel_games,
    expectation_turn,
    play_games,
    play_to_round,
    round_scratch,
)
from gamelab.yatzy._turn_kernels import (
    state_index,
    workspace_arrays,
    workspace_decisions,
)
from gamelab.yatzy._widget_kernels import new_lane_scratch
from gamelab.yatzy.card import Card
from gamelab.yatzy.coach import advise, decision_tables
from gamelab.yatzy.distribution import layer_rows
from gamelab.yatzy.rules import RULES, RuleSet
from gamelab.yatzy.solver import masks_by_popcount

#: What the page needs warm (``gamelab serve``): the coach (advise, prepare) is answered in the
#: server as soon as its kernels and the tables are there; the win-play bot's kernels compile
#: after, for the pool.
PAGE_WARMUP = PageWarmup(
    pool=("gamelab.yatzy.warmup:warm_page",),
    build=("gamelab.yatzy.tables:build_page_tables",),
    server=("gamelab.yatzy.warmup:warm_coach",),
    rest="the win-play bot and the review",
    # benchmarks/page_warm.py (load 4-6: CPU-s on empty caches), measured when the build solved
    # Yatzy's tables alone; it now solves all five rule sets, tables.BUILD_SECONDS more (about
    # 30 CPU-s on an idle core, once per machine): not measured again yet
    seconds=29.7,
    serve_seconds=20.7,  # the same: the coach and the tables, before the win-play bot
)


def warm_simulation() -> None:
    """The kernels of :func:`gamelab.yatzy.simulate.simulate_chunk` (one greedy game: the same
    kernel and argument types as every strategy), which ``yatzy simulate`` compiles in a second
    process while it solves its tables (:mod:`gamelab.core.ahead`), so that its workers load
    them instead of each compiling them. The game's own callees compile first (a roll, a
    placement, the next state), the widget's last: by then the command has compiled them for
    its solver (final_lanes, the keep stages) and this process loads them from numba's cache
    instead of compiling them a second time."""
    from gamelab.yatzy._turn_kernels import placement, roll_dice, split_state
    from gamelab.yatzy.simulate import simulate_chunk

    rules = RULES["yahtzee"]
    roll_dice(0, np.zeros(UNIFORMS_PER_TURN), 0)
    split_state(placement(0, 0, 0, 0, 0, rules.kernel_rules())[1], rules.bonus_flags)
    simulate_chunk((rules, "greedy", 1), np.random.default_rng(0))


def warm_simulation_beside_the_solver() -> None:
    """:func:`warm_simulation` when the command compiles the solver (its tables are not in the
    cache): after the game's own callees it waits (a few seconds at most) until the command
    has compiled the widget's (final_lanes, keep_lanes, best_lanes, in that order), then loads
    them instead of compiling them too."""
    import time

    from gamelab.core import ahead
    from gamelab.yatzy._turn_kernels import placement, roll_dice, split_state
    from gamelab.yatzy._widget_kernels import best_lanes
    from gamelab.yatzy.simulate import simulate_chunk

    rules = RULES["yahtzee"]
    roll_dice(0, np.zeros(UNIFORMS_PER_TURN), 0)
    split_state(placement(0, 0, 0, 0, 0, rules.kernel_rules())[1], rules.bonus_flags)
    deadline = time.monotonic() + WIDGET_WAIT
    while not ahead.in_cache((best_lanes,)) and time.monotonic() < deadline:
        time.sleep(0.02)
    simulate_chunk((rules, "greedy", 1), np.random.default_rng(0))


#: the longest :func:`warm_simulation_beside_the_solver` waits for the command's widget kernels
#: (about 2 s of compiling on an idle machine)
WIDGET_WAIT = 6.0


def warm_winplay_games() -> None:
    """The kernels of a win-play study's games on threads (:func:`gamelab.yatzy.winplay_study.
    winplay_chunk`): :func:`warm_winplay_laws` and :func:`warm_winplay_solve`."""
    warm_winplay_laws()
    warm_winplay_solve()


def warm_winplay_laws() -> None:
    """The switch positions' and final-score laws' kernels of a win-play study
    (:func:`warm_winplay_switches` and :func:`warm_winplay_law`)."""
    warm_winplay_switches()
    warm_winplay_law()


def warm_winplay_switches() -> None:
    """The switch positions' kernel of a win-play study (``play_to_round``, with the vector
    widget it shares with the laws and the solver) on a one-turn position with a zero table."""
    rules, E, _ = warm_position()
    u = np.random.default_rng(0).random((1, rules.n_boxes, UNIFORMS_PER_TURN))
    rounds = np.array([rules.n_boxes - 1], dtype=np.int64)
    out = np.zeros((1, 1, 4), dtype=np.int64)
    play_to_round(E, u, rounds, rules.kernel_rules(), out, *round_scratch(rules.n_boxes, len(E)))


def warm_winplay_law() -> None:
    """The final-score laws' kernel of a win-play study (``forward_layer``, with the vector
    widget) on a one-turn position with a zero table, which ``yatzy winplay`` compiles in a
    second process (:mod:`gamelab.core.ahead`) when its table is cached (else
    :func:`warm_winplay_table`)."""
    from gamelab.yatzy.winplay import final_score_law

    rules, E, card = warm_position()
    final_score_law(rules, (card.mask, card.capped_upper, card.bonus_flag, 0), E)


def warm_winplay_table() -> None:
    """The solver's kernel (``solve_masks``, on one mask of a zero table), then the laws'
    (:func:`warm_winplay_law`), which ``yatzy winplay`` compiles in a second process while it
    compiles the solves' (:func:`warm_winplay_solve`), when its table is not cached yet. The
    solver's comes first: the vector widget it compiles is the one the command's switch
    positions call (the command waits for it, ``core.ahead.wait_until_cached``, and loads it)
    and the laws' too."""
    from gamelab.yatzy._widget_kernels import solve_layer
    from gamelab.yatzy.solver import upper_reach

    rules = RULES["yatzy"]
    E, W = np.zeros(rules.n_states), np.zeros(rules.n_states)
    masks = masks_by_popcount(rules.n_boxes)[rules.n_boxes - 1][:1]
    solve_layer(E, W, True, masks, upper_reach(), rules.kernel_rules(), threads=1)
    warm_winplay_law()


def warm_winplay_solve() -> None:
    """The kernel of a win-play study's solves on threads (``utility_rows``, one game per
    thread) on a one-turn position against a sure score, which ``yatzy winplay`` compiles
    itself while a second process compiles the solver's and the laws' kernels."""
    from gamelab.yatzy.winplay import solve_win

    rules, _, card = warm_position()
    state = (card.mask, card.capped_upper, card.bonus_flag, 0)
    solve_win(rules, state, (10, np.ones(1)), parallel=False)


def warm_position() -> tuple[RuleSet, np.ndarray, Card]:
    """A one-turn position of Yatzy (only Chance open) and a zero value table."""
    rules = RULES["yatzy"]
    E = np.zeros((1 << rules.n_boxes) * 64)
    return rules, E, Card.parse(rules, ",".join(f"{b}=0" for b in rules.boxes if b != "chance"))


def warm_coach() -> None:
    """Load (or compile, once) the kernels of a game's turn and the coach's advice: what the
    page's calls answered in the server itself need (about 3 CPU-s to compile, a fraction of a
    second to load); the win-play bot's kernels are :func:`warm_page`'s."""
    rules, E, card = warm_position()
    decision_tables(rules, E, card)
    advise(rules, card, "11114", 0, E)


def warm_page() -> None:
    """Load (or compile, once) the kernels a game, its coach, review and win-play bot use, on a
    one-turn position with a zero table: a fraction of a second once numba's cache is warm."""
    from gamelab.yatzy.winplay import decision_scratch, final_score_law, solve_win

    warm_coach()
    rules, E, card = warm_position()
    state = (card.mask, card.capped_upper, card.bonus_flag, 0)
    law = final_score_law(rules, state, E)
    solve_win(rules, state, law).decisions(0, *state, decision_scratch())
    # the bot's win / draw / loss split runs the paired utility kernels too
    solve_win(rules, state, law, outcomes=True).outcomes()


def compile_kernels() -> None:
    """Call every kernel that the commands of the warm-up workload do not reach (see above)."""
    warm_page()  # win play: forward and utility kernels
    warm_winplay_games()  # the win-play study's games on threads
    rules = RULES["yatzy"]
    nb = rules.n_boxes
    bundle = rules.kernel_rules()
    E = np.zeros(rules.n_states)
    layers = masks_by_popcount(nb)
    # one row of the last two layers: forward (distribution) and backward (comeback) pushes
    ms, mm, ff = (a[:1] for a in layer_rows(rules, layers[nb - 1]))
    ms2, mm2, ff2 = layer_rows(rules, layers[nb])
    row_of = np.full(rules.n_states, -1, dtype=np.int64)
    row_of[state_index(ms2, mm2, ff2, rules.bonus_flags)] = np.arange(len(ms2))
    F = np.zeros((1, 4))
    F[0, 0] = 1.0
    F2, ws = np.zeros((len(ms2), 4)), workspace_arrays(nb)
    forward_layer(E, F, 1, row_of, F2, ms, mm, ff, bundle, np.zeros(3), E, ws, new_lane_scratch(nb))
    backward_layer(E, np.zeros((1, 4)), 1, np.ones((len(ms2), 1)), row_of, ms, mm, ff, bundle)
    # whole games (simulate with a given table), rounds (risk, win play) and duels (risk)
    rng = np.random.default_rng(0)
    u = rng.random((1, nb, UNIFORMS_PER_TURN))
    play_games(E, 0, u, bundle, np.empty(1, dtype=np.int64))
    out = np.zeros((1, 1, 4), dtype=np.int64)
    play_to_round(E, u, np.array([nb - 1], dtype=np.int64), bundle, out, *round_scratch(nb, len(E)))
    duel_games(E, out[:, 0, :], out[:, 0, :], u, u, 10, 2, bundle, np.empty(1, dtype=np.int64))
    # one turn of the expectation player and one decided turn (win-play simulation)
    ws = workspace_arrays(nb)
    expectation_turn(E, 0, 0, 0, u[0, 0], bundle, ws)
    decided_turn(*workspace_decisions(ws), u[0, 0], 0, 0, 0, bundle)
    compile_environment_kernels(E)


def compile_environment_kernels(E: np.ndarray) -> None:
    """The environments' kernels: the oracle's turn tables and box options, the native vector
    environment's games (the argument types of :mod:`gamelab.yatzy.oracle` and
    :mod:`gamelab.envs.vector`)."""
    from gamelab.yatzy._oracle_kernels import box_options, new_turn_table, turn_tables
    from gamelab.yatzy._vector_kernels import (
        G_COLUMNS,
        chance_arrays,
        start_games,
        step_games,
    )
    from gamelab.yatzy.rules import N_KEEPS
    from gamelab.yatzy.stepper import chance_tables, keep_masks

    rules = RULES["yatzy"]
    nb, bundle = rules.n_boxes, rules.kernel_rules()
    turn_tables(E, 0, 0, 0, bundle, workspace_arrays(nb), new_turn_table())
    boxes = np.zeros(nb, dtype=np.int64)
    box_options(E, 0, 0, 0, 0, bundle, boxes, np.zeros(nb, dtype=np.int64), np.zeros(nb))
    game = np.zeros((1, G_COLUMNS), dtype=np.int64)
    card = np.full((1, nb), -1, dtype=np.int64)
    masks = np.zeros((1, N_KEEPS + nb), dtype=np.int8)
    rows = keep_masks(N_KEEPS + nb)
    chance = chance_arrays(*chance_tables())
    u, pos = np.random.default_rng(0).random((1, 4)), np.zeros(1, dtype=np.int64)
    start_games(np.zeros(1, dtype=np.int64), game, card, masks, rows, u, pos, *chance)
    step_games(
        np.zeros(1, dtype=np.int64),
        bundle,
        game,
        card,
        masks,
        rows,
        u,
        pos,
        *chance,
        boxes,
        np.zeros(1),
        np.zeros(1, dtype=bool),
        np.zeros(1, dtype=bool),
    )


def warm_up() -> None:
    """Solve the Yatzy rules, coach one position, simulate 50 games, then every kernel the long
    commands use (:func:`compile_kernels`)."""
    from gamelab.core.parallel import Backend
    from gamelab.yatzy.coach import coach
    from gamelab.yatzy.simulate import simulate
    from gamelab.yatzy.solver import solve

    rules = RULES["yatzy"]
    solve(rules)
    coach(rules, "-", "11114", 2)
    simulate(rules, "optimal", 50, 0, Backend(workers=1, quiet=True), None)
    compile_kernels()
