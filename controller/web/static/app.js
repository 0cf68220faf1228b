// The rooms page: polls /rooms.json and /standings.json every 2 s and updates the page in
// place (no reload). Every name is written with textContent, never as HTML.
"use strict";

const POLL_MS = 2000;
const rooms = new Map(); // name -> {node, parts, data, fetchedAt, now}

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

function clock(seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "–";
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = String(m).padStart(h ? 2 : 1, "0"), ss = String(r).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

function time(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const m = Math.floor(seconds / 60), s = seconds - 60 * m;
  return m ? `${m}:${s.toFixed(1).padStart(4, "0")}` : `${s.toFixed(1)} s`;
}

// A sink room's progress along its route, as the action bar has it: 7 / 20 (+ sink) (0.35).
function routeText(route) {
  const sink = route.sink ? " + sink" : "";
  return `${route.reached} / ${route.length}${sink} (${route.connectivity.toFixed(2)})`;
}

function altText(room) {
  if (room.route) {
    const { reached, length, sink } = room.route;
    const end = sink ? ", the sink reached" : "";
    return `Board of room ${room.name}: water along ${reached} of ${length} route steps${end}` + (room.solved ? ", solved" : "");
  }
  const [wet, total] = room.water;
  const what = room.kind === "paint" ? "cells match the target" : "tiles carry water";
  return `Board of room ${room.name}: ${wet} of ${total} ${what}` + (room.solved ? ", solved" : "");
}

function roomCard(room) {
  const node = el("article", { class: "room", "data-room": room.name });
  const title = el("h3", {}, room.name);
  const badge = el("span", { class: "solved" }, "solved");
  title.append(badge);
  const img = el("img", { alt: altText(room), width: "384", height: "384" });
  const list = el("dl");
  const parts = { title, badge, img };
  for (const [key, label] of [["water", "Water"], ["clock", "Time"], ["puzzle", "Puzzle"], ["server", "Server"]]) {
    const term = el("dt", {}, label);
    list.append(term);
    parts[key] = el("dd", { class: key });
    parts[`${key}Label`] = term;
    list.append(parts[key]);
  }
  node.append(title, img, list);
  return { node, parts, picture: null };
}

function showPicture(entry, room) {
  if (!room.picture || entry.picture === room.picture) return;
  const next = new Image();
  next.onload = () => {
    const img = entry.parts.img;
    img.width = next.naturalWidth;
    img.height = next.naturalHeight;
    img.src = next.src; // already loaded: swapped without a blank frame
    entry.picture = room.picture;
  };
  next.src = room.picture;
}

function updateRoom(entry, room, now, fetchedAt) {
  const p = entry.parts;
  entry.data = room;
  entry.now = now;
  entry.fetchedAt = fetchedAt;
  p.waterLabel.textContent = room.route ? "Route" : "Water";
  if (!room.built) p.water.textContent = "not built yet";
  else p.water.textContent = room.route ? routeText(room.route) : `${room.water[0]} / ${room.water[1]}`;
  p.puzzle.textContent = room.built ? `#${room.puzzle}` : "–";
  p.server.textContent = room.server;
  p.badge.hidden = !room.solved;
  p.img.alt = room.built ? altText(room) : `Room ${room.name} is not built yet`;
  tick(entry);
  showPicture(entry, room);
}

function tick(entry) {
  const room = entry.data;
  if (!room || room.started_at === null) {
    entry.parts.clock.textContent = "–";
    return;
  }
  const end = room.solved_at !== null ? room.solved_at : entry.now + (Date.now() - entry.fetchedAt) / 1000;
  entry.parts.clock.textContent = clock(end - room.started_at);
}

function table(caption, rows) {
  if (!rows.length) return el("p", { class: "empty" }, `${caption}: no solves yet`);
  const t = el("table");
  t.append(el("caption", {}, caption));
  const head = el("tr");
  for (const h of ["Rank", "Player", "Solves", "Best time"]) head.append(el("th", { scope: "col" }, h));
  const thead = el("thead");
  thead.append(head);
  t.append(thead);
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    tr.append(el("td", {}, String(row.rank)), el("td", {}, row.name));
    tr.append(el("td", {}, String(row.solves)), el("td", {}, time(row.best_s)));
    body.append(tr);
  }
  t.append(body);
  return t;
}

function board(title, boards) {
  const node = el("div", { class: "board" });
  node.append(el("h3", {}, title));
  node.append(table("Most solves", boards.solves), table("Best times", boards.best_time));
  return node;
}

async function fetchJson(path) {
  const reply = await fetch(path, { cache: "no-store", credentials: "omit" });
  if (!reply.ok) throw new Error(`${path}: ${reply.status}`);
  return reply.json();
}

async function refresh() {
  const status = document.getElementById("status");
  try {
    const [doc, standings] = await Promise.all([fetchJson("/rooms.json"), fetchJson("/standings.json")]);
    const fetchedAt = Date.now();
    const holder = document.getElementById("rooms");
    for (const room of doc.rooms) {
      let entry = rooms.get(room.name);
      if (!entry) {
        entry = roomCard(room);
        rooms.set(room.name, entry);
        holder.append(entry.node);
      }
      updateRoom(entry, room, doc.now, fetchedAt);
    }
    const daily = document.getElementById("daily");
    daily.replaceChildren(table(`Best times on ${standings.day}`, standings.daily));
    const boards = document.getElementById("boards");
    const parts = [board("All rooms", standings.overall)];
    for (const room of standings.rooms) parts.push(board(`Room ${room.name}`, room));
    boards.replaceChildren(...parts);
    status.textContent = `Live: updated ${new Date(fetchedAt).toLocaleTimeString()}`;
  } catch (err) {
    status.textContent = `Cannot reach the daemon (${err.message}); retrying`;
  }
}

refresh();
setInterval(refresh, POLL_MS);
setInterval(() => rooms.forEach(tick), 1000);
