"""The shipped English opening rankings (docs/wordle-english-normal.json and
docs/wordle-english-hard.json, the top 100 of the full `gamelab wordle prove-opening` runs on
Selby's original lists, normal mode and the game's hard mode) against the published totals
(/work/shared/data/wordle-english/README.md: Selby, "The best strategies for Wordle", 2022, and
his normal.top105.proven and hard.top101.proven)."""

import json
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
DOC = DOCS / "wordle-english-normal.json"
HARD_DOC = DOCS / "wordle-english-hard.json"
PUBLISHED = {
    "salet": 7920,
    "reast": 7923,
    "crate": 7926,
    "trace": 7926,
    "slate": 7928,
    "crane": 7930,
}


def test_the_shipped_ranking_equals_the_published_top():
    doc = json.loads(DOC.read_text())
    assert doc["openings_done"] == doc["guesses"] == 12972 and doc["answers"] == 2315
    assert sum(doc["settled"].values()) == 12972
    assert doc["best"] == 7920 and doc["best_guesses"] == ["salet"]
    assert doc["budget"] == 7920 + doc["margin"] + 1
    rows = doc["rows"]
    exact = {r["guess"]: r["value"] for r in rows if r["exact"]}
    assert {w: exact.get(w) for w in PUBLISHED} == PUBLISHED
    # the exact rows first, ranked by total, all below the budget; the rest refuted at or above it
    values = [r["value"] for r in rows if r["exact"]]
    assert values == sorted(values) and values[-1] < doc["budget"]
    assert rows[: len(values)] == [r for r in rows if r["exact"]]
    assert all(r["value"] is None or r["value"] >= doc["budget"] for r in rows if not r["exact"])


# hard mode as the game defines it: SALET 8,122, LEAST 8,127, REAST 8,134 (published)
PUBLISHED_HARD = {"salet": 8122, "least": 8127}
PUBLISHED_HARD_REAST = 8134


def test_the_shipped_hard_mode_ranking_equals_the_published_top():
    doc = json.loads(HARD_DOC.read_text())
    assert "hard mode (the game's rule" in doc["mode"] and "--hard" in doc["source"]
    assert doc["openings_done"] == doc["guesses"] == 12972 and doc["answers"] == 2315
    assert sum(doc["settled"].values()) == 12972
    assert doc["best"] == 8122 and doc["best_guesses"] == ["salet"]
    assert doc["budget"] == 8122 + doc["margin"] + 1
    rows = doc["rows"]
    exact = {r["guess"]: r["value"] for r in rows if r["exact"]}
    assert exact == PUBLISHED_HARD  # only these two are under the budget of 8,133
    # REAST's published 8,134 is at or above the budget, so it must have been refuted, not missed
    assert PUBLISHED_HARD_REAST >= doc["budget"]
    assert rows[:2] == [r for r in rows if r["exact"]]
    assert all(r["value"] >= doc["budget"] for r in rows if not r["exact"])
