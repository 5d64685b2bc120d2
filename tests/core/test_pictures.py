"""Every game's state, and the assistants' main answers, show themselves in a notebook.

A state has ``_repr_svg_`` (or ``_repr_html_``) drawn by a pure function of its game's
``pictures`` module; the test plays each registered game a few random moves and checks the
picture is well-formed SVG (or HTML) that shows what the state holds.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from gamelab.core.state import CHANCE, game_info, registered_games
from gamelab.voltorb.assistant import Policy
from gamelab.voltorb.rules import Position, VoltorbSetting

GAMES = [info.name for info in registered_games() if info.name in (
    "voltorb", "wordle", "lattice", "oware", "yatzy")]  # fmt: skip


def _advance(state, moves: int, rng: np.random.Generator) -> None:
    for _ in range(200):
        if state.is_terminal() or moves == 0:
            return
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            probs = np.array([p for _, p in outcomes])
            state.apply(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0])
            continue
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        moves -= 1


@pytest.mark.parametrize("game", GAMES)
def test_a_state_draws_itself(game):
    info = game_info(game)
    state = info.new_game(**dict(info.params)).new_initial_state()
    _advance(state, 2, np.random.default_rng(4))
    if hasattr(state, "_repr_svg_"):
        svg = state._repr_svg_()
        root = ET.fromstring(svg)  # well-formed
        assert root.tag.endswith("svg") and len(root) > 3
    else:
        page = state._repr_html_()
        assert page.startswith("<div") and "<table" in page and page.count("<tr>") > 5


def test_the_voltorb_assistant_answer_draws_its_odds():
    from gamelab.voltorb.assistant import solve_position

    answer = solve_position(
        Position.parse("4,2 8,0 4,2 4,2 5,1", "6,1 5,0 5,2 4,3 5,1"),
        VoltorbSetting(2),
        Policy.parse(None, False),
    )
    svg = answer._repr_svg_()
    ET.fromstring(svg)
    assert f"{answer.p_voltorb[0][0]:.2f}" in svg and svg.count("<rect") == 25


# -- the main results ---------------------------------------------------------------------------
def _svg(text: str) -> ET.Element:
    root = ET.fromstring(text)  # well-formed
    assert root.tag.endswith("svg")
    return root


def _all(root: ET.Element, tag: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.tag.endswith(tag)]


def _texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in _all(root, "text")]


def test_the_wordle_advice_draws_the_tiles_in_their_colours_and_the_next_guess():
    from gamelab.wordle.advice import Advice, Candidate, GuessOption
    from gamelab.wordle.pictures import COLOURS

    advice = Advice(
        names="daily", rule="standard", hard_mode="off", mode="normal mode", guess_limit=10,
        guesses_used=1, history=["レントラー:00120"], candidates=2,
        remaining=[Candidate("ゴルダック", "Golduck", 55), Candidate("ピカチュウ", "Pikachu", 25)],
        solved=False,
        next=GuessOption("ゴルダック", "Golduck", 55, 1.0, 2, 1, True, 1.5),
        expected_guesses=1.5,
    )  # fmt: skip
    root = _svg(advice._repr_svg_())
    tiles = _all(root, "rect")
    assert [t.get("fill") for t in tiles] == [COLOURS[d] for d in "00120"]
    texts = _texts(root)
    assert texts[:5] == list("レントラー")
    assert "2 candidates left: ゴルダック, ピカチュウ" in texts
    assert "next guess: ゴルダック, 1.500 guesses expected (normal mode)" in texts


def test_the_oware_analysis_outlines_the_best_house_and_lists_every_move():
    from gamelab.oware.analysis import Analysis
    from gamelab.oware.game import Evaluation, MoveValue, PositionAnalysis
    from gamelab.oware.pictures import PIT

    houses = [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5]
    analysis = Analysis(
        "-", "South", 2, "C", 30, "centiseeds", "+0.3", [2], ["C"], 6, 100, 1e4, 0.01
    )
    ranking = [MoveValue("C", 30, "South ahead by 0.3 seeds", False, 5),
               MoveValue("A", -200, "North ahead by 2 seeds", False, 5)]  # fmt: skip
    result = PositionAnalysis(
        analysis, Evaluation(30, "South", False, 0.55, "South ahead by 0.3 seeds", "engine"),
        None, houses, [0, 0], ranking=ranking,
    )  # fmt: skip
    root = _svg(result._repr_svg_())
    pits = _all(root, "circle")
    assert len(pits) == 12
    outlined = [c for c in pits if c.get("stroke-width") == "4"]
    assert len(outlined) == 1  # South's third house, C, in the lower row
    assert float(outlined[0].get("cx")) == PIT + 2 * PIT + PIT / 2
    assert float(outlined[0].get("cy")) > PIT
    texts = _texts(root)
    assert "5" in texts  # North's last house (f), drawn top left
    lines = [t for t in texts if t[:2] in ("C:", "A:")]
    assert lines == ["C: South ahead by 0.3 seeds", "A: North ahead by 2 seeds"]
    assert "best move C: South ahead by 0.3 seeds" in texts


def test_the_yatzy_coach_draws_the_card_the_dice_and_every_option():
    from gamelab.yatzy.coach import Advice, Option

    advice = Advice("yatzy", "ones=3", "11114", 2, [
        Option(270.30, 0.0, keep="1111", label="1111"),
        Option(250.00, 20.30, keep="-", label="-"),
    ])  # fmt: skip
    page = advice._repr_html_()
    assert "⚀ ⚀ ⚀ ⚀ ⚃" in page and "(2 rolls left)" in page
    assert "<td style='text-align:left'>ones</td><td>3</td>" in page
    assert (
        "<tr style='font-weight:bold'><td style='text-align:left'>1111</td><td>270.30</td>" in page
    )
    assert "<td style='text-align:left'>-</td><td>250.00</td><td>20.30</td>" in page
    assert page.index("1111") < page.index(">-<")


def test_a_fold_result_draws_its_chain_contacts_and_proof():
    from gamelab.lattice.fold import FoldResult

    result = FoldResult("HPPH", "square", "RUL", 1, "proven (exhaustive)", 1, 0, 0.0)
    root = _svg(result._repr_svg_())
    residues = _all(root, "circle")
    assert [c.get("fill") for c in residues] == ["#222", "#fff", "#fff", "#222"]
    contacts = [e for e in _all(root, "line") if e.get("stroke-dasharray")]
    assert len(contacts) == 1  # residues 0 and 3
    assert "1 contact, optimal (proven)" in _texts(root)
    gapped = FoldResult("HPPH", "square", "RRR", 0, "found", 1, 0, 0.0, name="x")
    assert "x: 0 contacts, gap 1, upper bound 1" in _texts(_svg(gapped._repr_svg_()))


def test_the_leaderboard_draws_each_score_as_a_bar_of_its_value():
    from gamelab.core.stats import Estimate
    from gamelab.envs.baselines import Leaderboard, LeaderboardRow, LeaderboardSetting
    from gamelab.envs.pictures import BAR_W

    def row(agent: str, score: float) -> LeaderboardRow:
        e = Estimate(score, score - 5, min(score + 5, 100), 3)
        return LeaderboardRow("PokemonWordle gen1", agent, agent, 3, e, e, e, e, "guesses",
                              0.1, 0, 3.0)  # fmt: skip

    board = Leaderboard(
        LeaderboardSetting(episodes=3), (row("random", 40.0), row("optimal", 100.0)), 1.0, 6
    )
    page = board._repr_html_()
    assert page.count("<tr>") == 3 and "PokemonWordle gen1" in page
    assert "40.0 [35.0, 45.0]" in page and "100.0 [95.0, 100.0]" in page
    bars = ET.fromstring("<r>" + page.replace("<th colspan='2'>", "<th>") + "</r>")
    widths = [
        float(r.get("width"))
        for r in bars.iter()
        if r.tag.endswith("rect") and r.get("fill") == "#6aaa64"
    ]
    assert widths == [BAR_W * 0.4, BAR_W * 1.0]


def test_the_solver_summaries_draw_their_figures():
    from gamelab.wordle.pictures import summary_svg
    from gamelab.yatzy.pictures import solution_html

    root = _svg(
        summary_svg("daily", {2: 36, 3: 136, 4: 93}, ["ランクルス"], "optimum 953 (proven)")
    )
    bars = [r for r in _all(root, "rect")]
    assert [round(float(b.get("width")) / float(bars[1].get("width")), 4) for b in bars] == [
        round(36 / 136, 4), 1.0, round(93 / 136, 4)]  # fmt: skip
    texts = _texts(root)
    assert ["36", "136", "93"] == [t for t in texts if t.isdigit()]
    assert "first guess: ランクルス" in texts and "optimum 953 (proven)" in texts
    page = solution_html("yatzy", 248.43998938, 38.49643, 1_430_464, 8.7)
    assert "<td>248.4399894</td>" in page and "<td>38.4964</td>" in page and "1,430,464" in page


def test_the_yatzy_score_law_and_review_draw_the_pages_chart():
    # one function draws the review's chart for the page (sent as SVG) and for a notebook
    from gamelab.yatzy.game import Decision
    from gamelab.yatzy.pictures import distribution_svg
    from gamelab.yatzy.review import Review, ScoreLaw

    law = ScoreLaw(10, np.array([0.25, 0.5, 0.25]), mean=11.0)
    assert law._repr_svg_() == distribution_svg(law)
    chart = distribution_svg(law, 12)
    d = Decision("you", 1, 2, "11114", "keep", "-", "-", 250.0, "keep 1111", 256.27, 6.27)
    review = Review("yatzy", 3, "-", True, [d], 6.27, d, 248.44, final_score=12, luck=0.0,
                    percentile=87.5, distribution=law, svg=chart)  # fmt: skip
    page = review._repr_html_()
    assert "yatzy, seed 3: 6.27 expected points lost; final score 12, percentile 87.5" in page
    assert "<td>11114</td><td style='text-align:left'>keep -</td>" in page
    assert "keep 1111</td><td>6.27</td>" in page and chart in page


def test_a_voltorb_simulation_draws_both_win_rates_and_their_paired_difference():
    from gamelab.core.stats import paired_difference
    from gamelab.voltorb.simulate import Simulation, SimulationStudy

    def run(strategy: str, wins: list[int]) -> Simulation:
        w = np.array(wins, dtype=bool)
        return Simulation("hgss", 8, strategy, 0, w, np.full(w.size, 7), np.zeros(w.size, int),
                          0.0, 0.0)  # fmt: skip

    a, b = run("minrisk", [1, 1, 0, 1]), run("scorefirst", [1, 0, 0, 0])
    study = SimulationStudy(a, b, paired_difference(a.wins.astype(float), b.wins.astype(float)))
    page = study._repr_html_()
    assert "Voltorb Flip level 8, hgss boards" in page
    assert "<td style='text-align:left'>minrisk</td><td>4</td><td>75.0% [" in page
    assert "<td style='text-align:left'>scorefirst</td><td>4</td><td>25.0% [" in page
    assert "paired difference of the win rates: +50.0% [" in page


def test_the_readmes_notebook_example_draws_what_it_says():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = text.split("## In a notebook", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    *setup, last = [line for line in block.strip().splitlines() if line.strip()]
    scope: dict = {}
    exec("\n".join(setup), scope)
    advice = eval(last.split("  #", 1)[0], scope)
    assert "67 candidates left" in advice._repr_svg_() and advice.next is not None


def test_a_puzzle_draws_its_best_fold_and_its_histogram_by_stars():
    from gamelab.lattice.pack import Level
    from gamelab.lattice.pictures import BAND_COLOURS
    from gamelab.lattice.stars import StarBands

    bands = StarBands("paper", (1, 2, 2), (6, 3, 1))
    level = Level("HPPH", "square", [6, 3, 1], "RUL", {"paper": bands}, {})
    root = _svg(level._repr_svg_())
    assert len([c for c in _all(root, "circle")]) == 4  # the fold's residues
    bars = [g for g in _all(root, "g") if any(t.tag.endswith("title") for t in g)]
    titles = [next(t for t in g if t.tag.endswith("title")).text for g in bars]
    assert titles == ["0 contacts: 6 folds", "1 contact: 3 folds", "2 contacts: 1 fold"]
    fills = [next(r for r in g if r.tag.endswith("rect")).get("fill") for g in bars]
    assert fills == [BAND_COLOURS[0], BAND_COLOURS[1], BAND_COLOURS[3]]
    widths = [float(next(r for r in g if r.tag.endswith("rect")).get("width")) for g in bars]
    assert widths[0] > widths[1] > widths[2]  # log scale, still in order
    assert "10 folds by contacts (log scale)" in _texts(root)
