#!/usr/bin/env node
// A correct Flit bot in JavaScript: tracks the board from `x y c` updates, answers each `M`
// with a legal move (a piece to an empty square beside another of its pieces), at once.
// Its number is the first line (or the last argument). Expected verdict: clean.
"use strict";
const W = 32, H = 32;
const board = new Uint8Array(W * H);
let me = process.argv.length > 2 ? Number(process.argv[process.argv.length - 1]) : 0;
let seed = 12345;
function rand(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; }

function move() {
  const mine = [];
  for (let i = 0; i < W * H; i++) if (board[i] === me) mine.push(i);
  const options = [];
  for (const q of mine) {
    const x = q % W, y = Math.floor(q / W);
    for (const [dx, dy] of [[0, -1], [1, 0], [0, 1], [-1, 0]]) {
      const d = ((y + dy + H) % H) * W + ((x + dx + W) % W);
      if (board[d] !== 0) continue;
      for (const o of mine) if (o !== q) options.push([o, d]);
    }
  }
  if (options.length === 0) { const p = mine[0]; return `${p % W} ${Math.floor(p / W)} ${p % W} ${Math.floor(p / W)}`; }
  const [o, d] = options[rand(options.length)];
  return `${o % W} ${Math.floor(o / W)} ${d % W} ${Math.floor(d / W)}`;
}

let rest = "";
process.stdin.on("data", (chunk) => {
  rest += chunk.toString("ascii");
  let nl;
  const out = [];
  while ((nl = rest.indexOf("\n")) >= 0) {
    const line = rest.slice(0, nl).trim();
    rest = rest.slice(nl + 1);
    if (me === 0) { me = Number(line); continue; }
    if (line === "M") { out.push(move() + "\n"); continue; }
    const [x, y, c] = line.split(" ").map(Number);
    board[y * W + x] = c;
  }
  if (out.length) process.stdout.write(out.join(""));
});
process.stdin.on("end", () => process.exit(0));
