"""Settle and ship whether any strategy meets a tighter guess limit (gamelab/wordle/data/feasibility.json).

    python tools/make_wordle_feasibility.py [--workers N]

For each setting below, ``gamelab.wordle.solver.feasible.prove_feasible`` checks every first guess
exactly (about 25 CPU-minutes per rule for ``all`` within 5 guesses). The run keeps its finished
tasks in the results store ($GAMELAB_RESULTS), so an interrupted build resumes. The proofs let
``solve-optimal``'s depth limits say "infeasible (proven)" at once instead of searching until the
time limit.
"""

import argparse
import json
from pathlib import Path

from gamelab.core.parallel import Backend
from gamelab.core.results import ResultStore
from gamelab.wordle.rules import Setting, parse_names
from gamelab.wordle.solver.feasible import SHIPPED, prove_feasible
from gamelab.wordle.table import Game

SETTINGS = [("all", "blog", 5), ("all", "standard", 5)]

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    proofs = []
    for names, rule, limit in SETTINGS:
        setting = Setting(parse_names(names), rule, None, limit)
        game = Game.of(setting)
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
    path = Path(__file__).resolve().parent.parent / "src" / "gamelab" / "wordle" / SHIPPED
    path.write_text(json.dumps({"proofs": proofs}, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {path}")
