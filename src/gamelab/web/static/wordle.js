// Pokémon Wordle page: assistant, practice games, review. Every number shown comes from
// /api/wordle/...; this file only draws and collects input.
import {
  api, clearErrors, gameHistory, h, historyPanel, labelCells, plural, pollJob, randomSeed, setupTabs, showError, showNote, store,
} from "/static/kit.js";

const $ = (id) => document.getElementById(id);
const COLOUR_CLASS = ["grey", "yellow", "green"];
const COLOUR_NAME = ["grey", "yellow", "green"];

/** The setting as the API takes it: the player's game and mode, and the analysis settings
 *  (colour rule, strict hard mode) from their disclosure. */
function setting() {
  const hard = $("pw-hard").value === "off" ? "off" : $("pw-hard-rule").value;
  return { names: $("pw-names").value, rule: $("pw-rule").value, hard };
}

let choices = null;  // /api/wordle/settings: the named settings, the live game first
const narrow = window.matchMedia("(max-width: 600px)");

/** Fill the game chooser from the server's named settings (daily, endless up to each
 *  generation, then the 2022 list and the post's setting). */
async function loadChoices() {
  choices = await api("/api/wordle/settings", undefined, { quiet: true }).catch(() => null);
  if (!choices) return;
  const select = $("pw-names");
  select.textContent = "";
  const groups = { live: h("optgroup", { label: "the live game" }), other: h("optgroup", { label: "other lists" }) };
  for (const c of choices.choices) {
    groups[c.group].append(h("option", { value: c.spec, title: c.label, selected: c.spec === choices.default ? "" : null }, c.label));
  }
  select.append(groups.live, groups.other);
  select.value = choices.default;
  nameChoices();
}

/** On a narrow screen the chooser names each game by its short label (the whole label did not
 *  fit the closed chooser) and the line under it gives the whole label. */
function nameChoices() {
  if (!choices) return;
  for (const c of choices.choices) {
    const option = $("pw-names").querySelector(`option[value="${CSS.escape(c.spec)}"]`);
    if (option) option.textContent = narrow.matches ? c.short_label : c.label;
  }
  describeChoice();
}
narrow.addEventListener("change", nameChoices);

function describeChoice() {
  const c = choices && choices.choices.find((x) => x.spec === $("pw-names").value);
  $("pw-names-info").textContent = c ? (narrow.matches ? `${c.label}. ` : "") +
    `${c.answers} possible answers; ${c.guesses} names may be guessed` +
    (c.spec === choices.post ? " (the post's setting)" : "") : "";  // readiness: #pw-strategy
}

function fmt(x, digits = 3) {
  return x === null || x === undefined ? "—" : Number(x).toFixed(digits);
}

function nameLabel(name, english, dex) {
  return h("span", { class: "pw-nm" }, h("span", { class: "ja" }, name),
    english ? h("span", { class: "en" }, ` ${english}`) : null,
    dex ? h("span", { class: "dex" }, ` #${dex}`) : null);
}

// ---------------------------------------------------------------- name input + autocomplete

const pickers = [];

/** Autocomplete on a name input: suggestions from /api/wordle/names (both scripts, only the
 *  chosen list); arrows + Enter or a click/tap picks one. `onPick(name)` when Enter is pressed
 *  on a picked or complete name. */
function namePicker(input, onEnter) {
  const list = h("ul", { class: "pw-suggest", role: "listbox", hidden: true });
  input.insertAdjacentElement("afterend", list);
  input.setAttribute("aria-controls", list.id = `${input.id}-list`);
  const state = { items: [], active: -1, seq: 0 };

  function close() { list.hidden = true; state.items = []; state.active = -1; }

  function render() {
    list.textContent = "";
    state.items.forEach((m, i) => {
      const li = h("li", { role: "option", class: i === state.active ? "active" : "", "aria-selected": String(i === state.active),
                           dataset: { name: m.name } }, nameLabel(m.name, m.english, m.dex));
      li.addEventListener("pointerdown", (ev) => { ev.preventDefault(); pick(m.name); });
      list.append(li);
    });
    list.hidden = state.items.length === 0;
    // the list opens upwards (the keyboard and the buttons below stay free), as high as the
    // room above the input allows
    list.style.maxHeight = `${Math.max(120, Math.min(320, input.getBoundingClientRect().top - 8))}px`;
  }

  function pick(name) {
    input.value = name;
    close();
    input.focus();
  }

  async function update() {
    const text = input.value.trim();
    const seq = ++state.seq;
    if (!text) { close(); return; }
    let res;
    try {
      res = await api("/api/wordle/names", { names: setting().names, text, limit: 8 }, { quiet: true });
    } catch { return; }
    if (seq !== state.seq) return;  // a newer keystroke answered first
    state.items = res.matches;
    state.active = -1;  // nothing chosen until the player moves to a suggestion (or taps it)
    render();
  }

  input.addEventListener("input", update);
  input.addEventListener("blur", () => setTimeout(close, 150));
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      if (!state.items.length) return;
      ev.preventDefault();
      const step = ev.key === "ArrowDown" ? 1 : -1;
      state.active = (state.active + step + state.items.length) % state.items.length;
      render();
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      // a suggestion the player moved to is picked; otherwise the typed text itself is the
      // guess, and the server says whether it is a name (no nearest match is taken for it)
      if (!list.hidden && state.active >= 0) pick(state.items[state.active].name);
      else { close(); onEnter(); }
    } else if (ev.key === "Escape") {
      close();
    }
  });
  const picker = { input, update, close };
  pickers.push(picker);
  return picker;
}

// ---------------------------------------------------------------- on-screen katakana keyboard

const GOJUON = [
  "アイウエオ", "カキクケコ", "サシスセソ", "タチツテト", "ナニヌネノ",
  "ハヒフヘホ", "マミムメモ", "ヤ　ユ　ヨ", "ラリルレロ", "ワ　　　ヲ", "ン",
];
const DAKUTEN = { カ: "ガ", キ: "ギ", ク: "グ", ケ: "ゲ", コ: "ゴ", サ: "ザ", シ: "ジ", ス: "ズ", セ: "ゼ", ソ: "ゾ",
  タ: "ダ", チ: "ヂ", ツ: "ヅ", テ: "デ", ト: "ド", ハ: "バ", ヒ: "ビ", フ: "ブ", ヘ: "ベ", ホ: "ボ", ウ: "ヴ" };
const HANDAKUTEN = { ハ: "パ", ヒ: "ピ", フ: "プ", ヘ: "ペ", ホ: "ポ" };
const SMALL = { ア: "ァ", イ: "ィ", ウ: "ゥ", エ: "ェ", オ: "ォ", ツ: "ッ", ヤ: "ャ", ユ: "ュ", ヨ: "ョ", ワ: "ヮ" };
const SYMBOLS = ["ー", "♀", "♂", "２", "Ｚ"];
const invert = (m) => Object.fromEntries(Object.entries(m).map(([a, b]) => [b, a]));
const BASE_OF = { ...invert(DAKUTEN), ...invert(HANDAKUTEN), ...invert(SMALL) };

let kbdTarget = null;  // the name input the keyboard types into

function modify(ch, table) {
  const base = BASE_OF[ch] || ch;
  if (table[base] && table[base] !== ch) return table[base];
  return base;  // pressing again undoes it (ガ -> カ)
}

function buildKeyboard() {
  const kbd = $("kana-keyboard");
  kbd.textContent = "";
  const grid = h("div", { class: "pw-kbd-grid" });
  // gojūon order: columns ア カ サ ... right to left as printed in Japan would be unfamiliar here,
  // so left to right, each column top to bottom (a i u e o)
  GOJUON.forEach((col, c) => {
    [...col].forEach((ch, r) => {
      if (ch === "　") return;
      const key = h("button", { type: "button", class: "pw-key", dataset: { kana: ch }, "aria-label": ch }, ch);
      key.style.gridColumn = String(c + 1);
      key.style.gridRow = String(r + 1);
      grid.append(key);
    });
  });
  const mods = h("div", { class: "pw-kbd-mods" },
    h("button", { type: "button", class: "pw-key mod", dataset: { mod: "dakuten" }, title: "dakuten (カ→ガ)" }, "゛"),
    h("button", { type: "button", class: "pw-key mod", dataset: { mod: "handakuten" }, title: "handakuten (ハ→パ)" }, "゜"),
    h("button", { type: "button", class: "pw-key mod", dataset: { mod: "small" }, title: "small kana (ツ→ッ)" }, "小"),
    ...SYMBOLS.map((s) => h("button", { type: "button", class: "pw-key", dataset: { kana: s } }, s)),
    h("button", { type: "button", class: "pw-key mod", dataset: { mod: "back" }, title: "delete", "aria-label": "delete" }, "⌫"),
    h("button", { type: "button", class: "pw-key mod enter", dataset: { mod: "enter" }, title: "enter" }, "⏎"));
  const extra = h("p", { class: "small muted pw-kbd-extra", id: "kbd-extra" });
  kbd.append(grid, mods, extra);
  // pointerdown (mouse, touch, pen) keeps the focus in the name input
  kbd.addEventListener("pointerdown", (ev) => {
    const key = ev.target.closest(".pw-key");
    if (!key) return;
    ev.preventDefault();
    const input = kbdTarget || $("assist-name");
    let value = input.value;
    const mod = key.dataset.mod;
    if (mod === "back") value = value.slice(0, -1);
    else if (mod === "enter") { input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true })); return; }
    else if (mod) {
      const table = { dakuten: DAKUTEN, handakuten: HANDAKUTEN, small: SMALL }[mod];
      if (value) value = value.slice(0, -1) + modify(value.slice(-1), table);
    } else value += key.dataset.kana;
    input.value = value;
    input.focus();
    input.dispatchEvent(new Event("input"));
  });
}

/** Colour the keyboard's keys by the kana used in a practice game (null clears). */
function colourKeyboard(keyboard) {
  for (const key of document.querySelectorAll("#kana-keyboard .pw-key[data-kana]")) {
    key.classList.remove(...COLOUR_CLASS);
    const c = keyboard ? keyboard[key.dataset.kana] : undefined;
    if (c !== undefined) key.classList.add(COLOUR_CLASS[c]);
  }
  const shown = new Set([...document.querySelectorAll("#kana-keyboard .pw-key[data-kana]")].map((k) => k.dataset.kana));
  const others = keyboard ? Object.entries(keyboard).filter(([ch]) => !shown.has(ch)) : [];
  const extra = $("kbd-extra");
  extra.textContent = "";
  if (others.length) {
    extra.append("also used: ", ...others.map(([ch, c]) => h("span", { class: `pw-mini ${COLOUR_CLASS[c]}` }, ch)));
  }
}

// ---------------------------------------------------------------- tiles

function tiles(name, colours, { onChange = null, onSubmit = null, label = "" } = {}) {
  const row = h("div", { class: "pw-tiles" });
  [...name].forEach((ch, i) => {
    const c = Number(colours[i] || 0);
    const tile = h(onChange ? "button" : "span", {
      type: onChange ? "button" : null, class: `pw-tile ${COLOUR_CLASS[c]}`,
      "aria-label": `${label}${ch}: ${COLOUR_NAME[c]}`, dataset: { index: String(i) } }, ch);
    if (onChange) {
      tile.addEventListener("click", () => onChange(i, (c + 1) % 3));
      tile.addEventListener("keydown", (ev) => {
        if (["0", "1", "2"].includes(ev.key)) { ev.preventDefault(); onChange(i, Number(ev.key), true); }
        else if (ev.key === "Enter" && onSubmit) { ev.preventDefault(); onSubmit(); }
      });
    }
    row.append(tile);
  });
  return row;
}

// ---------------------------------------------------------------- assistant

const assist = { rows: [], seq: 0, advice: null, checked: true };

function assistHistory(rows = assist.rows) {
  return rows.map((r) => ({ guess: r.name, colours: r.colours }));
}

/** Change the colours of guess `k` on the page only: a colouring is checked when the player
 *  submits it (Check colours, Enter), so any in-between colouring can be clicked through. */
function setColours(k, colours, focusIndex = null) {
  assist.rows = assist.rows.map((r, j) => (j === k ? { ...r, colours } : r));
  markUnchecked();
  renderAssistRows();
  if (focusIndex !== null) {
    const tile = document.querySelector(`#assist-rows [data-row="${k}"] .pw-tile[data-index="${focusIndex}"]`);
    if (tile) tile.focus();
  }
}

function markUnchecked() {
  assist.checked = false;
  $("assist-check").hidden = assist.rows.length === 0;
  $("assist-result").classList.add("pw-stale");
  $("assist-pending").hidden = assist.rows.length === 0;
  $("assist-use").hidden = true;  // the advice is for the colours checked before, not these
  saveAssist();
}

function renderAssistRows() {
  const box = $("assist-rows");
  box.textContent = "";
  assist.rows.forEach((row, k) => {
    const digits = h("input", { type: "text", class: "pw-digits", value: row.colours, maxlength: "12", inputmode: "numeric",
                                "aria-label": `colours of guess ${k + 1} (0 grey, 1 yellow, 2 green)`, dataset: { row: String(k) } });
    digits.addEventListener("change", () => setColours(k, digits.value.trim()));
    digits.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") { ev.preventDefault(); setColours(k, digits.value.trim()); refreshAssist(); }
    });
    const remove = h("button", { type: "button", class: "secondary pw-x", "aria-label": `remove guess ${k + 1}`, title: "remove" }, "×");
    remove.addEventListener("click", () => { assist.rows = assist.rows.filter((_, j) => j !== k); renderAssistRows(); refreshAssist(); });
    const line = h("div", { class: "pw-row", dataset: { row: String(k) } },
      h("span", { class: "pw-num" }, `${k + 1}`),
      tiles(row.name, row.colours, {
        label: `guess ${k + 1} `,
        onChange: (i, c, moveOn) => {
          const colours = row.colours.padEnd([...row.name].length, "0").split("");
          colours[i] = String(c);
          setColours(k, colours.join(""), moveOn ? Math.min(i + 1, colours.length - 1) : i);
        },
        onSubmit: () => refreshAssist(),
      }),
      h("span", { class: "pw-en small muted" }, row.english || ""),
      digits, remove);
    box.append(line);
  });
}

/** The guess a server message is about ("guess 3 (...)"), to mark its colours box. */
function rowInputFor(message) {
  const m = /\bguess (\d+)\b/.exec(message);
  return m ? document.querySelector(`#assist-rows .pw-digits[data-row="${Number(m[1]) - 1}"]`) : null;
}

/** Ask for advice on the guesses as the page has them. The guesses stay as entered whatever
 *  the answer (a real guess is always recorded); a history no answer fits is marked and the
 *  advice is cleared until it is mended. */
async function refreshAssist() {
  const seq = ++assist.seq;
  const rows = assist.rows;
  let res = null;
  let error = null;
  try {
    res = await api("/api/wordle/advice", { ...setting(), history: assistHistory(rows) }, { quiet: true });
  } catch (err) {
    error = err;
  }
  // a newer check, or guesses added or recoloured meanwhile: this answer is not for them
  if (seq !== assist.seq || rows !== assist.rows) return false;
  clearErrors($("assist"));
  if (error) {
    assist.advice = null;
    renderAdvice(null);
    const input = rowInputFor(error.message);
    if (input) input.setAttribute("aria-invalid", "true");
    $("assist-error").textContent = error.message;
    $("assist-error").hidden = false;
    saveAssist();
    return false;
  }
  assist.rows = rows.map((r, k) => ({ ...r, colours: res.history[k].split(":")[1] }));
  assist.advice = res;
  assist.checked = true;
  renderAssistRows();
  renderAdvice(res);
  syncReviewText(assist.rows.length ? assist.rows : finishedPlayRows());
  saveAssist();
  return true;
}

/** The assistant's guesses and the setting survive a reload (local storage). */
const savedAssist = store("gamelab.wordle.assist", { check: (v) => Array.isArray(v.rows) });

function saveAssist() {
  savedAssist.save({ setting: setting(), rows: assist.rows });
}

function loadAssist() {
  const saved = savedAssist.load(null);
  if (!saved) return null;
  assist.rows = saved.rows.filter((r) => r && typeof r.name === "string" && typeof r.colours === "string")
    .map((r) => ({ name: r.name, english: r.english || "", colours: r.colours }));
  return saved.setting || null;
}

function renderAdvice(a) {
  $("assist-result").classList.remove("pw-stale");
  $("assist-check").hidden = true;
  $("assist-pending").hidden = true;
  const warning = $("assist-warning");
  warning.hidden = !(a && a.warning);
  warning.textContent = (a && a.warning) || "";
  if (!a) {
    showNote($("assist-note"), null);
    for (const id of ["assist-count", "assist-next", "assist-expected", "assist-worst", "assist-method"]) $(id).textContent = "—";
    $("assist-use").hidden = true;
    $("assist-entropy").querySelector("tbody").textContent = "";
    $("assist-cands").textContent = "";
    return;
  }
  showNote($("assist-note"), a.note, a.method === "entropy"
    ? { plain: "Quick answer: the guess that splits the answers best; the proven-best guess did not come in time." } : {});
  $("assist-count").textContent = String(a.candidates);
  const next = $("assist-next");
  next.textContent = "";
  if (a.solved) next.textContent = "solved!";
  else if (a.next) next.append(nameLabel(a.next.name, a.next.english, a.next.dex));
  else next.textContent = "—";
  $("assist-expected").textContent = a.expected_guesses === null ? "— (not exact)" :
    `${fmt(a.expected_guesses)} (total ${a.expected_total} over ${a.candidates})`;
  $("assist-worst").textContent = a.worst_case === null ? "—" :
    (a.solved ? "0" : `${a.worst_case} more guess${a.worst_case === 1 ? "" : "es"} (${a.guesses_used + a.worst_case} of ${a.guess_limit} allowed)`);
  const method = {
    strategy: "the proven-best strategy, looked up",
    "solved here": "proven best for this position, worked out now",
    entropy: "the best split of the answers (no proven answer in time)",
  };
  $("assist-method").textContent = a.method ? `${method[a.method] || a.method}; ${a.mode}, rule ${a.rule}` : "—";
  $("assist-use").hidden = !a.next || a.solved;
  const body = $("assist-entropy").querySelector("tbody");
  body.textContent = "";
  for (const o of a.entropy_top) {
    body.append(h("tr", { class: a.next && o.name === a.next.name ? "pw-best" : "" },
      h("td", {}, nameLabel(o.name, o.english, null)), h("td", {}, fmt(o.entropy)),
      h("td", {}, String(o.classes)), h("td", {}, String(o.largest_class))));
  }
  const cands = $("assist-cands");
  cands.textContent = "";
  for (const c of a.remaining) cands.append(h("li", {}, nameLabel(c.name, c.english, c.dex)));
  if (a.remaining.length < a.candidates) cands.append(h("li", { class: "muted" }, `… and ${a.candidates - a.remaining.length} more`));
}

let adding = false;  // a guess being added (a second Enter or click meanwhile adds nothing)

async function addAssistGuess(name) {
  if (adding) return;
  adding = true;
  try {
    await addGuessNow(name);
  } finally {
    adding = false;
  }
}

async function addGuessNow(name) {
  const input = $("assist-name");
  const typed = (name || input.value).trim();
  if (!typed) { clearErrors($("assist")); showError(input, "type a guess first"); return; }
  // colours clicked in but not checked yet are checked first: a guess never builds on them
  if (!assist.checked && assist.rows.length && !(await refreshAssist())) {
    showError(input, "check the colours of the guesses above first (they do not fit yet)");
    return;
  }
  // the server reads the name (romaji, English, hiragana...); the tiles need its katakana
  const m = await api("/api/wordle/resolve", { names: setting().names, text: typed }, { errorAt: input, root: $("assist") });
  if (!m) return;
  const again = assist.rows.findIndex((r) => r.name === m.name);
  if (again >= 0) {
    showError(input, `${m.name} (${m.english}) is already guess ${again + 1}: a guess made twice tells nothing new`);
    return;
  }
  // recorded at once; its colours are checked when the player submits them
  assist.rows = [...assist.rows, { name: m.name, english: m.english, colours: "0".repeat([...m.name].length) }];
  input.value = "";
  pickers.forEach((p) => p.close());
  markUnchecked();
  renderAssistRows();
  const first = document.querySelector(`#assist-rows [data-row="${assist.rows.length - 1}"] .pw-tile`);
  if (first) first.focus();
}

function setupAssist() {
  namePicker($("assist-name"), () => addAssistGuess());
  $("assist-add").addEventListener("click", () => addAssistGuess());
  $("assist-reset").addEventListener("click", () => { assist.rows = []; renderAssistRows(); refreshAssist(); });
  $("assist-check").addEventListener("click", () => refreshAssist());
  $("assist-use").addEventListener("click", () => {
    if (assist.checked && assist.advice && assist.advice.next) addAssistGuess(assist.advice.next.name);
  });
  $("assist-name").addEventListener("focus", () => { kbdTarget = $("assist-name"); });
}

// ---------------------------------------------------------------- play

const play = { seed: 1, guesses: [], round: null, starting: false };

/** The Play game as the page sends it (its setting, seed and guesses), kept in the browser: the
 *  address carries it only while the Play tab is shown, so another tab, a reload or another
 *  page would otherwise lose it. */
const keptPlay = store("gamelab.wordle.play", {
  check: (v) => Number.isInteger(v.seed) && Array.isArray(v.guesses) && v.guesses.every((g) => typeof g === "string")
    && v.setting && typeof v.setting === "object",
});

/** The kept game if it was played with the page's setting now (else none: a fresh deal). */
function keptGame() {
  const kept = keptPlay.load(null);
  const now = setting();
  return kept && ["names", "rule", "hard"].every((k) => kept.setting[k] === now[k]) ? kept : null;
}

/** The address of the Play game (a link to it; with its guesses, a reload continues it). */
function playAddress(withGuesses) {
  const params = new URLSearchParams({ tab: "play", seed: String(play.seed), ...setting() });
  if (withGuesses && play.round && play.round.rows.length) params.set("guesses", play.round.rows.map((x) => x.name).join(","));
  return `${location.pathname}?${params}`;
}

/** Whether starting another game may drop the one in progress (asked when it has a guess). */
function mayReplaceGame(what) {
  const r = play.round;
  if (!r || r.finished || !r.rows.length) return true;
  const n = r.rows.length;
  return window.confirm(`${what} discards the game in progress (${n} guess${n === 1 ? "" : "es"}). Continue?`);
}

async function playRequest(guesses, errorAt) {
  return api("/api/wordle/play", { ...setting(), seed: play.seed, guesses }, { errorAt, root: $("play") });
}

function renderPlay(r) {
  const board = $("play-board");
  board.textContent = "";
  for (let k = 0; k < r.guess_limit; k++) {
    const row = r.rows[k];
    // rows after the next one are "future": a phone hides them, so the guess box stays in view
    const future = !row && k > r.rows.length;
    board.append(h("div", { class: `pw-row${future ? " future" : ""}`, dataset: { row: String(k) } }, h("span", { class: "pw-num" }, `${k + 1}`),
      row ? tiles(row.name, row.colours) : h("div", { class: "pw-tiles" }, ...Array.from({ length: r.length }, () => h("span", { class: "pw-tile empty" }))),
      row ? h("span", { class: "pw-en small muted" }, row.english) : null));
  }
  const more = r.guess_limit - r.rows.length - 1;
  if (!r.finished && more > 0) board.append(h("p", { class: "small muted pw-more" }, `${more} more guess${more === 1 ? "" : "es"} allowed after this one`));
  $("play-info").textContent = `${r.names}, ${r.mode}, colours by the ${r.rule} rule; Pokémon Wordle allows ${r.guess_limit} guesses, so the board has ${r.guess_limit} rows. The keyboard colours the kana you used: green in place, yellow elsewhere, grey absent.`;
  colourKeyboard(r.keyboard);
  const status = $("play-status");
  status.hidden = !r.finished;
  if (r.finished) {
    status.textContent = r.won ? `Found ${r.answer} (${r.answer_english}) in ${r.rows.length}!` :
      `Out of guesses: the answer was ${r.answer} (${r.answer_english}).`;
    status.className = `pw-status ${r.won ? "good" : "bad"}`;
  }
  $("play-end").hidden = !r.finished;
  $("play-share").hidden = !r.finished;
  $("play-share").value = r.share || "";
  $("play-copy").hidden = !r.finished;
  $("play-review").hidden = !r.finished;
  $("play-name").disabled = r.finished;
  $("play-guess").disabled = r.finished;
  $("play-hint").disabled = r.finished;
  $("play-link").href = playAddress(false);
  keptPlay.save({ setting: setting(), seed: play.seed, guesses: r.rows.map((x) => x.name) });
  // while the Play tab is shown the address carries the game so far (a reload or a copied
  // address continues it); another tab's address carries none
  if (!$("play").hidden) history.replaceState(history.state, "", playAddress(true));
}

async function startPlay(seed, guesses = [], { kept = false } = {}) {
  play.seed = seed;
  $("play-seed").value = String(seed);
  $("play-hint-text").hidden = true;
  // a kept game the server refuses (a name no longer in its list) starts afresh, unsaid
  const replay = kept
    ? api("/api/wordle/play", { ...setting(), seed, guesses }, { quiet: true }).catch(() => null)
    : playRequest(guesses, $("play-seed"));
  let r = guesses.length ? await replay : null;
  if (!r) r = await playRequest([], $("play-seed"));
  if (!r) return;
  play.guesses = [];
  play.round = r;
  renderPlay(r);
  // a finished game is there to review, unless the assistant holds a game of its own
  if (r.finished && !assist.rows.length) syncReviewText(finishedPlayRows());
}

let guessing = false;  // a guess on its way (Enter twice sends it once)

async function playGuess() {
  if (guessing || !play.round) return;
  guessing = true;
  try {
    await playGuessNow();
  } finally {
    guessing = false;
  }
}

async function playGuessNow() {
  const input = $("play-name");
  const typed = input.value.trim();
  if (!typed) { showError(input, "type a guess first"); return; }
  const m = await api("/api/wordle/resolve", { names: setting().names, text: typed }, { errorAt: input, root: $("play") });
  if (!m) return;
  const again = play.round.rows.findIndex((x) => x.name === m.name);
  if (again >= 0) {
    showError(input, `${m.name} (${m.english}) is already guess ${again + 1}: try another name`);
    return;
  }
  const r = await playRequest([...play.round.rows.map((x) => x.name), m.name], input);
  if (!r) return;
  play.round = r;
  input.value = "";
  $("play-hint-text").hidden = true;
  renderPlay(r);
  if (r.finished) {
    syncReviewText(finishedPlayRows());
    recordGame(r);
  }
}

async function playHint() {
  const history = play.round.history.map(([guess, colours]) => ({ guess, colours }));
  const a = await api("/api/wordle/advice", { ...setting(), history }, { errorAt: $("play-error") });
  if (!a) return;
  const el = $("play-hint-text");
  el.hidden = false;
  el.textContent = a.next
    ? `hint: ${a.next.name} (${a.next.english}) — ${plural(a.candidates, "candidate")} left` +
      (a.expected_guesses !== null ? `, ${fmt(a.expected_guesses)} guesses expected from here` : "") + (a.note ? ` (${a.note})` : "") +
      (a.warning ? ` — ${a.warning}` : "")
    : "solved";
}

// ---------------------------------------------------------------- your games (history)

const games = gameHistory("wordle");

/** A finished Play game in the history, with its review's verdict (asked for quietly). */
async function recordGame(r) {
  const id = `play:${JSON.stringify(setting())}:${play.seed}`;
  const n = r.rows.length;
  games.record({
    id,
    label: `seed ${play.seed}${setting().names === (choices && choices.default) ? "" : ` (${setting().names})`}`,
    result: r.won ? `found in ${n}` : "not found",
    won: Boolean(r.won),
    score: r.won ? n : null,
  });
  const history = r.history.map(([guess, colours]) => ({ guess, colours }));
  const review = await api("/api/wordle/review", { ...setting(), history }, { quiet: true }).catch(() => null);
  if (!review || review.total_lost === null || review.total_luck === null) return;
  const lost = Number(review.total_lost.toFixed(2));
  const luck = Number(review.total_luck.toFixed(2));
  games.record({
    id,
    skill: lost === 0 ? "every guess optimal" : `${plural(lost, "guess", "guesses")} lost to the best play`,
    luck: luck === 0 ? "even: the colours neither helped nor hurt"
      : `${luck > 0 ? "lucky" : "unlucky"}: the colours ${luck > 0 ? "saved" : "cost"} ${plural(Math.abs(luck), "guess", "guesses")}`,
  });
}

function setupPlay() {
  namePicker($("play-name"), playGuess);
  $("play-name").addEventListener("focus", () => { kbdTarget = $("play-name"); });
  $("play-guess").addEventListener("click", playGuess);
  $("play-hint").addEventListener("click", playHint);
  $("play-start").addEventListener("click", () => {
    if (mayReplaceGame("Playing this seed")) startPlay(Number($("play-seed").value));
  });
  $("play-new").addEventListener("click", () => { if (mayReplaceGame("A new game")) startPlay(randomSeed()); });
  $("play-copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("play-share").value));
  $("play-review").addEventListener("click", () => { selectTab("review"); runReview(); });
}

// ---------------------------------------------------------------- review

function setupReview() {
  $("review-run").addEventListener("click", () => runReview());
}

/** The finished Play game's guesses with their colours (none while it goes on). */
function finishedPlayRows() {
  const r = play.round;
  return r && r.finished ? r.history.map(([name, colours]) => ({ name, colours })) : [];
}

function syncReviewText(rows) {
  $("review-text").value = rows.map((r) => `${r.name} ${r.colours}`).join("\n");
}

function parseReviewText() {
  return $("review-text").value.split("\n").map((l) => l.trim()).filter(Boolean).map((line) => {
    const parts = line.split(/[\s:,]+/);
    return { guess: parts[0], colours: parts.slice(1).join("") };
  });
}

/** A luck figure as shown (3 decimals): green when it helped, red when it hurt, plain when it
 *  rounds to nothing (never a red "0.000" or a "−0.000"). */
function luckCell(luck) {
  if (luck === null) return h("td", {}, "—");
  const shown = Number(luck.toFixed(3));
  if (shown === 0) return h("td", {}, "0.000");
  return h("td", { class: shown > 0 ? "good" : "bad" }, `${shown > 0 ? "+" : "−"}${Math.abs(shown).toFixed(3)}`);
}

async function runReview() {
  const r = await api("/api/wordle/review", { ...setting(), history: parseReviewText() },
    { errorAt: $("review-text"), root: $("review") });
  if (!r) {  // the table and verdict of an earlier review are not this text's
    $("review-table").hidden = true;
    $("review-summary").hidden = true;
    return null;
  }
  const body = $("review-table").querySelector("tbody");
  body.textContent = "";
  const range = (xs) => (xs.length ? (xs.length === 1 ? String(xs[0]) : `${xs[0]}–${xs[xs.length - 1]}`) : "—");
  const names = (xs, n) => h("span", { class: "pw-names" }, xs.length ? xs.join(" ") + (n > xs.length ? ` … (${n} in all)` : "") : "none (found)");
  for (const s of r.steps) {
    // as WordleBot: the answers this guess left, and those the optimal guess would have left
    const theirs = s.is_optimal ? null : (s.optimal_remaining_after === null
      ? h("span", { class: "muted" }, `${range(s.optimal_candidates_after)}, depending on which of the answers still possible it is`)
      : names(s.optimal_remaining_after, s.optimal_candidates_after[0]));
    const left = h("details", { class: "pw-after" },
      h("summary", {}, `${s.candidates_before} → ${s.candidates_after}`),
      h("div", { class: "small pw-after-yours" }, h("strong", {}, `after ${s.guess}: `), names(s.remaining_after, s.candidates_after)),
      theirs ? h("div", { class: "small pw-after-optimal" }, h("strong", {}, `after ${s.optimal_guess}: `), theirs) : null);
    body.append(h("tr", { class: s.is_optimal ? "pw-opt" : "", dataset: { step: String(s.number) } },
      h("td", {}, String(s.number)),
      h("td", {}, tiles(s.guess, s.colours), h("div", { class: "small muted" }, s.english)),
      h("td", { class: "pw-left-yours" }, left),
      h("td", {}, s.is_optimal ? h("span", { class: "good" }, "✓ optimal") : nameLabel(s.optimal_guess, s.optimal_english, null)),
      h("td", { class: "pw-left-optimal" }, s.is_optimal ? String(s.candidates_after) : range(s.optimal_candidates_after)),
      h("td", {}, `${fmt(s.expected_guesses)} / ${fmt(s.optimal_expected_guesses)}`),
      h("td", { class: "pw-lost" }, fmt(s.guesses_lost)),
      luckCell(s.luck),
      h("td", {}, `${fmt(s.expected_left, 1)} / ${fmt(s.optimal_expected_left, 1)}`)));
  }
  labelCells($("review-table"), { from: 2 });  // a phone shows each guess as a block of lines
  $("review-table").hidden = false;
  const summary = $("review-summary");
  summary.hidden = false;
  summary.textContent = `${r.summary}${r.total_lost !== null ? ` — skill: ${fmt(r.total_lost)} guesses lost in total` : ""}`;
  summary.className = `pw-status ${r.solved ? "good" : ""}`;
  return r;
}

// ---------------------------------------------------------------- settings, tabs, start

let strategyAsked = 0;

/** Whether the setting's optimal strategy is ready, asked again while it is being built (until
 *  the setting changes: then the new one is followed). */
async function strategyStatus() {
  strategyAsked += 1;
  const mine = strategyAsked;
  const el = $("pw-strategy");
  const show = (s) => {
    el.textContent = s.message;
    el.classList.toggle("budget-note", Boolean(s.building));
  };
  const last = await pollJob("/api/wordle/strategy", setting(), {
    every: 15000, done: (s) => !s.building, onTick: show, stillWanted: () => mine === strategyAsked,
  });
  if (last && last.state === "failed") show({ message: last.detail });
}

/** Select a tab (a step for the Back button; the arrow keys move between tabs): set up by the
 *  page kit at the start (setupTabs). */
let selectTab = () => {};
let pageReady = false;  // the settings are known (the Play tab's game waits for them)

function onTab(name) {
  // the address carries a Play game only (history.state keeps the tab for the Back button)
  if (name !== "play" && location.search) history.replaceState(history.state, "", location.pathname);
  kbdTarget = name === "play" ? $("play-name") : $("assist-name");
  const left = $(name).querySelector(".pw-left");
  if (left) left.append($("kana-keyboard"));  // the keyboard sits under the name input
  $("kana-keyboard").hidden = !left;
  colourKeyboard(name === "play" && play.round ? play.round.keyboard : null);
  if (name !== "play" || !pageReady) return;
  if (play.round) history.replaceState(history.state, "", playAddress(true));
  else if (!play.starting) startKept();
}

/** Start the kept Play game (or, with none, the seed in the box). */
function startKept() {
  const kept = keptGame();
  play.starting = true;
  return (kept ? startPlay(kept.seed, kept.guesses, { kept: true }) : startPlay(Number($("play-seed").value) || 1))
    .finally(() => { play.starting = false; });
}

const contrast = store("gamelab.wordle.contrast");

function setupContrast() {
  const box = $("pw-contrast");
  box.checked = contrast.load("standard") === "high";
  document.body.classList.toggle("pw-hc", box.checked);
  box.addEventListener("change", () => {
    document.body.classList.toggle("pw-hc", box.checked);
    contrast.save(box.checked ? "high" : "standard");
  });
}

function summariseSettings() {
  const s = setting();
  const parts = [s.names, s.hard === "off" ? "normal" : "hard"];
  if (s.rule !== "standard") parts.push(`${s.rule} colours`);
  if (s.hard === "strict") parts.push("strict hard mode");
  $("pw-settings-summary").textContent = parts.join(" · ");
  describeChoice();
}

/** Put a setting (from the address or local storage) on the controls: a research setting
 *  (blog colours, strict hard mode) opens the analysis disclosure. */
function applySetting(value) {
  const choose = (id, v) => {
    if (v && $(id).querySelector(`option[value="${CSS.escape(v)}"]`)) $(id).value = v;
  };
  choose("pw-names", value.names);
  choose("pw-rule", value.rule);
  if (value.hard) {
    $("pw-hard").value = value.hard === "off" ? "off" : "on";
    if (value.hard !== "off") choose("pw-hard-rule", value.hard);
  }
  if ($("pw-rule").value !== "standard" || $("pw-hard-rule").value !== "game") $("pw-analysis").open = true;
}

function setupSettings(saved, params) {
  // on a phone the settings and the help fold away (their summaries stay), so the game comes first
  if (narrow.matches) {
    $("pw-settings-box").open = false;
    $("assist-help").open = false;
  }
  const fromUrl = Object.fromEntries(["names", "rule", "hard"].map((k) => [k, params.get(k)]).filter(([, v]) => v));
  applySetting({ ...(saved || {}), ...fromUrl });
  const hardGame = $("pw-hard-rule").querySelector('option[value="game"]');
  const onChange = async () => {
    // the game's hard mode is defined for the standard colours only
    hardGame.disabled = $("pw-rule").value === "blog";
    if (hardGame.disabled && $("pw-hard-rule").value === "game") $("pw-hard-rule").value = "strict";
    summariseSettings();
    clearErrors();
    strategyStatus();
    await refreshAssist();
    if (play.round) startPlay(play.seed);
  };
  for (const id of ["pw-names", "pw-rule", "pw-hard", "pw-hard-rule"]) $(id).addEventListener("change", onChange);
  hardGame.disabled = $("pw-rule").value === "blog";
  summariseSettings();
}

buildKeyboard();
setupAssist();
setupPlay();
setupReview();
setupContrast();
historyPanel($("history-panel"), games, { score: { label: "guesses", lowerIsBetter: true } });
// the tabs answer from the start; the Play tab's game comes once the settings are known
const params = new URLSearchParams(location.search);  // (read before a tab clears the address)
selectTab = setupTabs({ onSelect: onTab, initial: params.get("tab") === "play" ? "play" : null });
await loadChoices();
setupSettings(loadAssist(), params);
pageReady = true;
if (params.get("tab") === "play") {
  // a link to a game (or a reload of one): that game, on the Play tab
  play.starting = true;
  const guesses = (params.get("guesses") || "").split(",").filter(Boolean);
  startPlay(Number(params.get("seed")) || 1, guesses).finally(() => { play.starting = false; });
} else if (keptGame() || !$("play").hidden) {
  startKept();  // the game kept in this browser (or a first one: the Play tab is open)
}
strategyStatus();
renderAssistRows();
refreshAssist();
