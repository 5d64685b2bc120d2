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
    assert book_move(book_positions(doc["plies"] + 1)[-1]) is None  # one ply deeper


def test_a_sample_of_the_book_is_searched_again_to_the_same_move():
    # the book's depth, a fresh engine: each entry is a pure function of the position; the
    # cheapest entry (about a CPU-second: `gamelab oware book --plies 3 --depth 18 --json`)
    doc = shipped_book()
    text = "5-5-4-4-0-5-5-5-0-5-5-5-0-0-S"
    row = search_entry((text, doc["depth"]), np.random.default_rng(0))
    assert [row["move"], row["score"]] == doc["moves"][text] == ["A", -68]


def test_engine_option_book():
    spec = parse_player("engine:time=0.1,book=1")
    assert spec.book and str(spec) == "engine:time=0.1,book=1"
    assert not parse_player("engine:time=0.1").book
    with pytest.raises(ValueError, match="0 or 1"):
        parse_player("engine:book=yes")


def test_the_page_answers_book_positions_from_the_book_and_says_so():
    # issue 49: the hint and an engine with book=1 take the book's entry instead of a search
    from gamelab.oware.game import START_TEXT, analyse_position, engine_reply, exact_scope
    from gamelab.oware.rules import ABAPA, Position, Rules, parse_move
    from gamelab.oware.tablebase import exact_reach

    start = Position.initial()
    first = book_move(start)
    assert first is not None
    reply = engine_reply(START_TEXT, ABAPA, [], parse_player("engine:depth=2,book=1"))
    assert reply.book and reply.move == first and reply.analysis is not None
    assert reply.analysis.depth == shipped_book()["depth"]
    assert reply.analysis.score == shipped_book()["moves"][START_TEXT][1]
    assert not engine_reply(START_TEXT, ABAPA, [], parse_player("engine:depth=2")).book
    hint = analyse_position("start", ABAPA, None, [first], depth=2, book=True)
    assert hint.book and hint.analysis.best_move_text == book_move(
        start.play(parse_move(first, start, digits=False))
    )
    assert hint.evaluation.source.startswith("opening book")
    searched = analyse_position("start", ABAPA, None, [first], depth=2)
    assert not searched.book and searched.analysis.depth == 2
    assert hint.exact_scope == reply.view.exact_scope == exact_scope(ABAPA)
    assert exact_scope(ABAPA) == f"exact endgames from {exact_reach()} seeds down"
    assert "no exact endgames" in exact_scope(Rules(grand_slam="forbidden"))
