// Owaré: play the engine on a clicked board, analyse positions, review the game.
// The page holds the game (start, rules, moves); the server replays and checks it on every call.
import { api, clearErrors, h, showError } from "/static/kit.js";

const $ = (id) => document.getElementById(id);
const START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
let game = { start: START, grand_slam: "no-capture", cycle: "own-row", moves: [] };
let view = null;
let lastScore = null; // the engine's last score, for the side to move after its search
let thinking = false;

const mySide = () => $("side").value;
const body = (extra = {}) => ({ ...game, ...extra });

function tab(name) {
  for (const t of ["play", "analysis", "review"]) {
    $(t).hidden = t !== name;
    $(`tab-${t}`).setAttribute("aria-selected", String(t === name));
  }
}
for (const t of ["play", "analysis", "review"]) $(`tab-${t}`).addEventListener("click", () => { tab(t); if (t === "review") review(); });

function drawBoard() {
  const b = $("board");
  b.replaceChildren();
  if (!view) return;
  const last = view.last;
  const cell = (i) => {
    const side = i < 6 ? "South" : "North";
    const letter = (i < 6 ? "ABCDEF" : "abcdef")[i % 6];
    const playable = !view.over && !thinking && side === view.to_move && side === mySide() && view.legal.includes(letter);
    const cls = ["ow-house", playable ? "playable" : "", last && last.move === letter ? "last" : "",
      last && last.captured_houses.includes(i) ? "captured" : ""].join(" ");
    return h("button", { class: cls, "data-house": letter, "aria-label": `house ${letter}: ${view.houses[i]} seeds`,
      onclick: () => clickHouse(letter) }, String(view.houses[i]), h("span", { class: "lbl" }, letter));
  };
  b.append(h("div", { class: "ow-store", style: "grid-column:1" }, String(view.stores[1]), h("small", {}, "North")));
  for (let i = 11; i >= 6; i--) b.append(cell(i));
  b.append(h("div", { class: "ow-store", style: "grid-column:8" }, String(view.stores[0]), h("small", {}, "South")));
  for (let i = 0; i < 6; i++) { const c = cell(i); c.style.gridRow = "2"; c.style.gridColumn = String(i + 2); b.append(c); }
  // status, moves, eval
  $("move-list").textContent = view.moves.length ? view.moves.join(" ") : "—";
  let status;
  if (view.over) {
    const [s, n] = view.result;
    status = view.winner ? `Game over: ${view.winner} wins ${s}-${n}` : `Game over: a draw, ${s}-${n}`;
  } else if (thinking) status = "The opponent is thinking…";
  else status = view.to_move === mySide() ? "Your move: click one of your houses" : "Opponent to move";
  if (last && last.captured) status += ` · ${last.side} captured ${last.captured}`;
  $("status").textContent = status;
  $("board").dataset.moves = view.moves.join(" ");
  $("board").dataset.over = String(view.over);
  if (lastScore !== null) {
    const forMe = lastScore.side === mySide() ? lastScore.score : -lastScore.score;
    const seeds = Math.max(-10, Math.min(10, forMe / 25));
    $("eval-bar").style.width = `${50 + 5 * seeds}%`;
  }
}

async function refresh() {
  const res = await api("/api/oware/state", body(), { errorAt: $("move-error") });
  if (res) { view = res; drawBoard(); await maybeReply(); }
}

async function clickHouse(letter) {
  if (!view || thinking || view.to_move !== mySide()) return;
  const res = await api("/api/oware/move", body({ move: letter }), { errorAt: $("move-error") });
  if (!res) return;
  game.moves = res.moves;
  view = res;
  $("hint-text").textContent = "";
  drawBoard();
  await maybeReply();
}

async function maybeReply() {
  if (!view || view.over || view.to_move === mySide()) return;
  thinking = true;
  drawBoard();
  const res = await api("/api/oware/reply", body({ opponent: $("opponent").value, seed: game.moves.length }), { errorAt: $("move-error") });
  thinking = false;
  if (!res) { drawBoard(); return; }
  game.moves = res.view.moves;
  view = res.view;
  if (res.analysis) {
    lastScore = { side: res.analysis.to_move, score: res.analysis.score };
    $("engine-text").textContent = `${res.opponent} played ${res.move}: ${res.analysis.score_text}; depth ${res.analysis.depth}, PV ${res.analysis.pv_text.join(" ")}`;
  } else {
    $("engine-text").textContent = `${res.opponent} played ${res.move}`;
  }
  drawBoard();
}

function newGame() {
  const [gs, cy] = $("rules").value.split("|");
  game = { start: START, grand_slam: gs, cycle: cy, moves: [] };
  lastScore = null;
  $("hint-text").textContent = "";
  $("engine-text").textContent = "";
  clearErrors();
  refresh();
}

$("new-game").addEventListener("click", newGame);
$("takeback").addEventListener("click", async () => {
  if (thinking || !game.moves.length) return;
  // back to the player's previous turn: drop the opponent's reply and the player's move
  const moves = [...game.moves];
  moves.pop();
  const res0 = await api("/api/oware/state", body({ moves }), { quiet: true }).catch(() => null);
  if (res0 && res0.to_move !== mySide() && moves.length) moves.pop();
  game.moves = moves;
  const res = await api("/api/oware/state", body(), { errorAt: $("move-error") });
  if (res) { view = res; drawBoard(); }
});
$("hint").addEventListener("click", async () => {
  if (!view || view.over) return;
  const res = await api("/api/oware/analyse", { position: view.position, grand_slam: game.grand_slam, cycle: game.cycle, time: 1 },
    { errorAt: $("move-error") });
  if (res) $("hint-text").textContent = `Hint: ${res.best_move_text} — ${res.score_text}. Line: ${res.pv_text.join(" ")}`;
});
$("download").addEventListener("click", () => {
  if (!view) return;
  const a = h("a", { href: URL.createObjectURL(new Blob([view.record], { type: "text/plain" })), download: "oware-game.txt" });
  document.body.append(a); a.click(); a.remove();
});
$("load-record").addEventListener("click", async () => {
  const res = await api("/api/oware/load", { text: $("record-in").value }, { errorAt: $("record-in") });
  if (!res) return;
  game = { start: res.start, grand_slam: res.grand_slam, cycle: res.cycle, moves: res.moves };
  view = res;
  drawBoard();
});
$("to-review").addEventListener("click", () => { tab("review"); review(); });

async function review() {
  if (!game.moves.length) { $("review-result").textContent = "Play some moves first."; return; }
  $("review-result").textContent = "Reviewing…";
  const res = await api("/api/oware/review", body({ depth: 6 }), { errorAt: $("review-result") });
  if (!res) { $("review-result").textContent = ""; return; }
  const rows = res.moves.map((m) => h("tr", { class: res.worst.includes(m.ply) ? "worst" : null },
    h("td", {}, String(m.ply)), h("td", {}, m.side), h("td", {}, m.move), h("td", {}, m.best),
    h("td", {}, String(m.score_best)), h("td", {}, String(m.score_played)),
    h("td", { class: m.loss > 0 ? "lost" : null }, m.loss > 0 ? `−${m.loss}` : "0")));
  $("review-result").replaceChildren(
    h("p", {}, `Total loss: South ${res.total_loss.South}, North ${res.total_loss.North} (${res.score_unit}). `,
      res.worst.length ? `Costliest moves: ${res.worst.join(", ")}.` : "No move lost anything."),
    h("table", { class: "data", id: "review-table" },
      h("tr", {}, ...["ply", "side", "played", "best", "best score", "played score", "loss"].map((t) => h("th", {}, t))), ...rows));
}

$("an-current").addEventListener("click", () => { if (view) $("an-position").value = view.position; });
$("an-go").addEventListener("click", async () => {
  const input = $("an-position");
  const res = await api("/api/oware/analyse", { position: input.value, grand_slam: game.grand_slam, cycle: game.cycle, time: Number($("an-time").value) },
    { errorAt: input, fields: { position: input, time: $("an-time") } });
  if (!res) return;
  $("an-result").replaceChildren(h("table", { class: "data" },
    ...[["best move", res.best_move_text], ["score", res.score_text], ["depth", res.depth],
      ["nodes/s", Math.round(res.nps).toLocaleString()], ["principal variation", res.pv_text.join(" ")]]
      .map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", { "data-key": k }, String(v))))));
});

$("side").addEventListener("change", () => { drawBoard(); maybeReply(); });
newGame();
