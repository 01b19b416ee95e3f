"use strict";
// coterie explorer: plain JavaScript over the JSON API of package web. No
// inline script, no eval: the page runs under a strict Content-Security-
// Policy.
const $ = (id) => document.getElementById(id);

// The largest file the explorer takes (the server's default request
// limit); larger files are refused before they are read.
const MAX_UPLOAD = 4 << 20;

let specs = [];
let current = null;      // the analysis shown
let currentSrc = null;   // how it was made: {kind, params} or {upload, name, rf}
let sides = null;        // a read-write system's {reads, writes} (quorums, drawing)
let failed = new Set();  // failed nodes, 1-based
let survivorPick = 0;    // which surviving quorum is highlighted
let compared = [];       // [{a, src}] in the comparison
const curves = new Map();// id → availability curve
let chartScale = "lin";
let controller = null;   // aborts the request in flight

// ---- numbers: one style everywhere ----

// num formats x with four significant digits, without trailing zeros; a
// value just under 1 keeps four significant digits of 1 − x, so that
// 0.99994598 does not print as 1.
function num(x) {
  if (!isFinite(x)) return String(x);
  if (x === 0 || Number.isInteger(x)) return String(x);
  const ax = Math.abs(x);
  let digits;
  if (ax > 0.99 && ax < 1) digits = Math.min(16, 3 - Math.floor(Math.log10(1 - ax)));
  else digits = Math.min(16, 3 - Math.floor(Math.log10(ax)));
  let s = x.toFixed(Math.max(0, digits));
  if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s;
}

// fmtText rewrites the numbers of a report's text that have more than
// four significant digits in the one style: "4/13 ≈ 0.3076923076923077"
// becomes "4/13 ≈ 0.3077", "17.68235294117647" becomes "17.68", "4.56815"
// (of 4.56815e-06) becomes "4.568". Shorter numbers are left as written
// (nines keep their two decimals), and so are values just under 1 written
// with four digits after their nines.
function fmtText(s) {
  return s.replace(/(^|[^\d.])(\d+\.\d+)(?![\d.])/g, (m, pre, n) => {
    const sig = n.replace(/^0\.(9{2,})?0*/, "").replace(".", "").replace(/^0+/, "").length;
    if (sig <= 4 || /^0\.9{2,}\d{1,4}$/.test(n)) return m;
    return pre + num(Number(n));
  });
}

function fmtBytes(b) { return (b / 1048576).toFixed(1) + " MB"; }

// ---- the API: every request goes through api ----

// api fetches url with opts; this is the one place to add what every API
// request needs (a header, a token).
function api(url, opts) {
  const o = Object.assign({credentials: "same-origin"}, opts || {});
  const token = document.querySelector('meta[name="coterie-token"]');
  if (token && token.content) o.headers = Object.assign({"X-Coterie-Token": token.content}, o.headers || {});
  return fetch(url, o);
}

// apiMessage turns an error body into a sentence, sizes in MB.
function apiMessage(text, status) {
  let msg = text;
  try { msg = JSON.parse(text).error || text; } catch (e) { /* not JSON */ }
  if (status === 413 && !/MB/.test(msg)) msg = "the request is larger than the server takes (" + fmtBytes(MAX_UPLOAD) + ")";
  return String(msg || "HTTP " + status).replace(/(\d{6,}) bytes/g, (m, n) => fmtBytes(Number(n)));
}

async function getJSON(url) {
  const resp = await api(url);
  const text = await resp.text();
  if (!resp.ok) throw new Error(apiMessage(text, resp.status));
  return JSON.parse(text);
}

// call posts body to url and reads the streamed answer: progress lines,
// then the result or an error. The Cancel button aborts the request, which
// cancels the work on the server.
async function call(url, body) {
  if (controller) controller.abort();
  const mine = new AbortController();
  controller = mine;
  const started = Date.now();
  let stage = "starting";
  $("busy").hidden = false;
  const show = () => {
    $("busy-text").textContent = stage + "… " + ((Date.now() - started) / 1000).toFixed(1) + " s";
  };
  const tick = setInterval(show, 100);
  try {
    const resp = await api(url + (url.includes("?") ? "&" : "?") + "stream=1", {method: "POST", body: body, signal: mine.signal,
      headers: {"Content-Type": "application/json"}});
    if (!resp.ok || !(resp.headers.get("Content-Type") || "").startsWith("application/x-ndjson")) {
      throw new Error(apiMessage(await resp.text(), resp.status));
    }
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    let buf = "";
    for (;;) {
      const {value, done} = await reader.read();
      if (value) buf += decoder.decode(value, {stream: true});
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const msg = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (msg.progress) { stage = msg.progress; show(); }
        if (msg.error) throw new Error(apiMessage(JSON.stringify(msg), 400));
        if (msg.result) return msg.result;
      }
      if (done) throw new Error("the server closed the connection");
    }
  } finally {
    clearInterval(tick);
    if (controller === mine) {
      $("busy").hidden = true;
      $("busy-text").textContent = "computing…";
      controller = null;
    }
  }
}

// ---- errors: beside what caused them ----

const errorBoxes = ["gen-error", "upload-error", "file-error", "exact-error", "compare-error"];

function clearErrors() {
  for (const id of errorBoxes) $(id).textContent = "";
  $("stale").hidden = true;
  $("view").classList.remove("stale");
}

// failed shows msg in the box beside its cause and marks the system shown
// as stale: it is not the answer to the last request.
function showFailure(box, e) {
  if (e && e.name === "AbortError") { $(box).textContent = "cancelled"; return; }
  $(box).textContent = e && e.message ? e.message : String(e);
  if (current) { $("stale").hidden = false; $("view").classList.add("stale"); }
}

// ---- the forms ----

function renderParams() {
  const spec = specs.find((s) => s.name === $("kind").value);
  $("kind-summary").textContent = spec ? spec.summary + " (" + spec.source + ")" : "";
  const box = $("params");
  box.textContent = "";
  if (!spec) return;
  for (const p of spec.params) {
    const label = document.createElement("label");
    label.textContent = p.name + (p.required ? " (required)" : "") + " ";
    const input = document.createElement("input");
    input.name = p.name;
    input.id = "param-" + p.name;
    input.title = p.usage;
    if (p.type === "bool") {
      input.type = "checkbox";
      input.checked = p.default === true;
    } else {
      input.type = p.type === "int" ? "number" : "text";
      if (p.type === "int") { input.min = p.min; if (p.max) input.max = p.max; }
      input.placeholder = p.required ? p.usage : (p.default === null || p.default === undefined ? "" : String(p.default));
    }
    label.appendChild(input);
    box.appendChild(label);
  }
}

function formParams() {
  const params = {};
  for (const input of $("params").querySelectorAll("input")) {
    const v = input.type === "checkbox" ? (input.checked ? "true" : "") : input.value.trim();
    if (v !== "") params[input.name] = v;
  }
  return params;
}

function setForm(kind, params) {
  $("kind").value = kind;
  renderParams();
  for (const [k, v] of Object.entries(params || {})) {
    const input = $("param-" + k);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = v === "true"; else input.value = v;
  }
}

// analyse asks the server for the analysis of src: a construction or an
// uploaded text.
async function analyse(src) {
  if (src.kind) return call("/api/generate", JSON.stringify({kind: src.kind, params: src.params || {}}));
  return call("/api/upload?name=" + encodeURIComponent(src.name || "pasted") + "&read_fraction=" +
    encodeURIComponent(src.rf || "1/2"), src.upload);
}

async function runSource(src, box, keepFailed) {
  clearErrors();
  try {
    const a = await analyse(src);
    let sd = null, sidesError = null;
    if (a.rw) {
      try { sd = await call("/api/sides?name=" + encodeURIComponent(src.name || "pasted"), src.upload); }
      catch (e) { sidesError = e; }
    }
    show(a, src, sd, keepFailed);
    // Without the sides, the read quorums the analysis drew are shown.
    if (sidesError) $(box).textContent = "the write quorums cannot be drawn: " + sidesError.message;
  } catch (e) {
    showFailure(box, e);
  }
}

// readFile checks a chosen file before it reaches the text box: its size,
// and that it is text (no NUL byte, valid UTF-8).
async function readFile(f) {
  if (f.size > MAX_UPLOAD) {
    throw new Error(f.name + " is " + fmtBytes(f.size) + ": the explorer takes files up to " + fmtBytes(MAX_UPLOAD) +
      " (use the command line for larger ones)");
  }
  const bytes = new Uint8Array(await f.arrayBuffer());
  if (bytes.includes(0)) throw new Error(f.name + " is a binary file, not a quorum system (JSON, text, CSV or .dat)");
  try {
    return new TextDecoder("utf-8", {fatal: true}).decode(bytes);
  } catch (e) {
    throw new Error(f.name + " is not UTF-8 text: not a quorum system (JSON, text, CSV or .dat)");
  }
}

// ---- the system shown ----

function show(a, src, sd, keepFailed) {
  current = a;
  currentSrc = src;
  sides = sd;
  if (!keepFailed) failed = new Set();
  for (const v of [...failed]) if (v < 1 || v > a.n) failed.delete(v);
  survivorPick = 0;
  $("view").hidden = false;
  $("name").textContent = a.name;
  $("verdict").textContent = a.verdict;
  const rw = !!a.rw;
  $("drawing").hidden = rw;
  $("rw-drawings").hidden = !rw;
  if (rw) {
    $("drawing").textContent = "";
    $("drawing-reads").innerHTML = sd && sd.reads ? sd.reads.drawing : (a.drawing || "");
    $("drawing-writes").innerHTML = sd && sd.writes ? sd.writes.drawing : "<p class=\"small\">not drawn</p>";
  } else {
    $("drawing").innerHTML = a.drawing || "<p class=\"small\">too large to draw</p>";
    $("drawing-reads").textContent = "";
    $("drawing-writes").textContent = "";
  }
  for (const host of document.querySelectorAll(".drawing-host")) prepareDrawing(host);
  $("sections").innerHTML = a.sections;
  polishSections($("sections"));
  // A read-write system is shown, not kept: nothing to download or compare.
  $("keep").hidden = !a.id;
  if (a.id) {
    for (const f of ["json", "text", "csv", "dat"]) $("dl-" + f).href = "/api/system/" + a.id + "?format=" + f;
    $("dl-html").href = "/api/report?ids=" + a.id;
    $("dl-md").href = "/api/report?format=md&ids=" + a.id;
  }
  $("estimate-note").hidden = a.exact || rw;
  updateFailures();
  writeURL();
}

// polishSections wraps the report's tables so that they scroll inside
// their box, and writes its numbers in the one style.
function polishSections(root) {
  for (const t of root.querySelectorAll("table")) {
    if (t.parentElement.classList.contains("scroll")) continue;
    const box = document.createElement("div");
    box.className = "scroll";
    t.replaceWith(box);
    box.appendChild(t);
  }
  for (const cell of root.querySelectorAll("td, p")) {
    for (const n of cell.childNodes) if (n.nodeType === 3) n.textContent = fmtText(n.textContent);
  }
}

// prepareDrawing makes the nodes of a drawing keys: focusable, named,
// toggled with Enter or Space.
function prepareDrawing(host) {
  const svg = host.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("id");
  // Small drawings grow with their box, but to at most 1.5 times their
  // size, so that a two-column matrix does not fill the screen.
  const w = Number(svg.getAttribute("width"));
  if (w > 0) svg.style.maxWidth = Math.round(1.5 * w) + "px";
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", "drawing: " + (svg.querySelector("title") ? svg.querySelector("title").textContent : "the system"));
  let keys = svg.querySelectorAll("circle.node");
  if (!keys.length) keys = svg.querySelectorAll("text.label[data-node]");
  for (const el of keys) {
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", "node " + el.dataset.node);
    el.setAttribute("aria-pressed", "false");
  }
}

function toggle(v) {
  if (failed.has(v)) failed.delete(v); else failed.add(v);
  survivorPick = 0;
  updateFailures();
  writeURL();
}

function binom(n, k) {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = r * (n - k + i) / i;
  return Math.round(r);
}

// sidesShown lists the quorum lists of the system shown with their
// drawings: one for a coterie, reads and writes for a read-write system.
function sidesShown() {
  const a = current;
  if (a.rw) {
    return [
      {name: "read", quorums: sides && sides.reads ? sides.reads.quorums : (a.quorums || []), host: $("drawing-reads")},
      {name: "write", quorums: sides && sides.writes ? sides.writes.quorums : [], host: $("drawing-writes")},
    ];
  }
  return [{name: "", quorums: a.quorums || [], threshold: a.threshold, host: $("drawing")}];
}

function updateFailures() {
  const a = current;
  const list = [...failed].sort((x, y) => x - y);
  $("failed").textContent = list.length ? list.join(", ") : "none";
  const lines = [];
  const aliveList = $("alive");
  aliveList.textContent = "";
  let shownText = "";
  let anyChoice = false;
  for (const sd of sidesShown()) {
    const noun = sd.name ? sd.name + " quorums" : "quorums";
    let alive, total, survivor = null, aliveIdx = [];
    if (sd.threshold) {
      total = binom(a.n, sd.threshold);
      alive = binom(a.n - failed.size, sd.threshold);
      const up = [];
      for (let v = 1; v <= a.n && up.length < sd.threshold; v++) if (!failed.has(v)) up.push(v);
      if (alive > 0 && failed.size) survivor = up;
    } else {
      total = sd.quorums.length;
      sd.quorums.forEach((q, i) => { if (q.every((v) => !failed.has(v))) aliveIdx.push(i); });
      alive = aliveIdx.length;
      if (alive > 0 && failed.size) {
        const i = aliveIdx[survivorPick % alive];
        survivor = Object.assign([...sd.quorums[i]], {index: i + 1});
        anyChoice = anyChoice || alive > 1;
      }
    }
    let line;
    if (total === 0) line = "no " + noun + " listed";
    else if (alive === 0) line = "no " + (sd.name ? sd.name + " quorum" : "quorum") + " survives: " + (sd.name ? sd.name + "s are" : "the system is") + " down";
    else line = alive + " of " + total + " " + noun + " survive" + (failed.size ? "" : " (no node has failed)");
    lines.push(line);
    if (survivor) {
      shownText += (shownText ? "; " : "") + "highlighted: " + (survivor.index ? (sd.name ? sd.name + " " : "") + "quorum " + survivor.index + " " : "a " + (sd.name ? sd.name + " " : "") + "quorum ") + "{" + survivor.join(" ") + "}";
    }
    paint(sd, survivor);
    if (!a.rw && !sd.threshold && failed.size && alive) {
      let shown = 0;
      for (const i of aliveIdx) {
        if (shown >= 12) break;
        const li = document.createElement("li");
        li.textContent = "quorum " + (i + 1) + ": {" + sd.quorums[i].join(" ") + "}";
        aliveList.appendChild(li);
        shown++;
      }
      if (alive > shown) {
        const li = document.createElement("li");
        li.textContent = "… and " + (alive - shown) + " more";
        aliveList.appendChild(li);
      }
    }
  }
  $("survivors").textContent = lines.join("; ");
  $("survivor-shown").textContent = shownText;
  $("next-survivor").hidden = !anyChoice;
}

// paint marks a drawing: failed nodes, the quorums they kill dimmed, one
// surviving quorum (its shapes and its nodes) highlighted.
function paint(sd, survivor) {
  const svg = sd.host.querySelector("svg");
  if (!svg) return;
  const inSurvivor = new Set(survivor || []);
  for (const el of svg.querySelectorAll("[data-node]")) {
    const v = Number(el.dataset.node);
    const isFailed = failed.has(v);
    if (el.classList.contains("incidence")) continue;
    el.classList.toggle("failed", isFailed);
    if (el.hasAttribute("aria-pressed")) el.setAttribute("aria-pressed", String(isFailed));
    if (el.classList.contains("node")) el.classList.toggle("in-survivor", inSurvivor.has(v) && !isFailed);
  }
  for (const el of svg.querySelectorAll("[data-quorum]")) {
    const qi = Number(el.dataset.quorum) - 1;
    const q = sd.quorums[qi];
    if (!q) continue;
    const dead = q.some((v) => failed.has(v));
    el.classList.toggle("dead", dead);
    el.classList.toggle("survivor", !!survivor && survivor.index === qi + 1);
  }
}

// ---- the comparison ----

const seriesColours = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#7f7f7f"];
const seriesDashes = ["", "7 3", "2 3", "9 3 2 3"];

function seriesStyle(i) {
  return {colour: seriesColours[i % seriesColours.length], dash: seriesDashes[Math.floor(i / seriesColours.length) % seriesDashes.length]};
}

// The SVG namespace, as the HTML parser gives it to an <svg> element.
const SVGNS = (() => { const d = document.createElement("div"); d.innerHTML = "<svg></svg>"; return d.firstChild.namespaceURI; })();
function svgEl(name, attrs, text) {
  const el = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== "" && v !== undefined) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

// drawChart draws the availability curves of the compared systems on one
// chart: AV(p), or 1 − AV(p) on a log axis.
function drawChart() {
  const box = $("compare-chart");
  box.textContent = "";
  const W = 640, H = 340, L = 64, R = 16, T = 16, B = 48;
  const svg = svgEl("svg", {viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
    "aria-label": chartScale === "log" ? "1 − AV(p) of the compared systems, log scale" : "AV(p) of the compared systems"});
  svg.appendChild(svgEl("title", {}, svg.getAttribute("aria-label")));
  // AV(p) against p; 1 − AV(p) on a log axis against the nines of p,
  // −log10(1 − p), so that 0.9, 0.99 and 0.999 are evenly spaced.
  const x0 = Math.log10(2), x1 = 3;
  const xs = chartScale === "log" ? (p) => L + (-Math.log10(1 - p) - x0) / (x1 - x0) * (W - L - R) : (p) => L + (p - 0.5) / 0.5 * (W - L - R);
  const series = compared.map((c, i) => ({c, i, curve: curves.get(c.a.id)})).filter((s) => s.curve);
  let ys, ticks;
  if (chartScale === "log") {
    let lo = 0;
    for (const s of series) for (const pt of s.curve.points) if (pt.u > 0) lo = Math.min(lo, Math.floor(Math.log10(pt.u)));
    lo = Math.max(lo, -300);
    if (lo === 0) lo = -1;
    ys = (u) => T + (Math.log10(u) / lo) * (H - T - B);
    ticks = [];
    const step = Math.max(1, Math.ceil(-lo / 8));
    for (let e = 0; e >= lo; e -= step) ticks.push({v: Math.pow(10, e), label: e === 0 ? "1" : "1e" + e});
  } else {
    let lo = 1;
    for (const s of series) for (const pt of s.curve.points) lo = Math.min(lo, pt.av);
    lo = Math.max(0, Math.floor(lo * 10) / 10);
    ys = (av) => T + (1 - (av - lo) / (1 - lo || 1)) * (H - T - B);
    ticks = [];
    for (let k = 0; k <= 5; k++) { const v = lo + (1 - lo) * k / 5; ticks.push({v, label: num(Number(v.toFixed(4)))}); }
  }
  const faint = "var(--line)", ink = "currentColor";
  for (const t of ticks) {
    const y = ys(t.v);
    svg.appendChild(svgEl("line", {x1: L, x2: W - R, y1: y, y2: y, stroke: faint, "stroke-width": 1}));
    svg.appendChild(svgEl("text", {x: L - 6, y: y + 4, "text-anchor": "end", "font-size": 11, fill: ink}, t.label));
  }
  for (const p of chartScale === "log" ? [0.5, 0.9, 0.99, 0.999] : [0.5, 0.6, 0.7, 0.8, 0.9, 1]) {
    const x = xs(p);
    svg.appendChild(svgEl("line", {x1: x, x2: x, y1: T, y2: H - B, stroke: faint, "stroke-width": 1}));
    svg.appendChild(svgEl("text", {x, y: H - B + 16, "text-anchor": "middle", "font-size": 11, fill: ink}, String(p)));
  }
  svg.appendChild(svgEl("text", {x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle", "font-size": 12, fill: ink},
    "p, the probability that a node is up"));
  const ylab = svgEl("text", {x: 14, y: (T + H - B) / 2, "text-anchor": "middle", "font-size": 12, fill: ink,
    transform: "rotate(-90 14 " + (T + H - B) / 2 + ")"}, chartScale === "log" ? "1 − AV(p)" : "AV(p)");
  svg.appendChild(ylab);
  svg.appendChild(svgEl("rect", {x: L, y: T, width: W - L - R, height: H - T - B, fill: "none", stroke: ink, "stroke-width": 1}));
  const legend = $("compare-legend");
  legend.textContent = "";
  for (const s of series) {
    const st = seriesStyle(s.i);
    const pts = [];
    for (const pt of s.curve.points) {
      const y = chartScale === "log" ? (pt.u > 0 ? ys(pt.u) : null) : ys(pt.av);
      if (y !== null && isFinite(y)) pts.push(xs(pt.p).toFixed(2) + "," + y.toFixed(2));
    }
    const line = svgEl("polyline", {points: pts.join(" "), fill: "none", stroke: st.colour, "stroke-width": 2.5,
      "stroke-dasharray": st.dash, class: "curve", "data-system": s.c.a.id});
    line.appendChild(svgEl("title", {}, s.c.a.name + (s.curve.exact ? "" : " (estimate)")));
    svg.appendChild(line);
    const li = document.createElement("li");
    const sw = svgEl("svg", {width: 36, height: 10, "aria-hidden": "true"});
    sw.appendChild(svgEl("line", {x1: 0, x2: 36, y1: 5, y2: 5, stroke: st.colour, "stroke-width": 3, "stroke-dasharray": st.dash}));
    li.appendChild(sw);
    li.appendChild(document.createTextNode(s.c.a.name + (s.curve.exact ? "" : " (estimate)")));
    legend.appendChild(li);
  }
  box.appendChild(svg);
}

// better says, for a comparison row, whether a larger value is better
// (+1), a smaller one (−1), or neither (0).
function better(head) {
  if (/^(AV|nines)\(/.test(head) || head === "resilience") return 1;
  if (head === "mean |Q|" || head === "messages" || head === "load") return -1;
  return 0;
}

// value reads a comparison cell: "3/7 ≈ 0.4286" → 0.4286, "≈0.99" → 0.99.
function value(cell) {
  const s = cell.includes("≈") ? cell.slice(cell.lastIndexOf("≈") + 1) : cell;
  const x = parseFloat(s.replace(/[^\d.eE+-]/g, ""));
  if (cell.trim() === "∞") return Infinity;
  return isFinite(x) ? x : NaN;
}

function renderCompare() {
  $("compare-view").hidden = compared.length === 0;
  const head = $("comparison").tHead, body = $("comparison").tBodies[0];
  head.textContent = ""; body.textContent = "";
  $("compare-drawings").textContent = "";
  if (!compared.length) { writeURL(); return; }
  const heads = compared[0].a.compare_head;
  const tr = head.insertRow();
  tr.appendChild(document.createElement("th")).textContent = "";
  for (const c of compared) tr.appendChild(document.createElement("th")).textContent = c.a.name;
  // One row a figure, one column a system: the best of each row marked.
  heads.forEach((h, j) => {
    if (j === 0) return;
    const row = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = h;
    row.appendChild(th);
    const cells = compared.map((c) => fmtText(c.a.compare[j] || "–"));
    const dir = better(h);
    let best = null;
    if (dir !== 0 && compared.length > 1) {
      const vals = cells.map(value).filter((x) => !isNaN(x));
      if (vals.length) best = dir > 0 ? Math.max(...vals) : Math.min(...vals);
      if (vals.length && vals.every((x) => x === best)) best = null; // a tie everywhere marks nothing
    }
    for (const text of cells) {
      const td = row.insertCell();
      td.textContent = text;
      if (best !== null && value(text) === best) {
        td.classList.add("best");
        td.textContent = text + " ★";
        td.title = "the best of this row";
      }
    }
  });
  compared.forEach((c) => {
    const fig = document.createElement("figure");
    const cap = document.createElement("figcaption");
    cap.textContent = c.a.name;
    fig.appendChild(cap);
    const host = document.createElement("div");
    host.className = "drawing-host";
    host.innerHTML = c.a.drawing || "<p class=\"small\">too large to draw</p>";
    const svg = host.querySelector("svg");
    if (svg) svg.removeAttribute("id");
    fig.appendChild(host);
    $("compare-drawings").appendChild(fig);
  });
  $("dl-compare").href = "/api/report?ids=" + compared.map((c) => c.a.id).join(",");
  drawChart();
  loadCurves();
  writeURL();
}

async function loadCurves() {
  let changed = false;
  for (const c of compared) {
    if (curves.has(c.a.id)) continue;
    try {
      curves.set(c.a.id, await getJSON("/api/curve/" + encodeURIComponent(c.a.id)));
      changed = true;
    } catch (e) {
      $("compare-error").textContent = c.a.name + ": " + e.message;
    }
  }
  if (changed) drawChart();
}

// ---- the URL: the construction, the failed nodes and the comparison ----

function srcParams(src) {
  if (src.kind) return {kind: src.kind, params: src.params || {}};
  return {upload: src.upload, name: src.name, rf: src.rf};
}

// A text upload goes into the URL when it is short enough for a link.
const MAX_URL_UPLOAD = 4000;

function writeURL() {
  const q = new URLSearchParams();
  if (currentSrc) {
    if (currentSrc.kind) {
      q.set("kind", currentSrc.kind);
      for (const [k, v] of Object.entries(currentSrc.params || {})) q.set("p." + k, v);
    } else if (currentSrc.upload.length <= MAX_URL_UPLOAD) {
      q.set("upload", currentSrc.upload);
      q.set("name", currentSrc.name || "pasted");
      if (currentSrc.rf && currentSrc.rf !== "1/2") q.set("rf", currentSrc.rf);
    }
    if (failed.size) q.set("failed", [...failed].sort((x, y) => x - y).join(","));
  }
  const cmp = compared.map((c) => srcParams(c.src)).filter((s) => s.kind || (s.upload && s.upload.length <= MAX_URL_UPLOAD));
  if (cmp.length) q.set("compare", JSON.stringify(cmp));
  if (chartScale !== "lin") q.set("chart", chartScale);
  const hash = q.toString();
  if (hash !== location.hash.slice(1)) history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
}

async function readURL() {
  const q = new URLSearchParams(location.hash.slice(1));
  if (q.get("chart") === "log") {
    chartScale = "log";
    for (const r of document.querySelectorAll('input[name="scale"]')) r.checked = r.value === "log";
  }
  let cmp = [];
  try { cmp = JSON.parse(q.get("compare") || "[]"); } catch (e) { $("compare-error").textContent = "the link's comparison does not read: " + e.message; }
  for (const src of Array.isArray(cmp) ? cmp : []) {
    try {
      const a = await analyse(src);
      if (a.id && !compared.some((c) => c.a.id === a.id)) compared.push({a, src});
    } catch (e) {
      $("compare-error").textContent = "a compared system of the link: " + e.message;
    }
  }
  if (compared.length) renderCompare();
  let src = null;
  if (q.get("kind")) {
    const params = {};
    for (const [k, v] of q) if (k.startsWith("p.")) params[k.slice(2)] = v;
    src = {kind: q.get("kind"), params};
    if (specs.some((s) => s.name === src.kind)) setForm(src.kind, params);
  } else if (q.get("upload") !== null) {
    src = {upload: q.get("upload"), name: q.get("name") || "pasted", rf: q.get("rf") || "1/2"};
    $("paste").value = src.upload;
    $("upload-name").value = src.name;
    $("read-fraction").value = src.rf;
  }
  if (!src) return;
  failed = new Set((q.get("failed") || "").split(",").map(Number).filter((v) => Number.isInteger(v) && v > 0));
  await runSource(src, src.kind ? "gen-error" : "upload-error", true);
}

// ---- the theme ----

function setTheme(dark) {
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  $("theme").textContent = dark ? "Light theme" : "Dark theme";
  $("theme").setAttribute("aria-pressed", String(dark));
}

// ---- start ----

async function init() {
  setTheme(window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  $("theme").addEventListener("click", () => setTheme(document.documentElement.dataset.theme !== "dark"));
  specs = await getJSON("/api/constructions");
  for (const s of specs) {
    const o = document.createElement("option");
    o.value = s.name; o.textContent = s.name;
    $("kind").appendChild(o);
  }
  $("kind").value = specs.some((s) => s.name === "fpp") ? "fpp" : specs[0].name;
  renderParams();
  $("kind").addEventListener("change", renderParams);
  $("gen-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    runSource({kind: $("kind").value, params: formParams()}, "gen-error", false);
  });
  $("file").addEventListener("change", async () => {
    $("file-error").textContent = "";
    const f = $("file").files[0];
    if (!f) return;
    try {
      const text = await readFile(f);
      $("upload-name").value = f.name;
      $("paste").value = text;
    } catch (e) {
      $("file").value = "";
      $("file-error").textContent = e.message;
    }
  });
  $("upload-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("paste").value;
    if (new Blob([text]).size > MAX_UPLOAD) {
      $("upload-error").textContent = "the text is " + fmtBytes(new Blob([text]).size) + ": the explorer takes up to " + fmtBytes(MAX_UPLOAD);
      return;
    }
    runSource({upload: text, name: $("upload-name").value || "pasted", rf: $("read-fraction").value || "1/2"}, "upload-error", false);
  });
  $("cancel").addEventListener("click", () => { if (controller) controller.abort(); });
  for (const host of document.querySelectorAll(".drawing-host")) {
    host.addEventListener("click", (ev) => {
      const el = ev.target.closest("[data-node]");
      if (!el || !current) return;
      toggle(Number(el.dataset.node));
    });
    host.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" && ev.key !== " " && ev.key !== "Spacebar") return;
      const el = ev.target.closest("[data-node]");
      if (!el || !current) return;
      ev.preventDefault();
      toggle(Number(el.dataset.node));
    });
  }
  $("reset").addEventListener("click", () => { failed = new Set(); updateFailures(); writeURL(); });
  $("next-survivor").addEventListener("click", () => { survivorPick++; updateFailures(); });
  $("exact").addEventListener("click", async () => {
    if (!current) return;
    clearErrors();
    try {
      const a = await call("/api/exact/" + current.id, "");
      compared = compared.map((c) => (c.a.id === a.id ? {a, src: c.src} : c));
      curves.delete(a.id);
      renderCompare();
      show(a, currentSrc, null, true);
    } catch (e) { showFailure("exact-error", e); }
  });
  $("add-compare").addEventListener("click", () => {
    if (current && current.id && !compared.some((c) => c.a.id === current.id)) compared.push({a: current, src: currentSrc});
    renderCompare();
  });
  $("clear-compare").addEventListener("click", () => { compared = []; renderCompare(); });
  for (const r of document.querySelectorAll('input[name="scale"]')) {
    r.addEventListener("change", () => { chartScale = r.value; drawChart(); writeURL(); });
  }
  await readURL();
}

init().catch((e) => { $("gen-error").textContent = "cannot load the constructions: " + e.message; });
