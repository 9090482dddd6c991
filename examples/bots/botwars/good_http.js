#!/usr/bin/env node
// A correct Bot Wars bot in JavaScript, as a web server on the original server's protocol:
// each turn the form field `data` (the game state as JSON, players "r" and "b", botlets "r"
// and "b" on the grid) is POSTed to it, and it answers with a JSON list of valid moves, each
// botlet one step toward the enemy spawn onto a free square. It prints its URL as its first
// stdout line. Expected verdict: clean, in either seat.
"use strict";
const http = require("http");

function plan(doc) {
  const st = doc.state, mine = doc.player;
  const rows = st.rows, cols = st.cols, grid = st.grid;
  const target = st[mine === "r" ? "p2" : "p1"].spawn;
  const tr = Math.floor(target / cols), tc = target % cols;
  const taken = new Set(), moves = [];
  for (let i = 0; i < grid.length; i++) {
    if (grid[i] !== mine) continue;
    const r = Math.floor(i / cols), c = i % cols;
    let best = null;
    for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
      const nr = r + dr, nc = c + dc, t = nr * cols + nc;
      if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
      if (!".x".includes(grid[t]) || taken.has(t)) continue;
      const d = Math.abs(nr - tr) + Math.abs(nc - tc);
      if (best === null || d < best[0] || (d === best[0] && t < best[1])) best = [d, t];
    }
    if (best) { taken.add(best[1]); moves.push({ from: i, to: best[1] }); }
  }
  return moves;
}

const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => { body += c; });
  req.on("end", () => {
    const doc = JSON.parse(new URLSearchParams(body).get("data"));
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify(plan(doc)));
  });
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}/\n`);
});
