// Voltorb Flip page: the assistant (clues typed, flips recorded), practice rounds, review.
// Every number shown comes from /api/voltorb/...; this file only draws and collects input.
import {
  api, asciiDigits, cancelJob, clearErrors, gameHistory, h, heat, historyPanel, labelCells, pct, pollJob, randomSeed, setupTabs, showError,
  showNote, store,
} from "/static/kit.js";

const SIZE = 5;
const VALUE_LABEL = { 0: "V", 1: "1", 2: "2", 3: "3" };
/** The policies in the game's words (their technical names are in the page's glossary). */
const POLICY_WORDS = { optimal: "best chance to clear", minrisk: "safest flip", fom: "rule of thumb" };
/** A quick answer's label in the game's words (the server's own label stays behind "details"). */
const QUICK_WORDS = "Quick answer for now: the safest flip (least likely to be a Voltorb), without a win chance. " +
  "The exact answer takes longer to work out and replaces it by itself.";

/** What a tile may still hold, in words: "V123" -> "a Voltorb, 1, 2 or 3". */
function mayHold(label) {
  const words = [...label.replace("0", "V")].map((ch) => (ch === "V" ? "a Voltorb" : ch));
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words[0];
}

// ---------------------------------------------------------------- board drawing (shared)

/** Build a 5x5 board with clue cells in `container`. With `editable` the clue cells are text
 *  inputs (rows first, then columns, so Tab follows the order of the game's clue boxes). */
function buildBoard(container, { editable }) {
  container.textContent = "";
  const rowClues = [];
  const colClues = [];
  for (const [list, kind] of [[rowClues, "row"], [colClues, "col"]]) {
    for (let i = 0; i < SIZE; i++) {
      const label = `${kind === "row" ? "row" : "column"} ${i + 1} clue (sum,Voltorbs)`;
      const cell = editable
        ? h("input", { type: "text", class: "vf-clue", "aria-label": label, placeholder: "sum,V",
                       autocomplete: "off", spellcheck: "false", inputmode: "text",
                       dataset: { kind, index: String(i) } })
        : h("div", { class: "vf-clue vf-clue-shown", "aria-label": label, dataset: { kind, index: String(i) } });
      cell.style.gridRow = kind === "row" ? String(i + 1) : String(SIZE + 1);
      cell.style.gridColumn = kind === "row" ? String(SIZE + 1) : String(i + 1);
      container.append(cell);
      list.push(cell);
    }
  }
  const tiles = [];
  for (let t = 0; t < SIZE * SIZE; t++) {
    const r = Math.floor(t / SIZE);
    const c = t % SIZE;
    // one Tab stop for the whole grid (the tile last focused); arrow keys move within it
    const tile = h("button", { type: "button", class: "vf-tile", "aria-label": `row ${r + 1}, column ${c + 1}`,
                               tabindex: t === 0 ? "0" : "-1", dataset: { tile: String(t) } });
    tile.style.gridRow = String(r + 1);
    tile.style.gridColumn = String(c + 1);
    container.append(tile);
    tiles.push(tile);
  }
  const steps = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  tiles.forEach((tile, t) => {
    tile.addEventListener("focus", () => tiles.forEach((other) => { other.tabIndex = other === tile ? 0 : -1; }));
    tile.addEventListener("keydown", (ev) => {
      const step = steps[ev.key];
      if (!step) return;
      ev.preventDefault();
      const r = Math.min(SIZE - 1, Math.max(0, Math.floor(t / SIZE) + step[0]));
      const c = Math.min(SIZE - 1, Math.max(0, (t % SIZE) + step[1]));
      tiles[r * SIZE + c].focus();
    });
  });
  return { rowClues, colClues, tiles };
}

/** Normalise one typed clue ("4 2", "4/2", "42", "10,2") to "4,2"; anything else is sent as
 *  typed, so the server's message explains what is wrong. */
function normaliseClue(text) {
  // full-width digits and commas (２，４) too; a superscript or circled sign (², ②), which NFKC
  // would read as a digit, is sent as typed so that the server says it is not one
  const t = (/\p{No}/u.test(text) ? text : text.normalize("NFKC")).trim();
  const parts = t.split(/[^0-9-]+/).filter(Boolean);
  if (parts.length === 2) return `${parts[0]},${parts[1]}`;
  if (parts.length === 1 && /^\d{2,3}$/.test(t)) return `${t.slice(0, -1)},${t.slice(-1)}`;
  return t.replace(/\s+/g, "");
}

/** Paint the analysis on the tiles: heat map of P(Voltorb), safe outline, recommended ring. */
function paintAnalysis(tiles, revealed, analysis, info) {
  const safe = new Set((analysis ? analysis.safe_tiles : []).map(([r, c]) => (r - 1) * SIZE + (c - 1)));
  const rec = analysis && analysis.recommended ? (analysis.recommended[0] - 1) * SIZE + (analysis.recommended[1] - 1) : -1;
  tiles.forEach((tile, t) => {
    const r = Math.floor(t / SIZE);
    const c = t % SIZE;
    tile.classList.remove("revealed", "safe", "recommended", "voltorb", "analysed", "certain-one");
    tile.style.background = "";
    tile.textContent = "";
    if (t in revealed) {
      tile.classList.add("revealed");
      if (revealed[t] === 0) tile.classList.add("voltorb");
      tile.append(h("span", { class: "vf-value" }, VALUE_LABEL[revealed[t]]));
      tile.title = `row ${r + 1}, column ${c + 1}: ${revealed[t] === 0 ? "Voltorb" : revealed[t]}`;
      return;
    }
    if (!analysis) {
      tile.title = `row ${r + 1}, column ${c + 1}`;
      return;
    }
    const pv = analysis.p_voltorb[r][c];
    const pm = analysis.p_two_or_three[r][c];
    tile.classList.add("analysed");
    tile.style.background = heat(pv);
    tile.append(h("span", { class: "vf-pv" }, pct(pv, 0)), h("span", { class: "vf-pm", title: "P(2 or 3)" }, `2+ ${pct(pm, 0)}`));
    tile.title = `row ${r + 1}, column ${c + 1}: P(Voltorb) ${pct(pv)}, P(2 or 3) ${pct(pm)}`;
    if (safe.has(t)) tile.classList.add(pm === 0 ? "certain-one" : "safe");
    if (t === rec) tile.classList.add("recommended");
  });
  if (info) {
    const describe = (t) => {
      const r = Math.floor(t / SIZE);
      const c = t % SIZE;
      if (t in revealed) return `row ${r + 1}, column ${c + 1}: revealed ${revealed[t] === 0 ? "Voltorb" : revealed[t]}`;
      if (!analysis) return `row ${r + 1}, column ${c + 1}`;
      return `row ${r + 1}, column ${c + 1}: P(Voltorb) ${pct(analysis.p_voltorb[r][c])}, ` +
        `P(2 or 3) ${pct(analysis.p_two_or_three[r][c])}; could be ${mayHold(analysis.labels[r][c])}`;
    };
    const show = (t) => { info.dataset.tile = String(t); info.textContent = describe(t); };
    tiles.forEach((tile, t) => {
      tile.onmouseenter = () => show(t);
      tile.onfocus = () => show(t);
    });
    // the line describes the tile last pointed at: redrawn with what is known now
    if (info.dataset.tile !== undefined && info.dataset.tile !== "") show(Number(info.dataset.tile));
  }
}

function tileName([r, c]) {
  return `row ${r}, column ${c}`;
}

function revealedList(revealed, order = null) {
  const tiles = order || Object.keys(revealed).map(Number);
  return tiles.map((t) => `${Math.floor(t / SIZE) + 1},${(t % SIZE) + 1}=${revealed[t]}`);
}

// ---------------------------------------------------------------- assistant

const assist = {
  board: null,
  revealed: {},  // tile -> value, as accepted by the server
  order: [],  // tiles in the order they were recorded (for the review)
  analysis: null,
  chosen: null,  // tile whose value the chooser is asking for
  seq: 0,  // analyses asked for (a background answer for an older one is dropped)
  lastBody: null,  // the request of the analysis shown
  lastTried: null,  // the last request sent, answered or refused
};

function assistClues() {
  const rows = assist.board.rowClues.map((el) => normaliseClue(el.value));
  const cols = assist.board.colClues.map((el) => normaliseClue(el.value));
  return { rows: rows.join(" "), cols: cols.join(" ") };
}

function cluesComplete() {
  return [...assist.board.rowClues, ...assist.board.colClues].every((el) => el.value.trim() !== "");
}

/** The input an error's field names ("rows.3": row 3's clue, "level"), else null. */
function inputForField(field) {
  if (!field) return null;
  if (field === "level") return document.getElementById("assist-level");
  const m = /^(rows|cols)(?:\.(\d))?$/.exec(field);
  if (!m) return null;
  const list = m[1] === "rows" ? assist.board.rowClues : assist.board.colClues;
  return list[m[2] ? Number(m[2]) - 1 : 0];
}

/** The input a server message is about ("row 2 ...", "column 3 ..."), else the clue box. */
function clueInputFor(message) {
  const m = /\b(row|column) (\d)\b/.exec(message);
  if (m && !/tile row/.test(message)) {
    const list = m[1] === "row" ? assist.board.rowClues : assist.board.colClues;
    return list[Number(m[2]) - 1];
  }
  return null;
}

async function analyse(revealed = assist.revealed, order = assist.order) {
  const errorBox = document.getElementById("assist-clue-error");
  if (!cluesComplete()) {
    clearErrors(document.getElementById("assist"));
    const empty = [...assist.board.rowClues, ...assist.board.colClues].find((el) => el.value.trim() === "");
    showError(empty, "type all ten clues first (sum,Voltorbs for each row and column)");
    errorBox.textContent = "type all ten clues first (sum,Voltorbs for each row and column)";
    errorBox.hidden = false;
    return false;
  }
  const body = {
    ...assistClues(),
    revealed: revealedList(revealed),
    level: Number(document.getElementById("assist-level").value),
    policy: document.getElementById("assist-policy").value,
  };
  const status = document.getElementById("assist-status");
  let result;
  const seq = ++assist.seq;
  assist.lastTried = body;
  if (assistExact.running() && assistExact.dealOf(body) !== assistExact.dealOf(assist.lastBody || {})) assistExact.stop();
  try {
    result = await api("/api/voltorb/solve", body, { quiet: true });
    assist.lastBody = body;
  } catch (err) {
    clearErrors(document.getElementById("assist"));
    if (/the round is won/.test(err.message)) {
      // every 2 and 3 is revealed: the round is over, not an error; no advice is left
      assist.revealed = revealed;
      assist.order = order;
      assist.analysis = null;
      renderAssist();
      status.textContent = "Every 2 and 3 is revealed: the round is won.";
      status.className = "vf-status good";
      status.hidden = false;
      saveAssist();
      return true;
    }
    // the clues were accepted before and only a flip changed: the flip does not fit, not a clue
    const last = assist.lastBody;
    const flipOnly = last && last.rows === body.rows && last.cols === body.cols && last.level === body.level;
    const flipped = Object.keys(revealed).map(Number).filter((t) => assist.revealed[t] !== revealed[t]);
    const input = flipOnly ? (flipped.length === 1 ? assist.board.tiles[flipped[0]] : null)
      : (inputForField(err.field) || clueInputFor(err.message));
    if (input) input.setAttribute("aria-invalid", "true");
    errorBox.textContent = flipOnly && flipped.length === 1
      ? `${tileName([Math.floor(flipped[0] / SIZE) + 1, (flipped[0] % SIZE) + 1])} cannot show ${VALUE_LABEL[revealed[flipped[0]]] === "V" ? "a Voltorb" : `a ${revealed[flipped[0]]}`} with these clues (${err.message})`
      : err.message;
    errorBox.hidden = false;
    return false;
  }
  clearErrors(document.getElementById("assist"));
  assist.revealed = revealed;
  assist.order = order;
  assist.analysis = result;
  renderAssist();
  const lost = result.outcome === "lost";
  status.hidden = !lost;
  if (lost) {
    status.textContent = "A Voltorb: in the game this round is lost.";
    status.className = "vf-status bad";
  }
  saveAssist();
  assistExact.answered(body, result);
  adviseObjective(body, seq);
  return true;
}

/** The chosen round goal (survive, eight, coins, ...) in words, from /api/voltorb/objective. */
async function adviseObjective(body, seq) {
  const box = document.getElementById("assist-objective-advice");
  const goal = document.getElementById("assist-objective").value;
  const live = assist.analysis && !assist.analysis.outcome;
  if (!goal || !live) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.textContent = "working out the best play for this goal…";
  box.hidden = false;
  try {
    const { policy, ...question } = body;
    const advice = await api("/api/voltorb/objective", { ...question, objective: goal }, { quiet: true });
    if (seq !== assist.seq) return;  // a newer position is on the board
    box.textContent = advice.advice.charAt(0).toUpperCase() + advice.advice.slice(1) + ".";
  } catch (err) {
    if (seq !== assist.seq) return;
    box.textContent = err.message;
  }
}

/** What optimal play would have done at a lost round's last decision, in words. */
function postMortemText(pm) {
  const tile = ([r, c]) => `r${r}c${c}`;
  const who = pm.best_policy === "optimal" ? "Optimal play" : "The safest flip (the exact search did not finish)";
  const same = pm.best[0] === pm.flipped[0] && pm.best[1] === pm.flipped[1];
  let text = `Post-mortem of the last flip: ${tile(pm.flipped)} was a Voltorb with P = ${pct(pm.p_voltorb)}. ` +
    (same ? `${who} would have flipped the same tile.` :
      `${who} would have flipped ${tile(pm.best)} (P(Voltorb) ${pct(pm.best_p_voltorb)}).`);
  if (pm.p_win_before !== null && pm.p_win_choice !== null) {
    text += ` P(win) from there: ${pct(pm.p_win_before, 2)} with optimal play, ${pct(pm.p_win_choice, 2)} with your flip.`;
  }
  if (pm.safe_tiles.length) text += ` Certainly safe then: ${pm.safe_tiles.map(tile).join(", ")}.`;
  return text;
}

// ---------------------------------------------------------------- background jobs

/** The exact answer follows a quick one by itself. When /api/voltorb/solve answered with its
 *  fallback (MinRisk: the exact search needs more than the time budget), the exact search runs
 *  as a background job, its progress shown in #<prefix>-thinking, and replaces the quick answer
 *  when it is done. A flip does not stop it: what it solves answers every later position of the
 *  same deal, so when it is done the page asks again for the position shown then. A new deal
 *  (other clues or level) stops it; Stop stops it, and #<prefix>-think starts it again.
 *  `shown()`: the request of the answer on the board; `replace(result)`: show the exact one;
 *  `askAgain()`: ask again for the position on the board. */
function exactFollower(prefix, { shown, replace, askAgain, noteEl }) {
  const box = document.getElementById(`${prefix}-thinking`);
  const text = box.querySelector(".what");
  const button = document.getElementById(`${prefix}-think`);
  const st = { seq: 0, job: null, deal: null, running: false };
  const dealOf = (b) => JSON.stringify([b.rows, b.cols, b.level, b.generator || "hgss", b.policy || "optimal"]);
  const same = (a, b) => Boolean(a && b) && JSON.stringify(a) === JSON.stringify(b);

  async function follow(body) {
    if (st.running && st.deal === dealOf(body)) return;  // its end asks again for this position
    stop();
    const seq = ++st.seq;
    st.deal = dealOf(body);
    st.running = true;
    button.hidden = true;
    box.hidden = false;
    text.textContent = "Working out the exact answer…";
    const status = await pollJob("/api/voltorb/solve/exact", body, {
      onTick: (job) => {
        st.job = job.job;
        if (job.state === "running") {
          text.textContent = `Working out the exact answer: ${Math.round(job.elapsed)} s so far ` +
            "(the hardest openings take about 10 s); it replaces the quick answer by itself.";
        }
      },
      stillWanted: () => seq === st.seq,
    });
    if (status === null) return;
    st.running = false;
    st.job = null;
    box.hidden = true;
    const now = shown();
    if (status.state === "done") {
      if (same(now, body)) replace(status.result);
      else if (now && dealOf(now) === st.deal) askAgain();  // a later position: solved now
    } else if (status.state === "failed") {
      if (same(now, body)) {
        showNote(noteEl, `the exact search did not finish: ${status.detail}`,
          { plain: "The exact answer could not be worked out this time: the safest flip stays." });
      }
      button.hidden = false;
    } else {
      button.hidden = false;
    }
  }

  /** Stop the search (a new deal, or the player's Stop). */
  function stop() {
    if (st.running) {
      st.seq += 1;
      cancelJob(st.job);
    }
    st.running = false;
    st.job = null;
    box.hidden = true;
  }

  /** A new answer is on the board: follow it if it is a quick one, stop a search of another deal. */
  function answered(body, result) {
    if (st.running && st.deal !== dealOf(body)) stop();
    button.hidden = true;
    if (result && result.note && !result.outcome) follow(body);
  }

  button.addEventListener("click", () => { const b = shown(); if (b) follow(b); });
  box.querySelector("button").addEventListener("click", () => { stop(); button.hidden = false; });
  return { follow, stop, answered, running: () => st.running, dealOf };
}

let assistExact = null;  // set up in setupAssist

function renderAssist() {
  const a = assist.analysis;
  paintAnalysis(assist.board.tiles, assist.revealed, a, document.getElementById("assist-tileinfo"));
  showNote(document.getElementById("assist-note"), a && a.note, { plain: QUICK_WORDS });
  const live = a && !a.outcome;  // a lost round has no recommendation and no P(win)
  document.getElementById("assist-recommended").textContent = live ? tileName(a.recommended) + ` (${POLICY_WORDS[a.policy] || a.policy})` : "—";
  document.getElementById("assist-pwin").textContent = live ? pct(a.win_probability, 2) : "—";
  document.getElementById("assist-count").textContent = a ? a.consistent_boards.toLocaleString("en") : "—";
  document.getElementById("assist-review").disabled = assist.order.length === 0;
  document.getElementById("assist-safe").textContent = live
    ? (a.safe_useful_tiles.length ? a.safe_useful_tiles.map(([r, c]) => `r${r}c${c}`).join(", ") : "none") : "—";
  const pm = document.getElementById("assist-postmortem");
  pm.hidden = !(a && a.post_mortem);
  pm.textContent = a && a.post_mortem ? postMortemText(a.post_mortem) : "";
}

/** The assistant's board (clues, flips in order, level, policy) kept in this browser: it
 *  survives a reload. */
const keptAssist = store("gamelab.voltorb.assist", {
  check: (v) => [v.rows, v.cols].every((clues) => Array.isArray(clues) && clues.length === SIZE
    && clues.every((c) => typeof c === "string")),
});

function saveAssist() {
  keptAssist.save({
    rows: assist.board.rowClues.map((el) => el.value), cols: assist.board.colClues.map((el) => el.value),
    flips: assist.order.map((t) => [t, assist.revealed[t]]),
    level: document.getElementById("assist-level").value, policy: document.getElementById("assist-policy").value,
  });
}

function loadAssist() {
  const saved = keptAssist.load(null);
  if (!saved) return false;
  for (const [id, key] of [["assist-level", "level"], ["assist-policy", "policy"]]) {
    const select = document.getElementById(id);
    if (saved[key] && select.querySelector(`option[value="${CSS.escape(String(saved[key]))}"]`)) select.value = saved[key];
  }
  assist.board.rowClues.forEach((el, i) => { el.value = String(saved.rows[i] || ""); });
  assist.board.colClues.forEach((el, i) => { el.value = String(saved.cols[i] || ""); });
  const revealed = {};
  const order = [];
  for (const f of Array.isArray(saved.flips) ? saved.flips : []) {
    if (Array.isArray(f) && Number.isInteger(f[0]) && Number.isInteger(f[1])) { revealed[f[0]] = f[1]; order.push(f[0]); }
  }
  if (cluesComplete()) analyse(revealed, order);
  return true;
}

async function record(tile, value) {
  const next = { ...assist.revealed };
  let order = assist.order.filter((t) => t !== tile);
  if (value === null) {
    delete next[tile];
  } else {
    next[tile] = value;
    order = tile in assist.revealed ? assist.order : [...order, tile];
  }
  hideChooser();
  await analyse(next, order);  // on an error nothing changes: assist.revealed is kept
}

function showChooser(tile) {
  const chooser = document.getElementById("assist-chooser");
  assist.chosen = tile;
  chooser.querySelector(".which").textContent = `r${Math.floor(tile / SIZE) + 1}c${(tile % SIZE) + 1}`;
  chooser.hidden = false;
}

function hideChooser() {
  document.getElementById("assist-chooser").hidden = true;
  assist.chosen = null;
}

function setupAssist() {
  assist.board = buildBoard(document.getElementById("assist-board"), { editable: true });
  const inputs = [...assist.board.rowClues, ...assist.board.colClues];
  inputs.forEach((input, i) => {
    input.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter") return;
      ev.preventDefault();
      if (i + 1 < inputs.length) inputs[i + 1].focus();
      else analyse();
    });
    input.addEventListener("change", () => {
      input.value = normaliseClue(input.value);
      // analysed again only if the clues differ from the analysis shown (leaving a box after
      // Enter changes nothing, and must not restart the exact search)
      const last = assist.lastTried;
      const clues = assistClues();
      if (cluesComplete() && !(last && last.rows === clues.rows && last.cols === clues.cols)) analyse();
    });
  });
  assist.board.tiles.forEach((tile, t) => {
    tile.addEventListener("click", () => showChooser(t));
    tile.addEventListener("keydown", (ev) => {
      const key = ev.key.toLowerCase();
      if (["0", "1", "2", "3", "v"].includes(key)) {
        ev.preventDefault();
        record(t, key === "v" ? 0 : Number(key));
      } else if (key === "backspace" || key === "delete") {
        ev.preventDefault();
        record(t, null);
      } else if (key === "escape") {
        hideChooser();
      }
    });
  });
  document.getElementById("assist-chooser").addEventListener("click", (ev) => {
    const button = ev.target.closest("button");
    if (!button || assist.chosen === null) return;
    const v = button.dataset.value;
    record(assist.chosen, v === "clear" ? null : Number(v));
  });
  document.getElementById("assist-analyse").addEventListener("click", () => analyse());
  assistExact = exactFollower("assist", {
    shown: () => assist.lastBody,
    replace: (result) => { assist.analysis = result; renderAssist(); },
    askAgain: () => analyse(assist.revealed, assist.order),
    noteEl: document.getElementById("assist-note"),
  });
  for (const id of ["assist-level", "assist-policy", "assist-objective"]) {
    document.getElementById(id).addEventListener("change", () => { saveAssist(); if (cluesComplete()) analyse(); });
  }
  document.getElementById("assist-clear").addEventListener("click", () => {
    inputs.forEach((el) => { el.value = ""; });
    assist.revealed = {};
    assist.order = [];
    assist.analysis = null;
    assist.lastBody = null;
    assistExact.stop();
    clearErrors(document.getElementById("assist"));
    document.getElementById("assist-status").hidden = true;
    hideChooser();
    renderAssist();
    saveAssist();
    inputs[0].focus();
  });
  document.getElementById("assist-review").addEventListener("click", () => {
    reviewRound("/api/voltorb/review", {
      ...assistClues(),
      flips: revealedList(assist.revealed, assist.order),
      level: Number(document.getElementById("assist-level").value),
    });
  });
  renderAssist();
  // with a keyboard and mouse the first clue takes the focus: typing starts at once
  if (!loadAssist() && window.matchMedia("(pointer: fine)").matches) inputs[0].focus();
}

// ---------------------------------------------------------------- practice

const STORAGE = "gamelab.voltorb.practice";
const practice = {
  board: null,
  round: null,  // {level, seed, rows, cols}
  state: null,  // the server's PracticeState
  roundId: null,  // this round's entry in the history of your games
  before: null,  // {history, bank}: the case when this round started
  shownBody: null,  // the request of the overlay's answer on the board
  exact: null,  // {body, result}: the exact answer that replaced a quick one
  flips: [],  // [[row, col], ...]
  memo: {},  // tile -> Set of marks (0 = Voltorb)
  memoTile: null,
  saved: { level: 1, bank: 0, history: [] },  // carried from round to round (local storage)
};

const savedCase = store(STORAGE, {
  check: (v) => Number.isInteger(v.level) && Number.isInteger(v.bank) && Array.isArray(v.history),
});
/** The round in progress (level, seed, flips, memo marks, overlay and memo switches): a reload
 *  continues it. */
const savedRound = store("gamelab.voltorb.practice-round", {
  check: (v) => Boolean(v.round) && Number.isInteger(v.round.level) && Number.isInteger(v.round.seed)
    && Array.isArray(v.flips),
});

function loadSaved() {
  practice.saved = savedCase.load(practice.saved);
}

function save() {
  savedCase.save(practice.saved);
}

function saveRound() {
  if (!practice.round) return;
  const memo = Object.fromEntries(Object.entries(practice.memo).map(([t, marks]) => [t, [...marks]]));
  savedRound.save({ round: practice.round, roundId: practice.roundId, flips: practice.flips, memo, before: practice.before,
                    overlay: document.getElementById("practice-overlay").checked,
                    memoMode: document.getElementById("practice-memo").checked });
}

/** Continue the round kept by saveRound (after a reload); false when there is none. */
async function loadRound() {
  const kept = savedRound.load(null);
  if (!kept) return false;
  document.getElementById("practice-overlay").checked = Boolean(kept.overlay);
  document.getElementById("practice-memo").checked = Boolean(kept.memoMode);
  practice.round = kept.round;
  practice.roundId = typeof kept.roundId === "string" ? kept.roundId : `practice:${kept.round.level}:${kept.round.seed}:${Date.now()}`;
  practice.memo = {};
  for (const [t, marks] of Object.entries(kept.memo || {})) {
    if (Array.isArray(marks)) practice.memo[Number(t)] = new Set(marks.filter((m) => [0, 1, 2, 3].includes(m)));
  }
  document.getElementById("practice-seed").value = String(kept.round.seed);
  const before = kept.before;
  practice.before = before && Array.isArray(before.history) && Number.isInteger(before.bank) ? before : null;
  practice.flips = [];
  const flips = kept.flips.filter((f) => Array.isArray(f) && f.length === 2);
  await playPractice(false, null, flips);
  return true;
}

function practiceRevealed() {
  const out = {};
  for (const [r, c, v] of (practice.state ? practice.state.revealed : [])) out[(r - 1) * SIZE + (c - 1)] = v;
  return out;
}

// ---------------------------------------------------------------- your games (history)

const games = gameHistory("voltorb");

/** A practice round's entry in the history, recorded when it ends. */
function recordRound(state) {
  const r = practice.round;
  games.record({
    id: practice.roundId,
    label: `level ${r.level}, seed ${r.seed}`,
    result: { won: "cleared", lost: "Voltorb", quit: "quit" }[state.outcome],
    won: state.outcome === "quit" ? null : state.outcome === "won",
    score: state.coins,
    replay: { level: r.level, seed: r.seed, generator: r.generator, flips: practice.flips, quit: state.outcome === "quit" },
  });
}

/** The review's verdict in words: one skill figure and one luck figure (points of P(win)). */
function verdictOf(review) {
  const lost = 100 * review.total_loss;
  return {
    skill: lost < 0.05 ? "every flip optimal" : `gave away ${lost.toFixed(1)} points of win chance`,
    luck: Math.abs(100 * review.total_luck) < 0.05 ? "even: the tiles neither helped nor hurt"
      : `${review.total_luck > 0 ? "lucky" : "unlucky"}: the tiles moved the win chance by ${points(review.total_luck)} points`,
  };
}

function reviewFromHistory(entry) {
  reviewRound("/api/voltorb/practice/review", entry.replay, entry.id);
}

async function startRound(seed) {
  const level = Number(document.getElementById("practice-level").value);
  const seedInput = document.getElementById("practice-seed");
  const round = await api("/api/voltorb/practice/new", { level, seed }, { errorAt: seedInput, fields: { seed: seedInput, level: document.getElementById("practice-level") } });
  if (!round) return;
  practice.round = round;
  practice.roundId = `practice:${round.level}:${round.seed}:${Date.now()}`;
  practice.before = { history: practice.saved.history, bank: practice.saved.bank };
  practice.flips = [];
  practice.memo = {};
  seedInput.value = String(round.seed);
  await playPractice(false);
}

async function playPractice(quit, extraFlip = null, replay = null) {
  const r = practice.round;
  const flips = replay || (extraFlip ? [...practice.flips, extraFlip] : practice.flips);
  // the case as it was when the round started: replaying the round (a reload) gives the same end
  const before = practice.before || practice.saved;
  const body = { level: r.level, seed: r.seed, generator: r.generator, flips, quit,
                 history: before.history, bank: before.bank };
  const state = await api("/api/voltorb/practice/play", body, { errorAt: document.getElementById("practice-board") });
  if (!state) return;
  practice.flips = flips;
  practice.state = state;
  saveRound();
  if (state.outcome) {
    practice.saved = { level: state.next_level, bank: state.bank, history: state.history };
    save();
    if (!replay) recordRound(state);  // (a reload replays a finished round: it is kept already)
    // the level the round earned: the next round and "Play this seed" start there
    document.getElementById("practice-level").value = String(state.next_level);
    showLevelRates();
  }
  await renderPractice();
}

async function renderPractice() {
  const st = practice.state;
  const { rowClues, colClues, tiles } = practice.board;
  if (!st) return;
  const rows = st.rows.split(" ");
  const cols = st.cols.split(" ");
  rowClues.forEach((el, i) => { el.textContent = rows[i]; });
  colClues.forEach((el, i) => { el.textContent = cols[i]; });
  const revealed = practiceRevealed();
  let analysis = null;
  const overlay = document.getElementById("practice-overlay").checked;
  document.getElementById("practice-pwin").textContent = "—";
  showNote(document.getElementById("practice-note"), null);
  if (overlay && !st.outcome) {
    const body = { rows: st.rows, cols: st.cols, level: st.level, generator: st.generator,
                   revealed: revealedList(revealed), policy: "optimal" };
    const known = practice.exact && JSON.stringify(practice.exact.body) === JSON.stringify(body);
    analysis = known ? practice.exact.result
      : await api("/api/voltorb/solve", body, { errorAt: document.getElementById("practice-board") });
    if (practice.state !== st) return;  // a newer flip is being drawn
    if (analysis) {
      practice.shownBody = body;
      document.getElementById("practice-pwin").textContent = pct(analysis.win_probability, 2);
      showNote(document.getElementById("practice-note"), analysis.note, { plain: QUICK_WORDS });
      practiceExact.answered(body, analysis);
    }
  } else {
    practice.shownBody = null;
    practiceExact.stop();
    document.getElementById("practice-think").hidden = true;
  }
  paintAnalysis(tiles, revealed, analysis, document.getElementById("practice-tileinfo"));
  tiles.forEach((tile, t) => {
    if (st.board && !(t in revealed)) {  // the round is over: show the whole board
      const v = st.board[Math.floor(t / SIZE)][t % SIZE];
      tile.textContent = "";
      tile.append(h("span", { class: "vf-value" }, VALUE_LABEL[v]));
      tile.classList.add("unflipped");
      if (v === 0) tile.classList.add("voltorb");
    } else {
      tile.classList.remove("unflipped");
    }
    const marks = practice.memo[t];
    if (!(t in revealed) && !st.board && marks && marks.size) {
      tile.append(h("span", { class: "vf-memo" }, [...marks].sort().map((m) => VALUE_LABEL[m]).join("")));
    }
    tile.disabled = Boolean(st.outcome);
  });
  document.getElementById("practice-shown-level").textContent = String(st.level);
  document.getElementById("practice-coins").textContent = String(st.coins);
  document.getElementById("practice-bank").textContent = String(practice.saved.bank);
  document.getElementById("practice-left").textContent = String(st.multipliers_left);
  document.getElementById("practice-quit").disabled = Boolean(st.outcome);
  const status = document.getElementById("practice-status");
  const after = document.getElementById("practice-after");
  status.hidden = !st.outcome;
  after.hidden = !st.outcome;
  document.getElementById("practice-review").disabled = practice.flips.length === 0;
  if (st.outcome) {
    const text = {
      won: `Board cleared: +${st.coins} coins.`,
      lost: "A Voltorb! The round's coins are lost.",
      quit: `You quit with ${st.coins} coins.`,
    }[st.outcome];
    status.textContent = `${text} Next round: level ${st.next_level}.`;
    status.className = `vf-status ${st.outcome === "lost" ? "bad" : "good"}`;
  }
}

let practiceExact = null;  // set up in setupPractice

function setupPractice() {
  loadSaved();
  practiceExact = exactFollower("practice", {
    shown: () => practice.shownBody,
    replace: (result) => { practice.exact = { body: practice.shownBody, result }; renderPractice(); },
    askAgain: () => renderPractice(),
    noteEl: document.getElementById("practice-note"),
  });
  practice.board = buildBoard(document.getElementById("practice-board"), { editable: false });
  document.getElementById("practice-level").value = String(practice.saved.level);
  document.getElementById("practice-bank").textContent = String(practice.saved.bank);
  const seedInput = document.getElementById("practice-seed");
  document.getElementById("practice-new").addEventListener("click", () => startRound(randomSeed()));
  document.getElementById("practice-replay").addEventListener("click", () => {
    const text = asciiDigits(seedInput.value.trim());
    if (!/^\d+$/.test(text)) {
      clearErrors(document.getElementById("practice"));
      showError(seedInput, "a seed is a whole number, e.g. 12345");
      return;
    }
    startRound(Number(text));
  });
  seedInput.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") document.getElementById("practice-replay").click();
  });
  document.getElementById("practice-quit").addEventListener("click", () => playPractice(true));
  document.getElementById("practice-next").addEventListener("click", () => {
    document.getElementById("practice-level").value = String(practice.saved.level);
    showLevelRates();
    startRound(randomSeed());
  });
  document.getElementById("practice-review").addEventListener("click", () => {
    const r = practice.round;
    reviewRound("/api/voltorb/practice/review", { level: r.level, seed: r.seed, generator: r.generator, flips: practice.flips,
                                                   quit: Boolean(practice.state && practice.state.outcome === "quit") },
                practice.state && practice.state.outcome ? practice.roundId : null);
  });
  document.getElementById("practice-overlay").addEventListener("change", () => { saveRound(); renderPractice(); });
  const memoMode = document.getElementById("practice-memo");
  const chooser = document.getElementById("memo-chooser");
  practice.board.tiles.forEach((tile, t) => {
    tile.addEventListener("click", () => {
      const st = practice.state;
      if (!st || st.outcome || t in practiceRevealed()) return;
      if (memoMode.checked) {
        practice.memoTile = t;
        chooser.querySelector(".which").textContent = `r${Math.floor(t / SIZE) + 1}c${(t % SIZE) + 1}`;
        chooser.hidden = false;
        return;
      }
      chooser.hidden = true;
      playPractice(false, [Math.floor(t / SIZE) + 1, (t % SIZE) + 1]);
    });
    tile.addEventListener("keydown", (ev) => {
      const key = ev.key.toLowerCase();
      if (memoMode.checked && ["0", "1", "2", "3", "v"].includes(key)) {
        ev.preventDefault();
        toggleMemo(t, key === "v" ? 0 : Number(key));
      }
    });
  });
  chooser.addEventListener("click", (ev) => {
    const button = ev.target.closest("button");
    if (button && practice.memoTile !== null) toggleMemo(practice.memoTile, Number(button.dataset.memo));
  });
  memoMode.addEventListener("change", () => { chooser.hidden = true; saveRound(); });
  loadRound();
}

function toggleMemo(tile, mark) {
  const marks = practice.memo[tile] || new Set();
  if (marks.has(mark)) marks.delete(mark);
  else marks.add(mark);
  practice.memo[tile] = marks;
  saveRound();
  renderPractice();
}

// ---------------------------------------------------------------- review

function points(p) {
  const shown = (100 * p).toFixed(1);
  if (Number(shown) === 0) return "0.0";  // never "−0.0"
  return `${p > 0 ? "+" : "−"}${shown.replace("-", "")}`;
}

/** "5", "5–6" or "2, 5–6": row numbers (ascending) as ranges. */
function span(rows) {
  const parts = [];
  for (let i = 0; i < rows.length; i++) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === rows[j] + 1) j++;
    parts.push(i === j ? String(rows[i]) : `${rows[i]}–${rows[j]}`);
    i = j;
  }
  return parts.join(", ");
}

const reviewing = { seq: 0, job: null };

/** The review on show (its request), asked again after a reload: the Review tab is kept, and
 *  without it showed "Finish a practice round ... and choose Review" for a round just reviewed. */
const keptReview = store("gamelab.voltorb.review", {
  check: (v) => ["/api/voltorb/review", "/api/voltorb/practice/review"].includes(v.path)
    && Boolean(v.body) && typeof v.body === "object",
});

/** Review a round (its verdict goes into the history entry `historyId`, if any). */
async function reviewRound(path, body, historyId = null, { kept = false } = {}) {
  if (document.getElementById("review").hidden) selectTab("review");
  keptReview.save({ path, body, historyId });
  const seq = ++reviewing.seq;
  cancelJob(reviewing.job);
  reviewing.job = null;
  // nothing of an earlier review stays on show while this one is computed
  const progress = document.getElementById("review-progress");
  document.getElementById("review-body").hidden = true;
  document.getElementById("review-empty").hidden = true;
  document.querySelector("#review-table tbody").textContent = "";
  const waiting = document.getElementById("review-waiting");
  waiting.textContent = "Reviewing this round…";
  waiting.hidden = false;
  const errorBox = document.getElementById("review-error");
  // a kept request the server refuses (from an older page) leaves the tab as it starts, unsaid
  const review = kept ? await api(path, body, { quiet: true }).catch(() => null)
    : await api(path, body, { errorAt: errorBox.previousElementSibling, quiet: false });
  if (seq !== reviewing.seq) return;
  waiting.hidden = true;
  if (!review) {
    document.getElementById("review-empty").hidden = false;
    return;
  }
  progress.hidden = true;
  renderReview(review);
  const keepVerdict = (done) => { if (historyId && games.find(historyId)) games.record({ id: historyId, ...verdictOf(done) }); };
  if (review.exact) { keepVerdict(review); return; }
  // the quick review came back within the budget; the exact one is completed in the background
  progress.hidden = false;
  progress.textContent = "The exact review is being computed in the background…";
  const status = await pollJob(`${path}/exact`, body, {
    onTick: (st) => {
      reviewing.job = st.job;
      progress.textContent = `The exact review is being computed: ${Math.round(st.elapsed)} s so far (at most ${Math.round(st.limit)} s).`;
    },
    stillWanted: () => seq === reviewing.seq,
  });
  if (status === null) return;
  reviewing.job = null;
  if (status.state === "done") {
    progress.hidden = true;
    renderReview(status.result);
    keepVerdict(status.result);
  } else {
    progress.textContent = `The exact review did not finish (${status.detail || status.state}); the rows marked “not exact” stay so.`;
  }
}

function renderReview(review) {
  showNote(document.getElementById("review-note"), review.note, {
    plain: "The rows marked “not exact yet” are completed by themselves when the exact review is done." });
  document.getElementById("review-empty").hidden = true;
  document.getElementById("review-body").hidden = false;
  const tbody = document.querySelector("#review-table tbody");
  tbody.textContent = "";
  review.moves.forEach((m, i) => {
    if (!m.exact) {  // a quick row: P(Voltorb) is exact, the rest waits for the exact review
      const same = m.best[0] === m.tile[0] && m.best[1] === m.tile[1];
      tbody.append(h("tr", { class: "inexact" },
        h("td", {}, String(i + 1)),
        h("td", {}, `r${m.tile[0]}c${m.tile[1]}`),
        h("td", {}, m.value === 0 ? "Voltorb" : String(m.value)),
        h("td", {}, pct(m.p_voltorb)),
        h("td", { colspan: "2", class: "muted" }, "not exact yet"),
        h("td", {}, same ? "same (safest flip)" : `r${m.best[0]}c${m.best[1]} (safest flip)`),
        h("td", { colspan: "3", class: "muted" }, "not exact yet")));
      return;
    }
    const optimal = m.loss === 0;
    tbody.append(h("tr", { class: optimal ? "" : "lossy" },
      h("td", {}, String(i + 1)),
      h("td", {}, `r${m.tile[0]}c${m.tile[1]}`),
      h("td", {}, m.value === 0 ? "Voltorb" : String(m.value)),
      h("td", {}, pct(m.p_voltorb)),
      h("td", {}, pct(m.p_before)),
      h("td", {}, pct(m.p_choice)),
      h("td", {}, optimal ? "same" : `r${m.best[0]}c${m.best[1]}`),
      h("td", { class: optimal ? "good" : "bad" }, optimal ? "0" : `${(100 * m.loss).toFixed(1)} pts`),
      h("td", {}, pct(m.p_after)),
      h("td", { class: points(m.luck) === "0.0" ? "" : (m.luck > 0 ? "good" : "bad") }, points(m.luck))));
  });
  labelCells(document.getElementById("review-table"), { from: 2 });  // a phone: a block per flip
  const result = { won: "won", lost: "lost", quit: "quit with the coins", unfinished: "not finished" }[review.outcome];
  const would = review.optimal_would_win === null ? ""
    : ` Optimal play would have ${review.optimal_would_win ? "cleared" : "lost"} this very board.`;
  if (!review.exact) {
    // a partly exact review (the budget solved the last flips): say which rows are final
    const exactRows = review.moves.map((m, i) => (m.exact ? i + 1 : 0)).filter((i) => i > 0);
    const waiting = review.moves.length - exactRows.length;
    const done = exactRows.length === 0 ? ""
      : `${exactRows.length === 1 ? "Flip" : "Flips"} ${span(exactRows)} ${exactRows.length === 1 ? "is" : "are"} reviewed exactly. `;
    document.getElementById("review-summary").textContent =
      `Result: ${result}. ${done}Each flip's P(Voltorb) is exact; P(win), loss and luck of the ` +
      `${waiting === 1 ? "flip" : `${waiting} flips`} marked “not exact yet” follow when the exact review is done.`;
    return;
  }
  document.getElementById("review-summary").textContent =
    `Luck of the deal: optimal play wins this deal with P = ${pct(review.p_start)}. ` +
    `Skill: your flips gave away ${(100 * review.total_loss).toFixed(1)} points of win probability. ` +
    `Luck: what the tiles showed moved it by ${points(review.total_luck)} points. Result: ${result}.${would}`;
}

// ---------------------------------------------------------------- tabs

/** Select a tab (a step for the Back button); set up at the end of this file. */
let selectTab = () => {};

// ---------------------------------------------------------------- the level's optimal win rate

/** The library's per-level table (/api/voltorb/levels), by level; null until it came. */
let levelRates = null;

/** Each element with data-level-rate="<select id>" shows the library's sentence for the level
 *  chosen there; called on every change of those selects (also when the page sets them). */
function showLevelRates() {
  if (!levelRates) return;
  for (const el of document.querySelectorAll("[data-level-rate]")) {
    const r = levelRates.get(Number(document.getElementById(el.dataset.levelRate).value));
    el.textContent = r ? r.text : "—";
  }
}

async function setupLevelRates() {
  for (const el of document.querySelectorAll("[data-level-rate]")) {
    document.getElementById(el.dataset.levelRate).addEventListener("change", showLevelRates);
  }
  const rates = await api("/api/voltorb/levels", undefined, { quiet: true }).catch(() => null);
  if (!rates) return;
  levelRates = new Map(rates.map((r) => [r.level, r]));
  showLevelRates();
}

selectTab = setupTabs();
// on a phone the help folds away (its summary stays): the board and the advice fit one screen
if (window.matchMedia("(max-width: 600px)").matches) {
  for (const id of ["assist-help", "practice-help"]) document.getElementById(id).open = false;
}
setupAssist();
setupPractice();
setupLevelRates();
historyPanel(document.getElementById("history-panel"), games, { score: { label: "coins" }, onReview: reviewFromHistory });
if (!document.getElementById("review").hidden) {  // reloaded on the Review tab: its review again
  const kept = keptReview.load(null);
  if (kept) reviewRound(kept.path, kept.body, kept.historyId, { kept: true });
}
