"use strict";
// coterie explorer: plain JavaScript over the JSON API of package web.
const $ = (id) => document.getElementById(id);
let specs = [];
let current = null;      // the analysis shown
let failed = new Set();  // failed nodes, 1-based
let compared = [];       // analyses in the comparison
let controller = null;   // aborts the request in flight

function showError(msg) { $("error").textContent = msg || ""; }

// call posts body to url and reads the streamed answer: progress lines,
// then the result or an error. The Cancel button aborts the request, which
// cancels the work on the server.
async function call(url, body) {
  if (controller) controller.abort();
  controller = new AbortController();
  const started = Date.now();
  let stage = "starting";
  $("busy").hidden = false;
  const show = () => {
    $("busy-text").textContent = stage + "… " + ((Date.now() - started) / 1000).toFixed(1) + " s";
  };
  const tick = setInterval(show, 100);
  try {
    const resp = await fetch(url + (url.includes("?") ? "&" : "?") + "stream=1", {method: "POST", headers: {"X-Coterie-Token": document.querySelector('meta[name="coterie-token"]').content}, body: body, signal: controller.signal});
    if (!resp.ok || !(resp.headers.get("Content-Type") || "").startsWith("application/x-ndjson")) {
      const data = await resp.json();
      throw new Error(data.error || resp.statusText);
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
        if (msg.error) throw new Error(msg.error);
        if (msg.result) return msg.result;
      }
      if (done) throw new Error("the server closed the connection");
    }
  } finally {
    clearInterval(tick);
    $("busy").hidden = true;
    $("busy-text").textContent = "computing…";
    controller = null;
  }
}

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

function show(a) {
  current = a;
  failed = new Set();
  $("view").hidden = false;
  $("name").textContent = a.name;
  $("verdict").textContent = a.verdict;
  $("drawing").innerHTML = a.drawing;
  $("sections").innerHTML = a.sections;
  for (const f of ["json", "text", "csv", "dat"]) $("dl-" + f).href = "/api/system/" + a.id + "?format=" + f;
  $("estimate-note").hidden = a.exact;
  $("dl-html").href = "/api/report?ids=" + a.id;
  $("dl-md").href = "/api/report?format=md&ids=" + a.id;
  // A read-write system is shown, not kept: nothing to download or compare.
  for (const id of ["dl-json", "dl-text", "dl-csv", "dl-dat", "dl-html", "dl-md", "add-compare"]) $(id).hidden = !a.id;
  updateFailures();
}

function binom(n, k) {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = r * (n - k + i) / i;
  return Math.round(r);
}

function updateFailures() {
  const a = current;
  for (const el of $("drawing").querySelectorAll("[data-node]")) {
    const v = Number(el.dataset.node);
    if (el.dataset.fill === undefined) el.dataset.fill = el.getAttribute("fill") || "";
    if (failed.has(v)) { el.setAttribute("fill", "#000000"); el.classList.add("failed"); }
    else { el.setAttribute("fill", el.dataset.fill); el.classList.remove("failed"); }
  }
  const list = [...failed].sort((x, y) => x - y);
  $("failed").textContent = list.length ? list.join(", ") : "none";
  let alive, total;
  if (a.threshold) {
    total = binom(a.n, a.threshold);
    alive = binom(a.n - failed.size, a.threshold);
  } else {
    total = a.quorums.length;
    alive = a.quorums.filter((q) => q.every((v) => !failed.has(v))).length;
  }
  const s = $("survivors");
  if (alive === 0) s.textContent = "no quorum survives: the system is down";
  else s.textContent = alive + " of " + total + " quorums survive" + (failed.size ? "" : " (no node has failed)");
  const aliveList = $("alive");
  aliveList.textContent = "";
  if (!a.threshold && failed.size && alive) {
    let shown = 0;
    a.quorums.forEach((q, i) => {
      if (shown < 12 && q.every((v) => !failed.has(v))) {
        const li = document.createElement("li");
        li.textContent = "quorum " + (i + 1) + ": {" + q.join(" ") + "}";
        aliveList.appendChild(li);
        shown++;
      }
    });
    if (alive > shown) {
      const li = document.createElement("li");
      li.textContent = "… and " + (alive - shown) + " more";
      aliveList.appendChild(li);
    }
  }
}

function renderCompare() {
  $("compare-view").hidden = compared.length === 0;
  const head = $("comparison").tHead, body = $("comparison").tBodies[0];
  head.textContent = ""; body.textContent = "";
  if (!compared.length) return;
  const tr = head.insertRow();
  for (const h of compared[0].compare_head) { const th = document.createElement("th"); th.textContent = h; tr.appendChild(th); }
  for (const a of compared) {
    const row = body.insertRow();
    for (const c of a.compare) row.insertCell().textContent = c;
  }
  $("dl-compare").href = "/api/report?ids=" + compared.map((a) => a.id).join(",");
}

async function init() {
  const resp = await fetch("/api/constructions");
  specs = await resp.json();
  for (const s of specs) {
    const o = document.createElement("option");
    o.value = s.name; o.textContent = s.name;
    $("kind").appendChild(o);
  }
  $("kind").value = specs.some((s) => s.name === "fpp") ? "fpp" : specs[0].name;
  renderParams();
  $("kind").addEventListener("change", renderParams);
  $("gen-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("");
    const params = {};
    for (const input of $("params").querySelectorAll("input")) {
      params[input.name] = input.type === "checkbox" ? (input.checked ? "true" : "") : input.value;
    }
    try { show(await call("/api/generate", JSON.stringify({kind: $("kind").value, params}))); }
    catch (e) { if (e.name !== "AbortError") showError(e.message); }
  });
  $("file").addEventListener("change", async () => {
    const f = $("file").files[0];
    if (!f) return;
    $("upload-name").value = f.name;
    $("paste").value = await f.text();
  });
  $("upload-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("");
    try { show(await call("/api/upload?name=" + encodeURIComponent($("upload-name").value) + "&read_fraction=" + encodeURIComponent($("read-fraction").value || "1/2"), $("paste").value)); }
    catch (e) { if (e.name !== "AbortError") showError(e.message); }
  });
  $("cancel").addEventListener("click", () => { if (controller) controller.abort(); showError("cancelled"); });
  $("drawing").addEventListener("click", (ev) => {
    const el = ev.target.closest("[data-node]");
    if (!el || !current) return;
    const v = Number(el.dataset.node);
    if (failed.has(v)) failed.delete(v); else failed.add(v);
    updateFailures();
  });
  $("reset").addEventListener("click", () => { failed = new Set(); updateFailures(); });
  $("exact").addEventListener("click", async () => {
    if (!current) return;
    showError("");
    try {
      const a = await call("/api/exact/" + current.id, "");
      compared = compared.map((c) => (c.id === a.id ? a : c));
      renderCompare();
      show(a);
    } catch (e) { if (e.name !== "AbortError") showError(e.message); }
  });
  $("add-compare").addEventListener("click", () => {
    if (current && !compared.some((a) => a.id === current.id)) compared.push(current);
    renderCompare();
  });
  $("clear-compare").addEventListener("click", () => { compared = []; renderCompare(); });
}

init().catch((e) => showError("cannot load the constructions: " + e.message));
