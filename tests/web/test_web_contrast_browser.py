"""Text on coloured shapes reaches WCAG AA (4.5:1) on every page (issue 47, item 13)."""

#: each residue's fill and its label's fill on the lattice board, and the H/P chips' colours
LATTICE_COLOURS_JS = """() => {
  const out = [];
  for (const cls of ['res-h', 'res-p']) {
    const shape = document.querySelector(`.lat-board .${cls}`);
    const label = document.querySelector('.lat-board .res-label');
    out.push([getComputedStyle(label).fill, getComputedStyle(shape).fill]);
  }
  for (const chip of document.querySelectorAll('.hp')) {
    const st = getComputedStyle(chip);
    out.push([st.color, st.backgroundColor]);
  }
  return out;
}"""


def _contrast(fg: str, bg: str) -> float:
    def luminance(css: str) -> float:
        parts = css[css.index("(") + 1 : css.index(")")].split(",")[:3]
        r, g, b = (int(float(x)) / 255 for x in parts)
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_issue_47_item_13_the_h_and_p_labels_of_the_folding_game_are_readable(page):
    page.goto("/lattice")
    page.locator(".lat-board .res-h").first.wait_for()
    pairs = page.evaluate(LATTICE_COLOURS_JS)
    assert len(pairs) >= 2
    for fg, bg in pairs:
        assert _contrast(fg, bg) >= 4.5, (fg, bg)
