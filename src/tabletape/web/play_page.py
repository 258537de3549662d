"""The page of `tabletape serve --play`: a seat's table and the events it may enter.

Static bytes (the same on every page, so the CSP allows its script by hash): the script
reads the seat's token from its own path, polls `state`, and POSTs what is pressed.
No inline event handlers, nothing fetched but this server's own paths.
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
header h1 { font-size: 18px; margin: 0 8px 0 0; display: inline; }
#verdict { font-weight: bold; padding: 1px 8px; border-radius: 9px; color: #fff; }
#verdict.ok { background: #2e8b57; } #verdict.bad { background: #b03a2e; }
#you { color: #2e6fb7; font-weight: bold; }
main { display: flex; flex-wrap: wrap; gap: 12px; padding: 10px 12px; align-items: flex-start; }
#table { flex: 3 1 560px; min-width: 0; overflow-x: auto; }
#table svg { display: block; max-width: 100%; height: auto; background: #f6f3ea;
             box-shadow: 0 1px 3px rgba(0,0,0,.25); }
#panel { flex: 1 1 300px; background: #fff; border: 1px solid #ccc; border-radius: 6px;
         padding: 10px 12px; min-width: 0; }
#waiting { font-weight: bold; margin-bottom: 8px; }
#hand { margin-bottom: 8px; padding-bottom: 6px; border-bottom: 1px solid #ddd; }
.group h2 { font-size: 15px; margin: 10px 0 4px; color: #555; }
.group button, #confirm button, #tools button { font-size: 16px; margin: 3px 4px 3px 0;
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
@media (max-width: 600px) {  /* a phone: the table laid out narrow at its own size, the
                               panel below it, nothing wider than the screen */
  main { display: block; padding: 6px; }
  #table svg { margin: 0 auto; }
  #panel { margin-top: 10px; }
  header { overflow-wrap: anywhere; }
}
</style>
</head>
<body>
<header>
  <h1 id="title">tabletape</h1> <span id="verdict"></span>
  <div>seat: <span id="you"></span> · <span id="seq"></span></div>
</header>
<main>
  <div id="table"></div>
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

function say(text, good) {
  $("message").textContent = text;
  $("message").className = good ? "good" : "bad";
}

function draw() {
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
  $("waiting").textContent = !S.waiting ? ""
    : (S.over ? "Game over: " : mine ? "Your move: " : "Waiting: ") + S.waiting;
  builder.draw(S, $("groups"), ask);  // the moves panel (BUILDER, its own script)
  $("tools").hidden = !S.you;
  const u = S.undo;
  $("undo").hidden = !u || !(S.umpire || u.may_ask || u.may_confirm);
  $("undo").textContent = !u ? "" : S.umpire ? "undo seq " + u.target
    : u.may_confirm ? "confirm the undo of seq " + u.target : "ask to undo seq " + u.target;
  $("undo-state").textContent = u && u.asked_by
    ? u.asked_by + " asks to undo seq " + u.target + (u.may_confirm ? "" : " (another player confirms)") : "";
  $("dispute").hidden = !u;
}

function ask(e) {
  // refused if the table moves on meanwhile; `to`: the write's path (the set-up's own)
  chosen = e.to ? { to: e.to, body: { after: S.version } }
                : { to: "event", body: { event: e.event, after: S.version } };
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
  } catch (err) { say("not sent: the server cannot be reached", false); return; }
  const j = await r.json().catch(() => ({ message: "the server said " + r.status }));
  say((j.rule ? "[" + j.rule + "] " : "") + j.message, r.ok);
  poll(true);
}

$("confirm-yes").addEventListener("click", () => {
  $("confirm").hidden = true;
  if (chosen) post(chosen.to, chosen.body);
  chosen = null;
});
$("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; chosen = null; });
$("undo").addEventListener("click", () => post("undo", {}));
NARROW.addEventListener("change", () => { if (S) draw(); });
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
    .then(r => r.status === 200 ? r.json() : null)
    .then(j => { if (j) { S = j; draw(); } })
    .catch(() => {})
    .finally(() => { polling = setTimeout(poll, 1000); });
}
poll(true);
</script>
</body>
</html>
"""
