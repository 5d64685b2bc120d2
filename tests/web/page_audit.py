"""What a browser test reads off a whole page in one call: every text's contrast against what is
painted behind it, from computed styles (issue 47, item 13: every text at least 4.5:1, in every
state), and the words a player reads (item 12)."""

from __future__ import annotations

#: Each visible text's colour over the backgrounds behind it (composited from the page's root
#: down, alpha included), its opacity and its ancestors' applied to the text; the texts below
#: `least` (the WCAG ratio) as {text, where, ratio, fg, bg}. Texts inside SVG drawings are
#: left to each page's own test (their fill and the shape behind them are the drawing's).
CONTRAST_FAILURES_JS = r"""([selector, least]) => {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c || '');
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, below) => [0, 1, 2].map((i) => top[i] * top[3] + below[i] * (1 - top[3]));
  const lum = (rgb) => {
    const f = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]);
  };
  // the colours behind el: its ancestors' background colours composited from the root down;
  // a gradient behind it adds each of its stops (the text must read on every one)
  const behind = (el) => {
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.push(e);
    let bgs = [[255, 255, 255]];
    for (const e of chain.reverse()) {
      const st = getComputedStyle(e);
      const c = parse(st.backgroundColor);
      if (c && c[3] > 0) bgs = bgs.map((bg) => over(c, bg));
      const stops = (st.backgroundImage.match(/rgba?\([^)]+\)/g) || []).map(parse);
      if (stops.length) bgs = stops.flatMap((s) => bgs.map((bg) => over(s, bg)));
    }
    return bgs;
  };
  const where = (el) => {
    const parts = [];
    for (let e = el; e && parts.length < 3; e = e.parentElement) {
      parts.unshift(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
        (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\s+/).join('.') : ''));
      if (e.id) break;
    }
    return parts.join(' > ');
  };
  const out = [];
  const seen = new Set();
  const root = document.querySelector(selector);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || seen.has(el) || el.closest('svg, option, script, style')) continue;
    seen.add(el);
    const rect = el.getBoundingClientRect();
    const st = getComputedStyle(el);
    if (rect.width < 2 || rect.height < 2 || st.visibility !== 'visible') continue;
    let opacity = 1;
    for (let e = el; e; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
    if (opacity === 0) continue;
    const c = parse(st.color);
    let ratio = Infinity, bg = null;
    for (const under of behind(el)) {
      const fg = over([c[0], c[1], c[2], c[3] * opacity], under);
      const [a, b] = [lum(fg), lum(under)];
      const r = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (r < ratio) [ratio, bg] = [r, under];
    }
    if (ratio < least) {
      out.push({ text: n.textContent.trim().slice(0, 40), where: where(el), ratio: +ratio.toFixed(2),
                 fg: st.color, opacity: +opacity.toFixed(2), bg: bg.map(Math.round).join(',') });
    }
  }
  return out;
}"""


def contrast_failures(page, selector: str = "body", least: float = 4.5) -> list[dict]:
    """The texts under `selector` whose contrast is below `least` (WCAG AA: 4.5)."""
    return page.evaluate(CONTRAST_FAILURES_JS, [selector, least])


def described(failures: list[dict]) -> str:
    """Failures one a line, each (place, colours) once, for an assertion's message."""
    lines = {
        f"{f['where']}: {f['text']!r} {f['ratio']}:1 ({f['fg']} x{f['opacity']} on rgb({f['bg']}))"
        f" [{f.get('state', '')}]": None
        for f in failures
    }
    return "\n".join(lines)


def shown_text(page, selector: str = "main") -> str:
    """What a player reads under `selector` (closed "details" and hidden parts left out)."""
    return page.evaluate("(s) => document.querySelector(s).innerText", selector)
