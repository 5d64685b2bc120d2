"""The web assistant's library: the cached optimal strategy, advice, review, practice rounds."""

import json

import numpy as np
import pytest

from gamelab.core.serialise import to_plain
from gamelab.wordle.advice import advise
from gamelab.wordle.assistant import ContradictionError
from gamelab.wordle.practice import answer_of_seed, play_round
from gamelab.wordle.review import review
from gamelab.wordle.rules import Setting, feedback, parse_names, parse_setting, pokemon_word_list
from gamelab.wordle.solver.optimal import answer_depths
from gamelab.wordle.solver.strategy import BackgroundBuilds, optimal_strategy, strategy_is_cached


def colours(guess, answer, rule):
    return "".join(map(str, feedback(guess, answer, rule)))


@pytest.fixture(scope="module")
def blog_table():
    return optimal_strategy(parse_setting("gen1-4", "blog"))


def test_strategy_table_is_the_proven_optimum(blog_table):
    # docs/wordle.md, "The proven optimum": gen1-4, blog: 964, first guess ジーランス, worst 5
    t = blog_table
    assert t.words.guesses[t.guess[0]] == "ジーランス"
    assert int(t.total[0]) == 964 and int(t.worst[0]) == 5 and int(t.candidates[0]) == 285
    assert strategy_is_cached(parse_setting("gen1-4", "blog"))
    # every node's total is its candidates plus its children's totals; leaves are single answers
    kids = [
        t.child_node[t.child_start[i] : t.child_start[i] + t.child_count[i]]
        for i in range(len(t.guess))
    ]
    for i, k in enumerate(kids):
        assert t.total[i] == t.candidates[i] + t.total[k].sum()
        assert t.candidates[k].sum() in (t.candidates[i], t.candidates[i] - 1)
    # walking the table gives each answer the depth the tree gives it
    game_answers = t.words.answers
    depths = {}
    for a in game_answers:
        node, depth = 0, 1
        while t.words.guesses[t.guess[node]] != a:
            code = int("".join(map(str, feedback(t.words.guesses[t.guess[node]], a, "blog"))), 3)
            node, depth = t.child(node, code), depth + 1
        depths[a] = depth
    assert sum(depths.values()) == 964


def test_strict_hard_mode_table():
    # docs/wordle.md: gen1-4, strict hard mode: 972 (both rules)
    assert int(optimal_strategy(parse_setting("gen1-4", "standard", "strict")).total[0]) == 972


def test_acceptance_rentoraa_all_grey(gamelab_cli):
    # the post's chart (docs/wordle.md, pinned in test_wordle_published): レントラー all grey
    # leaves 67 candidates and the next guess is ゴルダック
    a = advise(parse_setting("gen1-4", "blog", None), [("rentoraa", "00000")])
    assert a.candidates == 67 and a.next.name == "ゴルダック" and a.next.english == "Golduck"
    assert a.history == ["レントラー:00000"] and a.method == "solved here"
    # one assistant for both shells: `gamelab wordle next --json` prints this very document
    for rule in ("standard", "blog"):
        cli = gamelab_cli(
            "wordle", "next", "--rule", rule, "--history", "レントラー:00000", "--json"
        )
        assert cli.returncode == 0, cli.stderr
        ours = advise(parse_setting("gen1-4", rule), [("レントラー", "00000")])
        assert json.loads(cli.stdout) == json.loads(json.dumps(to_plain(ours)))
        assert ours.expected_guesses == pytest.approx(ours.expected_total / ours.candidates)
        assert ours.worst_case <= ours.guess_limit - 1


def test_advice_on_the_strategy_is_a_lookup(blog_table):
    a = advise(parse_setting("gen1-4", "blog", None), [])
    assert a.method == "strategy" and a.next.name == "ジーランス"
    assert (
        a.expected_total == 964
        and a.expected_guesses == pytest.approx(964 / 285)
        and a.worst_case == 5
    )
    assert a.entropy_top[0].name == "レントラー"  # the post's entropy ranking
    assert len(a.remaining) == 120 and a.candidates == 285
    b = advise(parse_setting("gen1-4", "blog", None), [("ジーランス", "00000")])
    node = blog_table.child(0, 0)
    assert b.method == "strategy" and b.expected_total == int(blog_table.total[node])
    assert b.next.name == blog_table.words.guesses[blog_table.guess[node]]


def test_advice_errors_name_the_problem():
    with pytest.raises(ContradictionError, match=r"guess 2 \(ゴルダック 00120\) is the first"):
        advise(
            parse_setting("gen1-4", "blog", None),
            [("rentoraa", "00000"), ("ゴルダック", "00120"), ("Pikachu", "22222")],
        )
    with pytest.raises(ValueError, match=r"guess 1 \(レントラー\): feedback '0012' has 4 colours"):
        advise(parse_setting("gen1-4", "blog", None), [("rentoraa", "0012")])
    with pytest.raises(ValueError, match="bad colour 'z'"):
        advise(parse_setting("gen1-4", "blog", None), [("rentoraa", "0z000")])
    with pytest.raises(ValueError, match="not a Pokémon name"):
        advise(parse_setting("gen1-4", "blog", None), [("qqq", "00000")])
    with pytest.raises(ValueError, match="already found the answer"):
        advise(
            parse_setting("gen1-4", "blog", None), [("rentoraa", "22222"), ("ゴルダック", "00000")]
        )
    with pytest.raises(ValueError, match="hard mode is defined for the standard"):
        advise(parse_setting("gen1-4", "blog", "game"), [])
    with pytest.raises(ValueError, match="unknown feedback rule"):
        advise(parse_setting("gen1-4", "nyt", None), [])


def test_solved_and_fallback_answers():
    a = advise(
        parse_setting("gen1-4", "standard", None), [("rentoraa", "00000"), ("ゴルダック", "22222")]
    )
    assert a.solved and a.next is None and a.expected_total == 0
    e = advise(parse_setting("gen1-4", "standard", None), [("rentoraa", "00000")], exact=False)
    assert (
        e.method == "entropy"
        and e.expected_guesses is None
        and e.next.name == e.entropy_top[0].name
    )


def test_review_of_an_optimal_game_loses_nothing(blog_table):
    t = blog_table
    answer = "ピカチュウ"
    history, node = [], 0
    while True:  # play the strategy against ピカチュウ
        g = t.words.guesses[t.guess[node]]
        c = colours(g, answer, "blog")
        history.append((g, c))
        if g == answer:
            break
        node = t.child(node, int(c, 3))
    r = review(parse_setting("gen1-4", "blog", None), history)
    assert r.solved and r.answer == answer and r.guesses == len(history)
    assert all(s.guesses_lost == 0.0 and s.is_optimal for s in r.steps)
    assert r.total_lost == 0.0
    assert r.optimal_expected == pytest.approx(964 / 285)
    # exact bookkeeping: guesses = expected + lost - luck
    assert r.guesses == pytest.approx(r.optimal_expected + r.total_lost - r.total_luck)
    mine = r.totals["you"]  # the shared vocabulary, in guesses (fewer is better)
    assert (mine.start, mine.loss, mine.luck, mine.result, mine.costliest) == (
        r.optimal_expected,
        r.total_lost,
        r.total_luck,
        r.guesses,
        [],  # no guess lost anything
    )


def test_review_of_a_worse_game_counts_what_each_guess_lost(blog_table):
    answer = "ピカチュウ"
    history = [(g, colours(g, answer, "blog")) for g in ("レントラー", "ゴルダック", "ピカチュウ")]
    r = review(parse_setting("gen1-4", "blog", None), history)
    first, second, third = r.steps
    assert first.optimal_guess == "ジーランス" and not first.is_optimal
    # レントラー's exact cost: 285 + the optimum of each of its classes
    assert first.expected_guesses == pytest.approx(
        first.optimal_expected_guesses + first.guesses_lost
    )
    assert first.guesses_lost > 0 and first.candidates_after == 67
    assert second.is_optimal and second.guesses_lost == 0.0  # ゴルダック is optimal there
    assert third.candidates_after == 0 and r.solved
    assert r.guesses == pytest.approx(r.optimal_expected + r.total_lost - r.total_luck)
    lost = {s.number: s.guesses_lost for s in r.steps if s.guesses_lost}
    assert r.totals["you"].costliest == sorted(lost, key=lambda n: -lost[n])  # costliest first
    # the off-table solve gives the same numbers as the table where both apply
    assert second.optimal_expected_guesses == pytest.approx(
        advise(parse_setting("gen1-4", "blog", None), history[:1]).expected_guesses
    )
    with pytest.raises(ValueError, match="nothing to review"):
        review(parse_setting("gen1-4", "blog", None), [])


def test_practice_round_is_replayed_from_its_seed():
    words = pokemon_word_list(parse_names("gen1-4"))
    answer = answer_of_seed(words, 7)
    assert answer == answer_of_seed(words, 7) and answer in words.answers
    assert len({answer_of_seed(words, s) for s in range(20)}) > 10
    r = play_round(parse_setting("gen1-4", "standard", None), 7, ["rentoraa"])
    assert r.answer is None and not r.finished and r.share is None  # no secret before the end
    assert r.rows[0].colours == colours("レントラー", answer, "standard")
    assert r.keyboard == {
        ch: max(int(c) for k, c in zip("レントラー", r.rows[0].colours, strict=True) if k == ch)
        for ch in "レントラー"
    }
    done = play_round(parse_setting("gen1-4", "standard", None), 7, ["rentoraa", answer])
    assert done.finished and done.won and done.answer == answer
    assert done.share.splitlines()[0] == "Pokémon Wordle 2/10 (gamelab gen1-4, seed 7)"
    assert done.share.splitlines()[2] == "🟩🟩🟩🟩🟩"
    with pytest.raises(ValueError, match="comes after the answer was found"):
        play_round(parse_setting("gen1-4", "standard", None), 7, [answer, "rentoraa"])
    with pytest.raises(ValueError, match="seed must be"):
        play_round(parse_setting("gen1-4", "standard", None), -1, [])
    wrong = [
        w
        for w in (
            "レントラー",
            "ゴルダック",
            "ジーランス",
            "ソルロック",
            "ルカリオ",
            "ピカチュウ",
            "ライチュウ",
            "ニョロモ",
            "ヤドラン",
            "コイキング",
        )
        if w != answer
    ][:10]
    lost = play_round(parse_setting("gen1-4", "standard", None), 7, wrong)
    assert lost.finished and not lost.won and lost.answer == answer and "X/10" in lost.share


def test_practice_hard_mode_refuses_what_the_mode_forbids():
    words = pokemon_word_list(parse_names("gen1-4"))
    answer = answer_of_seed(words, 3)
    first = next(w for w in words.answers if w != answer and set(w) & set(answer))
    shown = tuple(int(c) for c in colours(first, answer, "standard"))
    from gamelab.wordle.rules import hard_mode_allows

    bad = next(
        w for w in words.answers if not hard_mode_allows(first, shown, w, "game", "standard")
    )
    with pytest.raises(ValueError, match="not allowed in hard mode"):
        play_round(parse_setting("gen1-4", "standard", "game"), 3, [first, bad])


def test_background_builds_report_status():
    builds = BackgroundBuilds()
    s = builds.status(parse_setting("gen1-4", "blog", None), start=False)
    assert s.cached and not s.building and "every answer is instant" in s.message
    with pytest.raises(ValueError, match="unknown word list"):
        builds.status(parse_setting("gen10", "blog", None))
    builds.close()


def test_strategy_depths_match_the_solver_tree(blog_table):
    from gamelab.wordle.solver.optimal import OptimalSolver
    from gamelab.wordle.table import Game

    game = Game(pokemon_word_list(parse_names("gen1")), "standard")
    result = OptimalSolver(Setting(game.words, game.rule, None, 10)).solve()
    t = optimal_strategy(parse_setting("gen1", "standard"))
    assert int(t.total[0]) == result.total
    assert int(t.worst[0]) == max(answer_depths(result.tree).values())
    assert np.all(t.candidates >= 1)


def test_strategy_command(gamelab_cli):
    cli = gamelab_cli("wordle", "strategy", "--rule", "blog", "--json")
    assert cli.returncode == 0, cli.stderr
    doc = json.loads(cli.stdout)
    assert (doc["first_guess"], doc["total"], doc["worst"], doc["guess_limit"]) == (
        "ジーランス",
        964,
        5,
        10,
    )
    text = gamelab_cli("wordle", "strategy", "--rule", "blog")
    assert "first guess ジーランス, total 964" in text.stdout


def test_review_shows_what_the_optimum_would_have_left(gamelab_cli):
    """Issue 24 W7 (as WordleBot): per guess, the answers it left and what the optimal guess
    would have left for the same answer, checked against the rules' own feedback."""
    words = pokemon_word_list(parse_names("gen1-4"))

    def left(guess, answer, cands):
        code = feedback(guess, answer, "standard")
        return [a for a in cands if a != guess and feedback(guess, a, "standard") == code]

    for history in (
        [("ゴルバット", "00000"), ("ピカチュウ", "22222")],
        [("レントラー", "00000"), ("ゴルダック", "00000")],
    ):
        r = review(parse_setting("gen1-4"), history)
        final = [r.answer] if r.solved else r.remaining
        cands = list(words.answers)
        for step, (guess, _) in zip(r.steps, history, strict=True):
            after = left(guess, final[0], cands)
            assert step.remaining_after == after[:120] and step.candidates_after == len(after)
            theirs = {tuple(left(step.optimal_guess, a, cands)) for a in final}
            assert step.optimal_candidates_after == sorted({len(t) for t in theirs})
            one = list(next(iter(theirs))) if len(theirs) == 1 else None
            assert step.optimal_remaining_after == one
            cands = after
    assert r.steps[0].optimal_remaining_after is None  # the unsolved game: several sets
    cli = gamelab_cli(
        "wordle", "review", "--history", "ゴルバット:00000,ピカチュウ:22222", "--json"
    )
    assert json.loads(cli.stdout)["steps"][0]["optimal_candidates_after"] == [71]
