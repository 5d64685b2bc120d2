"""The shipped English opening ranking (docs/wordle-english-normal.json, the top 100 of the full
`gamelab wordle prove-opening` run on Selby's original lists) against the published totals
(/work/shared/data/wordle-english/README.md: Selby, "The best strategies for Wordle", 2022, and
his normal.top105.proven)."""

import json
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "wordle-english-normal.json"
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
