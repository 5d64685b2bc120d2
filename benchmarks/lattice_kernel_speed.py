"""The replica-exchange kernel against an earlier revision's, side by side (issue 27).

    nice -n 19 python benchmarks/lattice_kernel_speed.py [--baseline main] [--current REV]
        [--patch FILE] [--chains S1-10,S1-11] [--seeds 0,1,2] [--steps 10000000]

The baseline is ``src/gamelab/lattice/_replica_kernels.py`` as of the git revision `--baseline`
with the move kernels it imports (``_move_kernels.py``, split from it by issue 48; read with
``git show``, compiled without numba's disk cache so that it leaves nothing behind);
the current one is the installed :mod:`gamelab.lattice._replica_kernels`, or that file as of
`--current` (read the same way), with `--patch` a prototype's diff applied to it (HEAD's file
if no `--current`; benchmarks/lattice_prototypes/). For each chain and seed both run the
lattice's default replica set (:data:`replica.DEFAULT_SETTINGS`) for `--steps` steps per replica
from the straight chain, alternately (baseline, current, baseline, ...), each timed by the CPU
time of this thread.
Printed per run: steps per CPU second, the best contacts, the share of the move slots that are
legal moves of the final folds (mean over the replicas), and their product, the legal moves
proposed per CPU second; then the medians' ratios.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import numpy as np

from gamelab.lattice import _move_kernels, _replica_kernels
from gamelab.lattice.instances import get_benchmark
from gamelab.lattice.replica import DEFAULT_SETTINGS, new_state
from gamelab.lattice.rules import dimensions

ROOT = Path(__file__).resolve().parent.parent


KERNELS = "src/gamelab/lattice/_replica_kernels.py"
MOVES = "src/gamelab/lattice/_move_kernels.py"
#: Helpers that became public when the move kernels left the file (issue 48): both names work.
RENAMED = ("propose", "place", "below", "uniform", "slot_count", "cell")


def as_one(*modules: types.ModuleType) -> types.SimpleNamespace:
    """The kernels of `modules` (the replica kernels last) as one namespace, the helpers under
    their old private names too, so that revisions before and after the split read alike."""
    names: dict = {}
    for module in modules:
        names.update(vars(module))
    for name in RENAMED:
        if name in names:
            names.setdefault(f"_{name}", names[name])
    return types.SimpleNamespace(**names)


current = as_one(_move_kernels, _replica_kernels)


def _git_show(revision: str, path: str) -> str | None:
    done = subprocess.run(
        ["git", "show", f"{revision}:{path}"], cwd=ROOT, capture_output=True, text=True
    )
    return done.stdout if done.returncode == 0 else None


def _load(name: str, file: Path) -> types.ModuleType:
    file.write_text(file.read_text().replace("cache=True", "cache=False"))
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def load_baseline(revision: str, name: str = "replica_kernels_baseline", patch: Path | None = None):
    """The kernels of `revision` (:func:`as_one`), compiled afresh (no disk cache), as module
    `name` (and `name`_moves); with `patch`, a unified diff of the replica kernels' file applied
    first (the prototypes of benchmarks/lattice_prototypes/, run by
    benchmarks/lattice_prototype.py)."""
    source = _git_show(revision, KERNELS)
    if source is None:
        raise ValueError(f"{revision} has no {KERNELS}")
    folder = Path(tempfile.mkdtemp(prefix="lattice-kernel-"))
    moves_source = _git_show(revision, MOVES)
    modules = []
    if moves_source is not None:
        (folder / f"{name}_moves.py").write_text(moves_source)
        modules.append(_load(f"{name}_moves", folder / f"{name}_moves.py"))
        source = source.replace(
            "from gamelab.lattice._move_kernels import", f"from {name}_moves import"
        )
    file = folder / f"{name}.py"
    file.write_text(source)
    if patch is not None:
        if not Path(patch).is_file():
            raise ValueError(f"no patch file {patch}")
        done = subprocess.run(
            ["patch", "--quiet", "--no-backup-if-mismatch", str(file), str(Path(patch).resolve())],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            why = ((done.stdout + done.stderr).strip().splitlines() or ["patch failed"])[-1]
            raise ValueError(f"{patch} does not apply to the kernel of {revision}: {why}")
    return as_one(*modules, _load(name, file))


def remc_call(K, replicas, rounds, phi, target, best_pos, best, restart, move_set) -> int:
    """K's remc_kernel in its revision's calling convention: the two bundles since issue 48, the
    arguments one by one before; `move_set` without the regrowth (its first four) is filled in
    with regrowth off, which revisions before the regrowth take not at all."""
    import inspect

    params = inspect.signature(K.remc_kernel.py_func).parameters
    if "regrow" not in params and "move_set" not in params:
        move_set = move_set[:4]
    elif len(move_set) == 4:
        move_set = (*move_set, 0.0, 2, 1.0)
    if "move_set" in params:
        return K.remc_kernel(replicas, rounds, phi, target, best_pos, best, restart, move_set)
    return K.remc_kernel(*replicas, rounds, phi, target, best_pos, best, restart, *move_set)


def legal_share(K, pos: np.ndarray, grid: np.ndarray, ndim: int) -> float:
    """The share of K's move slots (no rebridging) that are legal moves of the folds `pos`."""
    n = pos.shape[1]
    shift = 1
    while (1 << shift) <= n:
        shift += 1
    mask = (1 << shift) - 1
    slots = K.move_slots(n, ndim)
    new = np.zeros((n, 3), dtype=np.int64)
    legal = 0
    for r in range(pos.shape[0]):
        for slot in range(slots):
            legal += K._propose(pos[r], grid[r], n, 2 * ndim, slot, mask, shift, new)[0] >= 0
    return legal / (slots * pos.shape[0])


def run(K, sequence: str, lattice: str, seed: int, steps: int) -> dict:
    s = DEFAULT_SETTINGS[lattice]
    ndim = dimensions(lattice)
    n = len(sequence)
    is_h = np.array([c == "H" for c in sequence], dtype=np.bool_)
    pos, grid = new_state(n, ndim, s.replicas)
    contacts = np.zeros(s.replicas, dtype=np.int64)
    rep_at = np.arange(s.replicas, dtype=np.int64)
    state = np.array([np.random.default_rng(seed).integers(0, 2**63)], dtype=np.uint64)
    best = np.zeros(1, dtype=np.int64)
    best_pos = pos[0].copy()
    bias = np.zeros((s.replicas, n + 1))

    def kernel(rounds: int) -> None:
        remc_call(
            K, (is_h, ndim, s.temperatures(), pos, grid, contacts, rep_at, state), rounds, s.phi,
            10**9, best_pos, best, np.zeros(5, dtype=np.int64), (0.0, bias, 0.0, 0.0),
        )  # fmt: skip

    kernel(0)  # compile
    t = time.thread_time()
    kernel(-(-steps // s.phi))
    cpu = time.thread_time() - t
    rate = s.replicas * steps / cpu
    share = legal_share(K, pos, grid, ndim)
    return {"rate": rate, "best": int(best[0]), "share": share, "legal_rate": rate * share}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main", help="git revision of the baseline kernel")
    parser.add_argument(
        "--current", default=None, help="git revision to compare instead of the installed kernel"
    )
    parser.add_argument(
        "--patch",
        type=Path,
        default=None,
        help="a prototype (benchmarks/lattice_prototypes/*.patch) applied to the current kernel",
    )
    parser.add_argument("--chains", default="S1-10,S1-11")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--steps", type=int, default=10_000_000, help="steps per replica")
    args = parser.parse_args()
    base = load_baseline(args.baseline)
    if args.current or args.patch:
        try:
            mine = load_baseline(args.current or "HEAD", "replica_kernels_current", args.patch)
        except ValueError as e:
            parser.error(str(e))
    else:
        mine = current
    kernels = {f"{args.baseline}": base, "current": mine}
    print(
        f"move slots of a 100-mer in 2D: {args.baseline} {base.move_slots(100, 2)}, current "
        f"{mine.move_slots(100, 2)}"
    )
    rows: dict[str, list[dict]] = {name: [] for name in kernels}
    for chain in args.chains.split(","):
        b = get_benchmark(chain)
        for seed in (int(v) for v in args.seeds.split(",")):
            for name, K in kernels.items():
                r = run(K, b.sequence, b.lattice, seed, args.steps)
                rows[name].append(r)
                print(
                    f"{chain} seed {seed} {name:>8s}: {r['rate'] / 1e6:6.2f} M steps/CPU s, best "
                    f"{r['best']}, legal slots {r['share']:.1%}, {r['legal_rate'] / 1e6:.2f} M "
                    "legal moves proposed/CPU s"
                )
    med = {
        name: {k: statistics.median(r[k] for r in runs) for k in ("rate", "legal_rate")}
        for name, runs in rows.items()
    }
    b, c = med[args.baseline], med["current"]
    print(
        f"medians: steps/CPU s {b['rate'] / 1e6:.2f} M -> {c['rate'] / 1e6:.2f} M "
        f"(x{c['rate'] / b['rate']:.2f}); legal moves proposed/CPU s {b['legal_rate'] / 1e6:.2f} M "
        f"-> {c['legal_rate'] / 1e6:.2f} M (x{c['legal_rate'] / b['legal_rate']:.2f})"
    )


if __name__ == "__main__":
    main()
