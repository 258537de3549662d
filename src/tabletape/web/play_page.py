"""The page of `tabletape serve --play`: a seat's table and the events it may enter.

Static bytes (the same on every page, so the CSP allows its script by hash): the script
reads the seat's token from its own path, polls `state`, and POSTs what is pressed.
No inline event handlers, nothing fetched but this server's own paths.

A bar stays at the top of the screen: whose move it is (the page data's `acting`, the
players the board names too), the round or turn, a link to the moves; the tab's title
says it as well, and the phone may vibrate when it becomes the seat's move (off unless
ticked). While the server cannot be reached the bar says so and every button is off
(`offline()`, `online()`: whatever carries the table's changes calls them). A confirm box
closes when the table moves on under it. At game over the panel shows the outcome and
its scores, and the table as the game-ending move found it.
"""

PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="tabletape serve --play">
<meta name="referrer" content="no-referrer">
<title>tabletape: at the table</title>
<style>
body { margin: 0; font: 16px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif;
       background: #ece8dc; color: #222; }
header { padding: 8px 12px; background: #fff; border-bottom: 1px solid #ccc; }
/* the bar: whose move it is, always on the first screen (sticky: it keeps its place in the
   flow, so nothing hides under it) */
#bar { position: sticky; top: 0; z-index: 10; background: #33415c; color: #fff;
       padding: 6px 12px; box-shadow: 0 1px 4px rgba(0,0,0,.3); }
#bar.mine { background: #2e8b57; } #bar.over { background: #6b4f1d; }
#bar.offline { background: #666; }
#bar-line { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px; }
#turn { font-weight: bold; font-size: 17px; }
#stage { opacity: .9; }
#go { margin-left: auto; color: #fff; font-weight: bold; padding: 6px 10px;
      border: 1px solid #fff; border-radius: 6px; text-decoration: none; min-height: 20px; }
#offline { background: #b03a2e; color: #fff; font-weight: bold; margin: 6px -12px -6px;
           padding: 6px 12px; }
#buzz-label { font-size: 14px; color: #555; white-space: nowrap; }
#panel, #final { scroll-margin-top: 70px; }
#final { border: 2px solid #d4a017; border-radius: 6px; padding: 8px; margin: 0 0 10px;
         background: #fff8e1; }
#final h2 { font-size: 17px; margin: 0 0 4px; }
#final table { border-collapse: collapse; margin: 6px 0; }
#final td { padding: 2px 12px 2px 0; } #final td.won { font-weight: bold; color: #2e8b57; }
#boards { flex: 3 1 560px; min-width: 0; }
#last { margin: 12px 0 0; } #last figcaption { font-weight: bold; margin-bottom: 4px; }
#last svg { display: block; max-width: 100%; height: auto; background: #f6f3ea;
            box-shadow: 0 1px 3px rgba(0,0,0,.25); }
button:disabled { opacity: .45; cursor: not-allowed; }
header h1 { font-size: 18px; margin: 0 8px 0 0; display: inline; }
#verdict { font-weight: bold; padding: 1px 8px; border-radius: 9px; color: #fff; }
#verdict.ok { background: #2e8b57; } #verdict.bad { background: #b03a2e; }
#you { color: #2e6fb7; font-weight: bold; }
main { display: flex; flex-wrap: wrap; gap: 12px; padding: 10px 12px; align-items: flex-start; }
#table { min-width: 0; overflow-x: auto; }
#table svg { display: block; max-width: 100%; height: auto; background: #f6f3ea;
             box-shadow: 0 1px 3px rgba(0,0,0,.25); }
#panel { flex: 1 1 300px; background: #fff; border: 1px solid #ccc; border-radius: 6px;
         padding: 10px 12px; min-width: 0; }
#waiting { font-weight: bold; margin-bottom: 8px; }
#hand { margin-bottom: 8px; padding-bottom: 6px; border-bottom: 1px solid #ddd; }
.group h2 { font-size: 15px; margin: 10px 0 4px; color: #555; }
.group button, #confirm button, #tools button, #rematch { font-size: 16px; margin: 3px 4px 3px 0;
  padding: 8px 10px; min-height: 40px; border-radius: 6px; border: 1px solid #999;
  background: #f7f5ef; cursor: pointer; }
#confirm { border: 2px solid #d4a017; border-radius: 6px; padding: 8px; margin: 8px 0;
           background: #fff8e1; }
#confirm .sentence { font-weight: bold; margin-bottom: 6px; }
#confirm .yes { background: #2e8b57; color: #fff; border-color: #2e8b57; }
#message { min-height: 1.4em; margin: 8px 0; }
#message.bad { color: #b03a2e; font-weight: bold; } #message.good { color: #2e8b57; }
#tools { border-top: 1px solid #ddd; margin-top: 10px; padding-top: 8px; }
#tools textarea { width: 100%; box-sizing: border-box; font-size: 16px; min-height: 3em; }
#undo-state { color: #8a6d00; }
@media (max-width: 600px) {  /* a phone: the table laid out narrow at its own size, the
                               panel below it, nothing wider than the screen */
  main { display: block; padding: 6px; }
  #table svg, #last svg { margin: 0 auto; }
  #panel { margin-top: 10px; }
  header { overflow-wrap: anywhere; }
}
</style>
</head>
<body>
<div id="bar" role="status">
  <div id="bar-line"><span id="turn">tabletape</span> <span id="stage"></span>
    <a id="go" href="#panel" hidden>Go to your move</a></div>
  <div id="offline" hidden>Reconnecting… buttons are off until the server answers</div>
</div>
<header>
  <h1 id="title">tabletape</h1> <span id="verdict"></span>
  <div>seat: <span id="you"></span> · <span id="seq"></span>
    <label id="buzz-label" hidden><input type="checkbox" id="buzz"> vibrate on my move</label></div>
</header>
<main>
  <div id="boards">
    <section id="final" hidden>
      <h2 id="final-summary"></h2>
      <table id="final-scores"></table>
      <button id="rematch" hidden>Rematch</button>
    </section>
    <div id="table"></div>
    <figure id="last" hidden>
      <figcaption id="last-move"></figcaption><div id="last-board"></div>
    </figure>
  </div>
  <section id="panel" aria-live="polite">
    <div id="hand" hidden></div>
    <div id="waiting"></div>
    <div id="groups"></div>
    <div id="confirm" hidden>
      <div class="sentence" id="confirm-sentence"></div>
      <button class="yes" id="confirm-yes">Confirm</button>
      <button id="confirm-no">Cancel</button>
    </div>
    <div id="message"></div>
    <div id="tools" hidden>
      <div id="undo-state"></div>
      <button id="undo">ask to undo the last event</button>
      <textarea id="note-text" maxlength="1000" placeholder="a note, or why you dispute the last event"></textarea>
      <button id="note">add note</button>
      <button id="dispute">dispute the last event</button>
    </div>
  </section>
</main>
<script>
"use strict";
const $ = id => document.getElementById(id);
const m = location.pathname.match(/^\/p\/([A-Za-z0-9_-]+)\/?$/);
const base = m ? "/p/" + m[1] + "/" : "/";
let S = null, chosen = null;
const NARROW = window.matchMedia("(max-width: 600px)");
let OFFLINE = false, wasMine = null;

function say(text, good) {
  $("message").textContent = text;
  $("message").className = good ? "good" : "bad";
}

// a refused write in one sentence; the rule's id only when the server names the rule
// that refused it (a stale page or a fault of ours names none)
function refusal(j) {
  const m = String(j.message || "refused").trim();
  const sentence = m.charAt(0).toUpperCase() + m.slice(1) + (/[.!?]$/.test(m) ? "" : ".");
  return "Not recorded: " + sentence + (j.rule ? " (rule " + j.rule + ")" : "");
}

function names(list) {
  return list.length < 2 ? list.join("")
    : list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
}

// whose move it is, in the bar at the top and in the tab's title
function mine() { return !!S && S.groups.length > 0 && !S.umpire; }

function whose() {
  const acting = S.acting || [];
  if (!S.title) return "The table cannot be shown";
  if (S.over) return "Game over";
  if (mine()) return "Your move";
  if (S.blocked) return "Waiting for the umpire's ruling";
  if (S.umpire && acting.length) return names(acting) + " to move";
  if (acting.length) return "Waiting for " + names(acting);
  return S.waiting ? "Waiting: " + S.waiting : "Waiting";
}

function drawBar() {
  if (!S) return;
  const heard = whose();  // offline: what the page last heard, said as such
  const said = OFFLINE ? "Last heard: " + heard.charAt(0).toLowerCase() + heard.slice(1) : heard;
  $("turn").textContent = said;
  $("stage").textContent = S.stage && !S.over ? S.stage : S.over ? S.waiting : "";
  const moves = S.groups.length > 0;
  $("go").hidden = !moves || S.over || OFFLINE;
  $("go").textContent = S.umpire ? "Go to the moves" : "Go to your move";
  $("bar").className = OFFLINE ? "offline" : mine() ? "mine" : S.over ? "over" : "";
  document.title = (mine() && !OFFLINE ? "● " : "") + said + " — " + (S.title || "tabletape");
  $("buzz-label").hidden = !S.you || S.umpire || !("vibrate" in navigator);
  if (mine() && wasMine === false && $("buzz").checked && navigator.vibrate) navigator.vibrate(200);
  wasMine = mine();
}

// at game over: the outcome and the scores that decided it, and the table as the
// game-ending move found it (the rules may clear the board once the game is decided)
function drawFinal() {
  $("final").hidden = !S.over;
  $("last").hidden = !S.over || !S.final_svg;
  if (!S.over) return;
  $("final-summary").textContent = "Game over: " + S.waiting;
  const winners = S.winners || [];
  $("final-scores").replaceChildren(...Object.entries(S.scores || {}).map(([who, score]) => {
    const tr = document.createElement("tr");
    for (const text of [who + (winners.includes(who) ? " ★" : ""), String(score)]) {
      const td = document.createElement("td");
      td.textContent = text;
      if (winners.includes(who)) td.className = "won";
      tr.appendChild(td);
    }
    return tr;
  }));
  $("last-move").textContent = S.final_move
    ? "The table as the last move found it (" + S.final_move + ")" : "";
  $("last-board").innerHTML = NARROW.matches && S.final_narrow ? S.final_narrow : S.final_svg;
  $("rematch").hidden = !S.you || S.rematch === undefined || S.rematch === null;
  if (S.rematch) $("rematch").title = S.rematch;
}

// a confirm box over a table that moved on closes, saying why
function closeStale() {
  if (chosen && chosen.after !== S.version) {
    chosen = null;
    $("confirm").hidden = true;
    say("The table moved on: look again", false);
  }
}

// while the server cannot be reached every button is off (and those drawn meanwhile)
function lock() {
  for (const b of document.querySelectorAll("button")) {
    if (OFFLINE && !b.disabled) { b.disabled = true; b.dataset.offline = "1"; }
    if (!OFFLINE && b.dataset.offline) { b.disabled = false; delete b.dataset.offline; }
  }
}
new MutationObserver(() => { if (OFFLINE) lock(); })
  .observe(document.body, { childList: true, subtree: true });

// called by whatever carries the table's changes: the server answered, or cannot be reached
function offline() {
  if (OFFLINE) return;
  OFFLINE = true;
  $("offline").hidden = false;
  lock();
  drawBar();
}
function online() {
  if (!OFFLINE) return;
  OFFLINE = false;
  $("offline").hidden = true;
  say("", true);  // what was said while offline is stale now
  lock();
  drawBar();
}

function draw() {
  drawBar();
  drawFinal();
  $("title").textContent = S.title || "tabletape";
  $("verdict").textContent = S.verdict;
  $("verdict").className = S.ok ? "ok" : "bad";
  $("seq").textContent = S.seq === undefined ? "" : "after seq " + S.seq;
  $("you").textContent = S.you ? S.you + (S.umpire ? " (sees everything)" : "")
                                : "everyone (public)";
  // drawn by the server: the same SVG as `tabletape svg`, or on a phone the same table
  // laid out narrow (shown at its own size: its smallest text 10 px, the page not wider)
  $("table").innerHTML = NARROW.matches && S.narrow ? S.narrow : S.svg;
  const piles = (S.hand || []).filter(h => h.cards.length);
  $("hand").hidden = !piles.length;
  $("hand").replaceChildren(...piles.map(h => {
    const line = document.createElement("div");
    line.textContent = "Your " + h.pile.toLowerCase() + " (" + h.cards.length + "): " + h.cards.join(", ");
    return line;
  }));
  const mine = S.groups.length > 0;
  $("waiting").textContent = !S.waiting || S.over ? ""  // over: #final says it
    : (S.over ? "Game over: " : mine ? "Your move: " : "Waiting: ") + S.waiting;
  const groups = $("groups");
  groups.textContent = "";
  for (const g of S.groups) {
    const div = document.createElement("div");
    div.className = "group";
    const h = document.createElement("h2");
    h.textContent = g.group;
    div.appendChild(h);
    for (const e of g.events) {
      const b = document.createElement("button");
      b.textContent = e.item;
      b.title = e.sentence;
      b.addEventListener("click", () => ask(e));
      div.appendChild(b);
    }
    groups.appendChild(div);
  }
  $("tools").hidden = !S.you;
  const u = S.undo;
  $("undo").hidden = !u || !(S.umpire || u.may_ask || u.may_confirm);
  $("undo").textContent = !u ? "" : S.umpire ? "undo seq " + u.target
    : u.may_confirm ? "confirm the undo of seq " + u.target : "ask to undo seq " + u.target;
  $("undo-state").textContent = u && u.asked_by
    ? u.asked_by + " asks to undo seq " + u.target + (u.may_confirm ? "" : " (another player confirms)") : "";
  $("dispute").hidden = !u;
  closeStale();
  lock();
}

function ask(e) {
  if (OFFLINE) return;
  chosen = { event: e.event, after: S.version };  // refused if the table moves on meanwhile
  $("confirm-sentence").textContent = "Confirm: " + e.sentence;
  $("confirm").hidden = false;
  $("confirm-yes").focus();
}

async function post(what, body) {
  if (!body.after) body.after = S.version;
  let r;
  try {
    r = await fetch(base + what, { method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch (err) {
    offline();
    say("Not sent: the server cannot be reached", false);
    return;
  }
  online();
  const j = await r.json().catch(() => ({ message: "the server said " + r.status }));
  say(r.ok ? j.message : refusal(j), r.ok);
  const link = typeof j.link === "string" ? j.link : j.url;  // a rematch's new page
  if (r.ok && typeof link === "string" && link.startsWith("/")) { location.assign(link); return; }
  poll(true);
}

$("confirm-yes").addEventListener("click", () => {
  $("confirm").hidden = true;
  if (chosen) post("event", chosen);
  chosen = null;
});
$("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; chosen = null; });
$("undo").addEventListener("click", () => post("undo", {}));
$("rematch").addEventListener("click", () => post("rematch", {}));
try { $("buzz").checked = localStorage.getItem("tabletape-vibrate") === "1"; } catch (e) {}
$("buzz").addEventListener("change", () => {
  try { localStorage.setItem("tabletape-vibrate", $("buzz").checked ? "1" : "0"); } catch (e) {}
});
NARROW.addEventListener("change", () => { if (S) draw(); });
$("go").addEventListener("click", ev => {  // the panel, below the bar; its first button focused
  ev.preventDefault();
  $("panel").scrollIntoView({ block: "start" });
  const first = document.querySelector("#groups button");
  if (first) first.focus({ preventScroll: true });
});
$("note").addEventListener("click", () => {
  post("note", { text: $("note-text").value, dispute: false });
  $("note-text").value = "";
});
$("dispute").addEventListener("click", () => {
  post("note", { text: $("note-text").value || "disputed from the table", dispute: true });
  $("note-text").value = "";
});

let polling = null;
function poll(now) {
  if (polling) clearTimeout(polling);
  const v = S ? S.version : "";
  fetch(base + "state?v=" + encodeURIComponent(v), { cache: "no-store" })
    .then(r => { online(); return r.status === 200 ? r.json() : null; })
    .then(j => { if (j) { S = j; draw(); } })
    .catch(() => offline())
    .finally(() => { polling = setTimeout(poll, 1000); });
}
poll(true);
</script>
</body>
</html>
"""
