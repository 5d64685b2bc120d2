"""The opening book: its positions, the shipped file, the engine playing from it."""

import numpy as np
import pytest

from gamelab.oware.book import book_move, book_positions, search_entry, shipped_book
from gamelab.oware.match import parse_player
from gamelab.oware.rules import Position, parse_move


def test_book_positions_are_the_first_plies_without_repeats():
    assert [len(book_positions(k)) for k in (1, 2, 3)] == [1, 7, 43]
    four = book_positions(4)
    texts = [p.to_text() for p in four]
    assert len(texts) == len(set(texts)) and texts[0] == Position.initial().to_text()
    with pytest.raises(ValueError, match="1 to 6"):
        book_positions(7)


def test_shipped_book_covers_its_positions_with_legal_moves():
    doc = shipped_book()
    positions = book_positions(doc["plies"])
    assert set(doc["moves"]) == {p.to_text() for p in positions}
    for p in positions:
        letter = book_move(p)
        assert letter is not None and parse_move(letter, p) in p.legal_moves()
    assert book_move(Position.initial().play(0).play(0).play(0).play(0).play(1)) is None


def test_a_sample_of_the_book_is_searched_again_to_the_same_move():
    # the book's depth, a fresh engine: each entry is a pure function of the position
    doc = shipped_book()
    for p in book_positions(doc["plies"])[:2]:
        row = search_entry((p.to_text(), doc["depth"]), np.random.default_rng(0))
        assert [row["move"], row["score"]] == doc["moves"][p.to_text()]


def test_engine_option_book():
    spec = parse_player("engine:time=0.1,book=1")
    assert spec.book and str(spec) == "engine:time=0.1,book=1"
    assert not parse_player("engine:time=0.1").book
    with pytest.raises(ValueError, match="0 or 1"):
        parse_player("engine:book=yes")
