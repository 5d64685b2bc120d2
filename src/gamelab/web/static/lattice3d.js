// The 3D benchmarks' best folds (the Harvard 48-mers on the cubic lattice), drawn so that the
// player can turn them. The folds, their sites and HH contacts come from /api/lattice/folds3d
// (made by the library's replica exchange, tools/make_3d_folds.py); this file only projects
// them: the sites, centred on their mean, are turned by `yaw` about the vertical axis and then by
// `pitch` about the horizontal one, and drawn orthographically (x right, y up, the viewer on
// +z), nearer residues later and larger. Drag with a mouse or a finger, or focus the drawing and
// press the arrow keys (15 degrees a press). The view of the page is kept on the <svg> as data-*
// attributes (data-yaw, data-pitch in radians), so a test can recompute every projected site.
import { api, h } from "/static/kit.js";

const SVGNS = "http://www.w3.org/2000/svg";
const STEP = Math.PI / 12; // one arrow key press
const DRAG = 0.01; // radians per CSS pixel dragged
const LIMIT = Math.PI / 2; // |pitch| at most a quarter turn: up stays up
// in the game's words; the methods' names go under "details"
const PROOF = { bound: "an upper bound", cores: "H-core threading" };

const $ = (id) => document.getElementById(id);
const svg = $("fold3d");
let folds = [];
let fold = null; // the fold shown, with `centred` sites
let yaw = 0.6, pitch = 0.45;
let drag = null; // {x, y, yaw, pitch} at the pointer's press

/** `site` turned by yaw (about y), then pitch (about x): [screen x, screen y up, depth]. */
export function turn([x, y, z], a, b) {
  const ca = Math.cos(a), sa = Math.sin(a), cb = Math.cos(b), sb = Math.sin(b);
  const x1 = ca * x + sa * z, z1 = -sa * x + ca * z;
  return [x1, cb * y - sb * z1, sb * y + cb * z1];
}

function el(tag, attrs) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

const round = (v) => Math.round(v * 1e4) / 1e4;

function draw() {
  if (!fold) return;
  const flat = fold.centred.map((s) => turn(s, yaw, pitch));
  const r = fold.radius;
  svg.setAttribute("viewBox", `${-r} ${-r} ${2 * r} ${2 * r}`);
  svg.dataset.name = fold.name;
  svg.dataset.yaw = String(round(yaw));
  svg.dataset.pitch = String(round(pitch));
  const depthShade = (z) => 0.45 + 0.55 * (z + r) / (2 * r); // far residues paler
  const parts = [];
  for (let i = 1; i < flat.length; i++) {
    const [a, b] = [flat[i - 1], flat[i]];
    parts.push([(a[2] + b[2]) / 2 - 0.01, el("line", {
      class: "bond", x1: a[0], y1: -a[1], x2: b[0], y2: -b[1], opacity: depthShade((a[2] + b[2]) / 2),
    })]);
  }
  for (const [i, j] of fold.pairs) {
    const [a, b] = [flat[i], flat[j]];
    parts.push([(a[2] + b[2]) / 2 - 0.02, el("line", {
      class: "contact", x1: a[0], y1: -a[1], x2: b[0], y2: -b[1], "data-pair": `${i}-${j}`,
    })]);
  }
  flat.forEach(([x, y, z], i) => {
    const dot = el("circle", {
      cx: x, cy: -y, r: 0.25 * (1 + 0.15 * z / r), opacity: depthShade(z),
      class: fold.sequence[i] === "H" ? "res-h" : "res-p", "data-i": i,
    });
    dot.append(el("title", {}));
    dot.firstChild.textContent = `${i}: ${fold.sequence[i]}`;
    parts.push([z, dot]);
  });
  parts.sort((p, q) => p[0] - q[0]); // painter's order: far first
  svg.replaceChildren(...parts.map((p) => p[1]));
}

function show(name) {
  const f = folds.find((x) => x.name === name) || folds[0];
  const n = f.sites.length;
  const mean = [0, 1, 2].map((k) => f.sites.reduce((t, s) => t + s[k], 0) / n);
  const centred = f.sites.map((s) => s.map((v, k) => v - mean[k]));
  const radius = Math.max(...centred.map((s) => Math.hypot(...s))) + 0.6; // any turn fits
  fold = { ...f, centred, radius };
  $("fold3d-pick").value = f.name;
  const most = f.proven_by ? "no fold can have more" : `a fold may have up to ${f.upper_bound}`;
  const reached = f.contacts >= f.best_known
    ? `the most anyone has found; ${most}`
    : `${f.best_known} is the most anyone has found (${most})`;
  $("fold3d-info").textContent = `${f.name}: ${f.contacts} contacts (dotted), ${reached}.`;
  $("fold3d-how").textContent = `Found by replica exchange in ${f.cpu_seconds.toFixed(1)} CPU-seconds (seed ${f.seed}).`
    + (f.proven_by ? ` Proof that no fold has more: ${PROOF[f.proven_by]}.` : ` The bound ${f.upper_bound} is an upper bound on the contacts.`);
  draw();
}

function turnBy(da, db) {
  yaw = (yaw + da) % (2 * Math.PI);
  pitch = Math.max(-LIMIT, Math.min(LIMIT, pitch + db));
  draw();
}

svg.addEventListener("keydown", (e) => {
  const by = { ArrowLeft: [-STEP, 0], ArrowRight: [STEP, 0], ArrowUp: [0, -STEP], ArrowDown: [0, STEP] }[e.key];
  if (!by) return;
  e.preventDefault();
  turnBy(...by);
});
svg.addEventListener("pointerdown", (e) => {
  drag = { x: e.clientX, y: e.clientY, yaw, pitch };
  try {
    svg.setPointerCapture(e.pointerId); // keep turning when the pointer leaves the drawing
  } catch {
    // a pointer the browser no longer tracks: the drag still works while over the drawing
  }
  svg.focus();
});
svg.addEventListener("pointermove", (e) => {
  if (!drag) return;
  yaw = drag.yaw + DRAG * (e.clientX - drag.x);
  pitch = Math.max(-LIMIT, Math.min(LIMIT, drag.pitch + DRAG * (e.clientY - drag.y)));
  draw();
});
for (const end of ["pointerup", "pointercancel"]) svg.addEventListener(end, () => { drag = null; });

async function start() {
  const data = await api("/api/lattice/folds3d", {}, { errorAt: $("fold3d-info"), root: $("card-3d") });
  if (!data) return; // the error is shown beside the drawing
  folds = data.folds;
  $("fold3d-pick").replaceChildren(...folds.map((f) =>
    h("option", { value: f.name }, `${f.name} · ${f.contacts} of ${f.best_known}`)));
  $("fold3d-pick").addEventListener("change", (e) => show(e.target.value));
  show(folds[0].name);
}

start();
