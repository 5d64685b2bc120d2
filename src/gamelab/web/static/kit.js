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
 *  2 s; showing MinRisk") in `el`, or hide it when `note` is empty. */
export function showNote(el, note) {
  if (!el) return;
  el.textContent = note || "";
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
