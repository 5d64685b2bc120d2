"""The first answer of every page for every setting a player can choose, against a real server.

    .venv/bin/python benchmarks/web_first_answers.py [--only yatzy,oware] [--fresh-cache]
        [--url URL] [--json FILE]

Starts ``gamelab serve`` (its own process, as a user runs it; or uses the server at ``--url``),
waits until ``/api/health`` says it is warm (``ready``: every game's solvers are warm), then
asks, one request at a time, each page's first question for each of its settings, as the page
asks it (the same routes and bodies as ``static/<game>.js``):

* Voltorb Flip: each level's practice deal, the advice on it (each way of advising), each goal,
  and a review of a one-flip round;
* Pokémon Wordle: each word list x colour rule x mode: the opening advice and a one-guess game;
* lattice folding: the level pack, tutorial, expert pack and 3D folds, a generated level of
  each length, its best fold, today's level;
* Owaré: each rule variant x opponent: the opponent's first move (the player moving second),
  the ranked analysis of the start, and a review of a short game;
* Yatzy: each rule set: the first roll with the coach, the win-play bot's first turn, the
  assistant's advice and the review of a whole game.

For each it reports the first answer's wall time (from sending the request to reading the
answer), the same request asked again (the warm baseline, side by side: the ratio says what the
first time cost), whether the answer was the exact one or a labelled cheaper one, and the goal:
**every first answer within 5 s of the server saying it is warm** (issue 47, item 14). An
Owaré engine that thinks a fixed time per move (and a review as strong as it, two such searches
a position) is measured beyond its own thinking time.
``--fresh-cache`` gives the server an empty gamelab cache (the numba cache stays: a machine
where ``gamelab warmup`` ran), so the server's warm-up builds its tables first;
``--fresh-install`` empties numba's cache too (``NUMBA_CACHE_DIR``), as after ``pip install``:
a kernel that the warm-up does not reach is then compiled while a player waits.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Generator
from typing import Any

from web_server import Server, request, served

GOAL_SECONDS = 5.0

#: the pages' choices (templates/<game>.html)
VOLTORB_LEVELS = range(1, 9)
VOLTORB_POLICIES = ("optimal", "minrisk", "fom")
VOLTORB_GOALS = ("survive", "eight", "coins", "coins>=100")
WORDLE_RULES = ("standard", "blog")
WORDLE_MODES = ("off", "game", "strict")
LATTICE_LENGTHS = range(10, 19)
OWARE_RULES = (("no-capture", "own-row"), ("forbidden", "own-row"), ("capture-all", "own-row"),
               ("no-capture", "split"))  # fmt: skip
OWARE_OPPONENTS = ("engine:time=0.5", "engine:time=2", "engine:time=5", "engine:depth=8",
                   "engine:depth=2", "blog:depth=6", "blog:depth=2", "greedy", "random")  # fmt: skip
YATZY_RULES = ("yatzy", "yatzy-ls2012", "yahtzee", "yahtzee-free-joker", "yahtzee-no-bonus")


def _cheaper(answer: Any) -> str:
    """The label of a cheaper answer ('' for the exact one)."""
    if not isinstance(answer, dict):
        return ""
    note = answer.get("note") or ""
    label = str(answer.get("answer") or "")
    if label.startswith("fallback") or "timed out" in note or "showing" in note:
        return (label or note)[:60]
    return ""


def _yatzy_game(rules: str, seed: int, opponent: str, turns: int) -> tuple[list, list]:
    """Your moves and the bot's of `turns` turns: each turn's first dice in the first open box
    (the optimal bot plays the bot's turns: the win-play bot plays as it does until its last
    8 turns)."""
    from gamelab.yatzy.game import game_view
    from gamelab.yatzy.rules import get_rules

    rule_set, moves, bot_moves = get_rules(rules), [], []
    for _ in range(turns):
        view = game_view(rule_set, seed, moves, opponent=opponent, bot_moves=bot_moves)
        if view.finished:
            break
        moves.append("box " + next(r.box for r in view.rows if r.would_score is not None))
        if opponent != "none":
            bot_moves = game_view(rule_set, seed, moves, opponent=opponent, bot_moves=bot_moves)
            bot_moves = [list(t) for t in bot_moves.bot_moves]
    return moves, bot_moves


Question = tuple[str, str, str, str, dict, float]


def questions(base: str, only: set[str]) -> Generator[Question, Any, None]:
    """(game, setting, what, path, body, thinking seconds the player chose) in the pages' order;
    each yield receives the answer (a later question may ask about a deal)."""
    if "voltorb" in only:
        for level in VOLTORB_LEVELS:
            seed = 100 + level
            deal = yield ("voltorb", f"level {level}", "deal", "/api/voltorb/practice/new",
                          {"level": level, "seed": seed}, 0.0)  # fmt: skip
            board = {"rows": deal["rows"], "cols": deal["cols"], "level": level}
            for policy in VOLTORB_POLICIES:
                yield ("voltorb", f"level {level}", f"advice ({policy})", "/api/voltorb/solve",
                       {**board, "policy": policy}, 0.0)  # fmt: skip
            for goal in VOLTORB_GOALS:
                yield ("voltorb", f"level {level}", f"goal {goal}", "/api/voltorb/objective",
                       {**board, "objective": goal}, 0.0)  # fmt: skip
            yield ("voltorb", f"level {level}", "review", "/api/voltorb/practice/review",
                   {"level": level, "seed": seed, "flips": [[3, 3]]}, 0.0)  # fmt: skip
    if "wordle" in only:
        _, settings, _ = request(base, "/api/wordle/settings")
        for names in [c["spec"] for c in settings["choices"]]:
            for rule in WORDLE_RULES:
                for hard in WORDLE_MODES:
                    if rule == "blog" and hard == "game":
                        continue  # the page offers the game's hard mode with its colours only
                    setting = {"names": names, "rule": rule, "hard": hard}
                    name = f"{names} {rule} {hard}"
                    yield ("wordle", name, "advice", "/api/wordle/advice",
                           {**setting, "history": []}, 0.0)  # fmt: skip
                    yield ("wordle", name, "play", "/api/wordle/play",
                           {**setting, "seed": 5, "guesses": []}, 0.0)  # fmt: skip
    if "lattice" in only:
        for what in ("levels", "tutorial", "expert", "folds3d"):
            yield ("lattice", "-", what, f"/api/lattice/{what}", {}, 0.0)
        yield ("lattice", "-", "today's level", "/api/lattice/daily", {"date": "2026-12-07"}, 0.0)
        for length in LATTICE_LENGTHS:
            body = {"length": length, "seed": 7}
            level = yield ("lattice", f"{length} residues", "generate", "/api/lattice/generate",
                           body, 0.0)  # fmt: skip
            yield ("lattice", f"{length} residues", "best fold", "/api/lattice/best",
                   {"sequence": level["sequence"]}, 0.0)  # fmt: skip
    if "oware" in only:
        from gamelab.oware.budget import review_limits
        from gamelab.oware.match import parse_player

        review_moves = ["C", "f", "A", "d"]
        for grand_slam, cycle in OWARE_RULES:
            rules = {"grand_slam": grand_slam, "cycle": cycle}
            name = f"{grand_slam}|{cycle}"
            for opponent in OWARE_OPPONENTS:
                thinking = float(opponent.split("time=")[1]) if "time=" in opponent else 0.0
                yield ("oware", f"{name} {opponent}", "first move", "/api/oware/reply",
                       {**rules, "moves": [], "opponent": opponent, "seed": 0}, thinking)  # fmt: skip
                # a review as strong as the engine played: two of its searches a position
                plan = review_limits(parse_player(opponent), len(review_moves))
                yield ("oware", f"{name} {opponent}", "review", "/api/oware/review",
                       {**rules, "moves": review_moves, "opponent": opponent, "first": 1,
                        "players": ["you", opponent]},
                       2 * (plan.seconds or 0.0) * plan.count)  # fmt: skip
            yield ("oware", name, "ranked analysis", "/api/oware/analyse",
                   {**rules, "position": "start", "moves": [], "time": 1.0, "rank": True}, 1.0)  # fmt: skip
    if "yatzy" in only:
        for rules in YATZY_RULES:
            moves, _ = _yatzy_game(rules, 3, "none", 99)
            # the win-play bot's first turn that plays for the win (its 8th last)
            bot_game, bot_moves = _yatzy_game(rules, 4, "optimal", 8)
            yield ("yatzy", rules, "coach", "/api/yatzy/game",
                   {"rules": rules, "seed": 1, "moves": [], "coach": True}, 0.0)  # fmt: skip
            yield ("yatzy", rules, "advise", "/api/yatzy/advise",
                   {"rules": rules, "dice": "11234", "rolls_left": 2}, 0.0)  # fmt: skip
            yield ("yatzy", rules, "win-play bot", "/api/yatzy/game",
                   {"rules": rules, "seed": 4, "moves": bot_game,
                    "opponent": "win", "bot_moves": bot_moves[:-1]}, 0.0)  # fmt: skip
            yield ("yatzy", rules, "review", "/api/yatzy/review",
                   {"rules": rules, "seed": 3, "moves": moves}, 0.0)  # fmt: skip


def wait_until_warm(server: Server) -> float:
    """Seconds from start until /api/health says ready."""
    t0 = time.monotonic()
    while True:
        try:
            _, health, _ = request(server.base, "/api/health")
            if health.get("ready"):
                return time.monotonic() - t0
        except OSError:
            pass
        said = server.said()
        if server.stopped() or "warming up the solvers failed" in said:
            raise RuntimeError("the server stopped warming up:\n" + said)
        if time.monotonic() - t0 > 1800:
            raise RuntimeError("the server was not warm after 30 minutes")
        time.sleep(0.5)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="voltorb,wordle,lattice,oware,yatzy")
    ap.add_argument("--url", default=None, help="a running gamelab serve (default: start one)")
    ap.add_argument("--fresh-cache", action="store_true", help="an empty gamelab cache")
    ap.add_argument(
        "--fresh-install",
        action="store_true",
        help="empty gamelab and numba caches (a new install: serve's warm-up compiles everything)",
    )
    ap.add_argument("--json", default=None, help="write every row to this file")
    args = ap.parse_args()
    only = set(args.only.split(","))

    env = os.environ.copy()
    fresh = args.fresh_cache or args.fresh_install
    cache = tempfile.TemporaryDirectory() if fresh else None
    if cache is not None:
        env["GAMELAB_CACHE"] = os.path.join(cache.name, "gamelab")
    if cache is not None and args.fresh_install:
        env["NUMBA_CACHE_DIR"] = os.path.join(cache.name, "numba")
    rows: list[dict] = []
    with served(args.url, env=env) as server:
        base = server.base
        warm = wait_until_warm(server)
        load = os.getloadavg()
        print(f"warm after {warm:.0f} s; load average {load[0]:.2f} ({os.cpu_count()} cores)")
        print(f"{'game':<8} {'setting':<34} {'question':<18} {'first':>7} {'again':>7} "
              f"{'ratio':>6}  answer")  # fmt: skip
        asked = questions(base, only)
        answer: Any = None
        while True:
            try:
                game, setting, what, path, body, thinking = asked.send(answer)
            except StopIteration:
                break
            first, answer, status = request(base, path, body)
            again, _, _ = request(base, path, body)
            beyond = first - thinking
            row = {
                "game": game,
                "setting": setting,
                "question": what,
                "first_s": round(first, 3),
                "again_s": round(again, 3),
                "beyond_thinking_s": round(beyond, 3),
                "status": status,
                "cheaper": _cheaper(answer) if status == 200 else str(answer)[:60],
            }
            rows.append(row)
            flag = "" if beyond <= GOAL_SECONDS and status == 200 else "  <-- MISSES"
            print(
                f"{game:<8} {setting[:34]:<34} {what[:18]:<18} {first:7.2f} {again:7.2f} "
                f"{first / max(again, 1e-3):6.1f}  {status} {row['cheaper'] or 'exact'}{flag}",
                flush=True,
            )
    if cache is not None:
        cache.cleanup()
    missed = [r for r in rows if r["beyond_thinking_s"] > GOAL_SECONDS or r["status"] != 200]
    slowest = max(rows, key=lambda r: r["beyond_thinking_s"]) if rows else None
    print(f"\n{len(rows)} first answers, {len(missed)} beyond {GOAL_SECONDS:.0f} s or failed")
    if slowest:
        print(
            f"slowest: {slowest['game']} {slowest['setting']} {slowest['question']} "
            f"{slowest['beyond_thinking_s']:.2f} s (beyond the engine's own thinking time)"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
