"""Folding chains too long to enumerate, with a certificate where one is available.

:func:`fold` searches for a fold with as many HH contacts as possible by one of two methods:

* ``remc`` (default): replica-exchange Monte Carlo with pull moves (:mod:`.replica`; Thachuk,
  Shmygelska & Hoos 2007), several independent replica sets through ``core.parallel``;
* ``perm``: the pruned-enriched Rosenbluth method (PERM: Grassberger, Phys. Rev. E 56, 3682
  (1997)) in the "new PERM with importance sampling" form of Hsu, Mehra, Nadler & Grassberger
  (J. Chem. Phys. 118, 444 (2003), arXiv cond-mat/0208042): the chain grows one residue at a
  time (depth-first); the next site is drawn with probability proportional to
  exp(beta * new HH contacts) x (free neighbours of the site + 1/2); a partial chain whose
  Rosenbluth weight is far above the running average is continued along several *distinct* next
  sites (enrichment), one far below it is dropped with probability 1/2 (pruning, the survivor's
  weight doubled). Low temperature (beta around 3) concentrates the search on compact folds.

A chain may be named by a benchmark (:mod:`.instances`: S1-1 ... S1-11, H48-1 ... H48-10).
A result says how its score is known:

* ``proven (exhaustive)`` - the chain is short enough to enumerate (:mod:`.enumeration`);
* ``proven (bound)`` - the score equals the upper bound of :mod:`.bounds` (free-face, matching
  and core bounds); ``verdict`` says ``optimal (proven)``;
* ``proven (cores)`` - no H core with more edges admits the chain (:mod:`.threading`);
* ``found`` - the best found; ``verdict`` gives the gap to the bound.

The PERM kernel :func:`perm_kernel` has a plain-Python twin :func:`perm_python` drawing the same
random numbers (numba's np.random matches NumPy's legacy Mersenne Twister; compared in tests).
"""

from __future__ import annotations

import math
import time
from dataclasses import astuple, dataclass

import numpy as np
from numba import njit

from gamelab.core.parallel import Backend, run_tasks
from gamelab.lattice import CERTIFY_SECONDS
from gamelab.lattice._kernels import MOVE_LETTERS, direction_offsets
from gamelab.lattice._replica_kernels import uniform
from gamelab.lattice._replica_twins import uniform_python
from gamelab.lattice.bounds import ContactBounds, contact_bounds, free_face_bound
from gamelab.lattice.enumeration import MAX_LENGTH, contact_sets
from gamelab.lattice.instances import find_benchmark, get_benchmark
from gamelab.lattice.replica import DEFAULT_SETTINGS, ReplicaSettings, replica_fold
from gamelab.lattice.rules import Chain, Lattice, at_least, dimensions, hh_score
from gamelab.lattice.threading import CoreCertificate, core_threading_bound

#: The earlier 2D benchmark names (by length) and their best known HH contacts; the full set,
#: 2D and 3D, with sources, is :data:`gamelab.lattice.instances.STANDARD`.
BENCHMARKS_2D = {
    name: (get_benchmark(name).sequence, get_benchmark(name).best_known)
    for name in (
        "S1-18a", "S1-18b", "S1-18c", "S1-20a", "S1-20b", "S1-24", "S1-25", "S1-36", "S1-48",
        "S1-50",
    )
}  # fmt: skip


@njit(cache=True)
def perm_kernel(is_h, ndim, beta, tours, rng, c_plus, target, zsum, run, best_dirs):
    """Up to `tours` more tours of one PERM run; returns the tours made. The run's state travels
    in the arrays, so a run can be made in chunks (the caller checks the clock and signals
    between them) with the same result as in one call: `rng` the splitmix64 state (uint64[1],
    :func:`._replica_kernels.next_random`), `zsum` the summed weights per depth, `run` = (tours
    so far, best contacts or -1), `best_dirs` the best chain's directions. Stops at `target`."""
    n = is_h.shape[0]
    nd = 2 * ndim
    side = 2 * n + 3
    offs = direction_offsets(side)
    grid = np.zeros(side**ndim, dtype=np.int32)
    center = (n + 1) * (1 + side + (side * side if ndim == 3 else 0))
    pos = np.zeros(n, dtype=np.int64)
    dirs = np.zeros(n, dtype=np.int64)
    energy = np.zeros(n, dtype=np.int64)
    weight = np.zeros(n, dtype=np.float64)
    pend_dir = np.zeros((n, 6), dtype=np.int64)
    pend_gain = np.zeros((n, 6), dtype=np.int64)
    pend_w = np.zeros((n, 6), dtype=np.float64)
    pend_k = np.zeros(n, dtype=np.int64)
    pend_i = np.zeros(n, dtype=np.int64)
    cand_d = np.zeros(6, dtype=np.int64)
    cand_g = np.zeros(6, dtype=np.int64)
    cand_q = np.zeros(6, dtype=np.float64)
    cand_b = np.zeros(6, dtype=np.float64)
    best = run[1]
    tour = run[0]
    end = run[0] + tours
    while tour < end and best < target:
        tour += 1
        pos[0] = center
        grid[center] = 1
        pos[1] = center + offs[0]
        grid[pos[1]] = 2
        dirs[1] = 0
        energy[1] = 0
        weight[1] = 1.0
        depth = 1
        pend_k[1] = -1  # to expand
        while depth >= 1:
            if pend_k[depth] == -1:
                # choose the continuations of the chain ending at residue `depth`
                pend_i[depth] = 0
                pend_k[depth] = 0
                if depth == n - 1:
                    continue
                k = 0
                bsum = 0.0
                qsum = 0.0
                for d in range(nd):
                    c = pos[depth] + offs[d]
                    if grid[c] != 0:
                        continue
                    gain = 0
                    free = 0
                    for e in range(nd):
                        r = grid[c + offs[e]] - 1
                        if r < 0:
                            free += 1
                        elif is_h[depth + 1] and r < depth and is_h[r]:
                            gain += 1
                    b = math.exp(beta * gain)
                    cand_d[k] = d
                    cand_g[k] = gain
                    cand_b[k] = b
                    cand_q[k] = b * (free + 0.5)
                    bsum += b
                    qsum += cand_q[k]
                    k += 1
                if k == 0:
                    continue
                w_pred = weight[depth] * bsum  # the Rosenbluth weight of the next step
                base = weight[depth]
                avg = zsum[depth + 1] / tour
                copies = 1
                if tour > 1 and avg > 0.0:
                    upper = c_plus * avg
                    if w_pred > upper:
                        copies = min(k, int(math.ceil(w_pred / upper)))
                    elif w_pred < 0.2 * upper:
                        if uniform(rng) < 0.5:
                            continue
                        base *= 2.0
                # draw `copies` distinct candidates with probability ~ q; importance weight
                # b / (copies * p) keeps the weights comparable across tours
                q_total = qsum
                for j in range(copies):
                    u = uniform(rng) * qsum
                    acc = 0.0
                    pick = -1
                    for m in range(k):
                        if cand_q[m] > 0.0:
                            pick = m
                            acc += cand_q[m]
                            if u < acc:
                                break
                    pend_dir[depth, j] = cand_d[pick]
                    pend_gain[depth, j] = cand_g[pick]
                    pend_w[depth, j] = base * cand_b[pick] * q_total / (cand_q[pick] * copies)
                    qsum -= cand_q[pick]
                    cand_q[pick] = 0.0
                pend_k[depth] = copies
                continue
            if pend_i[depth] >= pend_k[depth]:
                if depth >= 2:
                    grid[pos[depth]] = 0
                depth -= 1
                continue
            j = pend_i[depth]
            pend_i[depth] = j + 1
            d = pend_dir[depth, j]
            c = pos[depth] + offs[d]
            grid[c] = depth + 2
            pos[depth + 1] = c
            dirs[depth + 1] = d
            energy[depth + 1] = energy[depth] + pend_gain[depth, j]
            weight[depth + 1] = pend_w[depth, j]
            depth += 1
            zsum[depth] += weight[depth]
            if depth == n - 1 and energy[depth] > best:
                best = energy[depth]
                for m in range(n):
                    best_dirs[m] = dirs[m]
            pend_k[depth] = -1
        grid[center] = 0
    made = tour - run[0]
    run[0] = tour
    run[1] = best
    return made


def perm_python(is_h, ndim, beta, tours, rng, c_plus, target, zsum, run, best_dirs):
    """Readable twin of :func:`perm_kernel` (recursive, coordinates in a dict, same draws; the
    state arrays are updated in place)."""
    n = len(is_h)
    vectors = [(1, 0, 0), (0, 1, 0), (-1, 0, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)][: 2 * ndim]
    stream = [int(rng[0])]

    state = {"best": int(run[1]), "best_dirs": [int(d) for d in best_dirs]}
    sites: dict[tuple[int, int, int], int] = {}
    chain: list[tuple[int, int, int]] = []
    dirs = [0] * n

    def add(a, b):
        return (a[0] + b[0], a[1] + b[1], a[2] + b[2])

    def grow(depth, energy, weight, tour):
        # the chain holds residues 0..depth
        if depth == n - 1:
            return
        cands = []
        for d, v in enumerate(vectors):
            c = add(chain[depth], v)
            if c in sites:
                continue
            gain = free = 0
            for u in vectors:
                r = sites.get(add(c, u))
                if r is None:
                    free += 1
                elif is_h[depth + 1] and r < depth and is_h[r]:
                    gain += 1
            b = math.exp(beta * gain)
            cands.append([d, gain, b, b * (free + 0.5)])
        if not cands:
            return
        bsum = sum(c[2] for c in cands)
        qsum = sum(c[3] for c in cands)
        w_pred = weight * bsum
        base = weight
        avg = zsum[depth + 1] / tour
        copies = 1
        if tour > 1 and avg > 0.0:
            upper = c_plus * avg
            if w_pred > upper:
                copies = min(len(cands), math.ceil(w_pred / upper))
            elif w_pred < 0.2 * upper:
                if uniform_python(stream) < 0.5:
                    return
                base *= 2.0
        q_total = qsum
        chosen = []
        for _ in range(copies):
            u = uniform_python(stream) * qsum
            acc, pick = 0.0, -1
            for m, c in enumerate(cands):
                if c[3] > 0.0:
                    pick = m
                    acc += c[3]
                    if u < acc:
                        break
            d, gain, b, q = cands[pick]
            chosen.append((d, gain, base * b * q_total / (q * copies)))
            qsum -= q
            cands[pick][3] = 0.0
        for d, gain, w in chosen:
            c = add(chain[depth], vectors[d])
            sites[c] = depth + 1
            chain.append(c)
            dirs[depth + 1] = d
            zsum[depth + 1] += w
            if depth + 1 == n - 1 and energy + gain > state["best"]:
                state["best"] = energy + gain
                state["best_dirs"] = list(dirs)
            grow(depth + 1, energy + gain, w, tour)
            chain.pop()
            del sites[c]

    tour = int(run[0])
    end = tour + tours
    while tour < end and state["best"] < target:
        tour += 1
        sites.clear()
        chain[:] = [(0, 0, 0), (1, 0, 0)]
        sites[(0, 0, 0)] = 0
        sites[(1, 0, 0)] = 1
        dirs[1] = 0
        grow(1, 0, 1.0, tour)
    made = tour - int(run[0])
    rng[0] = stream[0]
    run[0], run[1] = tour, state["best"]
    best_dirs[:] = state["best_dirs"]
    return made


def perm_once(kernel, is_h, ndim, beta, tours, seed, c_plus, target):
    """(best contacts, best directions, tours made) of one PERM run of `tours` tours made by
    `kernel` (:func:`perm_kernel` or its twin) in one call, its stream seeded from `seed`."""
    n = len(is_h)
    rng = np.array([np.random.default_rng(seed).integers(0, 2**63)], dtype=np.uint64)
    zsum = np.zeros(n, dtype=np.float64)
    run = np.array([0, -1], dtype=np.int64)
    best_dirs = np.zeros(n, dtype=np.int64)
    made = kernel(
        np.asarray(is_h, dtype=np.bool_),
        ndim,
        beta,
        tours,
        rng,
        c_plus,
        target,
        zsum,
        run,
        best_dirs,
    )
    return int(run[1]), best_dirs, int(made)


def contact_upper_bound(sequence: Chain, lattice: Lattice = Lattice.SQUARE) -> int:
    """The free-face bound (:func:`gamelab.lattice.bounds.free_face_bound`; kept for callers of
    the earlier name)."""
    return free_face_bound(sequence, lattice)


METHODS = ("remc", "perm")
#: Bumped whenever a change of PERM changes what a seed gives (see replica.REMC_REVISION).
PERM_REVISION = 1


@dataclass(frozen=True)
class FoldResult:
    sequence: Chain
    lattice: Lattice
    conformation: str
    score: int
    status: str  # "proven (exhaustive)", "proven (bound)", "proven (cores)" or "found"
    upper_bound: int
    tours: int  # PERM tours (0 for replica exchange)
    seconds: float
    known_optimum: int | None = None
    name: str | None = None  # the benchmark's name, when the sequence is one
    method: str = "remc"
    bounds: ContactBounds | None = None
    steps: int = 0  # Monte Carlo steps per replica, summed over the replica sets
    sets: int = 1  # independent replica sets run
    seconds_to_best: float = 0.0  # CPU seconds until the best was first found (in its set)
    cpu_seconds: float = 0.0  # CPU seconds of the search, summed over the sets (no start-up)
    restarts: int = 0  # restarts (straight or kicked), summed over the sets (ReplicaSettings)
    # the H-core certificate (:mod:`.threading`), run when the bounds leave a gap
    certificate: CoreCertificate | None = None

    def _repr_svg_(self) -> str:
        """The fold, its contacts and its proof, in a notebook (:mod:`.pictures`)."""
        from gamelab.lattice.pictures import result_svg

        return result_svg(self)

    @property
    def gap(self) -> int:
        """Upper bound minus contacts found (0: optimal, proven, also by enumeration)."""
        return 0 if self.status.startswith("proven") else self.upper_bound - self.score

    @property
    def verdict(self) -> str:
        """``optimal (proven)`` when the contacts reach the upper bound, else ``gap N``."""
        return "optimal (proven)" if self.gap == 0 else f"gap {self.gap}"

    def __json__(self) -> dict:
        from gamelab.core.serialise import to_plain

        doc = {f: to_plain(getattr(self, f)) for f in self.__dataclass_fields__}
        doc["gap"] = self.gap
        doc["verdict"] = self.verdict
        return doc

    def summary(self) -> str:
        """The result as the CLI prints it."""
        dim = "2D" if self.lattice == "square" else "3D"
        head = ""
        if self.name:
            from gamelab.lattice.instances import get_benchmark

            aliases = get_benchmark(self.name).aliases
            also = f" (by length: {', '.join(aliases)})" if aliases else ""
            head = f"benchmark {self.name}{also}: "
        known = "" if self.known_optimum is None else f" (best known {self.known_optimum})"
        how = {"proven (exhaustive)": "enumeration", "proven (cores)": "H-core threading"}.get(
            self.status, "bound"
        )
        verdict = (
            f"optimal (proven by {how})"
            if self.status.startswith("proven")
            else f"{self.verdict} (upper bound {self.upper_bound})"
        )
        lines = [
            f"{head}{self.sequence} ({dim}, {len(self.sequence)} residues): {self.score} HH "
            f"contacts{known}, {verdict}"
        ]
        if self.bounds is not None:
            b = self.bounds
            lines.append(
                f"upper bounds: free-face {b.free_face}, matching {b.matching}, core {b.core}"
            )
        c = self.certificate
        if c is not None:
            lines.append(
                (
                    "H-core certificate: no fold has "
                    + ", ".join(
                        f"{n} contacts ({cores} core{'s' if cores != 1 else ''}, none admits the "
                        "chain)"
                        for n, cores in zip(c.refuted, c.cores, strict=True)
                    )
                    + f"; {c.upper} or fewer"
                    if c.refuted
                    else "H-core certificate: nothing refuted"
                )
                + f" ({c.seconds:.2f} CPU s; {c.stopped})"
            )
        if self.method == "remc":
            lines.append(
                f"replica exchange with pull moves: {self.sets} set{'s' if self.sets > 1 else ''}, "
                f"{self.steps:,} steps per replica in all"
                + (
                    f", {self.restarts} restart{'s' if self.restarts != 1 else ''}"
                    if self.restarts
                    else ""
                )
                + f", {self.cpu_seconds:.2f} CPU s (best after {self.seconds_to_best:.2f}; "
                f"{self.seconds:.1f} s wall with start-up)"
            )
        elif self.method == "perm":
            lines.append(f"PERM: {self.tours:,} tours in {self.cpu_seconds:.2f} CPU s")
        else:
            lines.append(f"exhaustive enumeration in {self.seconds:.2f} s")
        lines.append(self.conformation)
        return "\n".join(lines)


def _reverse_walk(moves: str) -> str:
    inverse = {"R": "L", "L": "R", "U": "D", "D": "U", "F": "B", "B": "F"}
    return "".join(inverse[m] for m in reversed(moves))


def resolve_chain(
    sequence: Chain, lattice: Lattice | None = None
) -> tuple[Chain, Lattice, str | None, int | None]:
    """(chain, lattice, benchmark name, best known) of a chain to fold on `lattice`.

    A chain named by a benchmark (:func:`gamelab.lattice.instances.parse_chain`) folds on the
    benchmark's lattice, and a different `lattice` is an error. Any other chain folds on
    `lattice` (square when None), and is the benchmark it equals there, if any."""
    if sequence.name is not None:
        b = get_benchmark(sequence.name)
        if lattice is not None and lattice != b.lattice:
            raise ValueError(f"benchmark {b.name} is on the {b.lattice} lattice, not {lattice}")
        return b.sequence, b.lattice, b.name, b.best_known
    seq = at_least(sequence, 2)
    lat = lattice or Lattice.SQUARE
    known = find_benchmark(seq, lat)
    return seq, lat, (known.name if known else None), (known.best_known if known else None)


def lattice_option(lattice: str | None, dim: int | None) -> Lattice | None:
    """The lattice that ``--lattice`` and/or ``--dim`` name, parsed (None: neither given)."""
    from_dim = None if dim is None else {2: Lattice.SQUARE, 3: Lattice.CUBIC}.get(dim)
    if dim is not None and from_dim is None:
        raise ValueError(f"dim must be 2 or 3, got {dim}")
    if lattice is not None:
        named = Lattice(lattice)
        if from_dim is not None and from_dim != named:
            raise ValueError(f"--dim {dim} contradicts --lattice {lattice}")
        return named
    return from_dim


def replica_task(item: tuple, rng: np.random.Generator) -> dict:
    """One replica set (a :func:`gamelab.core.parallel.run_tasks` task): plain JSON result."""
    seq, lattice, settings, target, max_steps, seconds = item
    run = replica_fold(
        seq,
        lattice,
        seed=rng,
        settings=ReplicaSettings(*settings),
        target=target,
        max_steps=max_steps,
        seconds=seconds,
    )
    return {
        "contacts": run.contacts,
        "conformation": run.conformation,
        "steps": run.steps,
        "restarts": run.restarts,
        "seconds_to_best": run.seconds_to_best,
        "cpu_seconds": run.seconds,
    }


def fold(
    sequence: Chain,
    lattice: Lattice | None = None,
    *,
    seed: int = 0,
    seconds: float | None = 10.0,
    target: int | None = None,
    method: str = "remc",
    sets: int = 1,
    max_steps: int | None = None,
    settings: ReplicaSettings | None = None,
    backend: Backend | None = None,
    betas: tuple[float, ...] = (3.0, 2.5, 3.5),
    tours_per_run: int = 20_000,
    c_plus: float = 1.0,
    exhaustive: bool = True,
    certify: bool = True,
    certify_seconds: float = CERTIFY_SECONDS,
) -> FoldResult:
    """Best fold found for `sequence` (a chain: typed, or named by a benchmark such as ``S1-7``
    or ``H48-1``, see :func:`resolve_chain`) within `seconds` (None: no time limit).

    ``method="remc"`` (default): `sets` independent replica sets (:mod:`.replica`) run through
    :func:`gamelab.core.parallel.run_tasks` on `backend` (each set seeded from (seed, its index),
    so a run limited by `max_steps` per replica, or ended by the target, gives the same fold on
    one worker, many, or Dask); the best is kept. ``method="perm"``: the earlier PERM search
    (module docstring), alternating the growth end and beta. Both stop at `target` (default:
    the best known value of a benchmark, else the upper bound). Chains short enough to
    enumerate are solved exactly first when `exhaustive` is set. When `certify` is set and the
    best found is below the bounds, the H-core certificate (:mod:`.threading`, at most
    `certify_seconds` CPU s) tries to lower the bound to it: status ``proven (cores)``.
    """
    seq, lattice, name, known = resolve_chain(sequence, lattice)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; allowed: {', '.join(METHODS)}")
    if seconds is not None and seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    if seconds is None and max_steps is None:
        raise ValueError("give a time budget (seconds) or a step budget (max_steps)")
    if sets < 1:
        raise ValueError(f"sets must be at least 1, got {sets}")
    started = time.perf_counter()
    bounds = contact_bounds(seq, lattice)
    bound = bounds.upper
    if exhaustive and len(seq) <= min(MAX_LENGTH[lattice], 18 if lattice == "square" else 12):
        sets_ = contact_sets(len(seq), lattice)
        conf = sets_.best_conformation(seq)
        return FoldResult(
            seq,
            lattice,
            conf,
            hh_score(seq, conf, lattice),
            "proven (exhaustive)",
            bound,
            0,
            time.perf_counter() - started,
            known,
            name,
            "exhaustive",
            bounds,
        )
    goal = target if target is not None else (known if known is not None else bound)
    if method == "remc":
        s = settings or DEFAULT_SETTINGS[lattice]
        settings_ = astuple(s)
        item = (seq, lattice, settings_, goal, max_steps, seconds)
        runs = run_tasks(
            replica_task,
            [item] * sets,
            seed=seed,
            backend=backend or Backend(workers=1, quiet=True),
        )
        best = max(runs, key=lambda r: r["contacts"])  # the first of the best
        best_score, best_conf = int(best["contacts"]), str(best["conformation"])
        steps, to_best, tours = (
            sum(int(r["steps"]) for r in runs),
            float(best["seconds_to_best"]),
            0,
        )
        cpu = sum(float(r["cpu_seconds"]) for r in runs)
        restarts = sum(int(r["restarts"]) for r in runs)
    else:
        cpu = time.thread_time()
        best_score, best_conf, tours = _perm_search(
            seq, lattice, seed, seconds, goal, betas, tours_per_run, c_plus
        )
        steps, sets, to_best = 0, 1, time.thread_time() - cpu
        cpu, restarts = to_best, 0
    certificate = None
    if certify and best_score < bound:
        certificate = core_threading_bound(seq, lattice, floor=best_score, seconds=certify_seconds)
        bound = min(bound, certificate.upper)
    status = (
        "proven (bound)"
        if best_score == bounds.upper
        else "proven (cores)"
        if best_score == bound
        else "found"
    )
    assert hh_score(seq, best_conf, lattice) == best_score
    return FoldResult(
        seq,
        lattice,
        best_conf,
        best_score,
        status,
        bound,
        tours,
        time.perf_counter() - started,
        known,
        name,
        method,
        bounds,
        steps,
        sets,
        to_best,
        cpu,
        restarts,
        certificate,
    )


def _perm_search(seq, lattice, seed, seconds, goal, betas, tours_per_run, c_plus):
    """(best contacts, conformation, tours) of repeated PERM runs until `goal` or `seconds` of
    CPU time of this thread. Each run of `tours_per_run` tours is made in chunks of tours
    (growing while a chunk takes under 0.05 s), so that the clock and Ctrl-C / SIGTERM are
    checked between chunks: an interrupted search stops within a chunk, not a whole run."""
    started = time.thread_time()
    ndim = dimensions(lattice)
    n = len(seq)
    best_score, best_conf, tours, run_index = -1, "", 0, 0
    chunk = 16
    while True:
        reverse = run_index % 2 == 1
        beta = betas[(run_index // 2) % len(betas)]
        grow_seq = seq[::-1] if reverse else seq
        is_h = np.array([c == "H" for c in grow_seq], dtype=np.bool_)
        rng = np.array(
            [np.random.default_rng([seed, run_index]).integers(0, 2**63)], dtype=np.uint64
        )
        zsum = np.zeros(n, dtype=np.float64)
        run = np.array([0, -1], dtype=np.int64)
        dirs = np.zeros(n, dtype=np.int64)
        while run[0] < tours_per_run and run[1] < goal:
            t0 = time.thread_time()
            ask = min(chunk, tours_per_run - int(run[0]))
            made = perm_kernel(is_h, ndim, beta, ask, rng, c_plus, goal, zsum, run, dirs)
            tours += int(made)
            now = time.thread_time()
            if seconds is not None and now - started > seconds:
                break
            if made == ask and now - t0 < 0.05:
                chunk *= 2
        if run[1] > best_score:
            moves = "".join(MOVE_LETTERS[d] for d in dirs[1:])
            best_score = int(run[1])
            best_conf = _reverse_walk(moves) if reverse else moves
        run_index += 1
        if best_score >= goal or (seconds is not None and time.thread_time() - started > seconds):
            break
    return best_score, best_conf, tours
