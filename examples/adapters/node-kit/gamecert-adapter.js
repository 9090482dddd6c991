'use strict';
// gamecert adapter kit for Node.js: put an engine that gamecert did not write under
// `gamecert certify` with only the minimum capabilities (hello, new_game, apply, observe).
//
// You write an adapter object with four functions and call serve(adapter):
//
//   start(profile, seed)      -> native game (profile is a profile id or null; seed an integer)
//   play(native, action)      -> native game after the canonical action (throw
//                                new Refusal('why') when the engine refuses the move)
//   canonical(native)         -> the canonical state JSON (schemas/<game>-state.schema.json)
//   drawn(native)             -> optional: the chance outcomes the engine drew since the last
//                                call, as canonical chance actions (follow mode)
//   events(before, action, after) -> optional: canonical events of the action; without it
//                                the adapter declares 'no_events' and only states and draws
//                                are compared
//   report(native)            -> optional, instead of drawn(): the draws as {chance: ...}
//                                events, each followed by the events it caused
//
// and sets adapter.game (our game name) and adapter.engine (a name). The wire protocol is
// newline-delimited JSON on stdin/stdout (docs/adapters.md); this file speaks it, turns a
// Refusal into an 'illegal' error reply and anything else the engine throws into an
// 'internal' one (which gamecert reports as a crash). console.log inside the engine would
// break the wire, so serve() sends it to stderr.

class Refusal extends Error {}

function serve(adapter, input = process.stdin, output = process.stdout) {
  let native = null;
  const write = (obj) => output.write(JSON.stringify(obj) + '\n');
  console.log = (...args) => process.stderr.write(args.join(' ') + '\n');
  const reports = (game) => (adapter.report ? adapter.report(game)
    : (adapter.drawn ? adapter.drawn(game) : []).map((d) => ({ chance: d })));

  function handle(req) {
    const id = req && typeof req === 'object' && 'id' in req ? req.id : null;
    const ok = (fields) => ({ id, ok: true, ...fields });
    const error = (kind, message) => ({ id, ok: false, error: { kind, message } });
    if (!req || typeof req !== 'object' || typeof req.op !== 'string') {
      return [error('bad-request', 'a request is an object with "id" and "op"'), false];
    }
    try {
      switch (req.op) {
        case 'hello':
          return [ok({ game: adapter.game, engine: adapter.engine,
                       capabilities: adapter.events ? [] : ['no_events'] }), false];
        case 'new_game': {
          const seed = req.seed === null || req.seed === undefined ? 0 : req.seed;
          if (!Number.isInteger(seed)) return [error('bad-state', 'seed is a whole number'), false];
          native = adapter.start(req.profile === undefined ? null : req.profile, seed);
          return [ok({ state: adapter.canonical(native), events: reports(native) }), false];
        }
        case 'apply': {
          if (native === null) return [error('illegal', 'no game in progress'), false];
          if (!req.action || typeof req.action !== 'object') {
            return [error('bad-request', 'apply needs "action" (an object)'), false];
          }
          const before = native;
          const after = adapter.play(native, req.action);
          native = after === undefined ? native : after;
          const own = adapter.events ? adapter.events(before, req.action, native) : [];
          return [ok({ state: adapter.canonical(native), events: [...own, ...reports(native)] }), false];
        }
        case 'observe':
          if (native === null) return [error('illegal', 'no game in progress'), false];
          return [ok({ state: adapter.canonical(native) }), false];
        case 'bye':
          return [ok({}), true];
        default:
          return [error('bad-request', `${adapter.engine} does not offer ${JSON.stringify(req.op)}`), false];
      }
    } catch (e) {
      if (e instanceof Refusal) return [error('illegal', e.message), false];
      return [error('internal', `${e && e.name}: ${e && e.message}`), false];
    }
  }

  let buffer = '';
  input.setEncoding('utf8');
  input.on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      let req;
      try {
        req = JSON.parse(line);
      } catch (e) {
        write({ id: null, ok: false, error: { kind: 'bad-request', message: 'not JSON' } });
        continue;
      }
      const [reply, stop] = handle(req);
      write(reply);
      if (stop) process.exit(0);
    }
  });
  input.on('end', () => process.exit(0));
}

// Small helpers every adapter needs (see gamecert.adapters.helpers for the Python ones).
const playerId = (nativeIndex) => nativeIndex + 1; // ours count players from 1
const nativePlayer = (player) => player - 1;
const rotation = (native, { unit = 1, clockwise = true, offset = 0 } = {}) => {
  const q = Math.floor(native / unit);
  return ((((clockwise ? q : -q) + offset) % 4) + 4) % 4; // clockwise quarter turns, 0-3
};

// A seeded RNG for engines that draw for themselves (mulberry32).
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

module.exports = { serve, Refusal, playerId, nativePlayer, rotation, seededRandom };
