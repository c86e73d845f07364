"""The page of ``anascore report`` (:mod:`anascore.report.html` fills the ``{{…}}`` slots with
:func:`fill`): inline CSS and JavaScript, no network. Documents are drawn by the script when
opened.

Text from the input files reaches the page in two ways, each escaped for its context: as HTML
(the slots other than ``DATA``, escaped by the caller) and as the JSON of the ``data`` block,
which the script reads as text and writes into the page through ``esc`` or ``textContent``
only."""

from __future__ import annotations

import re
from collections.abc import Mapping

#: A slot of the template: ``{{NAME}}``.
_SLOT = re.compile(r"\{\{([A-Z]+)\}\}")


def fill(template: str, slots: Mapping[str, str]) -> str:
    """``template`` with each ``{{NAME}}`` replaced by ``slots[NAME]``, in one pass.

    A value is never searched for slots: a title, warning or name that reads ``{{DATA}}``
    (from a file name, a document name, ``--names``) stays that text, where slot-by-slot
    replacement put the page's data there as HTML. A slot without a value, or a value
    without its slot, is this module's caller's mistake (``ValueError``)."""
    wanted = set(_SLOT.findall(template))
    if wanted != set(slots):
        missing, unused = sorted(wanted - set(slots)), sorted(set(slots) - wanted)
        raise ValueError(f"template slots without a value: {', '.join(missing) or 'none'}; "
                         f"values without a slot: {', '.join(unused) or 'none'}")
    return _SLOT.sub(lambda found: slots[found.group(1)], template)


TEMPLATE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}</title>
<style>
:root { --ink: #1d2330; --muted: #667085; --line: #d9dee8; --panel: #f6f7fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       margin: 0; }
header { padding: 14px 24px; background: #24324a; color: #fff; }
header h1 { margin: 0; font-size: 19px; font-weight: 600; }
header p { margin: 4px 0 0; color: #c8d2e6; font-size: 13px; }
nav { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line);
      padding: 6px 24px; z-index: 5; }
nav a { margin-right: 16px; color: #2b5797; text-decoration: none; font-weight: 500; }
main { padding: 8px 24px 40px; }
section { margin: 18px 0 28px; }
h2 { font-size: 16px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.row { display: flex; gap: 32px; flex-wrap: wrap; align-items: flex-start; }
table { border-collapse: collapse; }
table.scores td, table.scores th, #documents td, #documents th, table caption + tr th,
section table td, section table th { padding: 3px 10px; border-bottom: 1px solid var(--line);
  text-align: right; }
section table th:first-child { text-align: left; }
#documents { width: 100%; }
#documents th { cursor: pointer; user-select: none; background: var(--panel); position: sticky;
                top: 0; }
#documents th.sorted::after { content: " \25B4"; }
#documents th.sorted.down::after { content: " \25BE"; }
#documents tbody tr { cursor: pointer; }
#documents tbody tr:hover { background: #eef3fb; }
#documents th:focus-visible, #documents tbody tr:focus-visible, .b:focus-visible {
  outline: 2px solid #2b5797; outline-offset: 1px; }
#documents td:first-child { text-align: left; font-family: ui-monospace, monospace; font-size: 12px; }
.tablebox { max-height: 420px; overflow: auto; border: 1px solid var(--line); }
.note { color: var(--muted); }
.mark, .err { font-size: 10px; font-weight: 700; border-radius: 3px; padding: 0 2px;
              margin-left: 1px; color: #fff; vertical-align: super; }
.mark { background: #555; vertical-align: baseline; }
.err.S { background: #7b3fa0; } .err.C { background: #b8860b; } .err.D { background: #2e7d6b; }
.err.X { background: #c0392b; } .err.M { background: #1f5fbf; } .err.E { background: #e0562b; }
.err.N { background: #0d3b8a; }
#viewer-controls { display: flex; gap: 12px; align-items: center; flex-wrap: wrap;
                   margin-bottom: 8px; }
#viewer-controls select { max-width: 420px; }
.legend span { margin-right: 2px; }
.legend .err, th .err { vertical-align: baseline; }
#text { width: 100%; border-collapse: collapse; table-layout: fixed; }
#text td { vertical-align: top; padding: 6px 10px; border-bottom: 1px solid #eef0f4;
           text-align: left; line-height: 1.9; }
#text th { text-align: left; background: var(--panel); padding: 6px 10px; position: sticky;
           top: 34px; }
#text td.n { width: 38px; color: var(--muted); font-size: 11px; text-align: right; }
.w { padding: 1px 0; border-radius: 2px; }
.w.zero { color: var(--muted); font-style: italic; }
.w.hl { background: #ffe9a8; }
.b { font-weight: 700; cursor: pointer; }
.b sub { font-size: 9px; font-weight: 600; }
.b.hl { background: #ffd34d; border-radius: 2px; }
.b.nr { color: #999 !important; }
.b.disc sub::after { content: "\2026"; }
#entity-info { color: var(--muted); min-height: 1.4em; }
ul.links { margin: 4px 0; padding-left: 20px; }
svg.chart text { font-size: 11px; fill: var(--ink); }
svg.chart text.axis { fill: var(--muted); }
</style>
</head>
<body>
<header><h1>{{TITLE}}</h1><p>{{MODE}} · errors classified on: {{LAYERS}}</p>
<p class="signature">signature: <code>{{SIGNATURE}}</code></p></header>
<nav><a href="#scores">Scores</a><a href="#errors">Errors</a><a href="#groups">Groups</a>
<a href="#per-document">Documents</a><a href="#viewer">Key and response</a></nav>
<main>
<section id="scores"><h2>Corpus scores</h2>
<div class="row"><div>{{SCORES}}</div><div>{{PLOT}}</div></div>
<ul class="note">{{WARNINGS}}</ul></section>
<section id="errors"><h2>Errors (Kummerfeld &amp; Klein 2013) and what each type costs</h2>
<div class="row"><div>{{ERRORS}}</div><div>{{IMPACT}}</div></div></section>
<section id="groups"><h2>Grouped scores</h2>{{GROUPS}}</section>
<section id="per-document"><h2>Documents</h2>
<p class="note">Click a column to sort, a row to open the document below (or reach it with
Tab and press Enter).</p>
<div class="tablebox"><table id="documents"><thead></thead><tbody></tbody></table></div></section>
<section id="viewer"><h2>Key and response, side by side</h2>
<div id="viewer-controls">
<label>Document <select id="document"></select></label>
<label>System <select id="system"></select></label>
<span class="legend">
<span><b>[</b>mention<b>]</b><sub>entity</sub></span>
<span class="err M">M</span> missing mention <span class="err N">N</span> missing entity
<span class="err X">X</span> extra mention <span class="err E">E</span> extra entity
<span class="err S">S</span> span error <span class="err D">D</span> divided entity
<span class="err C">C</span> conflated entities · <i>∅</i> zero · <sub>…</sub> discontinuous ·
<span style="color:#999"><b>[</b>NR<b>]</b></span> non-referring</span></div>
<div id="entity-info" aria-live="polite">Click a bracket to highlight its entity on both sides.</div>
<div id="document-view"></div>
</section>
<pre id="selftest" hidden></pre>
</main>
<script id="data" type="application/json">{{DATA}}</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const $ = (id) => document.getElementById(id);
// Text from the data into HTML (content or a quoted attribute): every value the page writes
// with innerHTML goes through esc; a replacement is always a function, never a string, whose
// "$&", "$'" and "$`" String.replace would read as patterns.
const esc = (text) => String(text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]);
const colour = (entity) => entity < 0 ? "#999" : `hsl(${(entity * 137.508) % 360}, 65%, 38%)`;
const chunks = (m) => Array.isArray(m[0]) ? m : [m];
// Enter or Space on an element reached with Tab does what a click does.
const pressed = (event) => event.key === "Enter" || event.key === " ";
let current = null;

function perDocumentTable() {
  const metrics = DATA.metrics, systems = DATA.systems, titles = DATA.titles || metrics;
  const head = ["document"];
  systems.forEach((s) => titles.forEach((m) => head.push(systems.length > 1 ? `${s}: ${m}` : m)));
  systems.forEach((s) => head.push(systems.length > 1 ? `${s}: errors` : "errors"));
  const rows = DATA.documents.map((doc, d) => {
    const cells = [doc.n];
    systems.forEach((s, i) => metrics.forEach((m) => cells.push(DATA.perDocument[i][d][m])));
    systems.forEach((s, i) => cells.push(Object.values(doc.sys[i].c).reduce((a, b) => a + b, 0)));
    return {d, cells};
  });
  const thead = $("documents").tHead, tbody = $("documents").tBodies[0];
  thead.innerHTML = "<tr>" + head.map((h, i) => `<th data-c="${i}" tabindex="0" aria-sort="none">${esc(h)}</th>`).join("") + "</tr>";
  let sorted = -1, down = false;
  function draw() {
    tbody.innerHTML = rows.map((r) => `<tr data-d="${r.d}" tabindex="0">` + r.cells.map((c, i) => `<td>${
      i === 0 ? esc(c) : c === null ? "n/a" : typeof c === "number" && i <= systems.length * metrics.length ? (100 * c).toFixed(2) : esc(c)}</td>`).join("") + "</tr>").join("");
  }
  function sortBy(event) {
    const th = event.target.closest("th"); if (!th) return;
    const c = +th.dataset.c;
    down = sorted === c ? !down : false; sorted = c;
    rows.sort((a, b) => {
      const x = a.cells[c], y = b.cells[c];
      const order = (x === null) - (y === null) || (typeof x === "string" ? x.localeCompare(y) : x - y);
      return down ? -order : order;
    });
    thead.querySelectorAll("th").forEach((h) => { h.classList.remove("sorted", "down"); h.setAttribute("aria-sort", "none"); });
    th.classList.add("sorted"); if (down) th.classList.add("down");
    th.setAttribute("aria-sort", down ? "descending" : "ascending");
    draw();
  }
  function openRow(event) {
    const tr = event.target.closest("tr"); if (!tr) return;
    $("document").value = tr.dataset.d; openDocument(); $("viewer").scrollIntoView();
  }
  thead.addEventListener("click", sortBy);
  thead.addEventListener("keydown", (event) => { if (pressed(event)) { event.preventDefault(); sortBy(event); } });
  tbody.addEventListener("click", openRow);
  tbody.addEventListener("keydown", (event) => { if (pressed(event)) { event.preventDefault(); openRow(event); } });
  draw();
}

function brackets(side, marks, words, tag) {
  const paint = (e) => e < 0 ? colour(-1) : colour(side.col ? side.col[e] : e);
  // Opening and closing brackets by token: outer mentions open first and close last.
  const opens = words.map(() => []), closes = words.map(() => []);
  side.m.forEach((m, i) => {
    const parts = chunks(m);
    parts.forEach(([s, e], j) => {
      const item = {i, e: side.e[i], len: e - s, disc: parts.length > 1, last: j === parts.length - 1};
      opens[s].push(item); closes[e].push(item);
    });
  });
  (side.nr || []).forEach((m) => chunks(m).forEach(([s, e]) => {
    const item = {i: -1, e: -1, len: e - s, nr: true, last: true};
    opens[s].push(item); closes[e].push(item);
  }));
  opens.forEach((list) => list.sort((a, b) => b.len - a.len));
  closes.forEach((list) => list.sort((a, b) => a.len - b.len));
  return (t) => {
    let html = "";
    // An opening bracket is a button reached with Tab (one stop per mention).
    for (const o of opens[t]) html += `<span class="b${o.nr ? " nr" : ""}" data-s="${tag}" data-i="${o.i}" style="color:${paint(o.e)}"${o.nr ? "" : ` tabindex="0" role="button" aria-label="${tag === "k" ? "key" : "response"} mention of entity ${esc(side.ids[o.e])}"`}>[</span>`;
    html += "\u0001";
    for (const c of closes[t]) {
      const label = c.nr ? "NR" : side.ids[c.e];
      const errs = c.last && c.i >= 0 && marks[c.i] ? [...marks[c.i]].map((k) => `<span class="err ${esc(k)}">${esc(k)}</span>`).join("") : "";
      html += `<span class="b${c.nr ? " nr" : ""}${c.disc ? " disc" : ""}" data-s="${tag}" data-i="${c.i}" style="color:${paint(c.e)}">]<sub>${esc(label)}</sub></span>${errs}`;
    }
    return html;
  };
}

function openDocument() {
  const d = +$("document").value, s = +$("system").value;
  const doc = DATA.documents[d], sys = doc.sys[s];
  current = {doc, sys};
  const words = doc.w, zero = new Set(doc.z);
  const key = brackets({...doc.k, nr: doc.nr}, sys.km, words, "k");
  const response = brackets(sys, sys.rm, words, "r");
  const starts = doc.s.length ? doc.s : [0];
  const rows = [];
  starts.forEach((start, n) => {
    const end = n + 1 < starts.length ? starts[n + 1] : words.length;
    let left = "", right = "";
    for (let t = start; t < end; t++) {
      const word = `<span class="w${zero.has(t) ? " zero" : ""}" data-t="${t}">${zero.has(t) ? "∅" + esc(words[t] === "_" ? "" : words[t]) : esc(words[t])}</span>`;
      left += key(t).replace("\u0001", () => word) + " ";
      right += response(t).replace("\u0001", () => word) + " ";
    }
    rows.push(`<tr><td class="n">${n + 1}</td><td data-s="k">${left}</td><td data-s="r">${right}</td></tr>`);
  });
  const counts = Object.entries(sys.c).map(([k, v]) => `${v} ${k.replace(/_/g, " ")}`).join(", ") || "no errors";
  let extra = "";
  if (doc.br.length) {
    const text = (m) => m === null ? "" : chunks(m).map(([s, e]) => words.slice(s, e + 1).join(" ")).join(" … ");
    extra += "<h3>Bridging (key)</h3><ul class='links'>" + doc.br.map(([anaphor, antecedent, entity, relation]) =>
      `<li>[${esc(text(anaphor))}] → ${antecedent !== null ? "[" + esc(text(antecedent)) + "]" : "entity " + esc(entity)}${relation ? " (" + esc(relation) + ")" : ""}</li>`).join("") + "</ul>";
  }
  if (doc.sa.length) {
    extra += "<h3>Split-antecedent plurals (key)</h3><ul class='links'>" + doc.sa.map(([plural, elements]) =>
      `<li>entity ${esc(plural)} = ${elements.map(esc).join(" + ")}</li>`).join("") + "</ul>";
  }
  $("document-view").innerHTML = `<p class="note">${esc(doc.n)}: ${words.length} tokens; ${esc(counts)}</p>` +
    `<table id="text"><colgroup><col style="width:38px"><col><col></colgroup><tr><th></th><th>Key</th><th>Response: ${esc(DATA.systems[s])}</th></tr>${rows.join("")}</table>` + extra;
  $("entity-info").textContent = "Click a bracket to highlight its entity on both sides.";
}

function highlight(sideTag, index) {
  const {doc, sys} = current;
  document.querySelectorAll("#document-view .hl").forEach((x) => x.classList.remove("hl"));
  if (index < 0) return {k: 0, r: 0};
  const ownSide = sideTag === "k" ? doc.k : sys, entity = ownSide.e[index];
  const chosen = {k: new Set(), r: new Set()};
  ownSide.e.forEach((e, i) => { if (e === entity) chosen[sideTag].add(i); });
  const other = sideTag === "k" ? "r" : "k";
  for (const [ki, ri] of sys.a) {
    if (sideTag === "k" && chosen.k.has(ki)) chosen.r.add(ri);
    if (sideTag === "r" && chosen.r.has(ri)) chosen.k.add(ki);
  }
  for (const tag of ["k", "r"]) {
    const side = tag === "k" ? doc.k : sys;
    const cell = document.querySelectorAll(`#text td[data-s="${tag}"]`);
    const tokens = new Set();
    chosen[tag].forEach((i) => chunks(side.m[i]).forEach(([s, e]) => { for (let t = s; t <= e; t++) tokens.add(t); }));
    cell.forEach((td) => {
      td.querySelectorAll(".b").forEach((b) => { if (chosen[tag].has(+b.dataset.i) && b.dataset.i !== "-1") b.classList.add("hl"); });
      td.querySelectorAll(".w").forEach((w) => { if (tokens.has(+w.dataset.t)) w.classList.add("hl"); });
    });
  }
  const name = ownSide.ids[entity];
  $("entity-info").textContent = `${sideTag === "k" ? "Key" : "Response"} entity ${name}: ${chosen[sideTag].size} mention(s) here, ${chosen[other].size} aligned on the ${other === "k" ? "key" : "response"} side.`;
  return {k: chosen.k.size, r: chosen.r.size};
}

function init() {
  $("document").innerHTML = DATA.documents.map((doc, d) => `<option value="${d}">${esc(doc.n)}</option>`).join("");
  $("system").innerHTML = DATA.systems.map((s, i) => `<option value="${i}">${esc(s)}</option>`).join("");
  $("document").addEventListener("change", openDocument);
  $("system").addEventListener("change", openDocument);
  $("document-view").addEventListener("click", (event) => {
    const b = event.target.closest(".b"); if (!b) return;
    highlight(b.dataset.s, +b.dataset.i);
  });
  $("document-view").addEventListener("keydown", (event) => {
    const b = event.target.closest(".b"); if (!b || !pressed(event)) return;
    event.preventDefault(); highlight(b.dataset.s, +b.dataset.i);
  });
  perDocumentTable();
  if (DATA.documents.length) openDocument();
  if (location.hash === "#selftest") selfTest();
  // A link to a document and an entity: #doc=N (from 0), &system=S, &mention=k5 (key mention 5;
  // r5 for the response's) highlights that mention's entity.
  const link = new URLSearchParams(location.hash.slice(1));
  if (link.has("doc") && DATA.documents[+link.get("doc")]) {
    $("document").value = +link.get("doc");
    if (link.has("system") && DATA.systems[+link.get("system")]) $("system").value = +link.get("system");
    openDocument();
    const mention = /^([kr])(\d+)$/.exec(link.get("mention") || "");
    if (mention) highlight(mention[1], +mention[2]);
    $("viewer").scrollIntoView();
  }
}

function selfTest() {
  // Opens every document of every system and clicks its first key bracket; the results go
  // into #selftest for a headless browser to read (tests/unit/report/test_html.py).
  const result = {documents: DATA.documents.length, opened: 0, rendered: 0, highlighted: 0, failures: []};
  DATA.systems.forEach((_, s) => DATA.documents.forEach((doc, d) => {
    try {
      $("system").value = s; $("document").value = d; openDocument();
      result.opened++;
      const rows = document.querySelectorAll("#text tr").length - 1;
      if (rows === (doc.s.length || 1)) result.rendered++;
      const bracket = document.querySelector('#text td[data-s="k"] .b:not(.nr)');
      if (bracket) {
        bracket.dispatchEvent(new MouseEvent("click", {bubbles: true}));
        const k = document.querySelectorAll('#text td[data-s="k"] .b.hl').length;
        const aligned = doc.sys[s].a.some(([ki]) => doc.k.e[ki] === doc.k.e[+bracket.dataset.i]);
        const r = document.querySelectorAll('#text td[data-s="r"] .b.hl').length;
        if (k > 0 && (!aligned || r > 0)) result.highlighted++;
        else result.failures.push(doc.n);
      } else result.highlighted++;
    } catch (error) { result.failures.push(doc.n + ": " + error); }
  }));
  $("selftest").textContent = JSON.stringify(result);
  $("selftest").hidden = false;
}
init();
</script>
</body>
</html>
"""
