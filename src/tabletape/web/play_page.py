"""The page of `tabletape serve --play`: a seat's table and the events it may enter.

Static bytes (the same on every page, so the CSP allows its script by hash): the script
reads the seat's token from its own path, opens one stream of server-sent events
(`events`: its page data, pushed each time the table moves), and POSTs what is pressed.
While the stream is down it fetches `state` every FALLBACK_MS. No inline event handlers,
nothing fetched but this server's own paths.

A bar stays at the top of the screen: whose move it is (the page data's `acting`, the
players the board names too), the round or turn, a link to the moves; the tab's title
says it as well, and the phone may vibrate when it becomes the seat's move (off unless
ticked). While the server cannot be reached the bar says so and every button is off
(`offline()`, `online()`: the stream calls them as it is lost and back; `document` also
receives a `tabletape:offline` and a `tabletape:online` event, and `connection.online`
says which holds). A confirm box closes when the table moves on under it. At game over
the panel shows the outcome and its scores, and the table as the game-ending move found
it.
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
/* the moves panel: the builder's steps (BUILDER below) */
.step h2 { font-size: 15px; margin: 6px 0 4px; color: #333; }
.step .path { color: #555; font-size: 14px; margin-bottom: 2px; }
.step button { font-size: 16px; margin: 3px 4px 3px 0; padding: 8px 10px; min-height: 40px;
  border-radius: 6px; border: 1px solid #999; background: #f7f5ef; cursor: pointer; }
.step button.back { background: #fff; border-style: dashed; }
.step button.tick[aria-pressed="true"] { background: #2e6fb7; color: #fff; border-color: #2e6fb7; }
.step button.done { background: #2e8b57; color: #fff; border-color: #2e8b57; }
.step button.done:disabled { background: #ccc; border-color: #ccc; }
.step button.random { background: #fff3c4; border-color: #d4a017; font-weight: bold; }
#confirm { border: 2px solid #d4a017; border-radius: 6px; padding: 8px; margin: 8px 0;
           background: #fff8e1; }
#confirm .sentence { font-weight: bold; margin-bottom: 6px; }
#confirm .yes { background: #2e8b57; color: #fff; border-color: #2e8b57; }
#message { min-height: 1.4em; margin: 8px 0; }
#message.bad { color: #b03a2e; font-weight: bold; } #message.good { color: #2e8b57; }
#tools { border-top: 1px solid #ddd; margin-top: 10px; padding-top: 8px; }
#tools textarea { width: 100%; box-sizing: border-box; font-size: 16px; min-height: 3em; }
#undo-state { color: #8a6d00; }
#codes { border-top: 1px solid #ddd; margin-top: 10px; padding-top: 8px; }
#code-list > div { display: inline-block; margin: 6px 12px 6px 0; text-align: center;
                   overflow-wrap: anywhere; max-width: 220px; font-size: 13px; }
#code-list b { display: block; font-size: 16px; }
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
      <button id="refuse-undo" hidden>refuse the undo</button>
      <textarea id="note-text" maxlength="1000" placeholder="a note, or why you dispute the last event"></textarea>
      <button id="note">add note</button>
      <button id="dispute">dispute the last event</button>
    </div>
    <details id="codes" hidden><summary>show join codes</summary><div id="code-list"></div></details>
  </section>
</main>
<script>
"use strict";
// BUILDER: the moves panel. S.moves is a tree of steps (app.moves): one question a tap,
// a Back, and at the end the confirm with the sentence the log records (ask). A ticked
// step offers each item once; Done when the ticked items are one of its sets.
const builder = (() => {
  let path = [], ticked = [], version = null, seq = null, chose = false;
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  function here(root) {  // the step the path's labels lead to (as far as the tree has them)
    let step = root; const said = [];
    for (const label of path) {
      const c = step.choices.find(c => c.label === label && c.next);
      if (!c) { path = said.slice(); ticked = []; break; }
      said.push(label); step = c.next;
    }
    return [step, said];
  }
  function draw(S, box, ask) {
    // the path is kept while others write (as far as the new tree has it), not past one's own
    if (S.version !== version) { ticked = []; version = S.version; }
    if (S.seq !== seq) { if (chose) path = []; chose = false; seq = S.seq; }
    box.textContent = "";
    if (!S.moves) {
      path = [];
      if (S.setting_up && S.setting_up !== S.you && !S.umpire)
        box.appendChild(el("p", "", S.setting_up + " sets the table up"));
      return;
    }
    const [step, said] = here(S.moves);
    const redraw = () => draw(S, box, ask);
    const div = el("div", "step");
    if (said.length) div.appendChild(el("div", "path", said.join(" › ")));
    div.appendChild(el("h2", "", step.ask));
    const choose = c => {
      chose = !c.next;  // a move chosen: once the log moves on, the builder starts again
      if (c.setup) ask({ to: "setup", sentence: "Set up the table at random: the server "
                          + "draws the set-up and records it" });
      else if (c.move) ask({ event: c.move.event, sentence: c.move.sentence });
      else { path.push(c.label); ticked = []; redraw(); }
    };
    if (step.tick) {  // each item once (a card held twice: twice), ticked by its place
      const most = {};
      for (const c of step.choices) {
        const n = {};
        for (const t of c.ticks || []) n[t] = (n[t] || 0) + 1;
        for (const t in n) most[t] = Math.max(most[t] || 0, n[t]);
      }
      const items = Object.keys(most).flatMap(t => Array(most[t]).fill(t));
      items.forEach((item, k) => {
        const b = el("button", "choice tick", item);
        b.setAttribute("aria-pressed", ticked.includes(k) ? "true" : "false");
        b.addEventListener("click", () => {
          ticked = ticked.includes(k) ? ticked.filter(t => t !== k) : [...ticked, k];
          redraw();
        });
        div.appendChild(b);
      });
      const key = ticked.map(k => items[k]).sort().join("\u0000");
      const match = step.choices.find(c => [...(c.ticks || [])].sort().join("\u0000") === key);
      const done = el("button", "done", match ? "Done: " + match.label : "Done");
      done.disabled = !match;
      done.addEventListener("click", () => { if (match) choose(match); });
      div.appendChild(done);
    } else {
      for (const c of step.choices) {
        const b = el("button", "choice" + (c.setup ? " random" : ""), c.label);
        if (c.move) b.title = c.move.sentence;
        b.addEventListener("click", () => choose(c));
        div.appendChild(b);
      }
    }
    if (path.length) {
      const back = el("button", "back", "‹ Back");
      back.addEventListener("click", () => { path.pop(); ticked = []; redraw(); });
      div.appendChild(back);
    }
    box.appendChild(div);
  }
  return { draw };
})();
</script>
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
  const mine = !!S.moves;
  $("waiting").textContent = !S.waiting || S.over ? ""  // over: #final says it
    : (S.over ? "Game over: " : mine ? "Your move: " : "Waiting: ") + S.waiting;
  builder.draw(S, $("groups"), ask);  // the moves panel (BUILDER, its own script)
  $("tools").hidden = !S.you;
  const u = S.undo;
  $("undo").hidden = !u || !(S.umpire || u.may_ask || u.may_confirm);
  $("undo").textContent = !u ? "" : u.may_confirm ? "accept the undo of seq " + u.target
    : S.umpire ? "undo seq " + u.target : "ask to undo seq " + u.target;
  $("refuse-undo").hidden = !u || !u.may_refuse;
  $("undo-state").textContent = u && u.asked_by
    ? u.asked_by + " asks to undo seq " + u.target + ": " + u.sentence
      + (u.may_confirm ? "" : " (another player answers)") : "";
  $("dispute").hidden = !u;
  const codes = S.codes || [];  // the join links: the umpire's page (or --show-codes)
  $("codes").hidden = !codes.length;
  if (codes.length && !$("code-list").childElementCount) {
    $("code-list").replaceChildren(...codes.map(c => {
      const d = document.createElement("div");
      const name = document.createElement("b");
      name.textContent = c.seat;
      const qr = document.createElement("div");
      qr.innerHTML = c.svg;  // drawn by the server (segno) from its own link
      const link = document.createElement("div");
      link.textContent = c.url;
      d.append(name, qr, link);
      return d;
    }));
  }
  closeStale();
  lock();
}

function ask(e) {
  if (OFFLINE) return;
  // refused if the table moves on meanwhile; `to`: the write's path (the set-up's own)
  chosen = { after: S.version, to: e.to || "event",
             body: e.body ? Object.assign({}, e.body, { after: S.version })
               : e.to ? { after: S.version } : { event: e.event, after: S.version } };
  $("confirm-sentence").textContent = (e.lead || "Confirm: ") + e.sentence;
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
  if (!connection.online) poll();  // else the stream brings the table as it now is
}

$("confirm-yes").addEventListener("click", () => {
  $("confirm").hidden = true;
  if (chosen) post(chosen.to, chosen.body);
  chosen = null;
});
$("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; chosen = null; });
// an undo, asked or answered, confirms with the sentence of the event it retracts (as `log`
// prints it for this seat); `target`: refused if the latest event changed meanwhile
$("undo").addEventListener("click", () => {
  const u = S.undo;
  if (!u) return;
  const lead = u.may_confirm ? "Accept undoing seq " : S.umpire ? "Undo seq " : "Ask to undo seq ";
  ask({ to: "undo", lead: lead + u.target + ": ", sentence: u.sentence,
        body: { target: u.target } });
});
$("refuse-undo").addEventListener("click", () => {
  const u = S.undo;
  if (u) post("undo", { refuse: true, target: u.target });
});
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
  const text = $("note-text").value.trim();
  if (!text) {  // a dispute is in the player's own words: none is posted without them
    say("Write why you dispute the last event first, then press dispute.", false);
    $("note-text").focus();
    return;
  }
  post("note", { text: text, dispute: true });
  $("note-text").value = "";
});

// Pushed: one stream of server-sent events; each `page` event is this seat's page data.
const FALLBACK_MS = 10000;  // while the stream is down: one fetch of the page this often
const connection = { online: null, stream: null, fallback: null };
function connected(up) {  // the hooks: "tabletape:online" / "tabletape:offline" on document
  if (connection.online === up) return;
  connection.online = up;
  if (up && connection.fallback) { clearInterval(connection.fallback); connection.fallback = null; }
  if (!up && !connection.fallback) connection.fallback = setInterval(poll, FALLBACK_MS);
  if (up) online(); else offline();
  document.dispatchEvent(new CustomEvent(up ? "tabletape:online" : "tabletape:offline"));
}
function listen() {
  const es = connection.stream = new EventSource(
    base + "events?v=" + encodeURIComponent(S ? S.version : ""));
  es.addEventListener("open", () => connected(true));
  es.addEventListener("page", ev => { S = JSON.parse(ev.data); draw(); connected(true); });
  es.addEventListener("error", () => {
    connected(false);
    if (es.readyState === EventSource.CLOSED) setTimeout(listen, 5000);  // else it retries
  });
}
function poll() {  // one fetch of the page data (the fallback, and after a write offline)
  const v = S ? S.version : "";
  fetch(base + "state?v=" + encodeURIComponent(v), { cache: "no-store" })
    .then(r => { online(); return r.status === 200 ? r.json() : null; })
    .then(j => { if (j) { S = j; draw(); } })
    .catch(() => offline());
}
listen();
setTimeout(() => { if (!S) poll(); }, 3000);  // a stream held up on the way (a proxy)
</script>
</body>
</html>
"""
