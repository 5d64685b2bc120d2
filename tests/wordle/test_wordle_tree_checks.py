"""Issue 29 items 6, 9, 11, 12: `wordle chart --tree FILE` checks the tree against the rules
before charting it, and a deep, huge, endless or blocking file is one clear error."""

from __future__ import annotations

import json
import os

import pytest

from gamelab.wordle.chart import check_tree, pattern_key
from gamelab.wordle.rules import load_word_list, parse_names
from gamelab.wordle.table import Game

SETTINGS = ["--names", "gen1", "--rule", "standard"]


@pytest.fixture(scope="module")
def game():
    return Game(load_word_list(parse_names("gen1")), "standard")


def _first_candidate_tree(game, cands, first=None):
    """A valid (not optimal) tree: guess `first`, then always the first candidate left."""
    guess = first if first is not None else game.words.guess_index[game.words.answers[cands[0]]]
    word = game.words.guesses[guess]
    node = {"guess": word, "candidates": len(cands)}
    kids = {}
    for code, part in game.partition(guess, cands).items():
        if len(part) == 1 and game.is_answer(guess, int(part[0])):
            continue
        kids[pattern_key(code, len(word))] = _first_candidate_tree(game, part)
    if kids:
        node["next"] = kids
    return node


def test_6_a_tree_is_checked_against_the_rules(game, tmp_path, gamelab_cli):
    tree = _first_candidate_tree(game, game.all_answers())
    check_tree(tree, game)  # a valid tree passes
    good = tmp_path / "good.json"
    good.write_text(json.dumps(tree, ensure_ascii=False), encoding="utf-8")
    assert gamelab_cli("wordle", "chart", "--tree", str(good), *SETTINGS).returncode == 0
    other = next(w for w in game.words.guesses if w != tree["guess"])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**tree, "guess": other}, ensure_ascii=False), encoding="utf-8")
    r = gamelab_cli("wordle", "chart", "--tree", str(bad), *SETTINGS)
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert r.stderr.startswith(f"error: {bad} is not a decision tree of these rules: the root"), (
        r.stderr
    )
    miscount = {**tree, "next": dict(tree["next"])}
    key = next(iter(miscount["next"]))
    miscount["next"][key] = {**miscount["next"][key], "candidates": 999}
    with pytest.raises(ValueError, match=f"the root → {tree['guess']} {key}: the tree says 999"):
        check_tree(miscount, game)
    with pytest.raises(ValueError, match="is not a node with a guess"):
        check_tree([1, 2], game)


@pytest.mark.timeout(60)
def test_9_a_deeply_nested_tree_is_one_error(tmp_path, gamelab_cli):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    r = gamelab_cli("wordle", "chart", "--tree", str(deep), *SETTINGS)
    assert r.returncode == 2 and r.stderr == (
        f"error: cannot read a decision tree from {deep}: nested too deeply\n"
    )


@pytest.mark.timeout(60)
def test_11_12_devices_and_fifos_as_trees_and_word_files_are_refused(tmp_path, gamelab_cli):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    words = tmp_path / "words.txt"
    words.write_text("ピカチュウ\n")
    for path in ("/dev/zero", str(fifo)):
        r = gamelab_cli("wordle", "chart", "--tree", path, *SETTINGS)
        assert r.stderr == f"error: cannot read decision tree {path}: not a regular file\n"
        r = gamelab_cli("wordle", "rank", "--guesses", path, "--answers", str(words))
        assert r.returncode == 2 and r.stderr == (
            f"error: cannot read word file {path}: not a regular file\n"
        )
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("caf\xe9\n".encode("latin-1"))
    r = gamelab_cli("wordle", "rank", "--guesses", str(latin), "--answers", str(latin))
    assert r.stderr == f"error: cannot read word file {latin}: not UTF-8 text (byte 3 is 0xe9)\n"
