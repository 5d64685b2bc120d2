"""The folding game in a real Chromium: fold level 1 to three stars by keyboard, undo, make a level."""

from gamelab.lattice.rules import hh_score

ARROW = {"R": "ArrowRight", "L": "ArrowLeft", "U": "ArrowUp", "D": "ArrowDown"}


def test_first_level_to_three_stars_by_keyboard_then_undo(page):
    first = page.request.post("/api/lattice/levels", data={}).json()["levels"][0]
    best = page.request.post("/api/lattice/best", data={"sequence": first["sequence"]}).json()
    page.goto("/lattice")
    page.wait_for_function(
        "document.querySelector('#level-title').textContent.startsWith('Level 1')"
    )
    page.locator("#board").focus()
    for k, move in enumerate(best["conformation"]):
        page.keyboard.press(ARROW[move])
        # the live score is the library's score of the same (partial) fold
        shown = int(page.locator("#board").get_attribute("data-score"))
        part = first["sequence"][: k + 2]
        assert shown == hh_score(part, best["conformation"][: k + 1])
    page.wait_for_function("document.querySelector('#result').textContent.startsWith('Solved')")
    assert page.locator("#stars").inner_text() == "★★★"
    assert int(page.locator("#score").inner_text()) == first["best"]
    assert page.locator("#levels li.current .got").inner_text() == "★★★"  # progress kept
    page.keyboard.press("Backspace")
    assert page.locator("#board").get_attribute("data-moves") == best["conformation"][:-1]
    assert page.locator("#stars").inner_text() == "☆☆☆"
    # a move onto an occupied cell is impossible: the fold does not change
    before = page.locator("#board").get_attribute("data-moves")
    back = {"R": "L", "L": "R", "U": "D", "D": "U"}[before[-1]]
    page.keyboard.press(ARROW[back])
    assert page.locator("#board").get_attribute("data-moves") == before


def test_make_a_level_from_a_typed_sequence(page):
    page.goto("/lattice")
    page.locator("#make-seq").fill("HPHHHHHHPHHPHHPH")
    page.locator("#make-analyse").click()
    page.wait_for_function("document.querySelector('#make-result').textContent.includes('Best 9')")
    page.locator("#make-play").click()
    assert "16 residues" in page.locator("#level-title").inner_text()
    assert page.locator("#thresholds").inner_text() == "★ 4 · ★★ 8 · ★★★ 9 contacts"
    assert "seq=HPHHHHHHPHHPHHPH" in page.url
    # drag the chain's end: a fast drag three cells right follows cell by cell; back one undoes
    cell = page.evaluate(
        """() => { const b = document.getElementById('board'), m = b.getScreenCTM();
        const at = (x) => { const p = b.createSVGPoint(); p.x = x; p.y = 0;
        const q = p.matrixTransform(m); return [q.x, q.y]; }; return [at(0), at(1)]; }"""
    )
    (x0, y0), (x1, _) = cell
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 3 * (x1 - x0), y0)
    assert page.locator("#board").get_attribute("data-moves") == "RRR"
    page.mouse.move(x0 + 2 * (x1 - x0), y0, steps=3)
    page.mouse.up()
    assert page.locator("#board").get_attribute("data-moves") == "RR"
    page.locator("#make-seq").fill("HPQ")
    page.locator("#make-analyse").click()
    page.wait_for_function(
        "document.querySelector('#make-seq + .field-error')?.textContent.includes('only H and P')"
    )
    assert page.locator("#make-result").inner_text() == ""  # no stale analysis beside the error
    # a generated level: the GA's best sequence of the chosen length, played from its share link
    page.locator("#make-length").select_option("10")
    page.locator("#make-generate").click()
    page.wait_for_function(
        "document.querySelector('#make-result').textContent.includes('Generated')"
    )
    page.locator("#make-play").click()
    assert page.locator("#level-title").inner_text().startswith("Generated level")
    sequence = page.locator("#make-seq").input_value()
    assert len(sequence) == 10 and f"seq={sequence}" in page.url


def test_lattice_1_generate_never_repeats_a_pack_level(page):
    """Issue 25, Lattice 1: Generate at 10 residues always returned level 1 (HHPHPPHPPH)."""
    pack = page.request.post("/api/lattice/levels", data={}).json()["levels"]
    known = {min(lv["sequence"], lv["sequence"][::-1]) for lv in pack}
    page.goto("/lattice")
    page.wait_for_function("document.querySelector('#level-title').textContent.startsWith('Level')")
    page.select_option("#make-length", "10")
    page.click("#make-generate")
    page.wait_for_function(
        "document.querySelector('#make-result').textContent.includes('Generated (GA seed')"
    )
    text = page.locator("#make-result").inner_text()
    seq = text.split("): ", 1)[1].split(".", 1)[0].strip()
    assert len(seq) == 10 and set(seq) <= {"H", "P"}, text
    assert min(seq, seq[::-1]) not in known, (seq, text)
