"""Replica-exchange Monte Carlo with pull moves: folding long HP chains in 2D and 3D.

:func:`replica_fold` runs one *replica set*: R copies of the chain, each at its own temperature
between ``t_min`` and ``t_max`` (linearly spaced), each making ``phi`` Metropolis steps of
uniformly drawn pull moves (:mod:`._replica_kernels`) between attempts to swap the replicas of
neighbouring temperatures (accepted with probability min(1, exp((1/T_i - 1/T_j)(E_i - E_j))),
energy E = -HH contacts). This is the REMC method of Thachuk, Shmygelska & Hoos (BMC
Bioinformatics 8:342, 2007), which reached the best known energies of the standard 2D and 3D HP
benchmarks, with the pull-move neighbourhood of Lesh, Mitzenmacher & Whitesides (RECOMB 2003);
our move slots make the proposal symmetric, so each replica samples the Boltzmann distribution
exactly (tested on enumerable chains).

The run stops at `target` contacts, after `max_steps` Monte Carlo steps per replica, or after
`seconds` of CPU time of the thread that runs it (checked between chunks of rounds; CPU time, so
that a budget means the same on a loaded machine; the kernel runs on one core). The random stream is a splitmix64 state seeded from
the task's generator: a run limited by steps (or stopped by the target) is a pure function of its
seed; one stopped by the clock depends on how far it got.

Cost: one step is O(moved residues) (a pull usually moves a few); for the 100-mers about 6.5-7.5
million steps per CPU second under load here and 10-11 million on a quiet core, with two to three
times the legal moves per CPU second of the first kernel (benchmarks/lattice_kernel_speed.py,
docs/experiments/lattice.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamelab.core import ahead
from gamelab.lattice._kernels import MOVE_LETTERS
from gamelab.lattice._replica_kernels import kick_kernel, remc_kernel
from gamelab.lattice.rules import Chain, Lattice, at_least, dimensions, hh_score

_LETTER = {(1, 0, 0): "R", (0, 1, 0): "U", (-1, 0, 0): "L", (0, -1, 0): "D"} | {
    (0, 0, 1): "F",
    (0, 0, -1): "B",
}
assert "".join(_LETTER.values()) == MOVE_LETTERS


#: Bumped whenever a change of the kernels changes what a seed gives (the results store's key of
#: the benchmark runs, benchmarks/lattice_fold.py).
#: 2: slots only for moves that can be legal; 3: the same stream as 2, faster, so a run with a
#: CPU-time budget gets further.
REMC_REVISION = 3


@dataclass(frozen=True)
class ReplicaSettings:
    """Replica count, the temperature range (in units of one HH contact), the Monte Carlo steps
    per replica between exchange attempts, and the restart patience: after this many steps per
    replica without a new best since the last (re)start, every replica starts again (0: never),
    from the straight chain (kick 0) or from the best fold of the run so far, each replica
    perturbed by `kick` uniformly drawn move slots at infinite temperature (every legal move
    accepted; an iterated local search around the best). `end_share`: the share of steps whose
    move is drawn among the end-pull and end-move slots only (0: every slot uniform, which makes
    the proposal symmetric and the sampling exactly Boltzmann's). `flat`: the flat-histogram
    penalty added, per step, to the contact count a temperature's replica is at (0: none; a search
    heuristic that pushes replicas out of the basins they sit in, :func:`remc_kernel`).
    `rebridge`: the share of steps that propose a bond-rebridging move (a stretch of the chain
    reversed on the same sites; 0: pull moves only; the sampling stays exact). `epoch`: after
    this many steps per replica since the last (re)start, every replica starts again from the
    straight chain whatever the progress (0: never; fixed-length independent attempts, the random
    stream going on; unlike `patience`, which waits for a pause of the best). `regrow`: the share
    of steps that take off a stretch of 2 ... `regrow_max` residues and grow it again site by
    site, each site drawn with weight exp(`regrow_bias` x contacts it makes / T), accepted by
    Metropolis at T (the energy-guided fragment regrowth of Zhang, Kou & Liu's FRESS, J. Chem.
    Phys. 2007; 0: none; the proposal is not symmetric, so the sampling is no longer exactly
    Boltzmann's)."""

    replicas: int = 2
    t_min: float = 0.25
    t_max: float = 0.4
    phi: int = 500
    patience: int = 0
    kick: int = 0
    end_share: float = 0.0
    flat: float = 0.0
    rebridge: float = 0.0
    epoch: int = 0
    regrow: float = 0.0
    regrow_max: int = 10
    regrow_bias: float = 1.0

    def __post_init__(self) -> None:
        if self.replicas < 1:
            raise ValueError(f"replicas must be at least 1, got {self.replicas}")
        if not 0 < self.t_min <= self.t_max:
            raise ValueError(
                f"temperatures must satisfy 0 < t_min <= t_max, got {self.t_min}, {self.t_max}"
            )
        if self.phi < 1:
            raise ValueError(f"phi must be at least 1, got {self.phi}")
        if self.patience < 0:
            raise ValueError(f"patience must be 0 (never restart) or more, got {self.patience}")
        if self.kick < 0:
            raise ValueError(f"kick must be 0 (restart straight) or more, got {self.kick}")
        if self.kick and not self.patience:
            raise ValueError(f"kick {self.kick} needs restarts: give a patience above 0")
        if not 0 <= self.end_share < 1:
            raise ValueError(f"end_share must be in [0, 1), got {self.end_share}")
        if not self.flat >= 0:
            raise ValueError(f"flat must be 0 (no penalty) or more, got {self.flat}")
        if not 0 <= self.rebridge < 1:
            raise ValueError(f"rebridge must be in [0, 1), got {self.rebridge}")
        if self.epoch < 0:
            raise ValueError(f"epoch must be 0 (never restart) or more, got {self.epoch}")
        if not 0 <= self.regrow < 1:
            raise ValueError(f"regrow must be in [0, 1), got {self.regrow}")
        if self.regrow_max < 2:
            raise ValueError(f"regrow_max must be at least 2, got {self.regrow_max}")
        if not self.regrow_bias >= 0:
            raise ValueError(f"regrow_bias must be 0 or more, got {self.regrow_bias}")

    #: The fields of :meth:`parse`, in order.
    FIELDS = (
        "R,T_MIN,T_MAX,PHI,PATIENCE[,KICK[,END[,FLAT[,REBRIDGE[,EPOCH[,REGROW[,REGROW_MAX"
        "[,REGROW_BIAS]]]]]]]]"
    )

    @classmethod
    def parse(cls, text: str) -> ReplicaSettings:
        """Settings from :attr:`FIELDS`
        (the command lines' ``--settings``; the fields in order); ValueError naming the problem
        otherwise."""
        fields = [f.strip() for f in text.split(",")]
        kinds = (int, float, float, int, int, int, float, float, float, int, float, int, float)
        if not 5 <= len(fields) <= len(kinds):
            raise ValueError(f"5 to {len(kinds)} comma-separated values, got {len(fields)}")
        return cls(*(kind(v) for kind, v in zip(kinds, fields, strict=False)))

    def temperatures(self) -> np.ndarray:
        if self.replicas == 1:
            return np.array([self.t_min])
        return np.linspace(self.t_min, self.t_max, self.replicas)


#: Defaults per lattice: Thachuk et al.'s replica counts (2 in 2D, 5 in 3D) and phi = 500, with
#: temperatures tuned on S1-4 ... S1-8 and H48-1, H48-2, and the 2D ladder made colder
#: (0.30-0.45 -> 0.25-0.40) for S1-10, where every seed stalled at 47 of 48 with the warmer one.
#: In 2D, 2 % of the steps are fragment regrowths of up to 10 residues grown at half the
#: replica's temperature: on the same 10 seeds at 60 CPU s, S1-10 reached 48 on 8 (6 without)
#: and S1-11 50 on 5 (3 without). Restarts, kicks, end moves, bond rebridging, the
#: flat-histogram penalty, epochs, 1-8 replicas, other ladders and population annealing were
#: measured the same way and did no better, so they stay options, off
#: (docs/experiments/lattice.md).
DEFAULT_SETTINGS = {
    "square": ReplicaSettings(
        replicas=2, t_min=0.25, t_max=0.4, phi=500, regrow=0.02, regrow_max=10, regrow_bias=2.0
    ),
    "cubic": ReplicaSettings(replicas=5, t_min=0.28, t_max=0.65, phi=500),
}


@dataclass(frozen=True)
class ReplicaRun:
    """The best fold of one replica set and what it cost."""

    contacts: int
    conformation: str
    steps: int  # Monte Carlo steps per replica
    seconds: float  # CPU seconds (one core)
    seconds_to_best: float  # CPU seconds until the final best was first seen
    restarts: int = 0  # restarts (settings.patience, straight or kicked; settings.epoch)
    # (contacts, CPU seconds) each time the best rose, as seen between the kernel's chunks of
    # rounds (chunks take up to about 0.05-0.1 CPU s)
    improvements: tuple[tuple[int, float], ...] = ()


#: The replica exchange's largest helper, compiled in a second process while a cold
#: :func:`replica_fold` compiles ``remc_kernel`` (:mod:`gamelab.core.ahead`)
REPLICA_AHEAD = "gamelab.lattice.warmup:compile_replica_helpers"


def replica_helpers() -> dict:
    """{helper: its signature} of the kernel that ``remc_kernel`` calls and that costs most to
    compile on its own, the fragment regrowth, with the argument types ``remc_kernel`` gives it
    (a test checks that it asks for no other). numba types it early in ``remc_kernel``'s
    compile (whatever the order of the source), so the second process takes no more than what
    it can compile by then."""
    from numba import types

    from gamelab.lattice._replica_kernels import _regrow

    i64, f64 = types.int64, types.float64
    sites = types.Array(types.int64, 2, "C")  # a replica's sites (n x 3), or scratch of that shape
    grid = types.Array(types.int32, 1, "C")
    return {
        _regrow: (
            types.Array(types.boolean, 1, "C"), sites, grid, i64, f64, f64,
            types.Array(types.uint64, 1, "C"), i64, i64, i64, sites,
            types.Array(types.float64, 1, "C"), sites,
        ),
    }  # fmt: skip


def conformation_of(sites: np.ndarray, ndim: int) -> str:
    """The move string of a chain given by its sites (n x 3)."""
    steps = np.diff(sites, axis=0)
    return "".join(_LETTER[(int(a), int(b), int(c))] for a, b, c in steps)


def new_state(n: int, ndim: int, replicas: int) -> tuple[np.ndarray, np.ndarray]:
    """Straight chains along +x and their occupancy grids (see :mod:`._replica_kernels`)."""
    shift = 1
    while (1 << shift) <= n:
        shift += 1
    pos = np.zeros((replicas, n, 3), dtype=np.int64)
    pos[:, :, 0] = np.arange(n)
    grid = np.zeros((replicas, 1 << (ndim * shift)), dtype=np.int32)
    grid[:, np.arange(n)] = np.arange(1, n + 1, dtype=np.int32)
    return pos, grid


def remc_rounds(
    replicas: tuple[Any, ...],
    rounds: int,
    phi: int,
    target: int,
    best_pos: np.ndarray,
    best: np.ndarray,
    restart: np.ndarray,
    move_set: tuple[Any, ...],
) -> int:
    """Up to `rounds` rounds of :func:`remc_kernel` (the same arguments), with the kicks it
    leaves due made by :func:`kick_kernel` in between: the rounds its twin
    :func:`gamelab.lattice._replica_twins.remc_python` runs, kicks included. The rounds run."""
    done = 0
    while True:
        left = rounds - done
        done += int(remc_kernel(replicas, left, phi, target, best_pos, best, restart, move_set))
        if restart[1] != -1:
            return done
        kick_kernel(replicas, best_pos, best, restart)
        if done >= rounds or best[0] >= target:
            return done


def replica_fold(
    sequence: Chain,
    lattice: Lattice = Lattice.SQUARE,
    *,
    seed: int | np.random.Generator = 0,
    settings: ReplicaSettings | None = None,
    target: int | None = None,
    max_steps: int | None = None,
    seconds: float | None = None,
) -> ReplicaRun:
    """The most HH contacts one replica set finds for `sequence` (module docstring)."""
    seq = at_least(sequence, 3)
    ndim = dimensions(lattice)
    s = settings or DEFAULT_SETTINGS[lattice]
    if max_steps is None and seconds is None:
        raise ValueError("give a step budget or a time budget")
    if max_steps is not None and max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, got {max_steps}")
    if seconds is not None and seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    n = len(seq)
    is_h = np.array([c == "H" for c in seq], dtype=np.bool_)
    temps = s.temperatures()
    pos, grid = new_state(n, ndim, s.replicas)
    contacts = np.zeros(s.replicas, dtype=np.int64)
    rep_at = np.arange(s.replicas, dtype=np.int64)
    state = np.array([rng.integers(0, 2**63, dtype=np.uint64)], dtype=np.uint64)
    best = np.zeros(1, dtype=np.int64)
    best_pos = pos[0].copy()
    restart = np.array([-(-s.patience // s.phi), 0, 0, 0, s.kick], dtype=np.int64)
    bias = np.zeros((s.replicas, n + 1))  # the flat-histogram penalties (settings.flat)
    # the kernels' bundles (remc_kernel): the replicas (changed in place, never rebound) and the
    # move set
    replicas = (is_h, ndim, temps, pos, grid, contacts, rep_at, state)
    move_set = (s.end_share, bias, s.flat, s.rebridge, s.regrow, s.regrow_max, s.regrow_bias)
    # compile or load the kernels before the clock starts (numba's start-up is not the search's);
    # on an empty cache the helpers that cost most compile in a second process meanwhile
    helpers = replica_helpers()
    ahead.start(REPLICA_AHEAD, helpers)
    remc_kernel(replicas, 0, s.phi, 0, best_pos, best, restart, move_set)
    if s.kick:  # (a kick is not due: this call only compiles)
        kick_kernel(replicas, best_pos, best, restart)
    goal = target if target is not None else 10**9
    rounds_left = None if max_steps is None else -(-max_steps // s.phi)
    started = time.thread_time()
    found_at = 0.0
    improvements: list[tuple[int, float]] = []
    rounds = 0
    chunk = 1
    epoch = -(-s.epoch // s.phi)  # rounds per attempt (settings.epoch; 0: one attempt)
    since_start, epochs = 0, 0
    while best[0] < goal and (rounds_left is None or rounds_left > 0):
        if epoch and since_start >= epoch:  # a new attempt from the straight chain
            pos[:], grid[:] = new_state(n, ndim, s.replicas)
            contacts[:] = 0
            restart[1:3] = 0
            since_start, epochs = 0, epochs + 1
        ask = chunk if rounds_left is None else min(chunk, rounds_left)
        if epoch:
            ask = min(ask, epoch - since_start)
        before = int(best[0])
        t0 = time.thread_time()
        done = remc_rounds(replicas, ask, s.phi, goal, best_pos, best, restart, move_set)
        rounds += done
        since_start += done
        if rounds_left is not None:
            rounds_left -= done
        now = time.thread_time()
        if best[0] > before:
            found_at = now - started
            improvements.append((int(best[0]), found_at))
        if seconds is not None and now - started >= seconds:
            break
        if now - t0 < 0.05:
            chunk *= 2
    conf = conformation_of(best_pos, ndim)
    assert hh_score(seq, conf, lattice) == int(best[0])
    return ReplicaRun(
        int(best[0]),
        conf,
        rounds * s.phi,
        time.thread_time() - started,
        found_at,
        int(restart[3]) + epochs,
        tuple(improvements),
    )
