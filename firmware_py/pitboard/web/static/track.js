// Pitboard's track view, for a TV beside the table. The server sends the track's drawing (the
// SVG `pitboard tracks --svg` prints, with the geometry of every spot), the table's state
// (pitboard/table/track_json.py) and the race's events; this page draws the cars on their
// spots and animates each move from where the car was to where it stopped. It only watches:
// nothing is sent back, and nothing about the game is decided here.
//
// `?pace=N` makes the animations N times as long (0.02-5; 1 by default).
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const mod = (a, n) => ((a % n) + n) % n;

const tv = {
  ws: null, retry: 0, timer: null, offlineTimer: null, build: null, frames: 0, fulls: 0,
  race: "", cursor: 0, applied: 0, idle: true, state: null,
  track: "", geo: null, spots: new Map(), layers: null,
  cars: new Map(), queue: [], anim: null, ticker: [],
  stats: [],  // one per animation: {ms, frames, longest} (the frame rate a TV holds)
  pace: clamp(Number(new URLSearchParams(location.search).get("pace")) || 1, 0.02, 5),
  lock: null,
};
window.tv = tv;  // what the page drew, for the browser tests and the benchmark

// ---- the connection ------------------------------------------------------------------------
function connect() {
  clearTimeout(tv.timer);
  if (tv.ws && tv.ws.readyState <= 1) return;
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(scheme + location.host + "/track/ws");
  tv.ws = ws;
  ws.onopen = () => { tv.retry = 0; offline(false); };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    if (tv.ws !== ws) return;
    offline(true);
    tv.timer = setTimeout(connect, Math.min(5000, 500 * 2 ** tv.retry++));
  };
}
function offline(on) {  // a blink of a reconnect shows nothing; a table gone away shows
  clearTimeout(tv.offlineTimer);
  if (!on) { $("offline").hidden = true; document.body.dataset.online = "yes"; return; }
  document.body.dataset.online = "no";
  tv.offlineTimer = setTimeout(() => { $("offline").hidden = false; }, 1500);
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") { connect(); stayAwake(); }
});

// the screen stays on while the page shows (Chromium: the Screen Wake Lock API, on localhost
// or https; the Pi's kiosk set-up turns blanking off as well)
async function stayAwake() {
  try {
    if ("wakeLock" in navigator && document.visibilityState === "visible" && !tv.lock) {
      tv.lock = await navigator.wakeLock.request("screen");
      tv.lock.addEventListener("release", () => { tv.lock = null; });
    }
  } catch (err) { tv.lock = null; }
}

// ---- frames --------------------------------------------------------------------------------
function receive(m) {
  if (m.t !== "track") return;
  tv.frames++;
  if (m.build) {
    if (tv.build && m.build !== tv.build) { location.reload(); return; }  // a new program
    tv.build = m.build;
  }
  if (m.drawing) drawTrack(m.drawing);
  if (m.full || m.drawing) redraw(m); else step(m);
}

// everything from the state, animating nothing (a connection's first frame, a new race, an
// undo, a TV that fell behind)
function redraw(m) {
  tv.fulls++;
  stopAnimation();
  tv.queue = [];
  tv.race = m.race;
  tv.state = m.state;
  for (const car of tv.cars.values()) { car.el.remove(); car.tag.remove(); }
  tv.cars.clear();
  tv.ticker = [];
  for (const e of m.events) note(e);
  tv.cursor = m.cursor;
  settle();
}

// what happened since the last frame, in order, then the state now
function step(m) {
  tv.state = m.state;
  tv.cursor = m.cursor;
  tv.queue.push(...m.events);
  tv.idle = false;
  drawSide();
  pump();
}

// the events that move a car on the board (a Legend car's move is a `move` too, followed by
// a `legend` event that says which card moved it)
const MOVES = { move: 1, spin_out: -1 };

function pump() {
  while (!tv.anim && tv.queue.length) {
    const e = tv.queue.shift();
    tv.applied = e.i + 1;
    note(e);
    if (MOVES[e.type] && tv.geo) startMove(e);
  }
  drawTicker();
  if (!tv.anim && !tv.queue.length) settle();
}

// the state, drawn: every car where the table says, the tokens, the side
function settle() {
  const state = tv.state;
  if (!state || !tv.geo) { drawSide(); return; }
  const seen = new Set();
  for (const c of state.cars) {
    seen.add(c.id);
    const car = carOf(c);
    if (!c.on_track) hide(car);
    else if (!car.shown || car.space !== c.space || car.spot !== c.spot) place(car, c.space, c.spot);
    car.el.dataset.lap = c.lap;
    car.el.classList.toggle("current", state.current === c.id);
    car.el.classList.remove("spun");
  }
  for (const [id, car] of tv.cars) {
    if (!seen.has(id)) { car.el.remove(); car.tag.remove(); tv.cars.delete(id); }
  }
  drawTokens(state);
  drawSide();
  tv.applied = tv.cursor;
  tv.idle = true;
}

// ---- the track -----------------------------------------------------------------------------
function drawTrack(drawing) {
  const parsed = new DOMParser().parseFromString(drawing.svg, "image/svg+xml");
  const svg = document.importNode(parsed.documentElement, true);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  const geo = drawing.geometry;
  tv.geo = geo;
  tv.track = drawing.track;
  tv.spots = new Map(geo.spots.map(([space, spot, x, y, a]) => [space * 2 + spot - 1, { x, y, a }]));
  const layers = {};
  for (const name of ["tokens", "cars", "tags"]) {
    layers[name] = make("g", { id: name });
    svg.appendChild(layers[name]);
  }
  tv.layers = layers;
  for (const car of tv.cars.values()) { car.el.remove(); car.tag.remove(); }
  tv.cars.clear();
  $("board").replaceChildren(svg);
  $("track-name").textContent = drawing.name;
}

const spotOf = (space, spot) => tv.spots.get(space * 2 + spot - 1);
function centreOf(space) {  // the middle of a space, heading as its spot 1
  const one = spotOf(space, 1), two = spotOf(space, 2);
  return { x: (one.x + two.x) / 2, y: (one.y + two.y) / 2, a: one.a };
}
const spaceOfD = (d) => mod(d - 1, tv.geo.spaces) + 1;

function make(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}
function html(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") el.className = v; else el.setAttribute(k, v);
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) {
      el.append(child instanceof Node ? child : String(child));
    }
  }
  return el;
}

// ---- cars ----------------------------------------------------------------------------------
function carOf(c) {
  let car = tv.cars.get(c.id);
  if (!car) {
    const geo = tv.geo;
    const length = 0.8 * geo.step, width = 0.66 * geo.lane;
    const el = make("g", { class: "car", "data-car": c.id });
    el.appendChild(make("rect", { class: "body", x: -length / 2, y: -width / 2, width: length,
      height: width, rx: width / 3 }));
    if (c.legend) el.appendChild(make("circle", { class: "helmet", r: width * 0.26 }));
    const size = 0.46 * geo.lane;
    const tag = make("g", { class: "tag", "data-car": c.id });
    const label = make("text", { "font-size": size }, c.name);
    tag.appendChild(make("rect", { y: -size * 0.75, height: size * 1.5, rx: size / 3 }));
    tag.appendChild(label);
    tv.layers.cars.appendChild(el);
    tv.layers.tags.appendChild(tag);
    car = { id: c.id, el, tag, label, space: 0, spot: 0, x: 0, y: 0, a: 0, shown: false,
      sized: false, width: 3 * geo.lane, ox: 0, oy: -geo.lane };
    tv.cars.set(c.id, car);
  }
  car.el.setAttribute("class", `car c-${c.colour}` + (c.legend ? " legend" : ""));
  car.tag.setAttribute("class", `tag c-${c.colour}` + (car.shown ? "" : " gone"));
  if (car.label.textContent !== c.name) { car.label.textContent = c.name; car.sized = false; }
  return car;
}

function draw(car, x, y, a) {
  car.x = x; car.y = y; car.a = a;
  car.el.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${a.toFixed(1)})`);
  // the name stays on the board, however near its edge the car is
  const [left, top, right, bottom] = tv.geo.bounds, half = car.width / 2, high = 0.5 * tv.geo.lane;
  const tx = clamp(x + car.ox, left + half, right - half), ty = clamp(y + car.oy, top + high, bottom - high);
  car.tag.setAttribute("transform", `translate(${tx.toFixed(1)} ${ty.toFixed(1)})`);
}

// the name beside its car, off the track on the car's side (spot 1 one way, spot 2 the
// other), far enough for the name's box to clear the track
function tagSide(car, space, spot) {
  const p = spotOf(space, spot), c = centreOf(space);
  let ux = p.x - c.x, uy = p.y - c.y;
  const n = Math.hypot(ux, uy) || 1;
  ux /= n; uy /= n;
  const lane = tv.geo.lane;
  const reach = Math.abs(ux) * (car.width / 2) + Math.abs(uy) * (0.42 * lane) + 0.75 * lane;
  car.ox = ux * reach; car.oy = uy * reach;
}

function place(car, space, spot) {
  const p = spotOf(space, spot);
  if (!p) return;
  car.space = space; car.spot = spot; car.shown = true;
  Object.assign(car.el.dataset, { space, spot, onTrack: "true" });
  car.el.classList.remove("gone");
  car.tag.classList.remove("gone");
  if (!car.sized) {  // the name's box, once it can be measured
    const width = car.label.getComputedTextLength();
    if (width > 0) {
      const pad = 0.25 * tv.geo.lane;
      const rect = car.tag.querySelector("rect");
      rect.setAttribute("x", -width / 2 - pad);
      rect.setAttribute("width", width + 2 * pad);
      car.width = width + 2 * pad;
      car.sized = true;
    }
  }
  tagSide(car, space, spot);
  draw(car, p.x, p.y, p.a);
}

function hide(car) {
  car.shown = false; car.space = 0; car.spot = 0;
  Object.assign(car.el.dataset, { space: 0, spot: 0, onTrack: "false" });
  car.el.classList.add("gone");
  car.tag.classList.add("gone");
}

// ---- a move, animated ----------------------------------------------------------------------
function startMove(e) {
  const car = tv.cars.get(e.car);
  const to = spotOf(e.space, e.spot);
  if (!car || !car.shown || !to) return;
  const steps = e.d - e.frm, way = Math.sign(steps) || 1;
  const points = [{ x: car.x, y: car.y, a: car.a }];
  for (let k = 1; k < Math.abs(steps); k++) points.push(centreOf(spaceOfD(e.frm + way * k)));
  points.push(to);
  const lengths = [0];
  for (let k = 1; k < points.length; k++) {
    lengths.push(lengths[k - 1] + Math.hypot(points[k].x - points[k - 1].x, points[k].y - points[k - 1].y));
  }
  const waiting = tv.queue.filter((q) => MOVES[q.type]).length;  // behind: catch up
  const ms = clamp(300 + 60 * Math.abs(steps), 350, 1500) * tv.pace / (1 + 0.6 * waiting);
  const spin = e.type === "spin_out";
  car.el.dataset.moving = "1";
  car.el.classList.toggle("spun", spin);
  tv.anim = { car, e, points, lengths, ms, spin, start: performance.now(), last: 0, frames: 0,
    longest: 0, drawn: 0 };
  requestAnimationFrame(frame);
}

function frame(now) {
  const anim = tv.anim;
  if (!anim) return;
  if (anim.last) anim.longest = Math.max(anim.longest, now - anim.last);
  anim.last = now;
  anim.frames++;
  const t = clamp((now - anim.start) / anim.ms, 0, 1);
  const eased = t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2;
  const { points, lengths } = anim;
  const total = lengths[lengths.length - 1];
  const at = eased * total;
  let k = 1;
  while (k < lengths.length - 1 && lengths[k] < at) k++;
  const span = lengths[k] - lengths[k - 1] || 1;
  const f = clamp((at - lengths[k - 1]) / span, 0, 1);
  const p = points[k - 1], q = points[k] || p;
  const turn = mod(q.a - p.a + 180, 360) - 180;  // the short way round
  const a = p.a + turn * f + (anim.spin ? 720 * eased : 0);
  draw(anim.car, p.x + (q.x - p.x) * f, p.y + (q.y - p.y) * f, a);
  if (!anim.drawn) anim.drawn = performance.now();  // the move first shows (benchmarks/)
  if (t < 1) { requestAnimationFrame(frame); return; }
  finishMove(anim);
}

function finishMove(anim) {
  const { car, e } = anim;
  place(car, e.space, e.spot);
  delete car.el.dataset.moving;
  tv.stats.push({ ms: Math.round(anim.ms), frames: anim.frames, longest: Math.round(anim.longest) });
  if (tv.stats.length > 500) tv.stats.shift();
  tv.anim = null;
  pump();
}

function stopAnimation() {
  if (tv.anim) { delete tv.anim.car.el.dataset.moving; tv.anim = null; }
}

// ---- road tokens ---------------------------------------------------------------------------
const TOKEN_MARK = { overheat: "+H", "limit-1": "−1", "limit+1": "+1", weather: "W",
  "free-boost": "B", "slipstream+1": "S+" };
function drawTokens(state) {
  const layer = tv.layers.tokens;
  const key = JSON.stringify(state.road);
  if (layer.dataset.key === key) return;
  layer.dataset.key = key;
  layer.replaceChildren();
  const r = 0.62 * tv.geo.lane;
  for (const road of state.road) {
    const corner = tv.geo.corners[road.corner - 1];
    if (!corner) continue;
    const [x, y] = corner.token;
    const g = make("g", { class: `token t-${road.target}`, transform: `translate(${x} ${y})`,
      "data-corner": road.corner, "data-token": road.key });
    g.appendChild(make("title", {}, `${road.name}: ${road.says}`));
    g.appendChild(make("circle", { r }));
    g.appendChild(make("text", { "font-size": r * 0.95 }, TOKEN_MARK[road.key] || road.key.slice(0, 2)));
    layer.appendChild(g);
  }
}

// ---- the side ------------------------------------------------------------------------------
const carById = (id) => (tv.state ? tv.state.cars.find((c) => c.id === id) : null);
const nameOf = (id) => { const c = carById(id); return c ? c.name : `car ${id + 1}`; };
function chip(c) {
  return html("span", { class: `chip c-${c.colour}` + (c.legend ? " legend" : "") });
}

function drawSide() {
  const s = tv.state;
  if (!s) return;
  document.body.dataset.screen = s.screen;
  $("track-name").textContent = s.track_name;
  const rounds = { lobby: "Next race", setup: "Set-up", draft: "Garage draft", results: "Results" };
  const laps = `${s.laps} lap${s.laps === 1 ? "" : "s"}`;
  const season = s.season ? `${s.season.title.replace(" RACE ", " race ")} · ` : "";
  $("round").textContent = s.screen === "race" ? `${season}Round ${s.round} · ${laps}`
    : s.screen === "attract" ? `Demo race · round ${s.round}` : season + (rounds[s.screen] || "");
  const weather = [];
  if (s.weather) weather.push(html("b", {}, s.weather.name), s.weather.says ? `: ${s.weather.says}` : "");
  if (s.legend_card) weather.push(weather.length ? " · " : "", `Legend card ${s.legend_card}`);
  $("weather").replaceChildren(...weather);
  const current = carById(s.current);
  $("turn").replaceChildren(...(current ? [chip(current), html("span", { class: "who" }, current.name), " "] : []),
    s.deciding && current && s.deciding.startsWith(current.name) ? s.deciding.slice(current.name.length).replace(/^: /, "") : s.deciding);
  const panel = PANELS[s.panel.kind] || PANELS.order;
  $("panel").replaceChildren(...panel(s, s.panel));
  drawBanner(s);
  drawTicker();
}

// one function per kind of panel (track_json.py `_panel`)
const PANELS = {
  order(s) {
    const rows = s.order.map((id, n) => {
      const c = carById(id);
      const cls = [c.id === s.current ? "current" : s.waiting.includes(c.id) ? "waiting" : "",
        c.place ? "done" : ""].join(" ").trim();
      const at = c.place ? `P${c.place}` : c.on_track ? `L${Math.max(c.lap, 1)} · ${c.space} · g${c.gear}` : "";
      return html("tr", { class: cls, "data-car": c.id }, html("td", { class: "n" }, n + 1),
        html("td", { class: "name" }, chip(c), c.name), html("td", { class: "at" }, at));
    });
    return [html("h2", {}, "Race order · lap · space · gear"), html("table", { class: "order" }, ...rows)];
  },
  results(s, p) {
    return [html("h2", {}, "Hall of Fame"), html("ol", { class: "results" },
      ...p.places.map((id) => { const c = carById(id); return html("li", {}, chip(c), c.name); }))];
  },
  standings(s, p) {  // a championship's, after one of its races
    const rows = p.rows.map((row, n) => {
      const c = carById(row.car);
      return html("tr", { "data-car": row.car }, html("td", { class: "n" }, n + 1),
        html("td", { class: "name" }, chip(c), c.name),
        html("td", { class: "at" }, `${row.points} pts`, html("small", {}, ` +${row.race}`)));
    });
    return [html("h2", {}, p.over ? "Final standings" : "Standings"),
      html("table", { class: "order standings" }, ...rows),
      p.next ? html("p", { class: "next" }, `Next: ${p.next}`) : null];
  },
  draft(s, p) {
    const picker = carById(p.picker);
    return [
      html("h2", {}, `Round ${p.round} of ${p.rounds} · ${picker ? picker.name : ""} ${p.dropping ? "drops a card" : "picks"}`),
      html("ul", { class: "market" }, ...p.market.map((card) => html("li", {}, card.label, html("small", {}, card.says)))),
      ...p.picks.map((pick) => html("p", { class: "picks" }, chip(carById(pick.car)),
        html("b", {}, nameOf(pick.car)), ": ", pick.cards.map((card) => card.label).join(", ") || "—")),
    ];
  },
  setup(s, p) {
    return [html("h2", {}, "Before round 1, on the board"), html("div", { class: "pages" },
      ...p.pages.map((page, n) => html("div", { class: "page" + (n === p.page ? " shown" : "") },
        html("b", {}, page.title), ...page.lines.map((line) => html("small", {}, line)))))];
  },
  lobby(s, p) {
    const out = [html("div", { class: "lobby" },
      html("p", {}, `${p.track}, ${p.laps} lap${p.laps === 1 ? "" : "s"}, ${p.cars} car${p.cars === 1 ? "" : "s"}`),
      ...p.rules.map((line) => html("p", {}, line)),
      p.countdown !== null && p.countdown !== undefined ? html("p", { class: "countdown" }, `start in ${p.countdown} s`) : null,
      html("p", {}, "Press GO on a station to join."),
      p.join ? html("div", { class: "join" }, html("img", { src: p.join.qr, alt: "QR code to join" }),
        html("div", {}, html("div", {}, "or scan, or open"), html("div", {}, p.join.url), html("div", { class: "code" }, p.join.code))) : null)];
    if (s.screen === "attract") out.unshift(...PANELS.order(s));
    return out;
  },
};

function drawBanner(s) {
  const banner = $("banner");
  let main = "", small = "";
  if (s.legend_moves.length) {
    const m = s.legend_moves[0];
    main = m.back ? `UNDO: ${m.says}` : `MOVE ${m.name}: space ${m.frm} → ${m.to}, ${m.spot}`;
    small = (m.of > 1 ? `${m.number} of ${m.of} · ` : "") + "then GO on a station";
  } else if (s.screen === "attract") {
    main = "Demo race: press GO on a station to play";
    small = s.panel.join ? `or join from a phone: code ${s.panel.join.code}` : "";
  } else if (s.screen === "results" && s.panel.places.length) {
    main = s.panel.over ? `${nameOf(s.panel.rows[0].car)} wins the championship!`
      : `${nameOf(s.panel.places[0])} wins!`;
  }
  banner.hidden = !main;
  if (main) banner.replaceChildren(main, ...(small ? [html("small", {}, small)] : []));
}

// ---- what just happened ----------------------------------------------------------------------
const CARD = { H: "Heat", S: "Stress" };
const SAY = {
  grid: () => ["Cars on the grid"],
  weather: (e) => [`Weather: ${e.weather}`],
  round: (e) => [`Round ${e.round}`, "big"],
  turn: (e) => [`${nameOf(e.car)}'s turn, gear ${e.gear}`],
  reveal: (e) => [`${nameOf(e.car)} plays ${e.cards.map((c) => CARD[c] || c).join(" ")}`],
  clogged: (e) => [`${nameOf(e.car)}: clogged, no move`, "bad"],
  speed: (e) => [`${nameOf(e.car)}: speed ${e.speed}`],
  move: (e) => (e.why === "legend" ? null  // the `legend` event after it says it better
    : [`${nameOf(e.car)} ${e.why === "cards" ? "moves" : e.why} ${e.spaces} → space ${e.space}` +
      (e.blocked ? ` (${e.blocked} blocked)` : "")]),
  corner: (e) => [e.heat ? `${nameOf(e.car)}: corner ${e.corner} at ${e.speed}, limit ${e.limit}: ${e.heat} Heat`
    : `${nameOf(e.car)}: corner ${e.corner} at ${e.speed}, limit ${e.limit}`],
  spin_out: (e) => [`${nameOf(e.car)} SPINS OUT at corner ${e.corner}: +${e.stress} Stress, back to ${e.space}`, "bad"],
  heat: (e) => (/^corner/.test(e.why) ? null : [`${nameOf(e.car)} pays ${e.n} Heat (${e.why})`]),
  boost: (e) => [`${nameOf(e.car)} boosts +${e.value || 0}`],
  adrenaline: (e) => [`${nameOf(e.car)}: Adrenaline +1`],
  cooldown: (e) => [`${nameOf(e.car)} cools ${e.n} Heat`],
  slipstream: (e) => [`${nameOf(e.car)} slipstreams`],
  lap: (e) => [`${nameOf(e.car)}: lap ${e.lap}`],
  finish: (e) => [`${nameOf(e.car)} crosses the finish line`, "big"],
  hall_of_fame: (e) => [`${nameOf(e.car)} finishes P${e.place}`, "big"],
  race_over: (e) => [`Race over after ${e.rounds} rounds`, "big"],
  legend: (e) => [`${nameOf(e.car)} (Legend card ${e.card}): ${tv.geo ? spaceOfD(e.frm) : e.frm} → ${e.space}`],
  legend_card: (e) => [`Legend card ${e.card}`],
  draft_market: (e) => [`Draft round ${e.draft_round}: ${e.cards.length} upgrades dealt`],
  draft_pick: (e) => [`${nameOf(e.car)} takes ${e.card}`],
  draft_drop: (e) => [`${nameOf(e.car)} gives back ${e.card}`],
};
function note(e) {
  const say = SAY[e.type];
  const line = say ? say(e) : null;
  if (!line) return;
  tv.ticker.unshift(line);
  if (tv.ticker.length > 14) tv.ticker.length = 14;
}
function drawTicker() {
  $("ticker").replaceChildren(...tv.ticker.map(([text, cls]) => html("li", cls ? { class: cls } : {}, text)));
}

connect();
stayAwake();
