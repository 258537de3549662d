"""The viewer's page: HTML, CSS and JavaScript in one string, the data put in by `viewer.html`.

Plain JavaScript, no library, nothing fetched (except `data`, polled when `live`).
"""

PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="tabletape view">
<title>{{TITLE}}</title>
<style>
body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif;
       background: #ece8dc; color: #222; }
header { padding: 8px 14px; background: #fff; border-bottom: 1px solid #ccc; }
header h1 { font-size: 18px; margin: 0 8px 0 0; display: inline; }
#verdict { font-weight: bold; padding: 1px 8px; border-radius: 9px; color: #fff; }
#verdict.ok { background: #2e8b57; } #verdict.bad { background: #b03a2e; }
#head { font: 12px ui-monospace, monospace; color: #555; word-break: break-all; }
#live { color: #2e6fb7; font-weight: bold; }
#judged { color: #8a5a00; font-size: 13px; }
nav { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 8px 14px;
      background: #f7f5ef; border-bottom: 1px solid #ccc; position: sticky; top: 0; z-index: 2; }
nav button { font-size: 15px; min-width: 38px; padding: 4px 8px; cursor: pointer; }
nav input[type=number] { width: 6em; font-size: 15px; }
#track { position: relative; flex: 1 1 240px; min-width: 160px; height: 30px; }
#slider { width: 100%; margin: 0; position: absolute; top: 4px; }
#ticks { position: absolute; left: 8px; right: 8px; top: 22px; height: 8px; pointer-events: none; }
#ticks span { position: absolute; width: 3px; height: 8px; margin-left: -1px; }
#ticks .i { background: #b03a2e; } #ticks .d { background: #d4a017; }
main { display: flex; flex-wrap: wrap; gap: 12px; padding: 12px 14px; align-items: flex-start; }
#table { flex: 3 1 560px; min-width: 0; }
#table svg { max-width: 100%; height: auto; display: block; background: #f6f3ea;
             box-shadow: 0 1px 3px rgba(0,0,0,.25); }
aside { flex: 1 1 280px; background: #fff; border: 1px solid #ccc; border-radius: 6px;
        padding: 10px 12px; }
#where { color: #555; font-size: 13px; }
#sentence { font-size: 17px; font-weight: bold; margin: 4px 0 8px; }
#ruling.legal { color: #2e8b57; } #ruling.illegal { color: #b03a2e; } #ruling.other { color: #8a6d00; }
#marks { padding-left: 18px; margin: 8px 0; }
#marks li { margin: 4px 0; } #marks li.dispute { color: #8a6d00; } #marks li.illegal { color: #b03a2e; }
#message { color: #8a6d00; min-height: 1.4em; font-size: 13px; }
footer { padding: 6px 14px 14px; color: #666; font-size: 12px; }
kbd { border: 1px solid #bbb; border-radius: 3px; padding: 0 3px; background: #fff; }
@media (max-width: 600px) {  /* a phone: the table laid out narrow at its own size, the
                               panel below it, nothing wider than the screen */
  main { display: block; padding: 6px; }
  #table svg { margin: 0 auto; }
  aside { margin-top: 10px; }
  #head, #where, #message, footer { font-size: 12px; }
  header, aside { overflow-wrap: anywhere; }
  nav { padding: 6px; }
}
</style>
</head>
<body>
<header>
  <h1 id="title"></h1> <span id="verdict"></span> <span id="live" hidden>● live</span>
  <div id="head"></div>
  <div id="judged" hidden></div>
</header>
<nav aria-label="replay controls">
  <button id="first" title="first (Home)" aria-label="first">|◀</button>
  <button id="prev" title="previous (←)" aria-label="previous">◀</button>
  <button id="play" title="play / pause" aria-label="play">play</button>
  <button id="next" title="next (→)" aria-label="next">▶</button>
  <button id="last" title="last (End)" aria-label="last">▶|</button>
  <div id="track"><input id="slider" type="range" min="0" value="0" aria-label="seq">
    <div id="ticks"></div></div>
  <label>seq <input id="seq" type="number" min="0" value="0"></label>
  <button id="next-dispute">next dispute</button>
  <button id="next-illegal">next illegal</button>
  <label>seen by <select id="viewer"></select></label>
</nav>
<main>
  <div id="table"></div>
  <aside aria-live="polite">
    <div id="where"></div>
    <div id="sentence"></div>
    <div id="ruling"></div>
    <ul id="marks"></ul>
    <div id="message"></div>
  </aside>
</main>
<footer>Keys: <kbd>←</kbd> <kbd>→</kbd> step, <kbd>Home</kbd> <kbd>End</kbd> first and last.
A link ending in <code>#seq=N</code> opens at seq N. Made by tabletape view.</footer>
<script id="data" type="application/gzip;base64">{{DATA}}</script>
<script>
"use strict";
let D = null;
let pos = 0, view = 0, timer = null;
const NARROW = window.matchMedia("(max-width: 600px)");
const $ = id => document.getElementById(id);
const last = () => D.frames.length - 1;

function setup() {
  $("title").textContent = D.title ? D.title + " — " + D.file : D.file;
  $("verdict").textContent = D.verdict;
  $("verdict").className = D.ok ? "ok" : "bad";
  $("head").textContent = D.frames.length ? "head " + (D.head || "—") + " · " + D.frames.length + " lines (seq 0–" + last() + ")"
    : "nothing to show: the file cannot be read as a log";
  $("live").hidden = !D.live;
  $("judged").textContent = D.judged || "";
  $("judged").hidden = !D.judged;
  const sel = $("viewer");
  if (sel.options.length !== D.players.length + 1) {
    sel.innerHTML = "";
    ["everyone (all cards)"].concat(D.players.map(p => p)).forEach((name, i) => {
      const o = document.createElement("option"); o.value = String(i); o.textContent = name;
      sel.appendChild(o);
    });
  }
  $("slider").max = String(Math.max(0, last())); $("seq").max = String(Math.max(0, last()));
  const ticks = $("ticks"); ticks.innerHTML = "";
  D.frames.forEach((f, i) => {
    if (!f.k) return;
    const s = document.createElement("span");
    s.className = f.k; s.style.left = (last() ? 100 * i / last() : 0) + "%";
    s.title = "seq " + i + (f.k === "i" ? ": illegal" : ": dispute");
    ticks.appendChild(s);
  });
}

function show(n, quiet) {
  if (!D.frames.length) {  // the log cannot be read (live): nothing of what it was is shown
    pos = 0;
    for (const id of ["table", "where", "sentence", "ruling", "marks"]) $(id).textContent = "";
    $("seq").value = ""; $("slider").value = "0";
    return;
  }
  pos = Math.max(0, Math.min(last(), n));
  const f = D.frames[pos];
  const narrow = NARROW.matches && D.pics[pos].length > D.players.length + 1;
  const pics = D.pics[pos][view + (narrow ? D.players.length + 1 : 0)];  // a phone's layout
  let svg = "";
  for (const i of pics) svg += D.parts[i];
  $("table").innerHTML = svg + "</svg>";
  $("where").textContent = "seq " + pos + " of " + last() + (f.b ? " · by " + f.b : "")
    + (view ? " · as " + D.players[view - 1] + " sees it" : "");
  $("sentence").textContent = "seq " + pos + ": " + f.t;
  $("ruling").textContent = f.r;
  $("ruling").className = /^ruling: legal/.test(f.r) ? "legal" : /^ruling: illegal/.test(f.r) ? "illegal" : "other";
  const ul = $("marks"); ul.innerHTML = "";
  for (const m of f.m) {
    const li = document.createElement("li"); li.textContent = m;
    li.className = /^illegal/.test(m) ? "illegal" : /disput|ruling/.test(m) ? "dispute" : "";
    ul.appendChild(li);
  }
  $("slider").value = String(pos); $("seq").value = String(pos);
  if (!quiet) $("message").textContent = "";
  const hash = "#seq=" + pos + (view ? "&as=" + encodeURIComponent(D.players[view - 1]) : "");
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

function say(text) { $("message").textContent = text; }
function step(by) {
  if (!D.frames.length) return;
  const n = pos + by;
  if (n < 0) return say("this is the header (seq 0)");
  if (n > last()) return say("this is the last event");
  show(n);
}
function seek(kind, name) {
  for (let i = pos + 1; i <= last(); i++) if (D.frames[i].k === kind) return show(i);
  say("no " + name + " after this seq");
}
function play() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
  if (pos >= last()) show(0);
  $("play").textContent = "pause";
  timer = setInterval(() => { if (pos >= last()) { play(); } else { show(pos + 1); } }, 700);
}
function fromHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  const as = h.get("as");
  if (as !== null && D.players.indexOf(as) >= 0) { view = D.players.indexOf(as) + 1; $("viewer").value = String(view); }
  const s = parseInt(h.get("seq") || "", 10);
  show(isNaN(s) ? pos : s);
}

$("first").onclick = () => show(0);
$("last").onclick = () => show(last());
$("prev").onclick = () => step(-1);
$("next").onclick = () => step(1);
$("play").onclick = play;
$("slider").oninput = e => show(parseInt(e.target.value, 10));
$("seq").onchange = e => { const n = parseInt(e.target.value, 10);
  if (isNaN(n) || n < 0 || n > last()) { say("no seq " + e.target.value + ": the log runs from 0 to " + last()); show(pos, true); }
  else show(n); };
$("next-dispute").onclick = () => seek("d", "dispute");
$("next-illegal").onclick = () => seek("i", "illegal event");
$("viewer").onchange = e => { view = parseInt(e.target.value, 10); show(pos); };
NARROW.addEventListener("change", () => { if (D.frames.length) show(pos, true); });
document.addEventListener("keydown", e => {
  const t = e.target;
  if (t && (t.id === "seq" || t.id === "slider" || t.tagName === "SELECT")) return;
  const k = { ArrowLeft: () => step(-1), ArrowRight: () => step(1),
              Home: () => show(0), End: () => show(last()) }[e.key];
  if (k) { e.preventDefault(); k(); }
});
window.addEventListener("hashchange", fromHash);

async function unpack() {
  const b64 = $("data").textContent.trim();
  const raw = atob(b64), bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

async function start() {
  try { D = await unpack(); }
  catch (e) {
    $("title").textContent = "This browser cannot unpack the game (it needs DecompressionStream: " +
      "Chrome 80, Firefox 113, Safari 16.4 or later).";
    return;
  }
  setup();
  if (location.hash) fromHash(); else show(D.live ? last() : 0);
  document.body.dataset.ready = "1";
  if (D.live) setTimeout(poll, 500);
}

function poll() {
  fetch("data?v=" + encodeURIComponent(D.version), { cache: "no-store" })
    .then(r => r.status === 200 ? r.json() : null)
    .then(next => {
      if (next) {
        const following = !D.frames.length || pos === last();  // at the latest, or at nothing
        D = next; setup(); show(following ? last() : Math.min(pos, last()), true);
      }
    })
    .catch(() => {})
    .finally(() => setTimeout(poll, 500));
}
start();
</script>
</body>
</html>
"""
