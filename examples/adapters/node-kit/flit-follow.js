'use strict';
// An adapter written with the Node kit (the package gamecert-adapter, package/adapters/node)
// around a JavaScript engine: the Flit engine in examples/engines/flit-js, driven as if it
// were a native engine that draws its own set-up squares and neutral pieces (follow mode):
// where the engine waits for a chance outcome, this adapter picks one with a seeded RNG,
// plays it, and reports it.
//
//   gamecert certify flit --engine-cmd "node examples/adapters/node-kit/flit-follow.js"
//
// Outside this repository, `npm install "$(python -m gamecert.adapters.node_path)"` and
// require('gamecert-adapter') instead of the path below.

const path = require('path');
const { serve, Refusal, seededRandom } = require(path.join(__dirname, '..', '..', '..', 'package', 'adapters', 'node'));
const { serveLine } = require(path.join(__dirname, '..', '..', 'engines', 'flit-js', 'flit.js'));

let nextId = 0;
function call(op, fields = {}) {
  const [text] = serveLine(JSON.stringify({ id: ++nextId, op, ...fields }));
  const reply = JSON.parse(text);
  if (!reply.ok) {
    if (reply.error.kind === 'illegal') throw new Refusal(reply.error.message);
    throw new Error(`${reply.error.kind}: ${reply.error.message}`);
  }
  return reply;
}

function weight(p) { // exact fractions like "1/16" as numbers: enough for drawing
  const [n, d] = p.split('/').map(Number);
  return n / d;
}

const adapter = {
  game: 'flit',
  engine: 'flit-js (drawing for itself)',
  start(profile, seed) {
    const game = { random: seededRandom(seed), reports: [], log: [] };
    call('new_game', { profile, seed });
    return this.drawAll(game);
  },
  play(game, action) {
    game.log = call('apply', { action }).events;
    return this.drawAll(game);
  },
  canonical() {
    return call('observe').state;
  },
  events(before, action, game) {
    const out = game.log;
    game.log = [];
    return out;
  },
  report(game) { // each draw, then the events it caused
    const out = game.reports;
    game.reports = [];
    return out;
  },
  drawAll(game) { // play chance steps until a bot is to move, noting each outcome
    for (;;) {
      const legal = call('legal');
      if (legal.to_move !== 'chance') return game;
      let r = game.random() * legal.outcomes.reduce((s, o) => s + weight(o.p), 0);
      let pick = legal.outcomes[legal.outcomes.length - 1];
      for (const o of legal.outcomes) {
        r -= weight(o.p);
        if (r < 0) { pick = o; break; }
      }
      const caused = call('apply', { action: pick.action }).events;
      game.reports.push({ chance: pick.action }, ...caused);
    }
  },
};

serve(adapter);
