"""Report section: perft, engine speed, tablebase sizes and build times, matches with Elo."""

from __future__ import annotations

import time

from gamelab.core.parallel import Backend
from gamelab.core.stats import format_elo, format_estimate
from gamelab.oware.match import (
    BlogSpec,
    EngineSpec,
    GreedySpec,
    MatchSummary,
    MctsSpec,
    PlayerSpec,
    RandomSpec,
    run_match,
    stored_match,
)
from gamelab.oware.perft import START_PERFT, perft_count, perft_python
from gamelab.oware.rules import TABLEBASE_SEEDS, Position, random_positions
from gamelab.oware.search import Engine, twin_negamax
from gamelab.oware.tablebase import compute_tablebase, tablebase_levels

TITLE = "Oware Abapa: rules, engine, tablebases, strength"

#: The acceptance matches of issue 7 (a, b, games, seed), run in the background with the
#: commands in docs/oware.md; shown here when the results store holds them complete.
ACCEPTANCE = (
    (EngineSpec(time=0.5), BlogSpec(depth=6), 100, 1),
    (EngineSpec(time=0.5), MctsSpec(sims=1000), 100, 2),
    (EngineSpec(time=0.5), BlogSpec(depth=6), 200, 11),
    (EngineSpec(time=0.5), MctsSpec(sims=1000), 200, 12),
)


def build(section, ctx) -> None:
    quick = ctx.quick
    data: dict = {}

    # ---- perft (quick: the plain-Python twin, 0.4 s to depth 7; the kernel would compile first)
    depth = 7 if quick else 10
    count = perft_python if quick else perft_count
    rows = []
    for d in range(1, depth + 1):
        t0 = time.perf_counter()
        n = count(Position.initial(), d)
        rows.append(
            [
                d,
                n,
                START_PERFT[d - 1],
                "yes" if n == START_PERFT[d - 1] else "NO",
                round(time.perf_counter() - t0, 3),
            ]
        )
    section.table(
        "perft",
        ["depth", "perft", "reference", "match", "seconds"],
        rows,
        caption="Move sequences from the start position (reference: OpenSpiel, "
        "research notes §2), counted by "
        + ("the plain-Python rules (gamelab.oware.rules.perft)" if quick else "the numba kernel")
        + ". Command: gamelab oware perft --depth D --json",
    )
    data["perft_ok"] = all(r[3] == "yes" for r in rows)
    if quick:  # the engine and the tablebase need numba's kernels (seconds to compile)
        section.text(
            "The full report (`gamelab report`) adds perft to depth 10 by the numba kernel, the "
            "engine's speed against its plain-Python twin, the endgame tablebase and matches of "
            "the engine against the blog's search; the quick report plays only players written "
            "in plain Python."
        )
        nps = None
    else:
        nps = _speed_and_tablebase(section, ctx, data)

    _matches(section, ctx, data, quick, depth, nps)


def _speed_and_tablebase(section, ctx, data: dict) -> float:
    """The engine's speed against its twin, and the tablebase (full report)."""
    ps = random_positions(8, ctx.seed)
    seconds = 1.0
    engine = Engine(tablebase_seeds=-1)
    nodes = secs = 0.0
    for p in ps:
        engine.clear()
        r = engine.search(p, time_limit=seconds)
        nodes += r.nodes
        secs += r.seconds
    twin_nodes, twin_s = [0], 0.0
    twin_depth = 6
    for p in ps:
        t0 = time.perf_counter()
        twin_negamax(p, twin_depth, nodes=twin_nodes)
        twin_s += time.perf_counter() - t0
    nps, twin_nps = nodes / secs, twin_nodes[0] / twin_s
    section.table(
        "speed",
        ["search", "nodes/s", "vs twin"],
        [
            ["numba engine (PVS, TT, ordering)", round(nps), round(nps / twin_nps, 1)],
            ["plain-Python twin (alpha-beta)", round(twin_nps), 1.0],
        ],
        caption=f"{len(ps)} random positions, {seconds} s each for the engine, depth "
        f"{twin_depth} for the twin, one core (shared). Command: python benchmarks/oware_search.py",
    )
    data.update(engine_nps=nps, twin_nps=twin_nps)

    # ---- tablebase
    seeds = TABLEBASE_SEEDS
    compute_tablebase(2)  # compile (or load) the kernels outside the timing
    t0 = time.perf_counter()
    arrays = compute_tablebase(seeds)
    total = time.perf_counter() - t0
    off = arrays["offsets"]
    levels = tablebase_levels(arrays["values"], off, arrays["seconds"], arrays["sweeps"])
    tb_rows = [
        [lv.seeds, lv.boards, lv.build_seconds, lv.sweeps, lv.mover_wins_share] for lv in levels
    ]
    seeds = max(lv.seeds for lv in levels)  # caption and command describe this very table
    section.table(
        "tablebase",
        ["seeds", "boards", "build s", "sweeps", "mover wins share"],
        tb_rows,
        caption=f"Retrograde tablebase to {seeds} seeds: {int(off[-1]):,} boards, one byte "
        f"each, built in {total:.1f} s. "
        f"Command: python benchmarks/oware_tablebase.py --seeds {seeds}",
    )
    data.update(tablebase_seeds=seeds, tablebase_seconds=total)
    return nps


def _matches(section, ctx, data: dict, quick: bool, depth: int, nps: float | None) -> None:
    # quick: a few small matches in-process (starting workers that load the kernels costs more)
    workers = 1 if quick else ctx.backend.workers
    backend = Backend(workers=workers, cluster=None if quick else ctx.backend.cluster, quiet=True)
    if quick:
        # plain-Python players only (the blog's search and the engine run numba kernels); 40
        # games: a clean sweep reads "at least 91 %" (Wilson)
        pairs: list[tuple[PlayerSpec, PlayerSpec, int]] = [(GreedySpec(), RandomSpec(), 40)]
    else:
        pairs = [
            (GreedySpec(), RandomSpec(), 100),
            (BlogSpec(depth=4), GreedySpec(), 100),
            (BlogSpec(depth=6), BlogSpec(depth=4), 100),
            (EngineSpec(depth=6), BlogSpec(depth=6), 100),
        ]
    section.text(
        "Players: random = a uniformly random legal move; greedy = the move capturing the most "
        "seeds now; blog:depth=D = the seed blog's plain alpha-beta to depth D with its "
        "evaluation; engine:depth=D (or time=T s per move), tb=N = gamelab's engine (principal "
        "variation search, transposition table, move ordering) with the endgame tablebase up "
        "to N seeds; mcts:sims=N = OpenSpiel's MCTS bot with N simulations. Columns: games "
        "(half with each colour), W-D-L from A's side, score rate = (wins + draws/2) / games "
        "with its Wilson 95% interval, Elo = that rate (and interval) on the logistic curve."
    )
    match_rows = []
    for a, b, n in pairs:
        s = run_match(
            a,
            b,
            games=n,
            seed=ctx.seed,
            backend=backend,
            store=ctx.store,
        )
        match_rows.append(_match_row(s))
    for a, b, n, seed in ACCEPTANCE:
        stored = stored_match(ctx.store, a, b, n, seed) if ctx.store is not None else None
        if stored is not None:
            match_rows.append(_match_row(stored))
    section.table(
        "matches",
        ["A", "B", "games", "W-D-L", "score rate [95%]", "Elo [95%]"],
        match_rows,
        caption="Paired colours (each 2-ply random opening played with both colours); "
        "Wilson interval; Elo from the score rate. Command: gamelab oware match "
        "--a A --b B --games N --seed S --json",
    )
    data["matches"] = match_rows
    section.data.update(data)
    best = match_rows[-1]
    engine = "" if nps is None else f"engine {nps / 1e6:.2f}M nodes/s; "
    section.set_headline(
        f"perft {'matches' if data['perft_ok'] else 'DIFFERS'} to depth {depth}; "
        f"{engine}{best[0]} vs {best[1]}: {best[4]}"
    )
    section.text(
        "Rules agree move by move with OpenSpiel's oware (tests/oware/"
        "test_oware_openspiel.py). See docs/oware.md for every command."
    )


def _match_row(s: MatchSummary) -> list:
    return [s.a, s.b, s.games, s.record, format_estimate(s.score, ".3f"), format_elo(s.elo)]
