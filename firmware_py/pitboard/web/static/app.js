// Pitboard's phone station. The server sends the station's view (the same StationView an
// OLED draws, as JSON: pitboard/table/view_json.py); this page draws it for a touch screen
// and sends back what a wired station would: the tray button under a spot (a card or a key),
// GO, the gear lever. Nothing about the game is decided here.
"use strict";

const $ = (id) => document.getElementById(id);
const STORE = "pitboard.seat";
const state = { ws: null, view: null, seat: null, name: "", n: 0, acked: 0, pending: new Map(),
  unlocked: false, join: null, hello: null, retry: 0, timer: null, gone: "", frames: 0 };
window.pitboard = state;  // for the browser tests: what the page was last sent

// ---- the connection ------------------------------------------------------------------
function stored() {
  try { return JSON.parse(localStorage.getItem(STORE) || "null"); } catch { return null; }
}
function remember(seat) {
  if (seat) localStorage.setItem(STORE, JSON.stringify(seat)); else localStorage.removeItem(STORE);
}
// the seat is no longer ours: forget its token, keep the seat and name to ask for them again
function forgetToken() {
  const last = stored();
  remember(last ? { seat: last.seat, name: last.name } : null);
}

function connect() {
  clearTimeout(state.timer);
  if (state.ws && state.ws.readyState <= 1) return;
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(scheme + location.host + "/ws");
  state.ws = ws;
  ws.onopen = () => {
    state.retry = 0;
    online(true);
    const seat = stored();
    if (seat && seat.token && !state.gone) send({ t: "resume", seat: seat.seat, token: seat.token });
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    online(false);
    if (state.ws !== ws) return;
    const wait = Math.min(5000, 500 * 2 ** state.retry++);
    state.timer = setTimeout(connect, wait);
  };
}
function send(message) {
  if (state.ws && state.ws.readyState === 1) { state.ws.send(JSON.stringify(message)); return true; }
  return false;
}
function online(on) {
  $("conn").classList.toggle("on", on);
  $("offline").hidden = on || !(stored() || {}).token;
  document.body.dataset.online = on ? "yes" : "no";
}
// a phone back from sleep reconnects at once, not when the back-off says
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") connect();
});
window.addEventListener("online", connect);

// ---- what the server says --------------------------------------------------------------
function receive(m) {
  state.frames++;
  switch (m.t) {
    case "hello": state.hello = m; if (state.seat === null) showJoin(); break;
    case "seat":
      state.seat = m.seat; state.name = m.name; state.gone = "";
      remember({ seat: m.seat, token: m.token, name: m.name });
      error(""); showStation(); break;
    case "view": state.view = m.v; acked(m.ack); draw(); break;
    case "ack": acked(m.ack); break;
    case "join": state.join = m; drawInvite(); break;
    case "err": error(m.msg); if (/no longer holds/.test(m.msg)) { forgetToken(); unseat(m.msg); } break;
    case "bye": forgetToken(); state.gone = m.why; unseat(m.why); break;
    case "left": remember(null); unseat(""); break;
    case "staff": state.unlocked = m.unlocked; drawStaff(); break;
    case "seats": state.seats = m.seats; drawStaff(); break;
    case "freed": error(""); break;
  }
}
function acked(n) {
  state.acked = n;
  for (const [k, el] of state.pending) if (k <= n) { el.classList.remove("pending"); state.pending.delete(k); }
}
function error(text) { $("error").textContent = text || ""; }

// ---- screens ---------------------------------------------------------------------------
function screen(name) {
  document.body.dataset.screen = name;
  $("join").hidden = name !== "join";
  $("station").hidden = name !== "station";
  $("go-bar").hidden = name !== "station";
  $("menu-button").hidden = name !== "station";
}
function unseat(why) {
  state.seat = null; state.view = null; state.join = null;
  $("menu").hidden = true;
  showJoin();
  error(why);
}
function showJoin() {
  if (state.seat !== null) return;
  screen("join");
  $("title").textContent = "Pitboard";
  const hello = state.hello || { code_needed: true, free: 0 };
  $("code-label").hidden = !hello.code_needed;
  $("join-hint").textContent = hello.code_needed
    ? "Type the code the table shows in its lobby (or scan its QR code), and your name."
    : "You are the first at this table: your name is all it takes.";
  $("free").textContent = hello.free ? `${hello.free} seat${hello.free > 1 ? "s" : ""} free` : "No seat is free right now.";
  const last = stored();
  if (last && !$("name").value) $("name").value = last.name || "";
}
function showStation() { screen("station"); if (state.view) draw(); }

$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const message = { t: "join", code: $("code").value.trim(), name: $("name").value.trim() };
  const before = stored();
  if (before) message.seat = before.seat;
  state.gone = "";
  if (!send(message)) error("not connected: trying again");
});

// ---- drawing a view ----------------------------------------------------------------------
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
function tap(node, message) {
  node.addEventListener("click", () => {
    message.n = ++state.n;
    if (send(message)) { node.classList.add("pending"); state.pending.set(message.n, node); }
  });
  return node;
}

function draw() {
  const v = state.view;
  if (!v || state.seat === null) return;
  document.body.dataset.kind = v.kind;
  const lap = v.laps && [...PLAN, "resolution", "waiting"].includes(v.kind)
    ? ` · lap ${Math.min(Math.max(v.lap, 1), v.laps)}/${v.laps}` : "";
  $("title").textContent = (v.title || state.name) + lap;
  $("message").textContent = v.message;
  drawStats(v); drawWarnings(v); drawInfo(v); drawHand(v); drawLever(v); drawKeys(v);
  $("detail").textContent = v.detail || v.sector || "";
  $("go").textContent = goLabel(v);
  $("invite-inline").replaceChildren();
  if (v.kind === "lobby" || v.kind === "attract") $("invite-inline").append(inviteBox());
  state.pending.clear();
}

const PLAN = ["planning", "locked"];
function drawStats(v) {
  const box = $("stats"); box.replaceChildren();
  if (![...PLAN, "resolution", "waiting"].includes(v.kind) || v.laps === 0) return;
  const stat = (label, value) => { const s = el("div", "stat"); s.append(el("b", "", value), el("small", "", label)); box.append(s); };
  stat("speed", v.speed || "–");
  const shifting = PLAN.includes(v.kind) && v.target_gear !== v.gear;  // the lever's gear
  stat(shifting ? `gear ${v.gear}→` : "gear", String(shifting ? v.target_gear : v.gear));
  stat("heat in engine", String(v.engine));
}
function drawWarnings(v) {
  const box = $("warnings"); box.replaceChildren();
  for (const c of v.corners) {
    const road = c.adjust ? ` (road ${c.adjust > 0 ? "+" : ""}${c.adjust})` : "";
    const text = `Corner ${c.number}, limit ${c.limit}${road}: ` + (c.heat ? `+${c.heat} Heat` : "ok");
    box.append(el("div", c.heat ? "warn" : "warn ok", text));
  }
  if (v.next_corner && !v.corners.length) {
    const c = v.next_corner;
    box.append(el("div", "warn ok", `Next corner ${c.number}, limit ${c.limit}, ${c.ahead} spaces on`));
  }
  if (v.shift_cost) box.append(el("div", "warn", `Shifting 2 gears costs ${v.shift_cost} Heat`));
  if (v.heat_owed && !v.corners.length) box.append(el("div", "warn", `${v.heat_owed} Heat to pay`));
  if (v.spin_out) box.append(el("div", "warn spin", v.spin_odds && v.spin_odds < 100 ? `Spin-out risk ${v.spin_odds}%` : "SPIN OUT"));
}
function drawInfo(v) {
  const box = $("info"); box.replaceChildren();
  if (v.move) {
    const m = v.move, who = m.who === "you" ? "Your car: " : "";
    const blocked = m.blocked ? `, ${m.blocked} lost to blocking` : "";
    box.append(el("div", "move", `${who}move ${m.spaces} to space ${m.space}, ${m.spot}${blocked}`));
  }
  const chips = (items, title) => {
    if (!items.length) return;
    const row = el("div", "chips"); if (title) row.append(el("span", "", title));
    for (const x of items) row.append(el("span", "chip", x)); box.append(row);
  };
  chips(v.flips, "flips: "); chips(v.heat_paid, "Heat paid: "); chips(v.go_fields, "");
  // the OLED's join line: this page shows the code and its QR code in the invite box
  for (const line of v.lines) if (!/^phones: code /.test(line)) box.append(el("p", "", line));
  if (v.order.length) {
    // a championship's standings: "place name<TAB>points" (the points after the tab)
    const list = el("ol"); for (const line of v.order) list.append(el("li", "", line.replace(/^\d+ /, "").replace("\t", " · ")));
    box.append(list);
  }
}
function drawHand(v) {
  const box = $("hand"); box.replaceChildren();
  for (const c of v.cards) {
    const card = el("button", `card ${c.kind}` + (c.selected ? " selected" : "") + (c.disabled ? " disabled" : ""));
    card.type = "button"; card.dataset.slot = c.slot; card.dataset.code = c.code;
    const face = c.face || {};
    if (c.kind === "heat") card.append(el("span", "speed", "H"), el("span", "name", "Heat"));
    else if (c.kind === "stress") card.append(el("span", "speed", "S"), el("span", "name", "Stress"));
    else card.append(el("span", "speed", face.speed || c.label));
    if (c.kind === "upgrade") {
      card.append(el("span", "name", face.name || c.label));
      for (const s of face.symbols || []) card.append(el("span", "sym" + (s.mandatory ? " mandatory" : ""), (s.mandatory ? "! " : "") + s.short));
      card.title = face.says || "";
    }
    box.append(tap(card, { t: "tap", slot: c.slot }));
  }
}
function drawLever(v) {
  const box = $("lever");
  box.hidden = !PLAN.includes(v.kind);
  if (box.hidden) return;
  box.replaceChildren(el("div", "lever-label", "gear lever"));
  for (let g = 1; g <= 4; g++) {
    const gear = el("button", "gear" + (g === v.gear ? " current" : "") + (g === v.target_gear ? " target" : ""), String(g));
    gear.type = "button"; gear.dataset.gear = g;
    box.append(tap(gear, { t: "gear", gear: g }));
  }
}
function drawKeys(v) {
  const box = $("keys"); box.replaceChildren();
  for (const k of v.keys) {
    if (k.label === "GO") continue;  // the big GO below says it: the same button as GO
    const toggle = ["ADR", "BST", "COOL"].includes(k.label) || /^SL/.test(k.label);
    const key = el("button", "key" + (k.off ? " off" : toggle ? " on" : ""), k.words);
    key.type = "button"; key.dataset.slot = k.slot; key.dataset.label = k.label;
    box.append(tap(key, { t: "tap", slot: k.slot }));
  }
}
function goLabel(v) {
  if (v.kind === "lobby") return /JOINED/i.test(v.lines.join(" ")) ? "Leave the race" : "Join the race";
  if (v.kind === "attract") return "Play";
  if (v.kind === "results" || v.kind === "standings") return "Next";
  return "GO";
}
$("go").addEventListener("click", () => {
  const v = state.view;
  // a screen with a GO soft key (the turn screen) means that key: the tray button under it
  const goKey = v ? v.keys.find((k) => k.label === "GO") : null;
  const message = goKey ? { t: "tap", slot: goKey.slot } : { t: "go" };
  message.n = ++state.n;
  if (send(message)) { $("go").classList.add("pending"); state.pending.set(message.n, $("go")); }
});

// ---- the menu: invite, staff, leave ---------------------------------------------------------
function inviteBox() {
  const box = el("div", "invite");
  const j = state.join;
  if (!j) return box;
  box.append(el("div", "", "Next player: scan, or open"), el("div", "url", j.url));
  const img = el("img"); img.src = j.qr; img.alt = "QR code of the join page";
  box.append(img, el("div", "code", j.code), el("small", "hint", "join code"));
  return box;
}
function drawInvite() {
  $("invite").replaceChildren(inviteBox());
  const v = state.view;
  if (v && (v.kind === "lobby" || v.kind === "attract")) $("invite-inline").replaceChildren(inviteBox());
}
function drawStaff() {
  $("pin-form").hidden = state.unlocked;
  $("lock").hidden = !state.unlocked;
  const box = $("staff-seats"); box.replaceChildren();
  if (!state.unlocked || !state.seats) return;
  for (const s of state.seats) {
    const row = el("div", "seat-row");
    const who = s.holder ? `${s.holder}${s.here ? "" : " (away)"}` : "free";
    row.append(el("span", "", `S${s.seat + 1}: ${who}`));
    if (s.holder) {
      const free = el("button", "danger", "Free");
      free.addEventListener("click", () => send({ t: "free", seat: s.seat }));
      row.append(free);
    }
    box.append(row);
  }
}
$("menu-button").addEventListener("click", () => { drawInvite(); drawStaff(); $("menu").hidden = false; });
$("close-menu").addEventListener("click", () => { $("menu").hidden = true; });
$("pin-form").addEventListener("submit", (event) => {
  event.preventDefault(); send({ t: "pin", pin: $("pin").value.trim() }); $("pin").value = "";
});
$("lock").addEventListener("click", () => send({ t: "lock" }));
$("leave").addEventListener("click", () => {
  if (confirm("Leave your seat? Another phone can take it with the join code.")) send({ t: "leave" });
});

// ---- start: a code in the address (the lobby's QR code) fills the form ------------------
(function start() {
  const found = /^\/j\/(\d{1,12})$/i.exec(location.pathname);
  if (found) { $("code").value = found[1]; history.replaceState(null, "", "/"); }
  screen("connecting");
  connect();
})();
