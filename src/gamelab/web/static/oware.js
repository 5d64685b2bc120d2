// Owaré: play the engine on a clicked board, analyse positions, review the game.
// The page holds the game (start, rules, moves); the server replays and checks it on every call
// and returns the board, the last sowing (animated here), the exact tablebase verdict, and the
// engine's answers. Nothing is computed here beyond drawing.
import {
  api, clearErrors, gameHistory, h, historyPanel, setupTabs, showError, showNote, store,
} from "/static/kit.js";

const $ = (id) => document.getElementById(id);
const START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
const LETTERS = "ABCDEFabcdef";
const budget = Number(document.body.dataset.budget || 2);

let game = { start: START, grand_slam: "no-capture", cycle: "own-row", moves: [] };
let view = null;
let lastAnalysis = null; // {pv_text, who} of the engine's last search (reply or hint)
let hinted = null; // the hinted house letter
let phase = "idle"; // idle | sending (your move) | animating | thinking (the opponent's)
let recommended = []; // per ply, the house the engine recommended there (its reply, or the hint)
let generation = 0; // bumped by a new game (or a loaded one): answers for an older game are dropped
let skipping = false;
let opponentName = $("opponent").value;
let playerSide = $("side").value;
let browsing = null; // {ply, view}: an earlier position of the game shown (the move list's steps)
let began = 0; // when this game began (ms): its name in your history
let takebacks = 0; // moves taken back in this game (its history entry says so)
let recordPlayers = null; // [South's, North's] as a loaded record names them, when not you vs an opponent here

/** Who plays South and North, as a record says it ("human", "engine:time=0.5"). */
function players() {
  if (recordPlayers) return recordPlayers;
  return [playerSide === "South" ? "human" : opponentName, playerSide === "North" ? "human" : opponentName];
}

/** An opponent as a player says it: "the engine (0.5 s a move)", "the blog's alpha-beta (depth 6)". */
function opponentLabel(spec = opponentName) {
  const [kind, opts = ""] = spec.split(":");
  const o = Object.fromEntries(opts.split(",").filter(Boolean).map((kv) => kv.split("=")));
  if (kind === "engine") return o.time ? `the engine (${Number(o.time)} s a move)` : `the engine (${o.depth} moves ahead)`;
  if (kind === "blog") return `the blog's simpler engine (${o.depth || 6} moves ahead)`;
  return kind === "greedy" ? "the greedy player" : kind === "random" ? "the random player" : spec;
}

/** Who plays `side`, in words: "you", "the engine (0.5 s a move)", or a record's name. */
function role(side) {
  const name = players()[side === "South" ? 0 : 1];
  if (!recordPlayers && side === playerSide) return "you";
  if (name === "human") return "a person";
  if (name === "?") return "";
  return opponentLabel(name).replace(/ \(.*\)$/, "");
}

/** A side named with who plays it: "North (the engine)", "South (you)". */
function whose(side) {
  const who = role(side);
  return who ? `${side} (${who})` : side;
}

/** An evaluation in words that name whose advantage it is: "North (the engine) is ahead by
 *  about 4.9 seeds", "South (you) can win by force"; the same sentence on the bar and in the
 *  hint. */
function plainVerdict(ev) {
  if (!ev) return "";
  if (ev.exact) return ev.text.replace(/\b(South|North) wins\b/, (_, side) => `${whose(side)} wins`);
  const ahead = /^(South|North) ahead by about ([\d.]+) seeds$/.exec(ev.text);
  if (ahead) return `${whose(ahead[1])} is ahead by about ${ahead[2]} seeds`;
  const wins = /^(South|North) wins by force/.exec(ev.text);
  if (wins) return `${whose(wins[1])} can win by force`;
  return ev.text;
}

/** `el` gets a plain sentence and, in an expandable line, the search's details. */
function sayWithDetails(el, sentence, details) {
  el.replaceChildren(sentence, details ? h("details", { class: "ow-details" }, h("summary", {}, "details"), details) : "");
}

const body = (extra = {}) => ({ ...game, ...extra });
const setPhase = (p) => { phase = p; $("board").dataset.state = p; $("skip").hidden = p !== "animating"; };

// ------------------------------------------------------------------ tabs

// the kit's tabs: arrow keys move between them, Back returns to the tab before, a reload keeps it
let tab = () => {};

// ------------------------------------------------------------------ board

function seedDots(n) {
  if (n > 20) return h("span", { class: "seeds many" });
  return h("span", { class: "seeds" }, ...Array.from({ length: n }, () => h("i")));
}

/** Draw `houses` and `stores`; marks: {playable:Set, from, sowing, captured:Set, hint}. */
function drawBoard(houses, stores, marks = {}) {
  const b = $("board");
  const focused = b.contains(document.activeElement) ? document.activeElement.dataset.house : null;
  b.replaceChildren();
  const cell = (i) => {
    const letter = LETTERS[i];
    const cls = ["ow-house", i < 6 ? "south" : "north",
      marks.playable && marks.playable.has(letter) ? "playable" : "",
      marks.from === i ? "from" : "", marks.sowing === i ? "sowing" : "",
      marks.captured && marks.captured.has(i) ? "captured" : "",
      marks.hint === letter ? "hinted" : ""].filter(Boolean).join(" ");
    const el = h("button", {
      class: cls, "data-house": letter, "data-seeds": String(houses[i]), type: "button",
      "aria-label": `house ${letter}: ${houses[i]} seed${houses[i] === 1 ? "" : "s"}`,
      onclick: () => clickHouse(letter),
    }, h("span", { class: "n" }, String(houses[i])), seedDots(houses[i]), h("span", { class: "lbl" }, letter));
    // your row at the bottom: playing North turns the board round (sowing still runs anticlockwise)
    const turned = playerSide === "North";
    el.style.gridRow = (i < 6) !== turned ? "2" : "1";
    el.style.gridColumn = String(turned ? (i < 6 ? 7 - i : i - 4) : (i < 6 ? i + 2 : 13 - i));
    return el;
  };
  b.classList.toggle("turned", playerSide === "North");
  b.append(h("div", { class: "ow-store north", "data-store": "North" }, h("small", {}, "North"), h("span", { class: "n" }, String(stores[1]))));
  for (let i = 0; i < 12; i++) b.append(cell(i));
  b.append(h("div", { class: "ow-store south", "data-store": "South" }, h("small", {}, "South"), h("span", { class: "n" }, String(stores[0]))));
  if (focused) b.querySelector(`[data-house="${focused}"]`).focus({ preventScroll: true }); // a redraw keeps the keyboard's place
}

// ------------------------------------------------------------------ your games (history)

const games = gameHistory("oware");
const gameKey = () => `${game.start}:${game.grand_slam}:${game.cycle}:${began}`;

/** A finished game's entry (the review's verdict joins it when the game is reviewed). */
function recordGame() {
  const [south, north] = view.result;
  const mine = playerSide === "South" ? south : north;
  const theirs = playerSide === "South" ? north : south;
  games.record({
    id: gameKey(),
    label: `you ${playerSide} vs ${opponentLabel()}`,
    result: !view.winner ? `draw ${mine}-${theirs}` : view.winner === playerSide ? `won ${mine}-${theirs}` : `lost ${mine}-${theirs}`,
    won: !view.winner ? null : view.winner === playerSide,
    score: mine,
    marks: takebacks ? [`${takebacks} take-back${takebacks === 1 ? "" : "s"}`] : [],
  });
}
let recordedOver = false; // the game on show was over when last drawn

function drawView() {
  if (!view) return;
  if (view.over && !recordedOver && game.moves.length && !recordPlayers) recordGame();
  recordedOver = view.over;
  if (browsing) { drawBrowsing(); return; }
  const mine = view.to_move === playerSide && !view.over && phase === "idle";
  const last = view.last;
  const ended = view.over && view.end_board; // the board as the last move left it
  drawBoard(ended ? view.end_board : view.houses, ended ? view.end_stores : view.stores, {
    playable: new Set(mine ? view.legal : []),
    from: last ? last.house : null,
    captured: new Set(last ? last.captured_houses : []),
    hint: mine ? hinted : null,
  });
  const b = $("board");
  delete b.dataset.browsing;
  b.dataset.moves = view.moves.join(" ");
  b.dataset.over = String(view.over);
  b.dataset.toMove = view.to_move;
  drawMoves();
  drawStatus();
  drawExact();
  saveGame();
  liveRanking();
}

let rankedFor = null; // the moves the live ranking was asked for
/** With "every move's value" on, the engine ranks your moves whenever it is your turn. */
async function liveRanking() {
  const out = $("live-ranking");
  const mine = view && view.to_move === playerSide && !view.over && phase === "idle" && !browsing;
  if (!$("rank-live").checked || !mine) { out.replaceChildren(); rankedFor = null; return; }
  const key = `${generation}:${game.moves.join(" ")}`;
  if (rankedFor === key) return;
  rankedFor = key;
  out.replaceChildren(h("p", { class: "small muted" }, "ranking your moves…"));
  const res = await api("/api/oware/analyse", { position: game.start, moves: game.moves, grand_slam: game.grand_slam,
    cycle: game.cycle, time: Math.min(1, budget), rank: true }, { errorAt: out });
  if (rankedFor !== key) return; // the game moved on meanwhile
  out.replaceChildren(...(res ? [rankingTable(res.ranking || [], "live-table")] : []));
}

// ------------------------------------------------------------------ the game across a reload

/** The game (start, rules, moves, opponent, side, the engine's recommendations) kept in this
 *  browser, so a reload continues it. */
const keptGame = store("gamelab.oware.game", {
  check: (v) => Boolean(v.game) && typeof v.game.start === "string" && Array.isArray(v.game.moves)
    && v.game.moves.every((m) => typeof m === "string"),
});

function saveGame() {
  keptGame.save({ game, opponent: opponentName, side: playerSide, recommended, players: recordPlayers, began, takebacks });
}

function savedGame() {
  return keptGame.load(null);
}

/** Ask before a game in progress (not over, with a move of yours) is replaced by another: a
 * game in which only the engine has moved (you chose North) is not yours to lose yet. */
function mayDiscard(what) {
  const yours = (m) => (m === m.toUpperCase()) === (playerSide === "South"); // A-F South's, a-f North's
  if (!view || view.over || !game.moves.some(yours)) return true;
  const n = game.moves.length;
  return window.confirm(`${what} discards the game in progress (${n} move${n === 1 ? "" : "s"}). Continue?`);
}

function drawStatus() {
  let text;
  if (view.over) {
    const [s, n] = view.result;
    const why = { score: "a side has more than 24 seeds", repetition: "the position repeated; each side keeps the seeds on its row",
      "no moves": "the side to move cannot play (or feed); each side keeps the seeds on its row" }[view.end_reason] || "";
    const verdict = !view.winner ? "a draw" : `${view.winner} wins (${view.winner === playerSide ? "you win" : "you lose"})`;
    // the library's end text says the reason itself when it assigns the seeds left: once
    const said = view.end_text && view.end_text.includes(", so the ");
    text = `Game over: ${verdict}${said ? "" : ` — ${why}`}. ${view.end_text || `Final score ${s}-${n}.`}`;
  } else if (phase === "thinking") {
    text = `${opponentLabel()} is thinking…`;
  } else if (view.to_move === playerSide) {
    text = `Your move (${playerSide}): click one of your houses.`;
  } else {
    text = `${view.to_move} (${opponentLabel()}) to move.`;
  }
  const last = view.last;
  if (last && phase !== "thinking") {
    let did = `${last.side} played ${last.move}`;
    if (last.captured) did += ` and captured ${last.captured}`;
    else if (last.grand_slam) did += " (a grand slam: under these rules it captures nothing)";
    text = `${did}. ${text}`;
  }
  $("status").textContent = text;
}

function drawExact() {
  const el = $("exact");
  if (view.over) { // the bar shows the result, not an earlier evaluation
    const share = { South: 1, North: 0 }[view.winner] ?? 0.5;
    showEval(share, `final score ${view.result[0]}-${view.result[1]}`, true);
  }
  el.hidden = !view.exact;
  const scope = view.exact_scope || "";
  $("exact-scope").textContent = view.exact ? "" : `${scope.charAt(0).toUpperCase()}${scope.slice(1)}.`;
  if (view.exact) {
    el.textContent = `${view.exact.text} (${view.exact.seeds} seeds left on the board).`;
    el.title = `exact under: ${view.exact.basis}`;
    showEval(view.exact.south, plainVerdict({ exact: true, text: view.exact.text }), true);
  }
}

function showEval(south, text, exact = false) {
  $("eval").hidden = false;
  $("eval-fill").style.width = `${(100 * south).toFixed(1)}%`;
  $("eval").classList.toggle("exact", exact);
  $("eval-text").textContent = text;
}

function drawMoves() {
  const list = $("move-list");
  list.replaceChildren();
  const m = game.moves;
  const firstNorth = game.start.trim().toUpperCase().endsWith("N");
  const shown = browsing ? browsing.ply : m.length;
  const step = (k) => h("button", { type: "button", class: `ow-step${k === shown ? " current" : ""}`, "data-ply": String(k),
    "aria-label": `the position after move ${k}, ${m[k - 1]}`, onclick: () => browseTo(k) }, m[k - 1]);
  const plies = Array.from({ length: m.length }, (_, i) => i + 1);
  const padded = firstNorth ? [0, ...plies] : plies;
  for (let i = 0; i < padded.length; i += 2) {
    list.append(h("li", {}, h("span", { class: "no" }, `${i / 2 + 1}.`), " ",
      ...padded.slice(i, i + 2).flatMap((k) => [k ? step(k) : "…", " "])));
  }
  if (!m.length) list.append(h("li", { class: "muted" }, "—"));
  const current = list.querySelector(".current");
  if (current && browsing) current.scrollIntoView({ block: "nearest" });
  else list.scrollTop = list.scrollHeight; // the latest move in sight
  $("nav-back").disabled = shown === 0;
  $("nav-first").disabled = shown === 0;
  $("nav-fwd").disabled = shown === m.length;
  $("nav-last").disabled = shown === m.length;
  $("nav-continue").hidden = !browsing;
}

// ------------------------------------------------------------------ stepping through the game

/** Show the position after move `ply` (0 = the start); the last one is the game itself. */
async function browseTo(ply) {
  if (phase !== "idle" || !view) return;
  const n = game.moves.length;
  ply = Math.max(0, Math.min(n, ply));
  if (ply === n) { browsing = null; drawView(); return; }
  const mine = generation;
  const res = await api("/api/oware/state", { ...game, moves: game.moves.slice(0, ply) }, { errorAt: $("board") });
  if (mine !== generation || !res) return;
  browsing = { ply, view: res };
  drawView();
}

function drawBrowsing() {
  const v = browsing.view;
  const last = v.last;
  drawBoard(v.houses, v.stores, { from: last ? last.house : null, captured: new Set(last ? last.captured_houses : []) });
  const b = $("board");
  b.dataset.moves = v.moves.join(" ");
  b.dataset.browsing = String(browsing.ply);
  const n = game.moves.length;
  const after = browsing.ply ? `after move ${browsing.ply} (${last.side} played ${last.move})` : "at the start";
  $("status").textContent = `Looking back: the position ${after}, ${v.to_move} to move; move ${browsing.ply} of ${n}. ` +
    "Step on with ▶, or continue the game from here.";
  drawMoves();
}

async function continueFromHere() {
  if (!browsing || phase !== "idle") return;
  const { ply, view: v } = browsing;
  const dropped = game.moves.length - ply;
  if (dropped && !window.confirm(`Continuing from move ${ply} discards the ${dropped} move${dropped === 1 ? "" : "s"} after it. Continue?`)) return;
  generation += 1;
  browsing = null;
  game.moves = v.moves;
  recommended.length = Math.min(recommended.length, ply);
  hinted = null;
  $("hint-text").textContent = "";
  $("review-result").replaceChildren();
  view = v;
  delete $("board").dataset.browsing;
  drawView();
  await maybeReply(); // the opponent to move there: it plays
}
$("nav-first").addEventListener("click", () => browseTo(0));
$("nav-back").addEventListener("click", () => browseTo((browsing ? browsing.ply : game.moves.length) - 1));
$("nav-fwd").addEventListener("click", () => browseTo((browsing ? browsing.ply : game.moves.length) + 1));
$("nav-last").addEventListener("click", () => browseTo(game.moves.length));
$("nav-continue").addEventListener("click", continueFromHere);

function drawPv() {
  const el = $("pv-text");
  el.hidden = !$("show-pv").checked;
  el.textContent = lastAnalysis ? `${lastAnalysis.who}: ${lastAnalysis.pv_text.join(" ")}` : "No search yet: ask for a hint, or let the engine move.";
}
$("show-pv").addEventListener("change", () => { keepSettings(); drawPv(); });
$("animate").addEventListener("change", keepSettings);
$("rank-live").addEventListener("change", () => { keepSettings(); liveRanking(); });

// the page's check boxes kept across a reload (the game keeps its opponent, side and rules)
const settings = store("gamelab.oware.settings", { check: (v) => typeof v === "object" });
function keepSettings() {
  settings.save({ animate: $("animate").checked, showPv: $("show-pv").checked, rankLive: $("rank-live").checked });
}
{
  const s = settings.load({});
  if (typeof s.animate === "boolean") $("animate").checked = s.animate;
  if (typeof s.showPv === "boolean") $("show-pv").checked = s.showPv;
  if (typeof s.rankLive === "boolean") $("rank-live").checked = s.rankLive;
}

// ------------------------------------------------------------------ sowing animation

const wait = (ms) => new Promise((resolve) => {
  if (skipping) { resolve(); return; }
  const t = setTimeout(resolve, ms);
  skipNow = () => { clearTimeout(t); resolve(); };
});
let skipNow = () => {};
function skip() { skipping = true; skipNow(); }
$("skip").addEventListener("click", skip);

/** Show `sowing` seed by seed (skippable), ending on the board of `after`. */
async function animate(sowing) {
  if (!sowing || !$("animate").checked) return;
  setPhase("animating");
  skipping = false;
  const counts = [...sowing.before];
  const stores = [...sowing.before_stores];
  counts[sowing.house] = 0;
  drawBoard(counts, stores, { from: sowing.house });
  $("status").textContent = `${sowing.side} sows ${sowing.move}…`;
  const step = Math.min(180, 1500 / Math.max(1, sowing.path.length));
  for (const house of sowing.path) {
    await wait(step);
    if (skipping) break;
    counts[house] += 1;
    drawBoard(counts, stores, { from: sowing.house, sowing: house });
  }
  if (!skipping && sowing.captured) {
    drawBoard(counts, stores, { from: sowing.house, captured: new Set(sowing.captured_houses) });
    await wait(600);
  }
  setPhase("idle");
}

// ------------------------------------------------------------------ playing

async function showNewView(res) {
  const mine = generation;
  view = res;
  await animate(res.last);
  if (mine !== generation) return; // a new game started during the animation
  drawView();
}

async function clickHouse(letter) {
  if (phase === "animating") { skip(); return; }
  if (!view || browsing || phase !== "idle" || view.over || view.to_move !== playerSide) return;
  setPhase("sending");
  const mine = generation;
  const res = await api("/api/oware/move", body({ move: letter }), { errorAt: $("board") });
  if (mine !== generation) return; // a new game started meanwhile
  setPhase("idle");
  if (!res) return;
  game.moves = res.moves;
  hinted = null;
  $("hint-text").textContent = "";
  await showNewView(res);
  if (mine !== generation) return;
  await maybeReply();
}

async function maybeReply() {
  if (!view || view.over || view.to_move === playerSide || phase !== "idle") return;
  setPhase("thinking");
  drawStatus();
  const mine = generation;
  const res = await api("/api/oware/reply", body({ opponent: opponentName, seed: game.moves.length }),
    { errorAt: $("board") });
  if (mine !== generation) return; // New game was clicked while it thought: the reply is dropped
  setPhase("idle");
  if (!res) { drawView(); return; }
  if (res.analysis) recommended[game.moves.length] = res.move;
  game.moves = res.view.moves;
  showNote($("reply-note"), res.note, { plain: "The engine ran out of time on this busy server and played a quicker move." });
  const who = opponentLabel(res.opponent);
  if (res.analysis) {
    lastAnalysis = { pv_text: res.analysis.pv_text, who: `${who} expected` };
    const a = res.analysis;
    const verdict = plainVerdict(res.evaluation);
    const said = `${who[0].toUpperCase()}${who.slice(1)} played ${res.move}${res.book ? " (book move)" : ""}${verdict ? `; ${verdict}` : ""}.`;
    sayWithDetails($("engine-text"), said, res.book
      ? `from the opening book: searched ${a.depth} moves ahead when the book was made; its score: ${a.score_text}`
      : `searched ${a.depth} moves ahead (${Math.round(a.nps).toLocaleString("en")} positions a second); ` +
        `its score: ${a.score_text}; its line: ${a.pv_text.join(" ")}`);
  } else {
    sayWithDetails($("engine-text"), `${who[0].toUpperCase()}${who.slice(1)} played ${res.move}.`, null);
  }
  if (res.evaluation) showEval(res.evaluation.south, plainVerdict(res.evaluation), res.evaluation.exact);
  drawPv();
  await showNewView(res.view);
}

function rulesOf(select) {
  const [gs, cy] = select.value.split("|");
  return { grand_slam: gs, cycle: cy };
}

async function startGame(start, rules, moves = [], rec = [], keep = null) {
  generation += 1; // pending replies of the old game are dropped when they come
  const mine = generation;
  if (phase === "animating") skip();
  setPhase("idle");
  const res = await api("/api/oware/state", { start, ...rules, moves }, { errorAt: $("board") });
  if (mine !== generation) return false;
  if (!res) { drawView(); return false; }
  game = { start: res.start, grand_slam: res.grand_slam, cycle: res.cycle, moves: res.moves };
  browsing = null;
  recommended = [...rec];
  recordPlayers = null;
  began = keep ? keep.began : Date.now();
  takebacks = keep ? keep.takebacks : 0;
  recordedOver = Boolean(keep); // a game resumed after a reload was recorded when it ended
  opponentName = $("opponent").value;
  playerSide = $("side").value;
  lastAnalysis = null;
  hinted = null;
  $("hint-text").textContent = "";
  $("engine-text").textContent = "";
  $("eval").hidden = true;
  showNote($("reply-note"), null);
  $("review-result").replaceChildren();
  view = res;
  drawView();
  drawPv();
  await maybeReply();
  return true;
}

$("new-game").addEventListener("click", () => {
  if (!mayDiscard("A new game")) return;
  clearErrors();
  startGame(START, rulesOf($("rules")));
});
$("side").addEventListener("change", () => { playerSide = $("side").value; drawView(); maybeReply(); });
$("opponent").addEventListener("change", () => { opponentName = $("opponent").value; drawView(); });

$("takeback").addEventListener("click", async () => {
  if (phase !== "idle") return;
  browsing = null;
  if (!game.moves.length) { showError($("board"), "there is no move to take back"); return; }
  const res = await api("/api/oware/takeback", body({ side: playerSide }), { errorAt: $("board") });
  if (!res) return;
  game.moves = res.moves;
  recommended.length = Math.min(recommended.length, game.moves.length);
  takebacks += 1;
  hinted = null;
  $("hint-text").textContent = "";
  view = res;
  drawView();
  await maybeReply(); // taken back to the start with the opponent to move: it moves again
});

$("hint").addEventListener("click", async () => {
  if (!view || view.over || browsing || phase !== "idle") return;
  const res = await api("/api/oware/analyse", {
    position: game.start, moves: game.moves, grand_slam: game.grand_slam, cycle: game.cycle, time: Math.min(1, budget), book: true,
  }, { errorAt: $("board") });
  if (!res) return;
  const a = res.analysis;
  hinted = a.best_move_text;
  recommended[game.moves.length] = a.best_move_text;
  lastAnalysis = { pv_text: a.pv_text, who: "the hint's line" };
  sayWithDetails($("hint-text"), `Hint: play ${a.best_move_text}${res.book ? " (book move)" : ""} — ${plainVerdict(res.evaluation)}.` + (res.note ? ` (${res.note})` : ""),
    res.book ? `from the opening book: searched ${a.depth} moves ahead when the book was made; score for you: ${a.score_text}`
      : `searched ${a.depth} moves ahead; score for you: ${a.score_text}; the line: ${a.pv_text.join(" ")}`);
  showEval(res.evaluation.south, plainVerdict(res.evaluation), res.evaluation.exact);
  drawPv();
  drawView();
});

async function download() {
  if (!view) return;
  const [south, north] = players();
  const res = await api("/api/oware/record", body({ south, north }), { errorAt: $("board") });
  if (!res) return;
  const a = h("a", { href: URL.createObjectURL(new Blob([res.text], { type: "text/plain" })), download: res.filename });
  document.body.append(a);
  a.click();
  a.remove();
}
$("download").addEventListener("click", download);
$("review-download").addEventListener("click", download);

$("record-file").addEventListener("change", async (ev) => {
  const file = ev.target.files[0];
  if (file) $("record-in").value = await file.text();
});
$("load-record").addEventListener("click", async () => {
  if (!$("record-in").value.trim()) {
    showError($("record-in"), "the record box is empty: paste a record or choose a file (your game is unchanged)");
    return;
  }
  if (!mayDiscard("Loading this record")) return;
  const res = await api("/api/oware/load", { text: $("record-in").value }, { errorAt: $("record-in") });
  if (!res) return;
  $("rules").value = `${res.grand_slam}|${res.cycle}`;
  generation += 1;
  game = { start: res.start, grand_slam: res.grand_slam, cycle: res.cycle, moves: res.moves };
  browsing = null;
  recommended = [];
  takePlayers(res.players || ["?", "?"]);
  began = Date.now();
  takebacks = 0;
  recordedOver = res.over; // a loaded game is not one played here
  view = res;
  hinted = null;
  drawView();
  await maybeReply();
});
$("to-review").addEventListener("click", () => tab("review"));

/** Take the sides a record names: "human" is you, the other your opponent (added to the list
 *  when it is not one of its entries); without a "human" the record's names stay as they are,
 *  for the review (an engine's moves are its own choices). */
function takePlayers(names) {
  const you = names.indexOf("human");
  recordPlayers = null;
  if (you < 0) { recordPlayers = names; drawView(); return; }
  const other = names[1 - you];
  playerSide = you === 0 ? "South" : "North";
  $("side").value = playerSide;
  if (other !== "?") {
    if (![...$("opponent").options].some((o) => o.value === other)) {
      $("opponent").append(h("option", { value: other }, opponentLabel(other)));
    }
    $("opponent").value = other;
    opponentName = other;
  }
}

// ------------------------------------------------------------------ review

let reviewed = null; // the moves the shown review is of

function evalGraph(moves) {
  const w = 600, hgt = 90, n = moves.length;
  const x = (i) => (n <= 1 ? 0 : (i / (n - 1)) * w);
  const y = (s) => hgt - s * hgt;
  const pts = moves.map((m, i) => `${x(i).toFixed(1)},${y(m.south_after).toFixed(1)}`).join(" ");
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
  svg.setAttribute("class", "ow-graph");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "evaluation after each move: up is South, down is North");
  const mid = document.createElementNS(ns, "line");
  Object.entries({ x1: 0, x2: w, y1: hgt / 2, y2: hgt / 2, class: "mid" }).forEach(([k, v]) => mid.setAttribute(k, v));
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", pts);
  const label = (text, yy) => {
    const t = document.createElementNS(ns, "text");
    Object.entries({ x: 4, y: yy, class: "lbl" }).forEach(([k, v]) => t.setAttribute(k, v));
    t.textContent = text;
    return t;
  };
  svg.append(mid, line, label("South ahead", 12), label("North ahead", hgt - 4));
  moves.forEach((m, i) => {
    if (!m.worst) return;
    const c = document.createElementNS(ns, "circle");
    Object.entries({ cx: x(i), cy: y(m.south_after), r: 5, class: "worst" }).forEach(([k, v]) => c.setAttribute(k, v));
    svg.append(c);
  });
  return svg;
}

let reviewRun = 0; // bumped by every new review: the pieces of an older one are dropped

async function review() {
  const out = $("review-result");
  if (!game.moves.length) { out.replaceChildren(h("p", {}, "Play some moves first (or load a record).")); return; }
  const key = game.moves.join(" ");
  if (reviewed === key && out.childElementCount) return;
  reviewRun += 1;
  const run = reviewRun;
  reviewed = key;
  const moves = [...game.moves];
  const rec = moves.map((_, i) => recommended[i] || "");
  // in pieces, each as strong as the engine you played: the rows so far travel with each piece
  let res = null;
  let rows = [];
  showNote($("review-note"), null);
  out.replaceChildren(h("p", { class: "muted", id: "review-progress" }, `Reviewing move 1 of ${moves.length}…`));
  while (rows.length < moves.length) {
    res = await api("/api/oware/review", body({ moves, opponent: opponentName, first: rows.length + 1,
                                                previous: rows, recommended: rec, players: players() }),
                    { errorAt: $("review-go") });
    if (run !== reviewRun) return; // another review (or game) took over
    if (!res) { reviewed = null; out.replaceChildren(); return; }
    rows = res.moves;
    if (res.note) showNote($("review-note"), res.note, { plain: "The server was busy: some moves were checked fewer moves ahead than the engine you played." });
    drawReview(res, rows.length < moves.length);
  }
  if (res && games.find(gameKey())) {
    const lost = res.total_loss_seeds[playerSide];
    const turned = res.turning_moves[playerSide];
    games.record({ id: gameKey(), skill: (lost ? `gave away ${lost} seeds` : "no seed given away")
      + (turned ? `, ${turned} turning move${turned === 1 ? "" : "s"}` : "") });
  }
}

function drawReview(res, partial) {
  const out = $("review-result");
  const rows = res.moves.map((m) => h("tr", { class: [m.worst ? "worst" : "", m.loss ? "" : "best"].join(" ").trim() || null, "data-ply": String(m.ply) },
    h("td", {}, String(m.ply)), h("td", {}, m.side), h("td", { class: "mv" }, m.move),
    h("td", { class: "mv" }, m.best === m.move ? "=" : m.best),
    h("td", {}, m.before_text), h("td", {}, m.after_text),
    h("td", { class: m.loss ? "lost" : "", title: [m.remark, `after the best move: ${m.before_text}; after the move played: ${m.after_text}`].filter(Boolean).join("; ") }, m.loss_text || (m.within_noise ? "≈" : "—"),
      m.worst ? h("span", { class: "tag" }, " costliest") : null,
      m.exact ? h("span", { class: "tag exact", title: "scores exact from the endgame tablebase" }, " exact") : null),
    h("td", { class: "depth" }, String(m.depth))));
  const [ls, ln] = [res.total_loss_seeds.South, res.total_loss_seeds.North];
  const depths = res.least_depth === res.depth ? `${res.depth} moves ahead` : `${res.least_depth}–${res.depth} moves ahead`;
  const progress = partial
    ? h("p", { class: "muted", id: "review-progress" }, `Reviewing move ${res.moves.length + 1} of ${res.plies}… (${res.strength})`)
    : null;
  out.replaceChildren(
    ...(progress ? [progress] : []),
    h("p", { id: "review-summary" }, res.result ? `Final score ${res.result[0]}-${res.result[1]}. ` : partial ? "" : "The game is not over. ",
      `Searched ${res.strength}${res.strength.includes("moves ahead") ? "" : ` (${depths})`}. `,
      `Seeds given away against the engine's best: ${whose("South")} ${ls}, ${whose("North")} ${ln}. `,
      (res.turning_moves.South || res.turning_moves.North)
        ? `Moves that let a won game go or walked into a lost one: ${whose("South")} ${res.turning_moves.South}, ${whose("North")} ${res.turning_moves.North}. ` : "",
      res.worst.length ? `Costliest moves: ${res.worst.map((p) => `#${p} ${res.moves[p - 1].move}`).join(", ")}.` : "No move lost more than the search's noise."),
    evalGraph(res.moves),
    h("p", { class: "muted small" }, "≈: the best move scores less than a seed more (within the search's noise), or the engine itself chose the move in the game."),
    h("div", { class: "ow-table-wrap" }, h("table", { class: "data", id: "review-table" },
      h("thead", {}, h("tr", {}, ...["#", "side", "played", "best", "after the best move", "after the move played", "lost", "moves ahead"].map((t) => h("th", {}, t)))),
      h("tbody", {}, ...rows))));
}
$("review-go").addEventListener("click", () => { reviewed = null; review(); });

// ------------------------------------------------------------------ analysis

const editInputs = [];
function buildEditor() {
  const box = $("an-board");
  const input = (label, i) => {
    const el = h("input", { type: "number", min: "0", max: "48", value: "4", "aria-label": label, "data-index": String(i) });
    el.addEventListener("input", editorToText);
    el.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); $("an-go").click(); } });
    editInputs[i] = el;
    return h("label", { class: "ow-edit-cell" }, h("span", {}, label.split(" ").pop()), el);
  };
  const north = h("div", { class: "ow-edit-row" }, ...[11, 10, 9, 8, 7, 6].map((i) => input(`house ${LETTERS[i]}`, i)));
  const south = h("div", { class: "ow-edit-row" }, ...[0, 1, 2, 3, 4, 5].map((i) => input(`house ${LETTERS[i]}`, i)));
  const ns = input("North store N", 13);
  const ss = input("South store S", 12);
  box.append(h("div", { class: "ow-edit-store" }, ns), h("div", {}, north, south), h("div", { class: "ow-edit-store" }, ss));
  editInputs[12].value = "0";
  editInputs[13].value = "0";
  $("an-side").addEventListener("change", editorToText);
}

function editorToText() {
  $("an-position").value = [...editInputs.map((el) => el.value.trim() || "0"), $("an-side").value].join("-");
}

function textToEditor(houses, stores, side) {
  houses.forEach((v, i) => { editInputs[i].value = String(v); });
  editInputs[12].value = String(stores[0]);
  editInputs[13].value = String(stores[1]);
  $("an-side").value = side === "North" ? "N" : "S";
}

/** Every legal move with its value, best first (the library's ranking): a table. */
function rankingTable(ranking, id) {
  return h("table", { class: "data ow-ranking", id },
    h("thead", {}, h("tr", {}, h("th", {}, "move"), h("th", {}, "after it"), h("th", {}, ""))),
    h("tbody", {}, ...ranking.map((v, i) => h("tr", { "data-move": v.move, class: i === 0 ? "best" : null },
      h("td", { class: "mv" }, v.move), h("td", {}, v.text),
      h("td", { class: "small muted" }, v.exact ? h("span", { class: "tag exact" }, "exact") : `${v.depth} moves ahead`)))));
}

let analysisRun = 0; // bumped by every Analyse: an older answer is dropped
$("an-go").addEventListener("click", async () => {
  const input = $("an-position");
  analysisRun += 1;
  const run = analysisRun;
  $("an-result").classList.add("stale"); // greyed until the answer for this input comes
  const res = await api("/api/oware/analyse", {
    position: input.value, ...rulesOf($("an-rules")), time: Number($("an-time").value), rank: true,
  }, { errorAt: input, fields: { position: input, time: $("an-time") } });
  if (run !== analysisRun) return;
  $("an-result").classList.remove("stale");
  if (!res) { $("an-result").replaceChildren(); showNote($("an-note"), null); return; } // never an old answer beside an error
  const a = res.analysis;
  textToEditor(res.houses, res.stores, a.to_move);
  input.value = a.position;
  showNote($("an-note"), res.note, { plain: "The server was busy: a quicker search, fewer moves ahead, answered." });
  const rows = [["to move", a.to_move], ["best move", a.best_move_text],
    ["evaluation", res.exact ? "exact, see below" : res.evaluation.text],
    ["exact", res.exact ? res.exact.text : `outside the endgame tablebase (${res.exact_scope})`],
    ["the expected line", a.pv_text.join(" ")]];
  const details = [["score", a.score_text], ["depth", a.depth], ["nodes", a.nodes.toLocaleString("en")],
    ["nodes/s", Math.round(a.nps).toLocaleString("en")], ["seconds", a.seconds]];
  const table = (pairs) => h("table", { class: "data ow-analysis" },
    ...pairs.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", { "data-key": k }, String(v)))));
  $("an-result").replaceChildren(table(rows),
    h("h3", {}, "Every move"), rankingTable(res.ranking || [], "an-ranking"),
    h("details", { class: "ow-details" }, h("summary", {}, "details of the search"), table(details)));
});
$("an-current").addEventListener("click", () => {
  if (!view) return;
  $("an-position").value = view.position;
  $("an-rules").value = `${game.grand_slam}|${game.cycle}`;
  textToEditor(view.houses, view.stores, view.to_move);
});
$("an-play").addEventListener("click", async () => {
  if (!mayDiscard("Playing this position")) return;
  clearErrors();
  const rules = rulesOf($("an-rules"));
  const res = await api("/api/oware/state", { start: $("an-position").value, ...rules, moves: [] }, { errorAt: $("an-position") });
  if (!res) return;
  $("rules").value = $("an-rules").value;
  tab("play");
  await startGame(res.start, rules);
});
$("an-position").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("an-go").click(); });

// keys: the letter of one of your houses (as labelled, either case) sows it; Escape or space skips the sowing
document.addEventListener("keydown", (ev) => {
  if ($("play").hidden || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target.closest && ev.target.closest("input:not([type=checkbox]), textarea, select")) return;
  if (phase === "animating" && (ev.key === "Escape" || ev.key === " ")) { ev.preventDefault(); skip(); return; }
  if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") { // step back and forth through the game
    ev.preventDefault();
    browseTo((browsing ? browsing.ply : game.moves.length) + (ev.key === "ArrowLeft" ? -1 : 1));
    return;
  }
  const key = ev.key.toUpperCase();
  const offset = key.length === 1 ? "ABCDEF".indexOf(key) : -1;
  if (offset < 0) return;
  ev.preventDefault();
  clickHouse((playerSide === "South" ? "ABCDEF" : "abcdef")[offset]);
});

buildEditor();
setPhase("idle");
tab = setupTabs({ onSelect: (name) => { if (name === "review") review(); } });
historyPanel($("history-panel"), games, { score: { label: "seeds" }, luck: false,
  empty: "No games yet: each game you finish here is listed, with its review's verdict once reviewed." });
{
  // a reload continues the game kept in this browser
  const saved = savedGame();
  const pick = (id, value) => {
    if (value && [...$(id).options].some((o) => o.value === value)) $(id).value = value;
  };
  if (saved) {
    if (saved.opponent && ![...$("opponent").options].some((o) => o.value === saved.opponent)) {
      $("opponent").append(h("option", { value: saved.opponent }, opponentLabel(saved.opponent))); // a record's opponent
    }
    pick("opponent", saved.opponent);
    pick("side", saved.side);
    pick("rules", `${saved.game.grand_slam}|${saved.game.cycle}`);
    const keep = Array.isArray(saved.recommended) ? saved.recommended : [];
    const kept = { began: Number(saved.began) || 0, takebacks: Number(saved.takebacks) || 0 };
    startGame(saved.game.start, { grand_slam: saved.game.grand_slam, cycle: saved.game.cycle }, saved.game.moves, keep, kept)
      .then((ok) => {
        if (!ok) { startGame(START, rulesOf($("rules"))); return; }
        if (Array.isArray(saved.players) && saved.players.length === 2) recordPlayers = saved.players;
        saveGame();
      });
  } else {
    startGame(START, rulesOf($("rules")));
  }
}
