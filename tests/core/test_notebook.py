"""docs/examples.ipynb runs from top to bottom (nbclient), so its pictures and its checked
numbers (one of each seed analysis) stay true."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "examples.ipynb"


def test_the_example_notebook_runs_and_draws_every_game():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    # the kernel inherits this process's environment: the suite's cache (GAMELAB_CACHE)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3").execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    svg = [o["data"]["image/svg+xml"] for o in outputs if "image/svg+xml" in o.get("data", {})]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    # the states (a board, a history, a fold, a board, a card) and the main results
    assert len(svg) + len(html) >= 13
    assert any("ゴルダック" in s and "67 candidates left" in s for s in svg)  # the advice
    assert any("9 contacts, optimal (proven)" in s for s in svg)  # the fold
    assert any("802,075 folds by contacts" in s for s in svg)  # the puzzle's histogram
    assert any("best move" in s for s in svg)  # the Owaré analysis
    assert any("expected final score" in h and "1111" in h for h in html)  # the coach
    assert any("PokemonWordle gen1" in h for h in html)  # the leaderboard
