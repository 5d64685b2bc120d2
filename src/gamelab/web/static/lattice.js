// The folding puzzle game: fold the HP chain on the square grid for H-H contacts.
// The page folds and draws; the server checks and scores a finished fold (the library's
// hh_contacts) and knows each level's exact thresholds. Progress (stars) and the game in play
// are kept in this browser (the page kit's store), so a reload continues the same fold.
import {
  api, clearErrors, gameHistory, h, historyPanel, pageNav, pct, plural, randomSeed, showError, store,
} from "/static/kit.js";

const STEP = { R: [1, 0], L: [-1, 0], U: [0, 1], D: [0, -1] };
const KEYS = { ArrowRight: "R", ArrowLeft: "L", ArrowUp: "U", ArrowDown: "D", d: "R", a: "L", w: "U", s: "D" };
const SVGNS = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);
const board = $("board");
let pack = [];
let expert = [];
let tutorial = null;
// the level in play: {sequence, thresholds, best, counts, best_share, source, number} (an expert
// level adds name, proven_by, upper_bound; it has no counts)
let level = null;
let sites = [[0, 0]]; // the placed residues' cells, in chain order
let past = []; // earlier folds, for Undo
let revealed = false; // the best fold was shown: no stars for this attempt
let made = null; // the level analysed in "make a level"
let drag = null; // {index, extend} while a residue is dragged
let view = null; // the board's visible cells {x0, y0, span}, kept while dragging

// ---- the fold, computed here only to draw it; the server scores a finished fold ----
const key = ([x, y]) => `${x},${y}`;
const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const adjacent = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1;
const diagonal = (a, b) => Math.abs(a[0] - b[0]) === 1 && Math.abs(a[1] - b[1]) === 1;
function movesOf(cells) {
  let out = "";
  for (let i = 1; i < cells.length; i++) {
    const dx = cells[i][0] - cells[i - 1][0], dy = cells[i][1] - cells[i - 1][1];
    out += dx === 1 ? "R" : dx === -1 ? "L" : dy === 1 ? "U" : "D";
  }
  return out;
}
function sitesOf(ms) {
  const out = [[0, 0]];
  for (const m of ms) {
    const [x, y] = out[out.length - 1];
    out.push([x + STEP[m][0], y + STEP[m][1]]);
  }
  return out;
}

function contactsOf(seq, cells) {
  const where = new Map(cells.map((s, i) => [key(s), i]));
  const found = [];
  cells.forEach(([x, y], j) => {
    for (const [dx, dy] of Object.values(STEP)) {
      const i = where.get(key([x + dx, y + dy]));
      if (i !== undefined && i < j - 1 && seq[i] === "H" && seq[j] === "H") found.push([i, j]);
    }
  });
  return found;
}

/** The fold after pulling residue i to the free cell c, or null if no pull move does that.
 *  A pull (Lesh, Mitzenmacher & Whitesides 2003; the library's replica-exchange move set):
 *  c is beside one chain neighbour of i (the anchor, which stays) and diagonal to i; the other
 *  neighbour goes to the fourth corner of their square (unless it is already beside c: a
 *  corner flip) and the rest of that side follows two places up the chain until it is
 *  connected again. An end residue may also go to any free cell beside its neighbour, or slide
 *  along its own path (every residue one place along). */
function pullTo(cells, i, c) {
  const n = cells.length;
  const taken = new Set(cells.map(key));
  if (taken.has(key(c))) return null;
  for (const dir of [-1, 1]) { // the residues on the side i + dir follow
    const anchor = i - dir;
    if (anchor < 0 || anchor >= n || !adjacent(c, cells[anchor])) continue;
    const out = cells.map((s) => s.slice());
    out[i] = c;
    const j = i + dir;
    if (j < 0 || j >= n || adjacent(cells[j], c)) return out;
    if (!diagonal(c, cells[i])) continue;
    const corner = [c[0] + cells[i][0] - cells[anchor][0], c[1] + cells[i][1] - cells[anchor][1]];
    if (taken.has(key(corner))) continue;
    out[j] = corner;
    for (let k = j + dir; k >= 0 && k < n && !adjacent(cells[k], out[k - dir]); k += dir) out[k] = cells[k - 2 * dir];
    return out;
  }
  if ((i === 0 || i === n - 1) && n > 1 && adjacent(c, cells[i])) {
    const dir = i === 0 ? 1 : -1;
    const out = cells.map((s) => s.slice());
    out[i] = c;
    for (let k = i + dir; k >= 0 && k < n && !adjacent(cells[k], out[k - dir]); k += dir) out[k] = cells[k - dir];
    return out;
  }
  return null;
}

function starsFor(score, thresholds) {
  return thresholds.filter((t) => score >= t).length;
}

/** A level as the server describes it (a kept one is used as it is: a typed or generated level
 *  comes back without a new analysis). */
const isLevel = (lv) => Boolean(lv) && typeof lv.sequence === "string" && /^[HP]+$/.test(lv.sequence)
  && typeof lv.source === "string" && Array.isArray(lv.thresholds) && lv.thresholds.every(Number.isFinite)
  && Number.isFinite(lv.best) && (lv.counts == null || (Array.isArray(lv.counts) && lv.counts.every(Number.isFinite)));
// kept in this browser: the stars per sequence, and the fold in play
const keptStars = store("gamelab.lattice.progress", {
  check: (v) => typeof v === "object" && !Array.isArray(v) && Object.values(v).every(Number.isInteger),
});
const keptGame = store("gamelab.lattice.game", {
  check: (v) => isLevel(v.level) && typeof v.moves === "string",
});

function progress() {
  return keptStars.load({});
}
function saveStars(seq, stars) {
  const p = progress();
  if ((p[seq] || 0) < stars) {
    p[seq] = stars;
    keptStars.save(p);
  }
}
function saveGame() {
  if (!level) return;
  keptGame.save({ level, moves: movesOf(sites), origin: sites[0], revealed });
}
function savedGame() {
  return keptGame.load(null);
}
/** A share as "12.5%" or, when small, "1 in 401,038". */
function rarity(share) {
  return share >= 0.01 ? pct(share, 1) : `1 in ${Math.round(1 / share).toLocaleString()}`;
}
/** The share of a level's folds that score below `score` (null without the exact counts). */
function beaten(score) {
  if (!level.counts) return null;
  const total = level.counts.reduce((a, b) => a + b, 0);
  return level.counts.slice(0, score).reduce((a, b) => a + b, 0) / total;
}
function beatenText(share) {
  if (share === null || share <= 0) return "";
  if (share >= 0.999) return "better than 99.9% of all folds";
  return `better than ${pct(share, share >= 0.99 ? 1 : 0)} of all folds`;
}
const starText = (n) => "★".repeat(n) + "☆".repeat(3 - n);

// ---- changes to the fold (each can be undone) ----
const complete = () => level && sites.length === level.sequence.length;
function change(next) {
  past.push(sites);
  if (past.length > 500) past.shift();
  sites = next;
  changed();
}
function tryMove(m) {
  if (!level || complete()) return false;
  const [x, y] = sites[sites.length - 1];
  const next = [x + STEP[m][0], y + STEP[m][1]];
  if (sites.some((s) => same(s, next))) return false; // cannot cross itself
  change([...sites, next]);
  return true;
}
function retract() {
  if (sites.length > 1) change(sites.slice(0, -1));
}
function pull(i, c) {
  const next = pullTo(sites, i, c);
  if (next) change(next);
  return Boolean(next);
}
function undo() {
  if (!past.length) return;
  sites = past.pop();
  changed();
}
function restart() {
  if (sites.length > 1) past.push(sites);
  sites = [[0, 0]];
  revealed = false;
  changed();
}

/** The end's free neighbouring cells (none: the chain is boxed in). */
function freeBesideEnd() {
  const taken = new Set(sites.map(key));
  const [x, y] = sites[sites.length - 1];
  return Object.entries(STEP).filter(([, [dx, dy]]) => !taken.has(key([x + dx, y + dy])));
}

function changed() {
  draw();
  saveGame();
  $("result").replaceChildren();
  $("next-level").hidden = true;
  if (complete()) submit();
  else if (level && sites.length > 1) checkDeadEnd();
  tutorialStep();
}

/** Ask whether the rest of the chain can still fit (the library's reachability and parity
 *  checks) and, when it cannot, say why at once. */
async function checkDeadEnd() {
  const sent = movesOf(sites);
  const res = await api("/api/lattice/score", { sequence: level.sequence, moves: sent }, { errorAt: board });
  if (!res || sent !== movesOf(sites) || !res.dead_end) return; // the fold changed meanwhile
  $("result").replaceChildren(
    h("strong", {}, "Dead end: "), `${res.dead_end}. `,
    h("button", { class: "secondary", id: "dead-end-undo", onclick: undo }, "Undo"),
    " the last move, or drag a residue to open a way.",
  );
}

// ---- your folds (history): one entry per level, its best fold ----
const folds = gameHistory("lattice");

function recordFold(score, stars) {
  const id = `${level.source}:${level.sequence}`;
  const before = folds.find(id);
  if (before && typeof before.score === "number" && before.score > score) return; // keep the best
  folds.record({
    id, when: Date.now(), label: `${titleOf(level)}, ${level.sequence.length} residues`,
    result: `${"★".repeat(stars) || "no star"}`, won: stars === 3, score,
    skill: `${plural(score, "contact")} of the best ${level.best}`,
  });
}

function nextOf(lv) {
  if (lv.source === "tutorial") return pack[0] || null;
  const list = lv.source === "expert" ? expert : pack;
  const i = list.findIndex((l) => l.sequence === lv.sequence);
  return i >= 0 && i + 1 < list.length ? list[i + 1] : null;
}

async function submit() {
  const sent = movesOf(sites);
  const res = await api("/api/lattice/score", { sequence: level.sequence, moves: sent, thresholds: level.thresholds },
    { errorAt: board });
  if (!res || sent !== movesOf(sites)) return;
  const stars = res.stars;
  $("stars").textContent = starText(revealed ? 0 : stars);
  if (revealed) {
    $("result").textContent = `The best fold: ${plural(res.score, "contact")} (shown, so no stars this time; Restart to fold it yourself).`;
    return;
  }
  saveStars(level.sequence, stars);
  recordFold(res.score, stars);
  renderLevels();
  const share = beaten(res.score);
  const better = beatenText(share);
  const t = level.thresholds;
  let msg;
  if (stars === 3) {
    msg = `Solved: ${plural(res.score, "contact")}, three stars${level.best_share && level.best_share < 0.01 ? ` — only ${rarity(level.best_share)} of all folds do that` : ""}.`;
  } else {
    const need = t[stars] - res.score;
    msg = `Folded: ${plural(res.score, "contact")}, ${stars} star${stars === 1 ? "" : "s"}${better ? ` (${better})` : ""}. `
      + `${need} more contact${need === 1 ? "" : "s"} for ${"★".repeat(stars + 1)}; ${t[2]} for three stars.`;
  }
  $("result").textContent = msg;
  $("next-level").hidden = !(stars >= 1 && nextOf(level));
}

// ---- drawing ----
function svg(tag, attrs) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function draw() {
  board.replaceChildren();
  if (!level) return;
  const seq = level.sequence;
  const score = contactsOf(seq, sites).length;
  const n = seq.length;
  // a view that fits the chain with room to grow, at least 7 cells across
  const xs = sites.map((s) => s[0]), ys = sites.map((s) => s[1]);
  const half = Math.max(3, Math.ceil(Math.min(n, 12) / 3));
  let x0 = Math.min(...xs) - 2, x1 = Math.max(...xs) + 2, y0 = Math.min(...ys) - 2, y1 = Math.max(...ys) + 2;
  // while dragging, the view stays put (a rescaled board would slide the dragged residue away
  // from the finger); it fits the chain again when the drag ends
  if (drag && view) {
    ({ x0, y0 } = view);
  } else {
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    const fit = Math.max(x1 - x0, y1 - y0, 2 * half);
    view = { x0: Math.floor(cx - fit / 2), y0: Math.floor(cy - fit / 2), span: fit };
    ({ x0, y0 } = view);
  }
  const span = view.span;
  x1 = x0 + span; y1 = y0 + span;
  board.setAttribute("viewBox", `${x0 - 0.5} ${-y1 - 0.5} ${span + 1} ${span + 1}`);
  for (let x = x0; x <= x1; x++) board.append(svg("line", { class: "grid", x1: x, y1: -y0, x2: x, y2: -y1 }));
  for (let y = y0; y <= y1; y++) board.append(svg("line", { class: "grid", x1: x0, y1: -y, x2: x1, y2: -y }));
  // free cells beside the end: click targets
  const done = complete();
  if (!done) {
    const [ex, ey] = sites[sites.length - 1];
    for (const [m, [dx, dy]] of freeBesideEnd()) {
      const c = [ex + dx, ey + dy];
      const r = svg("rect", { class: "target", x: c[0] - 0.4, y: -c[1] - 0.4, width: 0.8, height: 0.8, rx: 0.15, "data-move": m });
      r.addEventListener("click", () => tryMove(m));
      board.append(r);
    }
  }
  for (let i = 1; i < sites.length; i++) {
    board.append(svg("line", { class: "bond", x1: sites[i - 1][0], y1: -sites[i - 1][1], x2: sites[i][0], y2: -sites[i][1] }));
  }
  for (const [i, j] of contactsOf(seq, sites)) {
    board.append(svg("line", { class: "contact", x1: sites[i][0], y1: -sites[i][1], x2: sites[j][0], y2: -sites[j][1] }));
  }
  sites.forEach(([x, y], i) => {
    const end = i === sites.length - 1 && !done;
    const held = drag && drag.index === i;
    board.append(svg("circle", { class: `res-${seq[i].toLowerCase()}${end ? " end" : ""}${held ? " held" : ""}`, cx: x, cy: -y, r: 0.3, "data-index": i }));
    const t = svg("text", { class: `res-label ${seq[i].toLowerCase()}`, x, y: -y });
    t.textContent = seq[i];
    board.append(t);
  });
  // status
  $("score").textContent = score;
  $("placed").textContent = `${sites.length} of ${n} residues placed`;
  $("stars").textContent = starText(done && !revealed ? starsFor(score, level.thresholds) : 0);
  $("chain").replaceChildren(...[...seq].map((c, i) => h("span", { class: `hp ${c.toLowerCase()}${i < sites.length ? " placed" : ""}` }, c)));
  board.dataset.score = String(score);
  board.dataset.moves = movesOf(sites);
}

// pointer: click a target cell; drag the end through free cells (back onto the previous residue
// retracts); drag any other residue to pull the chain
function cellAt(ev) {
  const pt = board.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(board.getScreenCTM().inverse());
  return [Math.round(p.x), Math.round(-p.y)];
}
board.addEventListener("pointerdown", (ev) => {
  if (!level) return;
  const c = cellAt(ev);
  const index = sites.findIndex((s) => same(s, c));
  if (index < 0) return;
  const extend = index === sites.length - 1 && !complete();
  if (!extend && sites.length < 2) return;
  drag = { index, extend };
  board.setPointerCapture(ev.pointerId);
  ev.preventDefault();
  draw();
});
board.addEventListener("pointermove", (ev) => {
  if (!drag) return;
  const c = cellAt(ev);
  if (!drag.extend) {
    const at = sites[drag.index];
    // a pull reaches a cell diagonal to the residue (or beside it, for an end): step towards
    // the pointer one cell at a time
    if (same(at, c)) return;
    const step = [Math.sign(c[0] - at[0]), Math.sign(c[1] - at[1])];
    const tries = [[at[0] + step[0], at[1] + step[1]], [at[0] + step[0], at[1]], [at[0], at[1] + step[1]]];
    for (const t of tries) if (!same(t, at) && pull(drag.index, t)) return;
    return;
  }
  // follow the pointer cell by cell (a fast drag skips cells): back onto the previous residue
  // retracts, otherwise step towards the pointer along the longer axis first
  for (let guard = 0; guard < level.sequence.length; guard++) {
    const end = sites[sites.length - 1];
    const prev = sites.length > 1 ? sites[sites.length - 2] : null;
    if (prev && same(c, prev)) { retract(); return; }
    const dx = c[0] - end[0], dy = c[1] - end[1];
    if (!dx && !dy) return;
    const along = [dx > 0 ? "R" : dx < 0 ? "L" : null, dy > 0 ? "U" : dy < 0 ? "D" : null];
    if (Math.abs(dy) > Math.abs(dx)) along.reverse();
    if (!along.some((m) => m && tryMove(m))) return;
  }
});
const stopDrag = () => { if (drag) { drag = null; draw(); } };
board.addEventListener("pointerup", stopDrag);
board.addEventListener("pointercancel", stopDrag);

document.addEventListener("keydown", (ev) => {
  const tag = (ev.target && ev.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const m = KEYS[ev.key];
  if (m) { ev.preventDefault(); tryMove(m); return; }
  if (ev.key === "Backspace" || (ev.key === "z" && (ev.ctrlKey || ev.metaKey))) { ev.preventDefault(); undo(); }
});

// ---- the tutorial: a line that follows the player's progress ----
function tutorialStep() {
  const box = $("tutorial");
  box.hidden = !(level && level.source === "tutorial");
  if (box.hidden) return;
  const score = contactsOf(level.sequence, sites).length;
  const left = level.sequence.length - sites.length;
  $("tutorial-step").textContent = complete()
    ? (score === level.best ? "All three contacts: that is the best fold. Next level when you are ready."
      : `Finished with ${score} contact${score === 1 ? "" : "s"}; ${level.best} are possible. Undo or drag a residue to improve it.`)
    : score ? `${score} contact${score === 1 ? "" : "s"} so far (the dotted line). ${left} residue${left === 1 ? "" : "s"} still to place.`
      : `${left} residues still to place. Try to bring two H next to each other.`;
}

// ---- levels ----
function titleOf(lv) {
  if (lv.source === "tutorial") return "Tutorial";
  if (lv.source === "expert") return `Expert level ${lv.name}`;
  const daily = lv.source.startsWith("daily ") ? lv.source.slice(6) : null;
  return daily ? `Today's level (${daily}, level ${lv.number})`
    : lv.number ? `Level ${lv.number}`
    : lv.source === "typed" ? "Your level" : "Generated level";
}
function addressOf(lv) {
  if (lv.source === "tutorial") return "?tutorial=1";
  if (lv.source === "expert") return `?expert=${lv.name}`;
  if (lv.source.startsWith("daily ")) return `?daily=${lv.source.slice(6)}`;
  return lv.number ? `?level=${lv.number}` : `?seq=${lv.sequence}`;
}

// the level is the page's place: playing another one is a step the Back button takes back
const nav = pageNav(() => { openAddress().catch((err) => showError(null, String(err))); });

function play(lv, restore = null, { push = true } = {}) {
  const moved = level !== null && level !== undefined && addressOf(level) !== addressOf(lv);
  level = lv;
  sites = restore ? restore.sites : [[0, 0]];
  past = [];
  revealed = restore ? restore.revealed : false;
  clearErrors($("play-card"));
  const t = lv.thresholds;
  $("level-title").textContent = `${titleOf(lv)} · ${lv.sequence.length} residues`;
  const known = lv.source !== "expert" ? ""
    : lv.proven_by ? ` (best known, proven the most possible)` : ` (best known; a fold may have up to ${lv.upper_bound})`;
  $("thresholds").textContent = `★ ${t[0]} · ★★ ${t[1]} · ★★★ ${t[2]} contacts${known}`;
  // the address is a share link: a pack level by number, the daily level by date, an expert
  // level by name, any other by its sequence
  const url = new URL(location.href);
  url.search = addressOf(lv);
  if (push && moved) nav.push({ level: addressOf(lv) }, url.href);
  else nav.replace({ level: addressOf(lv) }, url.href);
  changed();
  renderLevels();
  // bring the level into view when it was chosen further down the page (Play it, a tile)
  const top = $("play-card").getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight / 2) $("play-card").scrollIntoView({ block: "start" });
  board.focus({ preventScroll: true });
}

function tile(lv, label, detail, got) {
  const current = level && level.sequence === lv.sequence && level.source === lv.source;
  return h("li", { class: current ? "current" : null },
    h("button", { onclick: () => play(lv), "data-level": lv.source === "expert" ? lv.name : lv.number, "aria-current": current ? "true" : null },
      h("span", { class: "lat-num" }, label), h("span", { class: "lat-detail" }, detail),
      h("span", { class: got ? "got" : "got none", "aria-label": `${got || 0} stars` }, starText(got || 0))));
}

function renderLevels() {
  const got = progress();
  $("levels").replaceChildren(...pack.map((lv) => tile(lv, String(lv.number), `${lv.sequence.length} residues · best ${lv.best}`, got[lv.sequence])));
  $("expert").replaceChildren(...expert.map((lv) => tile(lv, lv.name,
    `${lv.sequence.length} residues · best ${lv.best}${lv.proven_by ? ", proven" : ` (at most ${lv.upper_bound})`}`, got[lv.sequence])));
}

// ---- make a level ----
/** Ask for a level (typed: /level, generated: /generate) and show its exact analysis. */
async function analyse(path, body, errorAt) {
  const input = $("make-seq");
  made = null;
  $("make-play").disabled = true;
  $("make-result").replaceChildren();
  const res = await api(path, body, { errorAt, fields: { sequence: input, length: $("make-length") } });
  if (!res) return;
  made = res;
  input.value = res.sequence;
  // bar widths on a log scale, so that the rare top scores (often 1 or 2 folds) stay visible
  const top = Math.log10(Math.max(...res.counts) + 1);
  const rows = [];
  for (let s = res.counts.length - 1; s >= 0; s--) {
    const stars = starsFor(s, res.thresholds);
    const width = res.counts[s] ? Math.max(1, 100 * Math.log10(res.counts[s] + 1) / top) : 0;
    rows.push(h("span", {}, `${s}`), h("span", { class: "got" }, stars ? "★".repeat(stars) : ""),
      h("span", { class: `bar s${stars}`, style: `width:${width.toFixed(1)}%` }),
      h("span", { class: "muted" }, res.counts[s].toLocaleString()));
  }
  const from = res.source === "typed" ? "" : `${res.source.replace(/^generated/, "Generated")}: ${res.sequence}. `;
  $("make-result").replaceChildren(
    h("p", { class: "small" }, from, `Best ${plural(res.best, "contact")}; stars at ${res.thresholds.join(" / ")}. `,
      `${res.counts[res.best].toLocaleString()} of ${res.total.toLocaleString()} folds (${rarity(res.best_share)}) reach the best.`),
    h("div", { class: "lat-hist", "aria-label": "folds per score" }, h("strong", {}, "score"), h("span"), h("span", { class: "muted" }, "log scale"), h("strong", {}, "folds"), ...rows));
  $("make-play").disabled = false;
}
const analyseTyped = () => analyse("/api/lattice/level", { sequence: $("make-seq").value }, $("make-seq"));
/** Generate's seeds: consecutive from a random start kept in this browser, so each click gives
 *  a level not generated before (the library deals distinct levels to consecutive seeds). */
const generateSeed = store("gamelab.lattice.generate-seed", { check: (v) => Number.isSafeInteger(v) && v > 0 });
function nextGenerateSeed() {
  const next = generateSeed.load(null) ?? randomSeed();
  generateSeed.save(next + 1); // storage off: random next time
  return next;
}
const generate = () => analyse("/api/lattice/generate", { length: Number($("make-length").value), seed: nextGenerateSeed() }, $("make-length"));

$("make-analyse").addEventListener("click", analyseTyped);
$("make-seq").addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); analyseTyped(); } });
$("make-generate").addEventListener("click", generate);
// the length to generate is a setting kept across a reload
const lengthKept = store("gamelab.lattice.settings", { check: (v) => typeof v === "object" });
{
  const kept = String(lengthKept.load({}).length || "");
  if ([...$("make-length").options].some((o) => o.value === kept)) $("make-length").value = kept;
}
$("make-length").addEventListener("change", () => lengthKept.save({ length: Number($("make-length").value) }));
$("make-play").addEventListener("click", () => { if (made) play(made); });
$("undo").addEventListener("click", undo);
$("restart").addEventListener("click", restart);
$("next-level").addEventListener("click", () => { const next = nextOf(level); if (next) play(next); });
$("play-tutorial").addEventListener("click", () => { if (tutorial) play(tutorial); });
$("show-best").addEventListener("click", async () => {
  if (!level) return;
  const solved = (progress()[level.sequence] || 0) === 3;
  if (!solved && !confirm("Show a best fold? This gives the solution away.")) return;
  const res = await api("/api/lattice/best", { sequence: level.sequence }, { errorAt: board });
  if (!res) return;
  revealed = !solved;
  change(sitesOf(res.conformation));
});
function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}
async function playDaily(date, restore, push = true) {
  const res = await api("/api/lattice/daily", { date }, { errorAt: $("daily") });
  if (res) play(res, restore && restore.level.sequence === res.sequence ? restore : null, { push });
  return res;
}
$("daily").addEventListener("click", () => playDaily(today()));

window.latticeGame = { get moves() { return movesOf(sites); }, get level() { return level; }, tryMove, undo, pullTo };

/** The saved game as play()'s restore argument, if it is a valid fold of `seq`. */
function restoreOf(saved, seq) {
  if (!saved || saved.level.sequence !== seq || saved.moves.length >= seq.length || !/^[RLUD]*$/.test(saved.moves)) return null;
  const o = Array.isArray(saved.origin) && saved.origin.length === 2 ? saved.origin.map(Number) : [0, 0];
  const cells = sitesOf(saved.moves).map(([x, y]) => [x + o[0], y + o[1]]);
  if (new Set(cells.map(key)).size !== cells.length) return null;
  return { sites: cells, revealed: Boolean(saved.revealed), level: saved.level };
}

async function start() {
  const [res, tut, exp] = await Promise.all([
    api("/api/lattice/levels", {}), api("/api/lattice/tutorial", {}), api("/api/lattice/expert", {})]);
  if (!res) return;
  pack = res.levels;
  tutorial = tut;
  expert = exp ? exp.levels.map((lv) => ({ ...lv, best: lv.best_known, counts: null, best_share: null, source: "expert" })) : [];
  $("pack-name").textContent = `${res.name}: ${pack.length} levels, easiest first. Your stars and the fold in play stay in this browser.`;
  historyPanel($("folds-panel"), folds, { score: { label: "contacts" }, wins: false, luck: false,
    empty: "No folds yet: each level you finish is listed here with its stars and contacts." });
  await openAddress();
}

/** Play the level the address names (on load, and when Back or Forward changes it). */
async function openAddress() {
  const saved = savedGame();
  const q = new URLSearchParams(location.search);
  const resume = (lv) => play(lv, saved && restoreOf(saved, lv.sequence), { push: false });
  if (q.get("seq")) {
    const seq = q.get("seq").toUpperCase();
    if (saved && saved.level.sequence === seq && saved.level.counts) { resume(saved.level); return; }
    $("make-seq").value = q.get("seq");
    await analyseTyped(); // a bad link keeps its message beside the sequence
    if (made) resume(made); else play(pack[0], null, { push: false });
    return;
  }
  if (q.get("daily") && await playDaily(q.get("daily"), saved && restoreOf(saved, saved.level.sequence), false)) return;
  if (q.get("tutorial") && tutorial) { resume(tutorial); return; }
  const name = q.get("expert");
  const ex = name && expert.find((lv) => lv.name === name.toUpperCase());
  if (ex) { resume(ex); return; }
  const n = Number(q.get("level"));
  if (n >= 1 && n <= pack.length) { resume(pack[n - 1]); return; }
  if (saved) { // no address: the game in play before the reload
    const lv = saved.level.source === "expert" ? expert.find((l) => l.sequence === saved.level.sequence)
      : saved.level.source === "tutorial" ? tutorial
      : pack.find((l) => l.sequence === saved.level.sequence && l.number === saved.level.number) || (saved.level.counts ? saved.level : null);
    if (lv) { resume(lv); return; }
  }
  const got = progress();
  const first = pack.find((l) => !got[l.sequence]) || pack[0];
  // a new player starts with the tutorial
  play(tutorial && !Object.keys(got).length ? tutorial : first, null, { push: false });
}
start().catch((err) => showError(null, String(err)));
