// Yatzy / Yahtzee page: play with the coach (solo or against a bot), the assistant, the review.
// Every number shown comes from /api/yatzy/...; this file only draws and collects input. The
// game lives here (rule set, seed, start card, moves, the bot's moves) and is sent whole with
// every request; the server replays it.
import {
  api, clearErrors, gameHistory, h, historyPanel, pct, pollJob, randomSeed, setupTabs, showError, showNote, store,
} from "/static/kit.js";

const PIPS = {
  1: [[50, 50]], 2: [[27, 27], [73, 73]], 3: [[27, 27], [50, 50], [73, 73]],
  4: [[27, 27], [73, 27], [27, 73], [73, 73]], 5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[27, 24], [73, 24], [27, 50], [73, 50], [27, 76], [73, 76]],
};
const SVG = "http://www.w3.org/2000/svg";

function dieFace(face) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  const rect = document.createElementNS(SVG, "rect");
  for (const [k, v] of Object.entries({ x: 4, y: 4, width: 92, height: 92, rx: 16, class: "die-body" })) rect.setAttribute(k, v);
  svg.append(rect);
  for (const [cx, cy] of PIPS[face] || []) {
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", cx); c.setAttribute("cy", cy); c.setAttribute("r", 9); c.setAttribute("class", "die-pip");
    svg.append(c);
  }
  return svg;
}

const fmt = (x, d = 2) => (x === null || x === undefined ? "—" : Number(x).toFixed(d));

/** A finished game's place among perfect play's scores in a sentence: "41.5: a perfect player
 *  scores lower in 40.2% of games and the same in 1.3%"; a share that is zero is left out, one
 *  that rounds to zero is "under 0.1%". */
export function rankWords(r) {
  const share = (p) => (p > 0 && p < 0.0005 ? "under 0.1%" : pct(p, 1));
  const lower = r.p_below > 0, same = r.p_equal > 0;
  const words = lower && same ? `scores lower in ${share(r.p_below)} of games and the same in ${share(r.p_equal)}`
    : lower ? `scores lower in ${share(r.p_below)} of games`
    : same ? `scores the same in ${share(r.p_equal)} of games and never lower`
    : "always scores higher";
  return `${fmt(r.percentile, 1)}: a perfect player ${words}`;
}
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- rule set and tables

const rulesState = { name: "yatzy", info: null, ready: {}, preparing: {} };

/** Show what the page is waiting for while the tables of the current rule set are built. */
function tablesNote(status) {
  const how = status.progress ? ` (${status.progress})` : "";
  return `${status.message}${how}. You can play meanwhile: the coach, the bot and the review `
    + "join as soon as the tables are ready.";
}

/** Resolves true once the rule set's tables are loaded on the server (false: refused). The
 *  server builds them in the background; meanwhile the page shows how far the build is and
 *  stays usable (a game without the coach needs no tables). One wait per rule set. */
function tablesReady(name) {
  if (rulesState.ready[name]) return Promise.resolve(true);
  if (!rulesState.preparing[name]) {
    rulesState.preparing[name] = (async () => {
      const status = await pollJob("/api/yatzy/start-preparing", { rules: name }, {
        done: (s) => s.loaded || Boolean(s.failed),
        retry: (err) => err.status === 0 || err.status === 503,  // the server is busy or restarting: ask again
        onTick: (s) => { if (!s.loaded && !s.failed && name === rulesState.name) showNote($("tables-note"), tablesNote(s)); },
      });
      // refused: say so, try again on demand
      if (!status.loaded) showError($("rules"), status.failed || status.detail);
      if (name === rulesState.name) showNote($("tables-note"), null);
      delete rulesState.preparing[name];
      if (!status.loaded) return false;
      rulesState.ready[name] = true;
      if (name === rulesState.name) {
        rulesState.info = status;
        if (play.view) renderPlay();  // the coach's buttons come alive
        if ($("coach-on").checked && play.view && !play.view.finished) askCoach();
      }
      return true;
    })();
  }
  return rulesState.preparing[name];
}

const tablesLoaded = () => Boolean(rulesState.ready[rulesState.name]);

// ---------------------------------------------------------------- play

const play = {
  seed: 1, start: "-", opponent: "none", moves: [], botMoves: [], view: null,
  held: [false, false, false, false, false], botLog: [], askCoach: false, asked: 0,
  // take-backs: for each move the take-backs made before it, and their number (the library's
  // record: whatever a move made again rolls is drawn afresh; the review marks such a game)
  draws: [], takebacks: 0,
  began: 0, // when this game began (ms): with its seed, its name in your history
};

/** Number the game requests: an answer that arrives after a later request was sent (a slow
 *  New game overtaken by another, a move sent twice) is dropped, so the latest click wins. */
function ask() {
  play.asked += 1;
  const mine = play.asked;
  return () => mine === play.asked;
}

/** Take back your last decision (and the bot's turn it let the bot play): the library's undo. */
async function undo() {
  if (!play.view || !play.moves.length) return;
  const current = ask();
  const view = await api("/api/yatzy/undo", gameBody({ coach: coachNow() }), { errorAt: $("undo") });
  if (!view || !current()) return;
  play.moves = view.moves;
  play.botLog = play.botLog.slice(0, view.bot_moves.length);
  play.askCoach = false;
  accept(view);
}

function gameBody(extra = {}) {
  return { rules: rulesState.name, seed: play.seed, start: play.start, moves: play.moves,
           opponent: play.opponent, bot_moves: play.botMoves, draws: play.draws,
           takebacks: play.takebacks, ...extra };
}

function coachWanted() {
  return $("coach-on").checked || play.askCoach;
}

/** Ask for the coach's ranking only once the tables are there (before, the game goes on
 *  without it). */
const coachNow = () => $("coach-on").checked && tablesLoaded();

// ---------------------------------------------------------------- the game across a reload

// the page's settings kept across a reload (the rules and the opponent travel with the game)
const settings = store("gamelab.yatzy.settings", { check: (v) => typeof v === "object" });
$("coach-on").checked = settings.load({}).coachOn === true;

/** The game kept in this browser (its rules, seed, start, opponent, moves, the bot's moves and
 *  turns as the server described them), so a reload continues it. */
const keptGame = store("gamelab.yatzy.game", {
  check: (v) => typeof v.rules === "string" && Number.isInteger(v.seed) && typeof v.start === "string"
    && typeof v.opponent === "string" && Array.isArray(v.moves) && Array.isArray(v.botMoves),
});

function saveGame() {
  if (!play.view) return;
  keptGame.save({ rules: rulesState.name, seed: play.seed, start: play.start, opponent: play.opponent,
    moves: play.moves, botMoves: play.botMoves, botLog: play.botLog, draws: play.draws, takebacks: play.takebacks,
    began: play.began });
}

function savedGame() {
  return keptGame.load(null);
}

/** The address replays this game's start: same rules, seed and opponent (and start card). */
function setLink(seed, opponent, start) {
  const link = new URLSearchParams({ rules: rulesState.name, seed: String(seed), opponent });
  if (start !== "-") link.set("start", start);
  history.replaceState(null, "", `${location.pathname}?${link}`);
}

/** Continue the saved game `s`; returns whether the server accepted it. */
async function resumeGame(s) {
  const current = ask();
  const body = { rules: s.rules, seed: s.seed, start: s.start, moves: s.moves, opponent: s.opponent,
                 bot_moves: s.botMoves, draws: Array.isArray(s.draws) ? s.draws : [],
                 takebacks: Number(s.takebacks) || 0, coach: coachNow() };
  let view;
  try {
    view = await api("/api/yatzy/game", body, { quiet: true });
  } catch { return false; }
  if (!current()) return false;
  play.seed = s.seed; play.start = s.start; play.opponent = s.opponent; play.moves = s.moves;
  play.botLog = Array.isArray(s.botLog) ? s.botLog : []; play.askCoach = false;
  play.began = Number(s.began) || 0;
  setLink(s.seed, s.opponent, s.start);
  accept(view);
  return true;
}

/** Ask before a game in progress (a move made, not finished) is replaced by another. */
function mayDiscard(what) {
  if (!play.view || play.view.finished || !play.moves.length) return true;
  return window.confirm(`${what} discards the game in progress (turn ${play.view.turn}). Continue?`);
}

/** Start a game from the card `start` ('-' = empty); returns whether the server accepted it.
 *  `onError(message)` places a refusal (default: next to the seed). */
async function newGame(start = play.start, onError = null) {
  const seed = Number($("seed").value);
  const opponent = $("opponent").value;
  const current = ask();
  const body = { rules: rulesState.name, seed, start, moves: [], opponent, bot_moves: [],
                 draws: [], takebacks: 0, coach: coachNow() };
  let view;
  try {
    view = await api("/api/yatzy/game", body, { quiet: true });
  } catch (err) {
    if (!current()) return false;
    if (onError) onError(err.message);
    else { clearErrors($("play")); showError($("seed"), err.message); }
    return false;
  }
  if (!current()) return false;
  clearErrors($("play"));
  play.seed = seed; play.start = start; play.opponent = opponent;
  setLink(seed, opponent, start);
  play.moves = []; play.botMoves = []; play.botLog = []; play.askCoach = false; play.began = Date.now();
  accept(view);
  return true;
}

/** Send the game with one more move; on an error nothing changes. */
async function move(text) {
  if (!play.view || play.view.finished) return;
  const moves = [...play.moves, text];
  const current = ask();
  if (play.opponent !== "none" && text.startsWith("box ") && !tablesLoaded()) {
    // the bot's turn follows and the bot plays by the tables: wait for them, saying so
    $("turn-line").textContent = "The bot plays its turn as soon as the tables are ready…";
    for (const id of ["reroll", "hint", "take-best", "undo"]) $(id).disabled = true;
    const ready = await tablesReady(rulesState.name);
    if (!current()) return;
    if (!ready) { renderPlay(); return; }
  }
  const view = await api("/api/yatzy/game", gameBody({ moves, coach: coachNow() }),
                         { errorAt: $("reroll") });
  if (!view || !current()) return;
  play.moves = moves;
  play.askCoach = false;
  accept(view);
}

function accept(view) {
  if (view.finished && !(play.view && play.view.finished)) recordGame(view);
  play.view = view;
  play.botMoves = view.bot_moves;
  play.draws = view.draws;
  play.takebacks = view.takebacks;
  if (view.bot_turn) play.botLog.push(view.bot_turn);
  play.held = [false, false, false, false, false];
  renderPlay();
  saveGame();
}

async function askCoach() {
  if (!play.view || play.view.finished) return;
  if (!tablesLoaded()) {
    // the coach needs the tables: say so where its advice will come, and come when they are
    $("coach-panel").hidden = false;
    $("coach-what").textContent = "getting its tables ready…";
    $("coach").textContent = "";
    if (!(await tablesReady(rulesState.name)) || !play.view || play.view.finished) return;
  }
  const current = ask();
  const view = await api("/api/yatzy/game", gameBody({ coach: true }), { errorAt: $("hint") });
  if (!view || !current()) return;
  play.askCoach = true;
  play.view = view;
  renderPlay();
  // on a phone the coach sits below the card: bring it into view when asked for
  const panel = $("coach-panel");
  if (panel.getBoundingClientRect().top > window.innerHeight) panel.scrollIntoView({ block: "start" });
}

function optionMove(o) {
  return o.keep !== undefined ? `keep ${o.keep}` : `box ${o.box}`;
}

function renderDice(container, faces, { held = null, onToggle = null } = {}) {
  container.textContent = "";
  faces.forEach((face, i) => {
    const isHeld = held ? held[i] : false;
    const die = h("button", { type: "button", class: `die${isHeld ? " held" : ""}`, "aria-pressed": String(isHeld),
                              "aria-label": `die ${i + 1}: ${face}${isHeld ? ", held" : ""}`,
                              dataset: { slot: String(i), face: String(face) },
                              disabled: onToggle ? null : true },
                    dieFace(face), h("span", { class: "die-label" }, isHeld ? "held" : ""));
    if (onToggle) die.addEventListener("click", () => onToggle(i));
    container.append(die);
  });
}

function renderPlay() {
  const v = play.view;
  if (!v) return;
  const you = v.you;
  $("turn-line").textContent = v.finished
    ? "Game over"
    : `Turn ${v.turn} of ${v.boxes} · ${v.rolls_left} reroll${v.rolls_left === 1 ? "" : "s"} left · you ${you.total}` +
      (v.bot ? ` · bot ${v.bot.total}` : "");
  const canHold = !v.finished && v.rolls_left > 0;
  renderDice($("dice"), v.dice, {
    held: play.held,
    onToggle: canHold ? (i) => { play.held[i] = !play.held[i]; renderPlay(); } : null,
  });
  const allHeld = play.held.every(Boolean);
  $("reroll").disabled = !canHold;
  $("reroll").textContent = allHeld && canHold ? "Stop rolling" : `Reroll${canHold ? ` (${v.rolls_left} left)` : ""}`;
  $("hint").disabled = v.finished;
  $("take-best").disabled = v.finished || !v.coach;
  $("undo").disabled = !play.moves.length;
  // only news is shown (the opponent's name and the bot's turns already say that it plays
  // for the win in its last turns); the server's label stays behind "details"
  const busy = v.note && v.note.includes("timed out");
  showNote($("game-note"), busy ? v.note : null, {
    plain: "The server was busy: the bot played this turn for its best average score instead of working out how to win." });
  const last = play.botLog.length ? play.botLog[play.botLog.length - 1] : null;
  const botLast = $("bot-last");
  botLast.hidden = !last;
  botLast.textContent = last
    ? `The bot's turn ${last.turn}: rolled ${last.rolls.join(" → ")}, scored ${last.points} in ${pretty(last.decisions[last.decisions.length - 1].label)}.`
    : "";
  const result = $("result");
  result.hidden = !v.finished;
  result.textContent = "";
  if (v.finished) {
    result.append(h("strong", {}, v.result), " ",
                  h("button", { type: "button", id: "open-review", onclick: () => openTab("review") }, "Review this game"));
  }
  const info = $("start-info");
  info.hidden = play.start === "-";
  info.textContent = play.start === "-" ? "" : `Started from the card ${play.start}`;
  renderCard($("card"), v);
  renderCoach(v);
  renderBotLog();
}

function renderCard(table, v) {
  table.textContent = "";
  const withBot = Boolean(v.bot);
  table.append(h("thead", {}, h("tr", {}, h("th", {}, "box"), h("th", {}, "you"),
                                withBot ? h("th", {}, "bot") : null, h("th", {}, v.finished ? "" : "these dice"))));
  const body = h("tbody", {});
  const bestBox = v.coach && v.coach.options.length && v.coach.options[0].box;
  const upperRows = v.rows.filter((r) => r.upper);
  v.rows.forEach((row, i) => {
    const open = row.you === null && !v.finished;
    const cell = open && row.would_score !== null
      ? h("td", {}, h("button", { type: "button", class: `score-btn${bestBox === row.label ? " best" : ""}`,
                                  dataset: { box: row.label }, onclick: () => move(`box ${row.label}`),
                                  title: `score ${row.would_score} in ${row.label}` },
                                row.would_bonus ? `${row.would_score - row.would_bonus} + ${row.would_bonus}` : String(row.would_score)))
      : h("td", {});
    body.append(h("tr", { class: row.you === null ? "open" : "filled", dataset: { box: row.box } },
                  h("td", {}, pretty(row.label)), h("td", {}, row.you === null ? "" : String(row.you)),
                  withBot ? h("td", {}, row.bot === null ? "" : String(row.bot)) : null, cell));
    if (row.upper && i === upperRows.length - 1) body.append(upperSummary(v, withBot));
  });
  const yb = v.you.yahtzee_bonuses || (v.bot && v.bot.yahtzee_bonuses);
  if (yb) {
    body.append(h("tr", { class: "sum" }, h("td", {}, "Yahtzee bonuses"), h("td", {}, String(v.you.yahtzee_bonuses)),
                  withBot ? h("td", {}, String(v.bot.yahtzee_bonuses)) : null, h("td", {})));
  }
  body.append(h("tr", { class: "total" }, h("td", {}, "total"), h("td", { id: "total-you" }, String(v.you.total)),
                withBot ? h("td", {}, String(v.bot.total)) : null, h("td", {})));
  table.append(body);
}

function upperSummary(v, withBot) {
  const progress = (s) => {
    const share = Math.min(1, s.upper_total / s.upper_target);
    return h("div", { class: "upper-progress", title: `${s.upper_total} of ${s.upper_target}` },
             h("div", { class: `bar${s.upper_bonus_earned ? " done" : ""}`, style: `width:${(100 * share).toFixed(0)}%` }));
  };
  const text = (s) => (s.upper_bonus_earned ? `${s.upper_total} ✓ +${s.upper_bonus}` : `${s.upper_total} / ${s.upper_target}`);
  return h("tr", { class: "sum upper-sum" },
           h("td", {}, "upper", h("span", { class: "upper-rule" }, ` (bonus ${v.you.upper_bonus} at ${v.you.upper_target})`)),
           h("td", { id: "upper-you" }, text(v.you), progress(v.you)),
           withBot ? h("td", {}, text(v.bot), progress(v.bot)) : null, h("td", {}));
}

function renderCoach(v) {
  const panel = $("coach-panel");
  const waiting = !v.coach && !v.finished && !tablesLoaded() && coachWanted();
  panel.hidden = !v.coach && !waiting;
  if (waiting) {
    $("coach-what").textContent = "getting its tables ready…";
    $("coach").textContent = "";
  }
  if (!v.coach) return;
  $("coach-what").textContent = v.coach.rolls_left ? `keeps with ${v.coach.rolls_left} reroll${v.coach.rolls_left === 1 ? "" : "s"} left` : "boxes";
  fillOptions($("coach"), v.coach, (o) => move(optionMove(o)));
}

/** Options shown before "show all": a phone shows the top three, so that the dice, the advice
 *  and the card fit one screen. */
const shownOptions = () => (window.matchMedia("(max-width: 600px)").matches ? 3 : 10);
/** A box or move label as a player says it: "three of a kind", "reroll all" for "keep -". */
const pretty = (label) => label.replace(/_/g, " ").replace(/\b(three|four) kind\b/, "$1 of a kind")
  .replace(/^keep -$/, "reroll all");
/** A keep in words that cannot read as a count: "kept 1 die (5) from 11345". */
const keptText = (choice, dice) => choice === "-" ? `rerolled all five (${dice})`
  : choice === dice ? `kept all (${dice})`
  : `kept ${choice.length} ${choice.length === 1 ? "die" : "dice"} (${choice}) from ${dice}`;

function fillOptions(table, advice, onPick, showAll = false) {
  table.textContent = "";
  const kind = advice.rolls_left ? "keep" : "box";
  table.append(h("thead", {}, h("tr", {}, h("th", {}, kind), kind === "box" ? h("th", {}, "points") : null,
                                h("th", {}, "expected final score"), h("th", {}, "loss"))));
  const body = h("tbody", {});
  const shown = showAll ? advice.options : advice.options.slice(0, shownOptions());
  shown.forEach((o, i) => {
    const label = o.keep !== undefined
      ? (o.keep === "-" ? "reroll all" : o.keep.length === 5 ? `${o.keep} (keep all: score now)` : o.keep)
      : pretty(o.label);
    const tr = h("tr", { class: `option${i === 0 ? " best" : ""}`, dataset: { option: o.keep !== undefined ? o.keep : o.box },
                         tabindex: onPick ? "0" : null },
                 h("td", {}, label, i === 0 ? h("span", { class: "best-tag" }, "best") : null),
                 kind === "box" ? h("td", {}, String(o.points)) : null,
                 h("td", { class: "value" }, fmt(o.expected_score, 3)), h("td", {}, fmt(o.loss, 3)));
    if (onPick) {
      tr.addEventListener("click", () => onPick(o));
      tr.addEventListener("keydown", (ev) => { if (ev.key === "Enter") onPick(o); });
    }
    body.append(tr);
  });
  if (shown.length < advice.options.length) {
    const more = h("button", { type: "button", class: "secondary small more-options" },
                   `show all ${advice.options.length} options`);
    more.addEventListener("click", () => fillOptions(table, advice, onPick, true));
    body.append(h("tr", {}, h("td", { colspan: kind === "box" ? "4" : "3" }, more)));
  }
  table.append(body);
}

/** The win-play bot's chances at its turn's start, each named as it is (a draw is no half win). */
function winChances(turn) {
  return `P(bot wins) ${pct(turn.win_probability, 1)}, P(draw) ${pct(turn.draw_probability, 1)}, `
    + `P(bot loses) ${pct(turn.loss_probability, 1)}`;
}

function renderBotLog() {
  const panel = $("bot-panel");
  panel.hidden = play.opponent === "none" || !play.botLog.length;
  const list = $("bot-log");
  list.textContent = "";
  for (const turn of [...play.botLog].reverse()) {
    const steps = turn.decisions.map((d) => {
      const what = d.kind === "keep" ? keptText(d.choice, d.dice)
        : `scored ${d.points} in ${pretty(d.label)}`;
      const loss = d.loss > 0 ? `, ${fmt(d.loss)} below the best` : "";
      return `${what} (expected final ${fmt(d.expected_score)}${loss})`;
    });
    const policy = turn.policy === "win play"
      ? h("span", { class: "tag win" }, `played for the win: ${winChances(turn)}`)
      : h("span", { class: "tag" }, `played for the expected score${turn.reason ? `: ${turn.reason}` : ""}`);
    list.append(h("li", {}, h("strong", {}, `Turn ${turn.turn}: `),
                  `rolled ${turn.rolls.join(" → ")}; ${steps.join("; ")} `, policy));
  }
}

function setupPlay() {
  $("new-game").addEventListener("click", () => { if (mayDiscard("A new game")) newGame("-"); });
  $("random-game").addEventListener("click", () => {
    if (!mayDiscard("A new game")) return;
    $("seed").value = String(randomSeed());
    newGame("-");
  });
  $("seed").addEventListener("keydown", (ev) => { if (ev.key === "Enter" && mayDiscard("A new game")) newGame("-"); });
  $("reroll").addEventListener("click", () => {
    if (!play.view) return;
    move(`hold ${play.held.map((x) => (x ? "1" : "0")).join("")}`);
  });
  $("hint").addEventListener("click", askCoach);
  $("undo").addEventListener("click", undo);
  $("take-best").addEventListener("click", () => {
    const c = play.view && play.view.coach;
    if (c && c.options.length) move(optionMove(c.options[0]));
  });
  $("coach-on").addEventListener("change", () => {
    settings.save({ ...settings.load({}), coachOn: $("coach-on").checked });
    if ($("coach-on").checked) askCoach();
    else if (play.view) { play.view.coach = null; play.askCoach = false; renderPlay(); }
  });
  $("opponent").addEventListener("change", () => {
    // the opponent is part of the game: changing it starts another one, after asking
    if (mayDiscard("Changing the opponent")) newGame(play.start);
    else $("opponent").value = play.opponent;
  });
  document.addEventListener("keydown", playKey);
}

/** Keys on the Play tab: 1-5 hold or release a die, R reroll, C ask the coach, B take its choice. */
function playKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || $("play").hidden) return;
  if (ev.target.closest && ev.target.closest("input:not([type=checkbox]), select, textarea")) return;
  const v = play.view;
  if (!v || v.finished) return;
  const key = ev.key.toLowerCase();
  if (key >= "1" && key <= "5" && v.rolls_left > 0) {
    const i = Number(key) - 1;
    play.held[i] = !play.held[i];
    renderPlay();
  } else if (key === "r" && !$("reroll").disabled) $("reroll").click();
  else if (key === "c" && !$("hint").disabled) $("hint").click();
  else if (key === "b" && !$("take-best").disabled) $("take-best").click();
  else return;
  ev.preventDefault();
}

// ---------------------------------------------------------------- assistant

function assistCardText() {
  const parts = [];
  for (const input of $("assist-card").querySelectorAll("input[data-box]")) {
    if (input.value.trim() !== "") parts.push(`${input.dataset.box}=${input.value.trim()}`);
  }
  return parts.join(",") || "-";
}

function buildAssistCard() {
  const info = rulesState.info;
  const table = $("assist-card");
  table.textContent = "";
  table.append(h("thead", {}, h("tr", {}, h("th", {}, "box"), h("th", {}, "points (empty = open)"))));
  const body = h("tbody", {});
  info.boxes.forEach((box, i) => {
    body.append(h("tr", {}, h("td", {}, pretty(info.labels[i])),
                  h("td", {}, h("input", { type: "text", inputmode: "numeric", class: "yz-points", "aria-label": `${info.labels[i]} points`,
                                           dataset: { box }, maxlength: "3", autocomplete: "off" }))));
  });
  if (info.yahtzee_bonus) {
    body.append(h("tr", {}, h("td", {}, `Yahtzee bonuses (${info.yahtzee_bonus} each)`),
                  h("td", {}, h("input", { type: "text", inputmode: "numeric", class: "yz-points", "aria-label": "Yahtzee bonuses earned",
                                           dataset: { box: "bonus" }, maxlength: "2", autocomplete: "off" }))));
  }
  table.append(body);
  for (const input of body.querySelectorAll("input")) {
    input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") advise(); });
  }
}

function diceDigits() {
  return $("assist-dice").value.replace(/[^0-9]/g, "");
}

function renderAssistDice() {
  const digits = diceDigits();
  const view = $("assist-dice-view");
  view.textContent = "";
  [...digits].forEach((ch, i) => {
    const face = Number(ch);
    const die = h("button", { type: "button", class: "die", "aria-label": `remove die ${i + 1} (${ch})`, title: "click to remove" },
                  face >= 1 && face <= 6 ? dieFace(face) : h("span", { class: "die-bad" }, ch));
    die.addEventListener("click", () => {
      $("assist-dice").value = digits.slice(0, i) + digits.slice(i + 1);
      renderAssistDice();
    });
    view.append(die);
  });
}

async function advise() {
  const root = $("assist");
  const body = { rules: rulesState.name, card: assistCardText(), dice: $("assist-dice").value,
                 rolls_left: Number($("assist-rolls").value) };
  if (!(await tablesReady(rulesState.name))) return;
  let result;
  try {
    result = await api("/api/yatzy/advise", body, { quiet: true });
  } catch (err) {
    clearErrors(root);
    $("assist-options").textContent = "";  // the advice was for other input: never beside an error
    if (/^dice|^rolls_left|^dice:/.test(err.message)) showError($("assist-dice"), err.message);
    else if (/^rolls left/.test(err.message)) showError($("assist-rolls"), err.message);
    else {
      const box = (/\b(?:box |^)([a-z_]+)(?:=| is)/.exec(err.message) || [])[1];
      const input = box && $("assist-card").querySelector(`input[data-box="${box}"]`);
      if (input) input.setAttribute("aria-invalid", "true");
      const el = $("assist-card-error");
      el.textContent = err.message;
      el.hidden = false;
    }
    return;
  }
  clearErrors(root);
  fillOptions($("assist-options"), result, null);
}

function setupAssist() {
  const faces = $("assist-faces");
  for (let f = 1; f <= 6; f++) {
    const b = h("button", { type: "button", class: "die face-btn", "aria-label": `add a ${f}`, dataset: { face: String(f) } }, dieFace(f));
    b.addEventListener("click", () => {
      const digits = diceDigits();
      if (digits.length >= 5) return;
      $("assist-dice").value = digits + String(f);
      renderAssistDice();
      if (digits.length === 4) advise();
    });
    faces.append(b);
  }
  $("assist-dice").addEventListener("input", renderAssistDice);
  $("assist-dice").addEventListener("keydown", (ev) => { if (ev.key === "Enter") advise(); });
  $("assist-rolls").addEventListener("change", () => diceDigits().length && advise());
  $("assist-go").addEventListener("click", advise);
  $("assist-clear").addEventListener("click", () => {
    for (const input of $("assist-card").querySelectorAll("input")) input.value = "";
    $("assist-dice").value = "";
    $("assist-options").textContent = "";
    clearErrors($("assist"));
    renderAssistDice();
  });
  $("assist-play").addEventListener("click", async () => {
    clearErrors($("assist"));
    const ok = await newGame(assistCardText(), (message) => {
      const el = $("assist-card-error");
      el.textContent = message;
      el.hidden = false;
    });
    if (ok) openTab("play");
  });
}

// ---------------------------------------------------------------- review

let reviewAsked = 0;

async function loadReview() {
  if (!play.view) {
    $("review-empty").hidden = false;
    $("review-body").hidden = true;
    return;
  }
  reviewAsked += 1;
  const mine = reviewAsked;
  $("review-body").classList.add("stale");  // the last review stays greyed until the new one comes
  const empty = $("review-empty");
  if (!tablesLoaded()) {
    empty.hidden = false;
    empty.textContent = "The review values every decision by the tables, which are still being built: it comes as soon as they are ready.";
    if (!(await tablesReady(rulesState.name)) || mine !== reviewAsked) return;
  }
  if ($("review-body").hidden) { // nothing shown yet: say what is coming, never "play a game first"
    empty.hidden = false;
    empty.textContent = "Reviewing your game…";
  }
  const info = rulesState.info;
  const slow = play.view.finished && play.start === "-" && info && !info.distribution_cached;
  const began = Date.now();
  const say = () => showNote($("tables-note"), `computing the exact final-score distribution of ${rulesState.name} for the review (first time on this server, about a core-minute; cached afterwards): ${Math.round((Date.now() - began) / 1000)} s so far…`);
  let ticking = null;
  if (slow) { say(); ticking = setInterval(() => { if (mine === reviewAsked) say(); }, 1000); }
  // the chart is drawn at the width it is shown at, so its labels keep their size on a phone
  const box = $("review-plot").clientWidth || $("review").clientWidth || 640;
  const chartWidth = Math.round(Math.min(680, Math.max(280, box)));
  const r = await api("/api/yatzy/review", gameBody({ chart_width: chartWidth }),
                      { errorAt: null });
  if (ticking) clearInterval(ticking);
  if (mine !== reviewAsked) return;  // a later review was asked for
  if (slow) showNote($("tables-note"), null);
  $("review-body").classList.remove("stale");
  if (!r) { empty.hidden = true; empty.textContent = "Play a game on the Play tab first."; return; }
  if (slow && info) info.distribution_cached = true;
  if (r.finished && play.view && play.view.finished && games.find(gameId(play.view))) {
    games.record({ id: gameId(play.view), ...verdictOf(r) });
  }
  empty.hidden = true;
  empty.textContent = "Play a game on the Play tab first.";
  $("review-body").hidden = false;
  const stats = $("review-stats");
  stats.textContent = "";
  const add = (dt, dd, id) => stats.append(h("dt", {}, dt), h("dd", { id }, dd));
  add("Decisions", String(r.decisions.length), "review-count");
  add("Points your choices gave away (skill)", `${fmt(r.total_loss, 3)} expected points`, "review-loss");
  add("Expected score with perfect play from the start", fmt(r.start_expected), "review-start");
  if (r.finished) {
    add("Final score", String(r.final_score), "review-final");
    add("Luck", `${r.luck >= 0 ? "+" : ""}${fmt(r.luck)} points`, "review-luck");
    add("Your place among perfect play's scores (percentile)",
        rankWords(r),
        "review-percentile");
  } else {
    add("Status", r.note, "review-note");
  }
  if (r.worst) add("Costliest decision", `turn ${r.worst.turn}: ${describe(r.worst)} (−${fmt(r.worst.loss, 3)})`, "review-worst");
  $("review-plot").innerHTML = r.svg || "";  // the library's SVG
  const table = $("review-decisions");
  table.textContent = "";
  // on a phone the two expected scores and the rerolls leave the table (wide-only) for the
  // titles of the loss and dice cells, so the loss column stays on screen
  const wide = new Set(["rerolls left", "expected final", "best expected"]);
  table.append(h("thead", {}, h("tr", {}, ...["turn", "dice", "rerolls left", "your choice", "expected final", "best", "best expected", "loss"]
    .map((t) => h("th", { class: wide.has(t) ? "wide-only" : null }, t)))));
  const body = h("tbody", {});
  const undone = new Set(r.undone || []);
  r.decisions.forEach((d, i) => {
    const again = undone.has(i + 1);
    const rerolls = `${d.rolls_left} reroll${d.rolls_left === 1 ? "" : "s"} left`;
    body.append(h("tr", { class: [d.loss > 0.005 ? "lossy" : "", again ? "undone" : ""].join(" ").trim() || null,
                          dataset: { decision: String(i + 1) } }, h("td", {}, String(d.turn)),
                  h("td", { title: rerolls }, d.dice),
                  h("td", { class: "wide-only" }, String(d.rolls_left)), h("td", {}, describe(d),
                    again ? h("span", { class: "tag undone-tag", title: "taken back and made again: the dice that followed were drawn afresh" }, "after an undo") : null),
                  h("td", { class: "wide-only" }, fmt(d.expected_score, 3)),
                  h("td", {}, pretty(d.best)), h("td", { class: "wide-only" }, fmt(d.best_expected_score, 3)),
                  h("td", { class: "loss", title: `expected final ${fmt(d.expected_score, 3)}; best ${fmt(d.best_expected_score, 3)} (${rerolls})` },
                    fmt(d.loss, 3))));
  });
  table.append(body);
  if (undone.size) add("Decisions made again after an undo", `${undone.size} (marked in the table)`, "review-undone");
  if (r.takebacks_note) add("Take-backs", r.takebacks_note, "review-takebacks");
}

function describe(d) {
  if (d.kind === "box") return `box ${pretty(d.label)} (${d.points})`;
  return d.choice === "-" ? "reroll all" : `keep ${d.choice}`;
}

// ---------------------------------------------------------------- tabs, rules

// the kit's tabs: arrow keys move between them, Back returns to the tab before, a reload keeps it
let openTab = () => {};

// ---------------------------------------------------------------- your games (history)

const games = gameHistory("yatzy");
const OPPONENT_WORDS = { none: "solitaire", optimal: "vs the optimal bot", win: "vs the win-play bot" };

/** The history's name of the game on show: its rules, seed, start, opponent and when it began
 *  (a take-back continues the same game; the same seed played again is another). */
const gameId = (view) => `${view.rules}:${view.seed}:${view.start}:${view.opponent}:${play.began}`;

/** A finished game's entry in the history (its review's verdict joins it when reviewed). */
function recordGame(view) {
  const you = view.you.total;
  const bot = view.bot ? view.bot.total : null;
  games.record({
    id: gameId(view),
    label: `${view.rules}, seed ${view.seed}, ${OPPONENT_WORDS[view.opponent] || view.opponent}`,
    result: bot === null ? `${you} points` : you > bot ? `won ${you}-${bot}` : you < bot ? `lost ${you}-${bot}` : `draw ${you}-${bot}`,
    won: bot === null ? null : you > bot ? true : you < bot ? false : null,
    score: you,
    marks: view.takebacks ? [`${view.takebacks} take-back${view.takebacks === 1 ? "" : "s"}`] : [],
    replay: { rules: view.rules, seed: view.seed, start: view.start, moves: view.moves, opponent: view.opponent,
              bot_moves: view.bot_moves, draws: view.draws, takebacks: view.takebacks },
  });
}

/** The review's verdict in words: one skill figure, one luck figure (expected points). */
function verdictOf(r) {
  const luck = r.luck === null || r.luck === undefined ? null
    : Math.abs(r.luck) < 0.05 ? "even: the dice gave what was expected"
      : `${r.luck > 0 ? "lucky" : "unlucky"}: the dice gave ${Math.abs(r.luck).toFixed(1)} points ${r.luck > 0 ? "more" : "less"} than expected`;
  return {
    skill: r.total_loss < 0.005 ? "every decision the best one" : `gave away ${r.total_loss.toFixed(1)} expected points`,
    luck: r.takebacks ? `${luck} (with take-backs)` : luck,
  };
}

async function reviewFromHistory(entry) {
  const r = await api("/api/yatzy/review", { ...entry.replay, chart_width: 640 }, { errorAt: $("history-panel") });
  if (r) games.record({ id: entry.id, ...verdictOf(r) });
}

async function setRules(name, start = "-", saved = null) {
  rulesState.name = name;
  // the game on show belongs to the old rules: nothing to click until the new one starts
  ask();
  play.view = null;
  $("turn-line").textContent = "Preparing the game…";
  $("dice").textContent = "";
  $("card").textContent = "";
  $("coach-panel").hidden = true;
  $("result").hidden = true;
  $("bot-last").hidden = true;
  for (const id of ["reroll", "hint", "take-best", "undo"]) $(id).disabled = true;
  const status = await api("/api/yatzy/status", { rules: name }, { errorAt: $("rules") });
  if (!status || name !== rulesState.name) return;
  rulesState.info = status;
  $("rules-info").textContent = `${status.description}; upper bonus ${status.upper_bonus} at 63`;
  if (status.loaded) rulesState.ready[name] = true;
  else tablesReady(name);  // built in the background; the game starts now, without the coach
  buildAssistCard();
  $("assist-options").textContent = "";
  if (!(saved && (await resumeGame(saved)))) await newGame(start);
  if (!$("review").hidden) loadReview(); // a reload on the Review tab reviews the game it restored
}

openTab = setupTabs({ onSelect: (name) => { if (name === "review") loadReview(); } });
setupPlay();
setupAssist();
historyPanel($("history-panel"), games, { score: { label: "score" }, onReview: reviewFromHistory });
$("rules").addEventListener("change", () => {
  if (mayDiscard("Changing the rules")) setRules($("rules").value);
  else $("rules").value = rulesState.name;
});
// a shared link (?rules=yahtzee&seed=7&opponent=optimal&start=...) starts that game
const shared = new URLSearchParams(location.search);
let resumable = null;
{
  const pick = (id, value) => {
    if (value !== null && [...$(id).options].some((o) => o.value === value)) $(id).value = value;
  };
  // a reload continues the game kept in this browser (unless the address names another game)
  const saved = savedGame();
  const same = saved && (shared.get("seed") === null
    || (shared.get("seed") === String(saved.seed) && (shared.get("rules") || "yatzy") === saved.rules
        && (shared.get("opponent") || "none") === saved.opponent && (shared.get("start") || "-") === saved.start));
  resumable = same ? saved : null;
  if (resumable) {
    pick("rules", resumable.rules);
    pick("opponent", resumable.opponent);
    $("seed").value = String(resumable.seed);
  } else {
    pick("rules", shared.get("rules"));
    pick("opponent", shared.get("opponent"));
    if (shared.get("seed") !== null) $("seed").value = shared.get("seed");
  }
}
setRules($("rules").value, resumable ? resumable.start : shared.get("start") || "-", resumable);
