"""Settle and ship whether any strategy meets a tighter guess limit (gamelab/wordle/data/feasibility.json).

    python tools/make_wordle_feasibility.py [--workers N] [--again]

For each setting below, ``gamelab.wordle.solver.feasible.prove_feasible`` checks every first guess
exactly (about 25 CPU-minutes per rule for ``all`` within 5 guesses, about 11 for ``upto-gen8``).
The run keeps its finished tasks in the results store ($GAMELAB_RESULTS), so an interrupted
build resumes; a proof already shipped for the same word lists is kept (``--again`` proves it
anew). The proofs let ``solve-optimal``'s depth limits say "infeasible (proven)" at once instead
of searching until the time limit (``upto-gen8`` within 5: its feasibility search alone did not
finish within the 3-minute goal).
"""

import argparse
import json
from pathlib import Path

from gamelab.core.parallel import Backend
from gamelab.core.results import ResultStore
from gamelab.wordle.rules import Setting, parse_names
from gamelab.wordle.solver.feasible import SHIPPED, prove_feasible
from gamelab.wordle.table import Game

SETTINGS = [
    ("all", "blog", 5),
    ("all", "standard", 5),
    ("upto-gen8", "blog", 5),
    ("upto-gen8", "standard", 5),
    ("gen1-4", "blog", 4),
    ("gen1-4", "standard", 4),
]

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--again", action="store_true", help="prove the shipped ones anew too")
    args = parser.parse_args()
    path = Path(__file__).resolve().parent.parent / "src" / "gamelab" / "wordle" / SHIPPED
    shipped = (
        {}
        if args.again or not path.exists()
        else {
            (p["names"], p["words"], p["rule"], p["max_guesses"]): p
            for p in json.loads(path.read_text(encoding="utf-8"))["proofs"]
        }
    )
    proofs = []
    for names, rule, limit in SETTINGS:
        setting = Setting(parse_names(names), rule, None, limit)
        game = Game.of(setting)
        kept = shipped.get((names, game.words.fingerprint(), rule, limit))
        if kept is not None:
            proofs.append(kept)
            print(f"kept: {kept['statement']}", flush=True)
            continue
        result = prove_feasible(setting, backend=Backend(workers=args.workers), store=ResultStore())
        sizes = [len(o.refuting_class) for o in result.openings if not o.feasible]
        proofs.append(
            {
                "names": names,
                "words": game.words.fingerprint(),
                "rule": rule,
                "max_guesses": limit,
                "feasible": result.feasible,
                "first_guesses_checked": result.openings_checked,
                "feasible_first_guesses": result.feasible_first_guesses,
                "refuting_class_sizes": [min(sizes), max(sizes)] if sizes else [],
                "statement": result.statement,
                "command": f"gamelab wordle feasible --names {names} --rule {rule} "
                f"--max-guesses {limit}",
            }
        )
        print(result.statement, flush=True)
    path.write_text(json.dumps({"proofs": proofs}, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {path}")
