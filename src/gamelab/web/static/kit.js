// gamelab page kit: shared by every game page (an ES module, no build step).
//
//   import { api, showError, clearErrors, showNote, h, pct } from "/static/kit.js";
//   const result = await api("/api/voltorb/solve", body, { errorAt: rowsInput, fields: { rows: rowsInput } });
//   if (result) { showNote(noteEl, result.note); ... }
//
// api() shows the busy indicator while the request runs, clears earlier errors, and on a 4xx/5xx
// shows the server's message next to the input that caused it (the `field` the server names,
// looked up in `fields`, else `errorAt`) and returns null. Nothing else on the page changes, so
// a bad input never wipes what the person already sees.

let busyCount = 0;

/** The solvers still warming up just after `gamelab serve` started (/api/health's `warming`;
 *  `what`: its `warming_now`, the same in words, e.g. "Yatzy (the win-play bot and the review)"
 *  once Yatzy's coach answers), shown in the header's #warming element until none is; pages
 *  can read it too. */
export const warming = { games: [], what: [], ready: true };

async function watchWarming() {
  const el = document.getElementById("warming");
  try {
    const health = await (await fetch("/api/health")).json();
    warming.games = health.warming || [];
    warming.what = health.warming_now || warming.games;
    warming.ready = health.ready !== false;
  } catch {
    return;
  }
  if (el) {
    el.hidden = warming.ready;
    el.textContent = warming.ready ? "" : `warming up: ${warming.what.join(", ") || "solvers"}; exact answers follow`;
  }
  if (!warming.ready) setTimeout(watchWarming, 2000);
}
if (typeof document !== "undefined") watchWarming();

/** Resolves once /api/health no longer lists `title` among the games warming up (polled every
 *  2 s; also when the server cannot be asked: the request itself then says what is wrong). */
async function untilWarm(title) {
  for (;;) {
    await new Promise((resolve) => { setTimeout(resolve, 2000); });
    try {
      const health = await (await fetch("/api/health")).json();
      if (!(health.warming || []).some((game) => title.split(", ").includes(game))) return;
    } catch {
      return;
    }
  }
}

/** Show the header's busy indicator while `promise` runs (nested calls are counted). */
export async function whileBusy(promise) {
  const el = document.getElementById("busy");
  busyCount += 1;
  if (el) el.hidden = false;
  document.body.classList.add("is-busy");
  try {
    return await promise;
  } finally {
    busyCount -= 1;
    if (busyCount === 0) {
      if (el) el.hidden = true;
      document.body.classList.remove("is-busy");
    }
  }
}

/** The error box belonging to `input` (created after it, or the element named by its
 *  data-error-box attribute). */
function errorBox(input) {
  if (!input) return document.getElementById("page-error");
  const named = input.dataset && input.dataset.errorBox;
  if (named) return document.getElementById(named);
  let box = input.nextElementSibling;
  if (!box || !box.classList.contains("field-error")) {
    box = document.createElement("div");
    box.className = "field-error";
    box.setAttribute("role", "alert");
    input.insertAdjacentElement("afterend", box);
  }
  return box;
}

/** Show `message` next to `input` (or in #page-error when input is null) and mark it invalid. */
export function showError(input, message) {
  const box = errorBox(input);
  if (input) input.setAttribute("aria-invalid", "true");
  if (box) {
    box.textContent = message;
    box.hidden = false;
  } else {
    alert(message);
  }
}

/** Full-width digits (a Japanese keyboard's ０-９) as ASCII, as the server reads every game's
 * digits (gamelab.core.typed); any other character is left for the caller to refuse. */
export function asciiDigits(text) {
  return text.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
}

/** Remove every error shown by showError inside `root` (default: the whole page). */
export function clearErrors(root = document) {
  for (const el of root.querySelectorAll("[aria-invalid=true]")) el.removeAttribute("aria-invalid");
  for (const box of root.querySelectorAll(".field-error, #page-error")) {
    box.textContent = "";
    box.hidden = true;
  }
}

export class ApiError extends Error {
  constructor(status, detail, field) {
    super(detail);
    this.status = status;
    this.field = field;
  }
}

/** POST `body` as JSON to `path` (GET when body is undefined) and return the parsed reply.
 *  Options: errorAt (input to show an error next to), fields ({field name: input}),
 *  root (where to clear old errors), quiet (throw ApiError instead of showing it).
 *  Returns null after showing an error. */
export async function api(path, body, options = {}) {
  const { errorAt = null, fields = {}, root = document, quiet = false } = options;
  const init = body === undefined
    ? { method: "GET" }
    : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  let response;
  let data = null;
  for (let waited = 0; ; waited += 1) {
    try {
      response = await whileBusy(fetch(path, init));
      data = await response.json().catch(() => null);
    } catch (err) {
      return fail(new ApiError(0, `cannot reach the server (${err.message})`, null));
    }
    // the game's solvers are still warming up (the server just started): say so, wait until
    // /api/health no longer lists the game, and ask again (at most about ten minutes)
    if (response.status !== 503 || !data || typeof data.warming !== "string" || waited >= 300) break;
    const waiting = `${data.warming} is still warming up (once, after the server starts): `
      + "the answer follows by itself when it is ready";
    const header = document.getElementById("warming");
    if (header) { header.textContent = waiting; header.hidden = false; }
    if (!quiet) {
      clearErrors(root);
      showError(errorAt, waiting);
    }
    await whileBusy(untilWarm(data.warming));
    if (header && header.textContent === waiting) { header.hidden = true; header.textContent = ""; }
    watchWarming();  // the header says again what is still warming (if anything)
  }
  if (response.ok) {
    if (!quiet) clearErrors(root);
    return data;
  }
  const detail = (data && typeof data.detail === "string") ? data.detail : `error ${response.status}`;
  return fail(new ApiError(response.status, detail, data && data.field));

  function fail(error) {
    if (quiet) throw error;
    clearErrors(root);
    showError((error.field && fields[error.field]) || errorAt, error.message);
    return null;
  }
}

/** Show the fallback label of a budgeted answer (e.g. "exact optimal search timed out after
 *  2 s; showing MinRisk") in `el`, or hide it when `note` is empty. With `plain` (the same in
 *  the game's words) that is shown, and the label stays behind a "details" disclosure. */
export function showNote(el, note, { plain = null } = {}) {
  if (!el) return;
  el.textContent = "";
  if (note && plain) {
    // the player's words first; the server's own label behind "details"
    el.append(plain, " ", h("details", { class: "note-details" }, h("summary", {}, "details"), note));
  } else {
    el.textContent = note || "";
  }
  el.hidden = !note;
  el.classList.toggle("budget-note", Boolean(note));
}

/** Tiny DOM builder: h("td", { class: "x", onclick: f }, "text", child). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A probability as a percentage with `digits` decimals ("—" for null). */
export function pct(p, digits = 1) {
  if (p === null || p === undefined) return "—";
  return `${(100 * p).toFixed(digits)}%`;
}

/** Background colour for a probability 0..1 on a green (0) to red (1) scale. */
export function heat(p) {
  const hue = 120 * (1 - Math.max(0, Math.min(1, p)));
  return `hsl(${hue.toFixed(0)} 70% ${(88 - 30 * p).toFixed(0)}%)`;
}

/** Move focus to the next input of `inputs` on Enter (keyboard-first forms). */
export function enterMovesOn(inputs, onLast) {
  inputs.forEach((input, i) => {
    input.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter") return;
      ev.preventDefault();
      if (i + 1 < inputs.length) inputs[i + 1].focus();
      else if (onLast) onLast();
    });
  });
}

/** A fresh seed for "new round" buttons (the server generates from it, so it replays). */
export function randomSeed() {
  return Math.floor(Math.random() * 2 ** 31);
}

// ---------------------------------------------------------------- kept in the browser

/** A value kept in the browser under `key` (localStorage, JSON). Nothing here ever throws:
 *  storage that is off, full or holds something unreadable loads as `fallback`, and a save that
 *  cannot be written returns false. `check(value)` (optional) says whether a loaded value is
 *  still usable (an older page's format is then dropped, not half-used).
 *
 *    const saved = store("gamelab.voltorb.practice", { check: (v) => Number.isInteger(v.level) });
 *    saved.save({ level: 2 }); saved.load(null); saved.clear();
 */
export function store(key, { check = null } = {}) {
  return {
    key,
    load(fallback = null) {
      let value;
      try {
        const text = localStorage.getItem(key);
        if (text === null) return fallback;
        value = JSON.parse(text);
      } catch {
        return fallback;
      }
      if (value === null || value === undefined) return fallback;
      if (check) {
        let ok = false;
        try { ok = Boolean(check(value)); } catch { ok = false; }
        if (!ok) return fallback;
      }
      return value;
    },
    save(value) {
      try {
        localStorage.setItem(key, JSON.stringify(value));
        return true;
      } catch {
        return false;
      }
    },
    clear() {
      try { localStorage.removeItem(key); } catch { /* storage off */ }
    },
  };
}

// ---------------------------------------------------------------- background jobs

/** Follow a background job (`POST path` with `body` starts it, or finds the same job again)
 *  until it is done, failed or cancelled, asking every `every` ms; `onTick(status)` after each
 *  answer (status: {job, state, elapsed, limit, progress?, result?, detail?}). Returns the final
 *  status, a `{state: "failed", detail}` when the server refused, or null as soon as
 *  `stillWanted()` says the page moved on (then nothing more is drawn). The one way a page
 *  asks the server again and again: for a status of another shape, `done(status)` says when
 *  it is final (e.g. `(s) => s.loaded`), and `retry(err)` which refusals to sit out and ask
 *  again (e.g. a busy server's 503) instead of giving up. */
export async function pollJob(path, body, {
  onTick = () => {}, stillWanted = () => true, every = 1000,
  done = (status) => status.state !== "running", retry = () => false,
} = {}) {
  for (;;) {
    let status = null;
    try {
      status = await api(path, body, { quiet: true });
    } catch (err) {
      if (!stillWanted()) return null;
      if (!retry(err)) return { state: "failed", detail: err.message };
    }
    if (!stillWanted()) return null;
    if (status !== null) {
      onTick(status);
      if (done(status)) return status;
    }
    await new Promise((resolve) => { setTimeout(resolve, every); });
    if (!stillWanted()) return null;
  }
}

/** Cancel a background job by its id (a job already gone is fine). */
export async function cancelJob(job) {
  if (job) await api(`/api/jobs/${job}/cancel`, {}, { quiet: true }).catch(() => null);
}

// ---------------------------------------------------------------- tabs and the Back button

/** The page's place (tab, level, ...) in the browser's history: every `push` is one step the
 *  Back button undoes, and `apply(place)` is called with the place to show again (also on a
 *  reload, from the place the history entry kept). A place is a small plain object, e.g.
 *  {tab: "practice"}; `push` merges its argument into the current place, and a push that
 *  changes nothing adds no step. The address is left alone unless `url` is given.
 *
 *    const nav = pageNav((place) => showTab(place.tab), { tab: "assist" });
 *    nav.push({ tab: "review" });
 */
export function pageNav(apply, initial = {}) {
  const current = () => ({ ...initial, ...((history.state && history.state.place) || {}) });
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const write = (method, place, url) => {
    history[method]({ ...(history.state || {}), place }, "", url === undefined ? location.href : url);
  };
  window.addEventListener("popstate", () => apply(current()));
  return {
    current,
    /** One step for the Back button (nothing when the place does not change). */
    push(change, url) {
      const place = { ...current(), ...change };
      if (same(place, current()) && url === undefined) return;
      write("pushState", place, url);
    },
    /** Change the place (or only the address) without a step for the Back button. */
    replace(change = {}, url) {
      write("replaceState", { ...current(), ...change }, url);
    },
  };
}

/** The page's tabs (`.tabs [role=tab]` with aria-controls naming their panel): a click or the
 *  arrow keys (Left/Right, Home/End, as the WAI-ARIA tabs pattern) select a tab, the Back button
 *  returns to the tab before, and a reload keeps the tab. `onSelect(name)` after every change.
 *  Returns `select(name, {push})`: push false changes the tab without a Back step. */
export function setupTabs({ onSelect = () => {}, initial = null } = {}) {
  const tabs = [...document.querySelectorAll('.tabs [role="tab"]')];
  const names = tabs.map((tab) => tab.getAttribute("aria-controls"));
  const first = initial || (tabs.find((tab) => tab.getAttribute("aria-selected") === "true") || tabs[0]).getAttribute("aria-controls");
  function show(name) {
    if (!names.includes(name)) name = first;
    for (const tab of tabs) {
      const selected = tab.getAttribute("aria-controls") === name;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(tab.getAttribute("aria-controls"));
      if (panel) panel.hidden = !selected;
    }
    onSelect(name);
  }
  const nav = pageNav((place) => show(place.tab), { tab: first });
  function select(name, { push = true } = {}) {
    if (push) nav.push({ tab: name });
    else nav.replace({ tab: name });
    show(name);
  }
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(names[i]));
    tab.addEventListener("keydown", (ev) => {
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      const j = (to + tabs.length) % tabs.length;
      tabs[j].focus();
      select(names[j]);
    });
  });
  show(nav.current().tab);
  select.nav = nav;
  select.current = () => nav.current().tab;
  return select;
}

// ---------------------------------------------------------------- a history of your games

/** The games played on a page, kept in the browser (newest first, at most `limit`), with the
 *  stats a player keeps: games played, wins and streaks, scores. One entry per game:
 *
 *    { id, when (ms), label ("level 3, seed 12345"), result ("won", "lost", ...),
 *      won (true/false/null: a game without a winner), score (number or null),
 *      skill, luck (the review's verdict, each one figure in words, or null until reviewed),
 *      marks (e.g. ["take-backs"]: shown beside the result) }
 *
 *  `replay` (optional, any JSON) is what the page needs to review the game again: a history panel
 *  given `onReview` offers a Review button for each game not reviewed yet.
 *  `record(entry)` adds a game or updates the one with the same id (a review's verdict comes
 *  after the game). `onChange(fn)` redraws whatever shows it. */
export function gameHistory(game, { limit = 200 } = {}) {
  const kept = store(`gamelab.${game}.history`, { check: Array.isArray });
  const listeners = [];
  const changed = () => listeners.forEach((fn) => fn());
  return {
    games() {
      return kept.load([]).filter((g) => g && typeof g.id === "string");
    },
    record(entry) {
      const games = this.games();
      const at = games.findIndex((g) => g.id === entry.id);
      if (at >= 0) games[at] = { ...games[at], ...entry };
      else games.unshift({ when: Date.now(), won: null, score: null, skill: null, luck: null, marks: [], ...entry });
      kept.save(games.slice(0, limit));
      changed();
    },
    find(id) {
      return this.games().find((g) => g.id === id) || null;
    },
    clear() {
      kept.clear();
      changed();
    },
    stats() {
      return historyStats(this.games());
    },
    onChange(fn) {
      listeners.push(fn);
    },
  };
}

/** Games played, wins, the current and best winning streak, and the mean and best score of a
 *  list of history entries (newest first). */
export function historyStats(games) {
  const decided = games.filter((g) => g.won === true || g.won === false);
  const wins = decided.filter((g) => g.won).length;
  let current = 0;
  while (current < decided.length && decided[current].won) current += 1;
  let best = 0;
  let run = 0;
  for (const g of decided) {
    run = g.won ? run + 1 : 0;
    best = Math.max(best, run);
  }
  const scores = games.map((g) => g.score).filter((s) => typeof s === "number");
  return {
    played: games.length,
    decided: decided.length,
    wins,
    currentStreak: current,
    bestStreak: best,
    scores: scores.length,
    meanScore: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
    bestScore: scores.length ? Math.max(...scores) : null,
    lowestScore: scores.length ? Math.min(...scores) : null,
  };
}

/** "1 game", "2 games": a count with its noun in the right number. */
export function plural(n, one, many = `${one}s`) {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

/** Name each body cell of `table` by its column's header (`data-label`), from column `from`
 *  on; a cell spanning columns names them all. A page's phone layout then shows each row as a
 *  block of wrapped lines, every figure named (`td[data-label]::before`), instead of a table
 *  wider than the screen that scrolls sideways unseen. */
export function labelCells(table, { from = 0 } = {}) {
  const labels = [...table.querySelectorAll("thead th")]
    .map((th) => [...th.childNodes].map((n) => n.textContent).join(" ").replace(/\s+/g, " ").trim());
  for (const row of table.tBodies[0].rows) {
    let column = 0;
    for (const td of row.cells) {
      const span = td.colSpan || 1;
      if (column >= from) td.dataset.label = labels.slice(column, column + span).filter(Boolean).join(" · ");
      column += span;
    }
  }
}

/** Draw a game history into `el` (a stats line, a table of the games, a Clear button) and
 *  keep it current. Options: `score` ({label, lowerIsBetter, digits}) when the page's games
 *  have a score; `wins` false for a page whose games have no winner; `luck` false for a game
 *  without chance (no luck column); `onReview(entry)` to review
 *  a game not reviewed yet (from its `replay`); `empty` (text). */
export function historyPanel(el, hist, { score = null, wins = true, luck = true, onReview = null,
  empty = "No games yet: the games you finish here are listed, with their review's verdict." } = {}) {
  const unreviewed = (g) => {
    if (!onReview || !g.replay) return h("span", { class: "muted" }, "not reviewed");
    const button = h("button", { type: "button", class: "secondary history-review" }, "Review");
    button.addEventListener("click", () => onReview(g));
    return button;
  };
  function draw() {
    const games = hist.games();
    const s = historyStats(games);
    el.textContent = "";
    el.classList.add("game-history");
    if (!games.length) {
      el.append(h("p", { class: "muted small history-empty" }, empty));
      return;
    }
    const facts = [plural(s.played, "game")];
    if (wins && s.decided) {
      facts.push(`${plural(s.wins, "win")} (${Math.round((100 * s.wins) / s.decided)} %)`,
        `current streak ${s.currentStreak}`, `best streak ${s.bestStreak}`);
    }
    if (score && s.scores) {
      const digits = score.digits ?? 0;
      const best = score.lowerIsBetter ? s.lowestScore : s.bestScore;
      facts.push(`average ${score.label} ${s.meanScore.toFixed(digits === 0 ? 1 : digits)}`, `best ${best.toFixed(digits)}`);
    }
    el.append(h("p", { class: "history-stats" }, facts.join(" · ")));
    const rows = games.map((g) => h("tr", { dataset: { id: g.id } },
      h("td", {}, new Date(g.when).toLocaleDateString(undefined, { month: "short", day: "numeric" })),
      h("td", {}, g.label || ""),
      h("td", { class: g.won === true ? "good" : (g.won === false ? "bad" : "") },
        g.result || "", (g.marks || []).length ? h("span", { class: "history-mark small" }, ` (${g.marks.join(", ")})`) : null),
      // a phone shows each game as a block, each figure named by its column (data-label)
      score ? h("td", { class: "history-score", dataset: { label: score.label } },
        typeof g.score === "number" ? g.score.toFixed(score.digits ?? 0) : "—") : null,
      h("td", { class: "history-skill", dataset: { label: "skill" } }, g.skill || unreviewed(g)),
      luck ? h("td", { class: "history-luck", dataset: { label: "luck" } }, g.luck || "—") : null));
    el.append(h("div", { class: "history-scroll" }, h("table", { class: "data history-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "date"), h("th", {}, "game"), h("th", {}, "result"),
        score ? h("th", {}, score.label) : null, h("th", {}, "skill"), luck ? h("th", {}, "luck") : null)),
      h("tbody", {}, rows))));
    const clear = h("button", { type: "button", class: "secondary history-clear" }, "Clear history");
    clear.addEventListener("click", () => {
      if (confirm(`Forget all ${plural(s.played, "game")} and their stats? This cannot be undone.`)) hist.clear();
    });
    el.append(h("div", { class: "controls-row" }, clear));
  }
  hist.onChange(draw);
  draw();
  return draw;
}
