// Voltorb Flip page: the assistant (clues typed, flips recorded), practice rounds, review.
// Every number shown comes from /api/voltorb/...; this file only draws and collects input.
import { api, clearErrors, h, heat, pct, showError, showNote } from "/static/kit.js";

const SIZE = 5;
const VALUE_LABEL = { 0: "V", 1: "1", 2: "2", 3: "3" };

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
    const tile = h("button", { type: "button", class: "vf-tile", "aria-label": `row ${r + 1}, column ${c + 1}`,
                               dataset: { tile: String(t) } });
    tile.style.gridRow = String(r + 1);
    tile.style.gridColumn = String(c + 1);
    container.append(tile);
    tiles.push(tile);
  }
  return { rowClues, colClues, tiles };
}

/** Normalise one typed clue ("4 2", "4/2", "42", "10,2") to "4,2"; anything else is sent as
 *  typed, so the server's message explains what is wrong. */
function normaliseClue(text) {
  const t = text.trim();
  const parts = t.split(/[^0-9-]+/).filter(Boolean);
  if (parts.length === 2) return `${parts[0]},${parts[1]}`;
  if (parts.length === 1 && /^\d{2,3}$/.test(t)) return `${t.slice(0, -1)},${t.slice(-1)}`;
  return t.replace(/\s+/g, "");
}

/** Paint the analysis on the tiles: heat map of P(Voltorb), safe outline, recommended ring. */
function paintAnalysis(tiles, revealed, analysis, info) {
  const safe = new Set((analysis ? analysis.safe_tiles : []).map(([r, c]) => (r - 1) * SIZE + (c - 1)));
  const rec = analysis ? (analysis.recommended[0] - 1) * SIZE + (analysis.recommended[1] - 1) : -1;
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
    tile.append(h("span", { class: "vf-pv" }, pct(pv, 0)), h("span", { class: "vf-pm" }, `2/3 ${pct(pm, 0)}`));
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
        `P(2 or 3) ${pct(analysis.p_two_or_three[r][c])}; may hold ${analysis.labels[r][c].replace("0", "V")}`;
    };
    tiles.forEach((tile, t) => {
      tile.onmouseenter = () => { info.textContent = describe(t); };
      tile.onfocus = () => { info.textContent = describe(t); };
    });
  }
}

function tileName([r, c]) {
  return `row ${r}, column ${c}`;
}

function revealedList(revealed) {
  return Object.entries(revealed).map(([t, v]) => `${Math.floor(t / SIZE) + 1},${(t % SIZE) + 1}=${v}`);
}

// ---------------------------------------------------------------- assistant

const assist = {
  board: null,
  revealed: {},  // tile -> value, as accepted by the server
  analysis: null,
  chosen: null,  // tile whose value the chooser is asking for
};

function assistClues() {
  const rows = assist.board.rowClues.map((el) => normaliseClue(el.value));
  const cols = assist.board.colClues.map((el) => normaliseClue(el.value));
  return { rows: rows.join(" "), cols: cols.join(" ") };
}

function cluesComplete() {
  return [...assist.board.rowClues, ...assist.board.colClues].every((el) => el.value.trim() !== "");
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

async function analyse(revealed = assist.revealed) {
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
  try {
    result = await api("/api/voltorb/solve", body, { quiet: true });
  } catch (err) {
    clearErrors(document.getElementById("assist"));
    if (/the round is won/.test(err.message)) {
      // every 2 and 3 is revealed: the round is over, not an error
      assist.revealed = revealed;
      assist.analysis = null;
      paintAnalysis(assist.board.tiles, assist.revealed, null, null);
      status.textContent = "Every 2 and 3 is revealed: the round is won.";
      status.className = "vf-status good";
      status.hidden = false;
      return true;
    }
    const input = clueInputFor(err.message);
    if (input) input.setAttribute("aria-invalid", "true");
    errorBox.textContent = err.message;
    errorBox.hidden = false;
    return false;
  }
  clearErrors(document.getElementById("assist"));
  assist.revealed = revealed;
  assist.analysis = result;
  renderAssist();
  const lost = Object.values(revealed).includes(0);
  status.hidden = !lost;
  if (lost) {
    status.textContent = "A Voltorb: in the game this round is lost.";
    status.className = "vf-status bad";
  }
  return true;
}

function renderAssist() {
  const a = assist.analysis;
  paintAnalysis(assist.board.tiles, assist.revealed, a, document.getElementById("assist-tileinfo"));
  showNote(document.getElementById("assist-note"), a && a.note);
  document.getElementById("assist-recommended").textContent = a ? tileName(a.recommended) + ` (${a.policy})` : "—";
  document.getElementById("assist-pwin").textContent = a ? pct(a.win_probability, 2) : "—";
  document.getElementById("assist-count").textContent = a ? a.consistent_boards.toLocaleString("en") : "—";
  document.getElementById("assist-safe").textContent = a
    ? (a.safe_useful_tiles.length ? a.safe_useful_tiles.map(([r, c]) => `r${r}c${c}`).join(", ") : "none") : "—";
}

async function record(tile, value) {
  const next = { ...assist.revealed };
  if (value === null) delete next[tile];
  else next[tile] = value;
  hideChooser();
  await analyse(next);  // on an error nothing changes: assist.revealed is kept
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
      if (cluesComplete()) analyse();
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
  document.getElementById("assist-level").addEventListener("change", () => cluesComplete() && analyse());
  document.getElementById("assist-policy").addEventListener("change", () => cluesComplete() && analyse());
  document.getElementById("assist-clear").addEventListener("click", () => {
    inputs.forEach((el) => { el.value = ""; });
    assist.revealed = {};
    assist.analysis = null;
    clearErrors(document.getElementById("assist"));
    document.getElementById("assist-status").hidden = true;
    hideChooser();
    renderAssist();
    inputs[0].focus();
  });
  renderAssist();
}

// ---------------------------------------------------------------- tabs

function setupTabs() {
  const tabs = [...document.querySelectorAll('.tabs [role="tab"]')];
  for (const tab of tabs) {
    tab.addEventListener("click", () => {
      for (const other of tabs) {
        const selected = other === tab;
        other.setAttribute("aria-selected", String(selected));
        document.getElementById(other.getAttribute("aria-controls")).hidden = !selected;
      }
    });
  }
}

setupTabs();
setupAssist();
