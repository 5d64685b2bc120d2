"""The command line: JSON shapes used by the acceptance checks, and error messages.

Commands run in-process through ``gamelab.cli.main`` (as the installed script does); one test
checks a real subprocess."""

import json
import subprocess
import sys

import pytest


@pytest.fixture
def run(gamelab_cli):
    """Run `gamelab wordle ...` in this process."""
    return lambda *args: gamelab_cli("wordle", *args)


def test_rank_json(run):
    out = run("rank", "--names", "gen1-4", "--rule", "blog", "--top", "15", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert len(rows) == 15
    # post's ranking: レントラー 4.15443 first, サンダース 3.67307 fifteenth
    assert rows[0]["guess"] == "レントラー" and round(rows[0]["entropy"], 5) == 4.15443
    assert rows[14]["guess"] == "サンダース" and round(rows[14]["entropy"], 5) == 3.67307


def test_chart_json_and_text(run):
    out = run("chart", "--first", "レントラー", "--rule", "blog", "--json")
    data = json.loads(out.stdout)
    assert data["n_patterns"] == 41
    assert data["patterns"][0] == {
        **data["patterns"][0],
        "pattern": "00000",
        "remaining": 67,
        "next": "ゴルダック",
    }
    assert data["greedy"]["post_counting"]["total"] == 1028
    assert "1030" in data["note"]
    text = run("chart", "--first", "レントラー", "--rule", "blog")
    assert "1028" in text.stdout and "1030" in text.stdout and "ゴルダック" in text.stdout


def test_prune_search_json(run):
    out = run(
        "prune-search", "--names", "gen1-4", "--rule", "blog", "--first", "ジーランス", "--json"
    )
    assert json.loads(out.stdout)["total"] == 964  # the post's best pruned total


def test_errors_are_one_line(run):
    out = subprocess.run(
        [sys.executable, "-m", "gamelab.cli", "wordle", "rank", "--names", "gen42"],
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert out.returncode == 2 and out.stderr.startswith("error: ") and "gen1-4" in out.stderr
    out = run("chart", "--first", "ピカチュウX")
    assert out.returncode == 2 and "not an allowed guess" in out.stderr
    out = run("rank", "--rule", "nope")
    assert out.returncode == 2 and "standard, blog" in out.stderr


def test_solve_optimal_json_and_tree(run, tmp_path):
    tree_file = tmp_path / "tree.json"
    out = run(
        "solve-optimal",
        "--names",
        "gen1",
        "--rule",
        "standard",
        "--no-store",
        "--quiet",
        "--json",
        "--tree",
        str(tree_file),
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["proven"] and data["lower_bound"] == data["total"]
    assert sum(data["distribution"].values()) == data["answers"] == 84
    assert sum(int(k) * v for k, v in data["distribution"].items()) == data["total"]
    rows = data["depth_limited"]
    assert rows[0]["total"] == data["total"] and rows[0]["max_guesses"] == data["worst"]
    totals = [r["total"] for r in rows if r["total"] is not None]
    assert totals == sorted(totals)  # tighter limits never cost fewer guesses
    assert rows[-1]["total"] is None or rows[-1]["max_guesses"] == 1
    tree = json.loads(tree_file.read_text(encoding="utf-8"))
    assert tree["guess"] in data["first_guesses"] and tree["candidates"] == 84
    shown = run(
        "chart", "--tree", str(tree_file), "--names", "gen1", "--rule", "standard", "--json"
    )
    printed = json.loads(shown.stdout)
    assert printed["first"] == tree["guess"] and printed["total"] == data["total"]
    assert run("chart", "--tree", str(tmp_path / "nope.json")).returncode == 2


def test_library_results_behind_the_cli(tmp_path):
    """The chart, ranking, pruned totals and made-up guess are library results (typed)."""
    from gamelab.core.serialise import to_plain
    from gamelab.wordle.chart import chart, tree_chart
    from gamelab.wordle.entropy import ranking
    from gamelab.wordle.hillclimb import made_up_first_guess
    from gamelab.wordle.pruned import pruned_totals
    from gamelab.wordle.rules import load_word_list, parse_names
    from gamelab.wordle.table import Game

    game = Game(load_word_list(parse_names("gen1-4")), "blog")
    c = chart(game, "レントラー")
    assert sum(p.remaining for p in c.patterns) == game.n_answers
    assert c.greedy["post_counting"].total == 1028 and c.note  # the post's total, slip noted
    assert c.all_grey is not None and c.all_grey.remaining == max(p.remaining for p in c.patterns)
    assert to_plain(c)["greedy"]["normal"]["distribution"] == {
        str(k): v for k, v in c.greedy["normal"].distribution.items()
    }
    top = ranking(game, 3)
    assert top.rows[0].guess == "レントラー" and to_plain(top)[0]["guess"] == "レントラー"
    (row,) = pruned_totals(game, ["レントラー"])
    assert row.total is not None and row.average == row.total / game.n_answers
    made_up = made_up_first_guess(game, seed=0, restarts=2, total=False)
    assert made_up.pruned_total is None and made_up.entropy > 0
    bad = tmp_path / "tree.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match="cannot read a decision tree"):
        tree_chart(bad)


def test_solve_optimal_first_guess_and_modes(gamelab_cli):
    import json

    # our proven gen1-4 figures: ジーランス 964 (normal), 972 (strict hard mode, session 1)
    res = gamelab_cli(
        "wordle",
        "solve-optimal",
        "--rule",
        "standard",
        "--first",
        "ジーランス",
        "--json",
        "--no-store",
    )
    data = json.loads(res.stdout)
    assert res.returncode == 0 and data["total"] == 964 and data["scope"] == "first guess"
    assert (
        data["max_guesses"] == 10
        and data["hard_mode"] == "off"
        and "at most 10 guesses" in data["mode"]
    )
    res = gamelab_cli(
        "wordle",
        "solve-optimal",
        "--rule",
        "standard",
        "--first",
        "ジーランス",
        "--hard-rule",
        "strict",
        "--no-store",
    )
    assert "strict hard mode" in res.stdout and "972" in res.stdout
    res = gamelab_cli(
        "wordle", "solve-optimal", "--first", "ジーランス", "--hard", "--rule", "blog"
    )
    assert res.returncode == 2 and "standard feedback rule" in res.stderr
    res = gamelab_cli("wordle", "solve-optimal", "--first", "ピカチュー")
    assert res.returncode == 2 and "not an allowed guess" in res.stderr


def test_separate_answer_and_guess_lists(run):
    # --answers-names A --guesses-names G is the setting A/G: gen1-4 answers, every species
    # guessed, is the live game's `daily`
    split = run(
        "rank", "--answers-names", "gen1-4", "--guesses-names", "all", "--top", "3", "--json"
    )
    daily = run("rank", "--names", "daily", "--top", "3", "--json")
    assert split.returncode == 0, split.stderr
    assert json.loads(split.stdout) == json.loads(daily.stdout)
    bad = run("rank", "--answers-names", "all", "--guesses-names", "gen1")
    assert bad.returncode == 2 and "must lie within the guesses" in bad.stderr
