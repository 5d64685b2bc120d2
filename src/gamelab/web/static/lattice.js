// The folding puzzle game: fold the HP chain on the square grid for H-H contacts.
// The page folds and draws; the server checks and scores a finished fold (the library's
// hh_contacts) and knows each level's exact thresholds. Progress lives in localStorage.
import { api, clearErrors, h, pct, randomSeed, showError } from "/static/kit.js";

const STEP = { R: [1, 0], L: [-1, 0], U: [0, 1], D: [0, -1] };
const KEYS = { ArrowRight: "R", ArrowLeft: "L", ArrowUp: "U", ArrowDown: "D", d: "R", a: "L", w: "U", s: "D" };
const STORE = "gamelab.lattice.progress";
const SVGNS = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);
const board = $("board");
let pack = [];
let level = null; // {sequence, thresholds, best, counts, best_share, source, number}
let moves = "";
let revealed = false; // the best fold was shown: no stars for this attempt
let made = null; // the level analysed in "make a level"
let dragging = false; // the chain's end is being dragged
let view = null; // the board's visible cells {x0, y0, span}, kept while dragging

// ---- the fold, computed here only to draw it; the server scores a finished fold ----
function sitesOf(ms) {
  const out = [[0, 0]];
  for (const m of ms) {
    const [x, y] = out[out.length - 1];
    out.push([x + STEP[m][0], y + STEP[m][1]]);
  }
  return out;
}
const key = ([x, y]) => `${x},${y}`;

function contactsOf(seq, sites) {
  const where = new Map(sites.map((s, i) => [key(s), i]));
  const found = [];
  sites.forEach(([x, y], j) => {
    for (const [dx, dy] of Object.values(STEP)) {
      const i = where.get(key([x + dx, y + dy]));
      if (i !== undefined && i < j - 1 && seq[i] === "H" && seq[j] === "H") found.push([i, j]);
    }
  });
  return found;
}

function starsFor(score, thresholds) {
  return thresholds.filter((t) => score >= t).length;
}

function progress() {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}"); } catch { return {}; }
}
function saveStars(seq, stars) {
  const p = progress();
  if ((p[seq] || 0) < stars) { p[seq] = stars; localStorage.setItem(STORE, JSON.stringify(p)); }
}
/** A share as "12.5%" or, when small, "1 in 401,038". */
function rarity(share) {
  return share >= 0.01 ? pct(share, 1) : `1 in ${Math.round(1 / share).toLocaleString()}`;
}
const starText = (n) => "★".repeat(n) + "☆".repeat(3 - n);

// ---- moves ----
function tryMove(m) {
  if (!level || moves.length >= level.sequence.length - 1) return false;
  const sites = sitesOf(moves);
  const [x, y] = sites[sites.length - 1];
  const next = [x + STEP[m][0], y + STEP[m][1]];
  if (sites.some((s) => s[0] === next[0] && s[1] === next[1])) return false; // cannot cross itself
  moves += m;
  changed();
  return true;
}
function undo() {
  if (!moves) return;
  moves = moves.slice(0, -1);
  changed();
}
function restart() {
  moves = "";
  revealed = false;
  changed();
}

function changed() {
  draw();
  const complete = level && moves.length === level.sequence.length - 1;
  $("result").textContent = "";
  $("next-level").hidden = true;
  if (complete) submit();
}

async function submit() {
  const sent = moves;
  const res = await api("/api/lattice/score", { sequence: level.sequence, moves: sent, thresholds: level.thresholds },
    { errorAt: board });
  if (!res || sent !== moves) return;
  const stars = res.stars;
  $("stars").textContent = starText(revealed ? 0 : stars);
  if (revealed) {
    $("result").textContent = `The best fold: ${res.score} contacts (shown, so no stars this time; Restart to fold it yourself).`;
    return;
  }
  saveStars(level.sequence, stars);
  renderLevels();
  const msg = stars === 3
    ? `Solved: ${res.score} contacts, three stars${level.best_share < 0.01 ? ` — only ${rarity(level.best_share)} of all folds do that` : ""}.`
    : `Folded: ${res.score} contacts, ${stars} star${stars === 1 ? "" : "s"}. ${level.thresholds[2]} contacts give three stars.`;
  $("result").textContent = msg;
  const i = pack.findIndex((l) => l.sequence === level.sequence);
  $("next-level").hidden = !(stars >= 1 && i >= 0 && i + 1 < pack.length);
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
  const sites = sitesOf(moves);
  const score = contactsOf(seq, sites).length;
  const n = seq.length;
  // a view that fits the chain with room to grow, at least 7 cells across
  const xs = sites.map((s) => s[0]), ys = sites.map((s) => s[1]);
  const half = Math.max(3, Math.ceil(Math.min(n, 12) / 3));
  let x0 = Math.min(...xs) - 2, x1 = Math.max(...xs) + 2, y0 = Math.min(...ys) - 2, y1 = Math.max(...ys) + 2;
  // while dragging, the view stays put (a rescaled board would slide the chain's end away
  // from the finger); it fits the chain again when the drag ends
  if (dragging && view) {
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
  const complete = moves.length === n - 1;
  if (!complete) {
    const [ex, ey] = sites[sites.length - 1];
    for (const [m, [dx, dy]] of Object.entries(STEP)) {
      const c = [ex + dx, ey + dy];
      if (sites.some((s) => s[0] === c[0] && s[1] === c[1])) continue;
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
    const end = i === sites.length - 1 && !complete;
    board.append(svg("circle", { class: `res-${seq[i].toLowerCase()}${end ? " end" : ""}`, cx: x, cy: -y, r: 0.3, "data-index": i }));
    const t = svg("text", { class: "res-label", x, y: -y });
    t.textContent = seq[i];
    board.append(t);
  });
  // status
  $("score").textContent = score;
  $("placed").textContent = `${sites.length} of ${n} residues placed`;
  $("stars").textContent = starText(complete && !revealed ? starsFor(score, level.thresholds) : 0);
  $("chain").replaceChildren(...[...seq].map((c, i) => h("span", { class: `hp ${c.toLowerCase()}${i < sites.length ? " placed" : ""}` }, c)));
  board.dataset.score = String(score);
  board.dataset.moves = moves;
}

// pointer: click a target cell, or drag from the end through free cells (dragging back undoes)
function cellAt(ev) {
  const pt = board.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(board.getScreenCTM().inverse());
  return [Math.round(p.x), Math.round(-p.y)];
}
board.addEventListener("pointerdown", (ev) => {
  if (!level) return;
  const sites = sitesOf(moves);
  const c = cellAt(ev);
  const end = sites[sites.length - 1];
  if (c[0] === end[0] && c[1] === end[1]) { dragging = true; board.setPointerCapture(ev.pointerId); ev.preventDefault(); }
});
board.addEventListener("pointermove", (ev) => {
  if (!dragging) return;
  const c = cellAt(ev);
  // follow the pointer cell by cell (a fast drag skips cells): back onto the previous residue
  // undoes, otherwise step towards the pointer along the longer axis first
  for (let guard = 0; guard < level.sequence.length; guard++) {
    const sites = sitesOf(moves);
    const end = sites[sites.length - 1];
    const prev = sites.length > 1 ? sites[sites.length - 2] : null;
    if (prev && c[0] === prev[0] && c[1] === prev[1]) { undo(); return; }
    const dx = c[0] - end[0], dy = c[1] - end[1];
    if (!dx && !dy) return;
    const along = [dx > 0 ? "R" : dx < 0 ? "L" : null, dy > 0 ? "U" : dy < 0 ? "D" : null];
    if (Math.abs(dy) > Math.abs(dx)) along.reverse();
    if (!along.some((m) => m && tryMove(m))) return;
  }
});
const stopDrag = () => { if (dragging) { dragging = false; draw(); } };
board.addEventListener("pointerup", stopDrag);
board.addEventListener("pointercancel", stopDrag);

document.addEventListener("keydown", (ev) => {
  const tag = (ev.target && ev.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const m = KEYS[ev.key];
  if (m) { ev.preventDefault(); tryMove(m); return; }
  if (ev.key === "Backspace" || (ev.key === "z" && (ev.ctrlKey || ev.metaKey))) { ev.preventDefault(); undo(); }
});

// ---- levels ----
function play(lv) {
  level = lv;
  moves = "";
  revealed = false;
  clearErrors($("play-card"));
  const t = lv.thresholds;
  const daily = lv.source.startsWith("daily ") ? lv.source.slice(6) : null;
  const name = daily ? `Today's level (${daily}, level ${lv.number})`
    : lv.number ? `Level ${lv.number}`
    : lv.source === "typed" ? "Your level" : "Generated level";
  $("level-title").textContent = `${name} · ${lv.sequence.length} residues`;
  $("thresholds").textContent = `★ ${t[0]} · ★★ ${t[1]} · ★★★ ${t[2]} contacts`;
  // the address is a share link: a pack level by number, the daily level by date, any other by its sequence
  const url = new URL(location.href);
  url.search = daily ? `?daily=${daily}` : lv.number ? `?level=${lv.number}` : `?seq=${lv.sequence}`;
  history.replaceState(null, "", url);
  changed();
  renderLevels();
  board.focus();
}

function renderLevels() {
  const got = progress();
  $("levels").replaceChildren(...pack.map((lv) => h("li", { class: level && level.sequence === lv.sequence ? "current" : null },
    h("button", { onclick: () => play(lv), "data-level": lv.number }, `${lv.number}. ${lv.sequence.length} residues · best ${lv.best}`),
    got[lv.sequence] ? h("span", { class: "got" }, starText(got[lv.sequence])) : null)));
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
    h("p", { class: "small" }, from, `Best ${res.best} contacts; stars at ${res.thresholds.join(" / ")}. `,
      `${res.counts[res.best].toLocaleString()} of ${res.total.toLocaleString()} folds (${rarity(res.best_share)}) reach the best.`),
    h("div", { class: "lat-hist", "aria-label": "folds per score" }, h("strong", {}, "score"), h("span"), h("span", { class: "muted" }, "log scale"), h("strong", {}, "folds"), ...rows));
  $("make-play").disabled = false;
}
const analyseTyped = () => analyse("/api/lattice/level", { sequence: $("make-seq").value }, $("make-seq"));
const generate = () => analyse("/api/lattice/generate", { length: Number($("make-length").value), seed: randomSeed() }, $("make-length"));

$("make-analyse").addEventListener("click", analyseTyped);
$("make-seq").addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); analyseTyped(); } });
$("make-generate").addEventListener("click", generate);
$("make-play").addEventListener("click", () => { if (made) play(made); });
$("undo").addEventListener("click", undo);
$("restart").addEventListener("click", restart);
$("next-level").addEventListener("click", () => {
  const i = pack.findIndex((l) => l.sequence === level.sequence);
  if (i + 1 < pack.length) play(pack[i + 1]);
});
$("show-best").addEventListener("click", async () => {
  if (!level) return;
  const solved = (progress()[level.sequence] || 0) === 3;
  if (!solved && !confirm("Show a best fold? This gives the solution away.")) return;
  const res = await api("/api/lattice/best", { sequence: level.sequence }, { errorAt: board });
  if (!res) return;
  revealed = !solved;
  moves = res.conformation;
  changed();
});
function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}
async function playDaily(date) {
  const res = await api("/api/lattice/daily", { date }, { errorAt: $("daily") });
  if (res) play(res);
  return res;
}
$("daily").addEventListener("click", () => playDaily(today()));

window.latticeGame = { get moves() { return moves; }, get level() { return level; }, tryMove, undo };

async function start() {
  const res = await api("/api/lattice/levels", {});
  if (!res) return;
  pack = res.levels;
  $("pack-name").textContent = `${res.name}: ${pack.length} levels, easiest first. Your stars stay in this browser.`;
  const q = new URLSearchParams(location.search);
  if (q.get("seq")) {
    $("make-seq").value = q.get("seq");
    await analyseTyped(); // a bad link keeps its message beside the sequence
    play(made || pack[0]);
    return;
  }
  if (q.get("daily") && await playDaily(q.get("daily"))) return;
  const n = Number(q.get("level"));
  const got = progress();
  const first = pack.find((l) => !got[l.sequence]) || pack[0];
  play(n >= 1 && n <= pack.length ? pack[n - 1] : first);
}
start().catch((err) => showError(null, String(err)));
