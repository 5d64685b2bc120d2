"""Assistant response times of the Pokémon Wordle page, against the CLI's way of answering.

    .venv/bin/python benchmarks/web_wordle.py [--names gen1-4 all] [--rule standard] [--games 30]
                                              [--baseline 8] [--budget 2] [--build]

For each list, the optimal strategy must be cached (``gamelab wordle strategy --names all``;
``--build`` computes a missing one first, minutes for ``all``). Then ``--games`` seeded answers
are played twice -- by the optimal strategy (every answer a table lookup) and by a player who
opens with the max-entropy guess (レントラー for gen1-4) and then follows the assistant (every
answer after the opening a subtree solve, the memo warm after the first) -- and every distinct
history of those games is posted once to ``/api/wordle/advice`` of the app (``TestClient``, one
solver process, the server's time budget). Reported: the median, 90th percentile and maximum
response time, and how many answers were the labelled fallback.

Baseline, side by side in this process on the first ``--baseline`` histories of both kinds:
the exact answer without the cached strategy (a fresh solver with an empty memo solving the
node, as a one-shot ``gamelab wordle next`` does) against :func:`gamelab.wordle.advice.advise`
(the page's computation, warm as in a server process). For ``all`` the empty history is left
out of the baseline (minutes without the table). (The pool also memoises answers by their
arguments; every history is posted once, so no timed answer is a memo hit.)
Goal (issue 14): page median under 100 ms on gen1-4 and all.
"""

from __future__ import annotations

import argparse
import statistics
import time


def games(names: str, rule: str, count: int) -> tuple[list[list[dict]], list[list[dict]]]:
    """(optimal games' histories, entropy-opening games' histories), each a list of prefixes."""
    from gamelab.wordle.advice import advise
    from gamelab.wordle.practice import answer_of_seed
    from gamelab.wordle.rules import feedback, parse_names, parse_setting, pokemon_word_list
    from gamelab.wordle.solver.strategy import optimal_strategy

    words = pokemon_word_list(parse_names(names))
    setting = parse_setting(names, rule)
    table = optimal_strategy(setting)
    opening = advise(setting, []).entropy_top[0].name
    optimal, player = [], []
    for seed in range(count):
        answer = answer_of_seed(words, seed)
        for first, out in ((None, optimal), (opening, player)):
            history: list[dict] = []
            guess = first or words.guesses[int(table.guess[0])]
            while True:
                out.append(list(history))
                colours = "".join(map(str, feedback(guess, answer, rule)))
                history.append({"guess": guess, "colours": colours})
                if guess == answer:
                    break
                guess = advise(setting, [(h["guess"], h["colours"]) for h in history]).next.name
    return optimal, player


def distinct(histories: list[list[dict]]) -> list[list[dict]]:
    seen, out = set(), []
    for h in histories:
        key = tuple((e["guess"], e["colours"]) for e in h)
        if key not in seen:
            seen.add(key)
            out.append(h)
    return out


def timed_requests(
    client, names: str, rule: str, histories: list[list[dict]]
) -> tuple[list[float], int]:
    times, fallbacks = [], 0
    for h in histories:
        start = time.perf_counter()
        r = client.post("/api/wordle/advice", json={"names": names, "rule": rule, "history": h})
        times.append(time.perf_counter() - start)
        if r.status_code != 200:
            raise SystemExit(f"error {r.status_code}: {r.text}")
        fallbacks += r.json()["note"] is not None
    return times, fallbacks


def baseline(names: str, rule: str, histories: list[list[dict]]) -> list[float]:
    """Seconds per history for the exact answer without the cached strategy: a fresh solver
    (empty memo) solving the node, as a one-shot `gamelab wordle next` does."""
    from gamelab.wordle.advice import parse_history
    from gamelab.wordle.assistant import HistoryChecker
    from gamelab.wordle.rules import parse_setting
    from gamelab.wordle.solver.optimal import OptimalSolver
    from gamelab.wordle.table import Game

    setting = parse_setting(names, rule)
    game = Game.of(setting)
    times = []
    for h in histories:
        start = time.perf_counter()
        steps = parse_history(game, [(e["guess"], e["colours"]) for e in h])
        cands, pool = HistoryChecker(setting).candidates(steps)
        left = setting.max_guesses - len(steps)
        OptimalSolver(setting.with_limit(None)).best_guess(cands, left, pool)
        times.append(time.perf_counter() - start)
    return times


def library(names: str, rule: str, histories: list[list[dict]]) -> list[float]:
    """Seconds per history for :func:`gamelab.wordle.advice.advise` in this process (warm)."""
    from gamelab.wordle.advice import advise
    from gamelab.wordle.rules import parse_setting

    setting = parse_setting(names, rule)
    times = []
    for h in histories:
        start = time.perf_counter()
        advise(setting, [(e["guess"], e["colours"]) for e in h])
        times.append(time.perf_counter() - start)
    return times


def ms(x: float) -> str:
    return f"{1000 * x:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--names", nargs="+", default=["gen1-4", "all"])
    parser.add_argument("--rule", default="standard")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--baseline", type=int, default=8)
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--build", action="store_true", help="compute a missing strategy first")
    args = parser.parse_args()

    from fastapi.testclient import TestClient

    from gamelab.web.app import create_app
    from gamelab.web.common import Settings
    from gamelab.wordle.rules import parse_setting
    from gamelab.wordle.solver.strategy import strategy_is_cached, strategy_summary

    with TestClient(create_app(Settings(workers=1, budget=args.budget))) as client:
        for names in args.names:
            setting = parse_setting(names, args.rule)
            if not strategy_is_cached(setting):
                if not args.build:
                    print(
                        f"{names}: optimal strategy not cached; run `gamelab wordle strategy --names "
                        f"{names} --rule {args.rule}` or pass --build"
                    )
                    continue
                s = strategy_summary(setting)
                print(f"{names}: strategy computed in {s.seconds:.0f} s")
            optimal, player = games(names, args.rule, args.games)
            optimal, player = distinct(optimal), distinct(player)
            client.post(
                "/api/wordle/advice", json={"names": names, "rule": args.rule, "history": []}
            )
            print(
                f"{names}, rule {args.rule}: {len(optimal)} histories on the optimal strategy, "
                f"{len(player)} after the entropy opening"
            )
            all_times, all_fallbacks = [], 0
            for label, hs in (
                ("on the strategy (lookups)", optimal),
                ("after the entropy opening", player),
            ):
                times, fallbacks = timed_requests(client, names, args.rule, hs)
                all_times += times
                all_fallbacks += fallbacks
                q = statistics.quantiles(times, n=10)
                print(
                    f"  {label:27s} median {ms(statistics.median(times))}, p90 {ms(q[-1])}, "
                    f"max {ms(max(times))}, fallbacks {fallbacks}/{len(times)}"
                )
            med = statistics.median(all_times)
            verdict = "meets" if med < 0.1 else "misses"
            print(
                f"  all answers: median {ms(med)} ({verdict} the 100 ms goal), max {ms(max(all_times))}, "
                f"fallbacks {all_fallbacks}/{len(all_times)}"
            )
            # the exact answer with the cached strategy vs without it, side by side in this
            # process, on the first histories of both kinds (the root and the nodes near it are
            # where the table matters; for `all` the root is left out: minutes without a table)
            sample = optimal[: args.baseline] + player[1 : 1 + args.baseline]
            if names != "gen1-4":
                sample = [h for h in sample if h]
            ours, base = library(names, args.rule, sample), baseline(names, args.rule, sample)
            print(
                f"  exact answer with the cached strategy vs a fresh solver (`gamelab wordle next`), "
                f"{len(sample)} histories: median {ms(statistics.median(ours))} vs "
                f"{ms(statistics.median(base))} ({statistics.median(base) / statistics.median(ours):.0f}x), "
                f"total {sum(ours):.2f} s vs {sum(base):.2f} s ({sum(base) / sum(ours):.0f}x)"
            )


if __name__ == "__main__":
    main()
