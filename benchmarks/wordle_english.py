"""English Wordle: SALET evaluated exactly in three modes, against the published figures and
the CPU goals of issue 18, with the first search (the plain-Python twin) side by side.

    python benchmarks/wordle_english.py [--data DIR] [--first salet] [--no-baseline]

Word lists: Alex Selby's copies of the original lists (2,315 answers, 12,972 guesses), in
``shared/data/wordle-english`` beside the repository (benchmark data only; not shipped). Each answer must be
found within 6 guesses. Published (Selby, "The best strategies for Wordle", 2022, and his
solver's ``-U -w salet``): normal 7,920; the game's hard mode 8,122; strict ("ultrahard") 8,125.

For each mode: the exact total, the CPU seconds of the search alone and of the whole solve
(word lists, the feedback table from the gamelab cache, search and tree; the same work as
``gamelab wordle solve-optimal --first salet``, without interpreter start-up), the goal (normal
1 s, hard 2 s; Selby's solver takes 0.74 s and 0.12 s on this machine class, issue 18), and the
ratio to the twin. The kernels are loaded first (warm numba cache), so no compilation is timed.

Then the acceptance commands themselves, each in a new process (``--cli``, on by default):
``gamelab wordle solve-optimal --guesses G --answers A --rule standard --first salet
--max-guesses 6 --json --no-store`` (``--hard``, ``--hard-rule strict``), with the CPU seconds the
command reports for its solve, the seconds it reports for loading the compiled kernels (numba's
start-up in a new process), and the process's whole CPU time (interpreter and imports too).

Then the refutation cases (``--refute``, on by default) of ``gamelab wordle prove-opening``:
for each opening of ``--refute-words`` (the published runners-up REAST / LEAST, whose totals lie
just above the best, and the worst-ranked words), in normal mode and the game's hard mode, the
CPU seconds to refute it against the budget the proof uses (the published best + 1: bounds
first, then the search with that budget, as ``prove-opening`` does per opening) side by side
with the single-opening exact search (``solve-optimal --first WORD``), the latter stopped after
``--single-cpu`` CPU seconds. The held-out list of issue 30 (17.7 s against Selby's 0.9 s to
prove that a first word cannot finish within 6 guesses in the game's hard mode) is not in this
repository, so that exact case cannot be rerun here.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from gamelab.wordle.rules import Setting, load_word_list, parse_names, parse_setting
from gamelab.wordle.solver.optimal import INF, OptimalSolver
from gamelab.wordle.solver.summary import solve_summary
from gamelab.wordle.table import Game

PUBLISHED = {None: 7920, "game": 8122, "strict": 8125}
GOAL_CPU = {None: 1.0, "game": 2.0, "strict": 2.0}
SELBY_CPU = {None: 0.74, "game": 0.12}  # issue 18, measured on this machine class
LABEL = {None: "normal", "game": "hard (game's rule)", "strict": "hard (strict)"}


def warm_up() -> None:
    """Load every kernel specialisation the timed runs use (uint8 table, all modes)."""
    game = Game(load_word_list(parse_names("gen1-4")), "standard")
    for hard in (None, "game", "strict"):
        solve_summary(parse_setting(game.words, game.rule, hard), first="ジーランス")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=Path(__file__).resolve().parents[2] / "shared/data/wordle-english",
    )
    parser.add_argument("--first", default="salet")
    parser.add_argument("--no-baseline", action="store_true", help="Skip the Python twin.")
    parser.add_argument("--no-cli", action="store_true", help="Skip the CLI commands.")
    parser.add_argument("--no-refute", action="store_true", help="Skip the refutation cases.")
    parser.add_argument(
        "--refute-words", nargs="+", default=["reast", "least", "qajaq", "xylyl", "immix", "fuzzy"]
    )
    parser.add_argument("--single-cpu", type=float, default=60.0)
    parser.add_argument(
        "--progress",
        type=Path,
        metavar="STORE",
        help="Only the progress of the prove-opening runs kept in this results store (chunks, "
        "openings, CPU per step), read without disturbing a running proof.",
    )
    parser.add_argument(
        "--ship",
        nargs=2,
        type=Path,
        metavar=("PROOF_JSON", "OUT"),
        help="Write the top 100 of a finished prove-opening --json output (the ranking, the "
        "command's figures) to OUT (docs/wordle-english-normal.json), checked against the "
        "published figures first.",
    )
    parser.add_argument(
        "--bounds",
        nargs="*",
        metavar="WORD",
        help="Only the two-level bound of these openings (default list when empty): the one-pass "
        "kernel against the class-by-class bound, side by side.",
    )
    parser.add_argument("--only-refute", action="store_true", help="Only the refutation cases.")
    parser.add_argument(
        "--prove-sub",
        type=int,
        default=0,
        help="Only prove-opening on every N-th answer and guess (a sub-list), both modes.",
    )
    args = parser.parse_args()
    if args.progress:
        progress(args.progress)
        return
    if args.ship:
        ship(*args.ship)
        return
    warm_up()
    if args.bounds is not None:
        bounds(args.data, args.bounds or ["salet", "reast", "cigar", "qajaq", "fuzzy", "xylyl"])
        return
    if args.prove_sub:
        prove_sub(args.data, args.prove_sub)
        return
    if args.only_refute:
        refute(args.data, args.refute_words, args.single_cpu)
        return
    rows = []
    for hard in (None, "game", "strict"):
        cpu = time.process_time()
        words = load_word_list(
            guesses_file=args.data / "guesses.txt", answers_file=args.data / "answers.txt"
        )
        game = Game(words, "standard")
        solver = OptimalSolver(Setting(game.words, game.rule, hard, 6))
        first = words.check_guess(args.first)
        search = time.process_time()
        total = solver._guess_cost(
            first, game.all_answers(), INF, 5, game.full_pool() if hard else None
        )
        search = time.process_time() - search
        result = solver.solve_first(first)  # the tree, from the memo
        solve = time.process_time() - cpu
        assert result.total == total
        twin = None
        if not args.no_baseline:
            slow = OptimalSolver(Setting(game.words, game.rule, hard, 6), engine="python")
            twin = time.process_time()
            twin_total = slow._guess_cost(
                first, game.all_answers(), INF, 5, game.full_pool() if hard else None
            )
            twin = time.process_time() - twin
            assert twin_total == total, (twin_total, total)
        rows.append((hard, total, search, solve, twin, solver.nodes, result.worst))
        status = "ok" if total == PUBLISHED[hard] else f"DIFFERS from published {PUBLISHED[hard]}"
        goal = "meets" if solve <= GOAL_CPU[hard] else "misses"
        selby = f"; Selby {SELBY_CPU[hard]} s" if hard in SELBY_CPU else ""
        ratio = "" if twin is None else f"; twin {twin:.2f} s, speed-up {twin / search:.1f}x"
        print(
            f"{args.first} {LABEL[hard]:<19} total {total} (published {PUBLISHED[hard]}: {status}), "
            f"worst {result.worst}; search {search:.2f} s CPU, whole solve {solve:.2f} s CPU, "
            f"{goal} the {GOAL_CPU[hard]:.0f} s goal{selby}{ratio}; {solver.nodes} nodes",
            flush=True,
        )
    if not args.no_cli:
        for hard, flags in (
            (None, []),
            ("game", ["--hard"]),
            ("strict", ["--hard-rule", "strict"]),
        ):
            cli(args.data, args.first, hard, flags)
    if not args.no_refute:
        refute(args.data, args.refute_words, args.single_cpu)


def prove_sub(data: Path, every: int) -> None:
    """``prove-opening`` on a sub-list (every `every`-th answer and guess; answers are added to
    the guesses), normal and the game's hard mode, at most 6 guesses, one worker."""
    from gamelab.core.parallel import Backend
    from gamelab.wordle.rules import WordList, read_words
    from gamelab.wordle.solver.opening import prove_opening

    answers = read_words(data / "answers.txt")[::every]
    guesses = read_words(data / "guesses.txt")[::every]
    extra = [a for a in answers if a not in set(guesses)]
    words = WordList(f"english/{every}", tuple(guesses + extra), tuple(answers))
    game = Game(words, "standard")
    for hard in (None, "game"):
        proof = prove_opening(
            Setting(game.words, game.rule, hard, 6),
            margin=5,
            backend=Backend(workers=1, quiet=True),
        )
        top = ", ".join(f"{r.guess} {r.value}" for r in proof.rows[:5])
        print(
            f"prove-opening sub-list 1/{every} ({len(answers)} answers, {len(words.guesses)} "
            f"guesses) {LABEL[hard]}: {proof.statement}; top {top}; settled "
            f"{proof.settled}; {proof.cpu_seconds:.1f} s CPU",
            flush=True,
        )


#: Selby's proven totals (data README: ``normal.top105.proven``, ``hard.top101.proven``)
PUBLISHED_TOP = {
    None: {
        "salet": 7920,
        "reast": 7923,
        "crate": 7926,
        "trace": 7926,
        "slate": 7928,
        "crane": 7930,
    },
    "game": {"salet": 8122, "least": 8127, "reast": 8134},
}


def progress(store: Path) -> None:
    """Per run of ``prove-opening`` in `store` (its key: mode and budget): chunks and openings
    done, and per settling step the openings and their CPU seconds (read only)."""
    import sqlite3

    from gamelab.wordle.solver.opening import EXPERIMENT, SETTLED_BY

    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    runs: dict[str, list[list]] = {}
    for params, value in con.execute(
        "select params, value from results where experiment = ?", (EXPERIMENT,)
    ):
        runs.setdefault(params, []).append(json.loads(value))
    for params, chunks in runs.items():
        key = json.loads(params)
        rows = [r for chunk in chunks for r in chunk]
        steps = {name: [r[4] for r in rows if r[3] == k] for k, name in enumerate(SETTLED_BY)}
        exact = sorted((r[1], r[0]) for r in rows if r[2])
        print(
            f"hard {key['hard'] or 'off'}, budget {key['budget']}: {len(chunks)} chunks, "
            f"{len(rows)} openings, {sum(r[4] for r in rows):.0f} s CPU; "
            + "; ".join(
                f"{name} {len(cpu)} ({sum(cpu):.0f} s, {sum(cpu) / max(1, len(cpu)):.3f} s each)"
                for name, cpu in steps.items()
            )
            + f"; {len(exact)} exact so far"
        )


def ship(proof_json: Path, out: Path, top: int = 100) -> None:
    """The top `top` rows of a complete, proven ``prove-opening --json`` document, with its
    figures, to `out`; refuses one that is unfinished or disagrees with the published totals."""
    doc = json.loads(proof_json.read_text())
    if not (doc["complete"] and doc["proven"]):
        raise SystemExit(f"{proof_json}: the proof is not complete ({doc['statement']})")
    hard = None if doc["hard_mode"] == "off" else doc["hard_mode"]
    exact = {r["guess"]: r["value"] for r in doc["rows"] if r["exact"]}
    for word, total in PUBLISHED_TOP[hard].items():
        if total < doc["budget"] and exact.get(word) != total:
            raise SystemExit(f"{word}: {exact.get(word)} differs from the published {total}")
    keep = {
        k: doc[k]
        for k in ("mode", "answers", "guesses", "margin", "budget", "best", "best_guesses")
        + ("openings_done", "settled", "cpu_seconds", "statement")
    }
    keep["rows"] = doc["rows"][:top]
    keep["source"] = (
        "gamelab wordle prove-opening --guesses guesses.txt --answers answers.txt --rule "
        "standard --max-guesses 6 --seed-word salet --margin 10 --json"
        + (" --hard" if hard else "")
        + " (Selby's original lists, shared/data/wordle-english)"
    )
    out.write_text(json.dumps(keep, indent=1, ensure_ascii=False) + "\n")
    print(f"{out}: {keep['statement']}; {keep['cpu_seconds']:.0f} s CPU")


def bounds(data: Path, openings: list[str]) -> None:
    """The two-level bound of each opening (normal mode, at most 6 guesses): every class in one
    pass over the table (``solver/_bound_kernels.py``, what ``prove-opening`` runs) against each
    class bounded on its own (``min_bound_kernel`` per class, the Python engine's path and the
    proof's before here), CPU seconds of each and their ratio; the bounds must agree."""
    words = load_word_list(guesses_file=data / "guesses.txt", answers_file=data / "answers.txt")
    game = Game(words, "standard")
    fast = OptimalSolver(Setting(game.words, game.rule, None, 6))
    slow = OptimalSolver(Setting(game.words, game.rule, None, 6), engine="python")
    fast.opening_bound(0), slow.opening_bound(0)  # kernels loaded, the guess order computed
    total = [0.0, 0.0]
    for word in openings:
        g = words.check_guess(word)
        cpu = time.process_time()
        one = fast.opening_bound(g)
        one_cpu = time.process_time() - cpu
        cpu = time.process_time()
        each = slow.opening_bound(g)
        each_cpu = time.process_time() - cpu
        assert one == each, (word, one, each)
        total[0] += one_cpu
        total[1] += each_cpu
        print(
            f"two-level bound {word}: {one}; one pass {one_cpu:.3f} s CPU, class by class "
            f"{each_cpu:.3f} s ({each_cpu / max(one_cpu, 1e-9):.1f}x)",
            flush=True,
        )
    print(
        f"two-level bound, {len(openings)} openings: one pass {total[0]:.2f} s CPU, class by "
        f"class {total[1]:.2f} s ({total[1] / max(total[0], 1e-9):.1f}x)"
    )


def refute(data: Path, words_to_refute: list[str], single_cpu: float) -> None:
    """Each opening refuted against the proof's budget, beside its exact single-opening search."""
    from gamelab.wordle.solver.kernel_search import SearchTimeout

    words = load_word_list(guesses_file=data / "guesses.txt", answers_file=data / "answers.txt")
    game = Game(words, "standard")
    for hard in (None, "game"):
        budget = PUBLISHED[hard] + 1
        for word in words_to_refute:
            g = words.check_guess(word)
            solver = OptimalSolver(Setting(game.words, game.rule, hard, 6))
            solver.load_kernels()
            cpu = time.process_time()
            bound = solver.opening_bound(g)
            how = "two-level bound"
            if bound < budget:
                bound, how = max(bound, solver.opening_cost(g, budget)), "search"
            refuted = time.process_time() - cpu
            unseeded = ""
            if how == "search":  # the same search from 2m - 1 per class
                plain = OptimalSolver(Setting(game.words, game.rule, hard, 6))
                plain.seed_class_bounds = False
                plain.load_kernels()
                cpu = time.process_time()
                plain.opening_cost(g, budget)
                before = time.process_time() - cpu
                unseeded = (
                    f" (from 2m - 1 per class, as before: {before:.2f} s, "
                    f"{before / max(refuted, 1e-9):.1f}x)"
                )
            single = OptimalSolver(Setting(game.words, game.rule, hard, 6), cpu_limit=single_cpu)
            single.load_kernels()
            cpu = time.process_time()
            try:
                value = single.opening_cost(g, INF)
                exact = "infeasible" if value >= INF else str(value)
            except SearchTimeout:
                exact = f"not settled in {single_cpu:.0f} s CPU"
            single_time = time.process_time() - cpu
            verdict = "refuted" if bound >= budget else "NOT refuted"
            print(
                f"refute {word} {LABEL[hard]:<19} {verdict}: >= {bound} (budget {budget}) by "
                f"{how} in {refuted:.2f} s CPU{unseeded}; single-opening search: {exact} in "
                f"{single_time:.2f} s CPU ({single_time / max(refuted, 1e-9):.0f}x)",
                flush=True,
            )


def cli(data: Path, first: str, hard: str | None, flags: list[str]) -> None:
    """One acceptance command in a new process: its reported CPU and the process's."""
    command = [
        str(Path(sys.executable).parent / "gamelab"), "wordle", "solve-optimal",
        "--guesses", str(data / "guesses.txt"), "--answers", str(data / "answers.txt"),
        "--rule", "standard", "--first", first, "--max-guesses", "6", "--json", "--no-store",
        *flags,
    ]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    doc = json.loads(out)
    goal = "meets" if doc["cpu_seconds"] <= GOAL_CPU[hard] else "misses"
    print(
        f"CLI {LABEL[hard]:<19} total {doc['total']} (published {PUBLISHED[hard]}); "
        f"solve {doc['cpu_seconds']:.2f} s CPU ({goal} the {GOAL_CPU[hard]:.0f} s goal), "
        f"loading the compiled kernels {doc['startup_cpu_seconds']:.2f} s, "
        f"whole process {process:.2f} s CPU",
        flush=True,
    )


if __name__ == "__main__":
    main()
