'use strict';
// gamecert-adapter: the adapter kit for Node.js. Put an engine that gamecert did not write
// under `gamecert certify` with only the minimum capabilities (hello, new_game, apply,
// observe), plus whatever else the adapter gives.
//
// You write an adapter object and call serve(adapter):
//
//   game, engine              our game name ('flit', ...) and a name for reports
//   start(profile, seed, rules) -> a native game. profile: the profile id (or null); seed: an
//                                integer; rules: the profile's parameters as gamecert runs
//                                them ({players, parameters: {'RULE-ID.name': value},
//                                readings: {'RULE-ID': reading}, off: [...]}; null when the
//                                harness sent none)
//   play(native, action)      -> the native game after the canonical action (throw
//                                new Refusal('why') when the engine refuses the move)
//   canonical(native)         -> the canonical state JSON (schemas/<game>-state.schema.json)
//   drawn(native)             -> optional: the chance outcomes drawn since the last call
//   report(native)            -> optional, instead of drawn(): {chance: ...} events, each
//                                followed by the events the draw caused
//   events(before, action, after) -> optional: the canonical events of the action; without
//                                it the adapter declares 'no_events'
//   load(profile, state)      -> optional: a native game in a canonical state (declares
//                                'load_state'; throw new Refusal('why') for one it cannot take)
//   referee(native, text)     -> optional: the canonical action the engine's referee makes of
//                                a bot's raw text (declares 'bot_output')
//   copyBeforePlay: true      -> play on a deep copy (a refused move leaves the game as it
//                                was) and keep the game before the last move: declares 'undo'
//   copy(native)              -> optional: the copy to use (default: deepCopy)
//   noReferee: true           -> declares 'no_referee' (sent none of the referee's actions)
//   stateless: true           -> declares 'stateless' (a new game forgets everything before)
//
// An engine that owns its game loop and awaits its bots gives instead of play():
//
//   run(native, seats)        -> a promise: the engine's loop, with seats[i] as the bot of our
//                                player i + 1 (call it, or its seatMethod, and await it)
//   move(ask, action)         -> what the asked bot resolves to ({player, args, state} is
//                                the ask); throw new Refusal('why') when there is no such move
//   refused(before, after)    -> optional: why the loop's next ask means the move was refused
//                                (default: the same player asked again, state unchanged)
//   seatMethod, loopTimeout   -> optional: the method the engine calls on its bot objects;
//                                ms to wait for the loop's next ask or end (default 3000)
//
// The wire protocol is newline-delimited JSON on stdin/stdout (docs/adapters.md); this file
// speaks it, turns a Refusal into an 'illegal' error reply and anything else the engine
// throws into an 'internal' one (which gamecert reports as a crash). console.log inside the
// engine would break the wire, so serve() sends it to stderr.

const { version: VERSION } = require('./package.json');

class Refusal extends Error {}

class LoopStopped extends Error {
  constructor() {
    super('the game was left: gamecert started another game or closed');
    this.name = 'LoopStopped';
  }
}

// --- a deep copy that keeps classes (like Python's copy.deepcopy) ---------------------------
function deepCopy(value, seen = new Map()) {
  if (value === null || typeof value !== 'object') return value; // functions are shared
  if (seen.has(value)) return seen.get(value);
  let out;
  if (Array.isArray(value)) {
    out = new Array(value.length);
    seen.set(value, out);
    for (let i = 0; i < value.length; i++) out[i] = deepCopy(value[i], seen);
    return out;
  }
  if (value instanceof Map) {
    out = new Map();
    seen.set(value, out);
    for (const [k, v] of value) out.set(deepCopy(k, seen), deepCopy(v, seen));
    return out;
  }
  if (value instanceof Set) {
    out = new Set();
    seen.set(value, out);
    for (const v of value) out.add(deepCopy(v, seen));
    return out;
  }
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof RegExp) return new RegExp(value.source, value.flags);
  if (ArrayBuffer.isView(value)) return value.slice();
  if (value instanceof ArrayBuffer) return value.slice(0);
  out = Object.create(Object.getPrototypeOf(value));
  seen.set(value, out);
  for (const key of Reflect.ownKeys(value)) {
    const desc = Object.getOwnPropertyDescriptor(value, key);
    if ('value' in desc) desc.value = deepCopy(desc.value, seen);
    Object.defineProperty(out, key, desc);
  }
  return out;
}

// Equal as JSON values (objects compared key by key, whatever their keys' order).
function sameJson(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson(a[k], b[k]));
}

// --- what an adapter declares -----------------------------------------------------------------
function capabilities(adapter) {
  const caps = [];
  if (typeof adapter.load === 'function') caps.push('load_state');
  if (typeof adapter.referee === 'function') caps.push('bot_output');
  if (adapter.stateless) caps.push('stateless');
  if (adapter.copyBeforePlay && !isLoop(adapter)) caps.push('undo');
  if (typeof adapter.events !== 'function') caps.push('no_events');
  if (adapter.noReferee) caps.push('no_referee');
  return caps;
}

const isLoop = (adapter) => typeof adapter.run === 'function';

// --- an engine's own loop, awaiting its bots ---------------------------------------------------
// One message at a time from the loop to the harness ('ask', 'ended', 'raised'), waited for
// with a time limit.
class Channel {
  constructor() { this.items = []; this.waiter = null; }
  put(item) {
    if (this.waiter) { const w = this.waiter; this.waiter = null; w(item); } else this.items.push(item);
  }
  get(ms) {
    if (this.items.length) return Promise.resolve(this.items.shift());
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.waiter = null; resolve({ kind: 'timeout' }); }, ms);
      this.waiter = (item) => { clearTimeout(timer); resolve(item); };
    });
  }
}

class LoopGame {
  constructor(adapter, native, players) {
    this.adapter = adapter;
    this.native = native;
    this.channel = new Channel();
    this.pending = null; // {ask, resolve, reject}: the bot call waiting for an action
    this.over = null;
    this.stopping = false;
    const method = adapter.seatMethod;
    this.seats = [];
    for (let p = 1; p <= players; p++) {
      const seat = (...args) => this.ask(p, args);
      if (method) seat[method] = seat;
      this.seats.push(seat);
    }
  }

  ask(player, args) {
    if (this.stopping) return Promise.reject(new LoopStopped());
    return new Promise((resolve, reject) => {
      this.channel.put({ kind: 'ask', ask: { player, args, state: null }, resolve, reject });
    });
  }

  begin() {
    Promise.resolve()
      .then(() => this.adapter.run(this.native, this.seats))
      .then(() => this.channel.put({ kind: 'ended' }),
        (error) => this.channel.put({ kind: error instanceof LoopStopped ? 'stopped' : 'raised', error }));
  }

  async next() { // the loop's next ask, or its end; returns the error it ended with
    const ms = this.adapter.loopTimeout || 3000;
    const msg = await this.channel.get(ms);
    if (msg.kind === 'ask') {
      msg.ask.state = await this.adapter.canonical(this.native);
      this.pending = msg;
      return null;
    }
    if (msg.kind === 'ended') { this.over = 'the game is over: the engine\'s loop has ended'; return null; }
    if (msg.kind === 'timeout') {
      this.over = `the engine's loop hung (no bot call within ${ms} ms)`;
      this.stop();
      return new Error(`the engine's game loop neither asked a bot nor ended within ${ms} ms`);
    }
    this.over = `the engine's loop ended: ${msg.error && msg.error.message}`;
    return msg.error || new Error('the engine\'s loop stopped');
  }

  stop() {
    this.stopping = true;
    if (this.pending) { const p = this.pending; this.pending = null; p.reject(new LoopStopped()); }
  }
}

// --- the server: one reply per request, in order -----------------------------------------------
function createServer(adapter) {
  let native = null;
  let previous = null; // the game before the last move (copyBeforePlay): undo
  let loop = null;
  const copy = adapter.copy || deepCopy;

  const reports = async (game) => (adapter.report ? adapter.report(game)
    : (adapter.drawn ? await adapter.drawn(game) : []).map((d) => ({ chance: d })));
  const endLoop = () => { if (loop) { loop.stop(); loop = null; } };
  let seated = adapter.players || 0; // players of the last new game (its rules say)
  const players = (rules) => {
    if (rules && Number.isInteger(rules.players)) seated = rules.players;
    return seated;
  };

  async function begin(game, rules) { // a new native game: its loop started, if it has one
    endLoop();
    native = game;
    previous = null;
    if (isLoop(adapter)) {
      loop = new LoopGame(adapter, game, players(rules));
      loop.begin();
      const failure = await loop.next();
      if (failure) throw failure;
    }
  }

  async function applyLoop(action) {
    if (!loop || !loop.pending) throw new Refusal(loop && loop.over ? loop.over : 'no bot is being asked');
    const asked = loop.pending;
    const reply = await adapter.move(asked.ask, action); // a Refusal: the bot is still asked
    loop.pending = null;
    asked.resolve(reply);
    const failure = await loop.next();
    if (failure) throw failure;
    if (loop.pending) {
      const why = adapter.refused ? adapter.refused(asked.ask, loop.pending.ask)
        : (loop.pending.ask.player === asked.ask.player
          && sameJson(loop.pending.ask.state, asked.ask.state)
          ? `the engine asked player ${asked.ask.player} again, its state unchanged` : null);
      if (why) { await reports(native); throw new Refusal(why); }
    }
    const state = loop.pending ? loop.pending.ask.state : await adapter.canonical(native);
    const own = adapter.events ? await adapter.events(native, action, native) : [];
    return { state, events: [...own, ...await reports(native)] };
  }

  async function handle(req) {
    const id = req && typeof req === 'object' && 'id' in req ? req.id : null;
    const ok = (fields) => ({ id, ok: true, ...fields });
    const error = (kind, message) => ({ id, ok: false, error: { kind, message } });
    if (!req || typeof req !== 'object' || typeof req.op !== 'string') {
      return [error('bad-request', 'a request is an object with "id" and "op"'), false];
    }
    const caps = capabilities(adapter);
    try {
      switch (req.op) {
        case 'hello':
          return [ok({ game: adapter.game, engine: adapter.engine, capabilities: caps }), false];
        case 'new_game': {
          const seed = req.seed === null || req.seed === undefined ? 0 : req.seed;
          if (!Number.isInteger(seed)) return [error('bad-state', 'seed is a whole number'), false];
          const profile = req.profile === undefined ? null : req.profile;
          if (profile !== null && typeof profile !== 'string') {
            return [error('bad-state', 'profile is a profile name or null'), false];
          }
          const rules = req.rules && typeof req.rules === 'object' ? req.rules : null;
          await begin(await adapter.start(profile, seed, rules), rules);
          return [ok({ state: await adapter.canonical(native), events: await reports(native) }), false];
        }
        case 'load_state': {
          if (!caps.includes('load_state')) break;
          if (!req.state || typeof req.state !== 'object') {
            return [error('bad-request', 'load_state needs "state" (an object)'), false];
          }
          const profile = typeof req.state.profile === 'string' ? req.state.profile : null;
          let game;
          try {
            game = await adapter.load(profile, req.state);
          } catch (e) {
            if (e instanceof Refusal) return [error('bad-state', e.message), false];
            throw e;
          }
          await begin(game, null);
          return [ok({ state: await adapter.canonical(native) }), false];
        }
        case 'apply': {
          if (native === null) return [error('illegal', 'no game in progress'), false];
          if (!req.action || typeof req.action !== 'object' || Array.isArray(req.action)) {
            return [error('bad-request', 'apply needs "action" (an object)'), false];
          }
          if (isLoop(adapter)) return [ok(await applyLoop(req.action)), false];
          const before = native;
          const target = adapter.copyBeforePlay ? copy(native) : native;
          const after = await adapter.play(target, req.action);
          native = after === undefined ? target : after;
          if (adapter.copyBeforePlay) previous = before;
          const own = adapter.events ? await adapter.events(before, req.action, native) : [];
          return [ok({ state: await adapter.canonical(native),
            events: [...own, ...await reports(native)] }), false];
        }
        case 'undo':
          if (!caps.includes('undo')) break;
          if (previous === null) return [error('illegal', 'nothing to undo: no move since the last new_game, load_state or undo'), false];
          native = previous;
          previous = null;
          return [ok({ state: await adapter.canonical(native) }), false];
        case 'observe':
          if (native === null) return [error('illegal', 'no game in progress'), false];
          return [ok({ state: await adapter.canonical(native) }), false];
        case 'bot_output':
          if (!caps.includes('bot_output')) break;
          if (native === null) return [error('illegal', 'no game in progress'), false];
          if (typeof req.text !== 'string') return [error('bad-request', 'bot_output needs "text" (a string)'), false];
          return [ok({ action: await adapter.referee(native, req.text) }), false];
        case 'bye':
          endLoop();
          return [ok({}), true];
        default:
      }
      return [error('bad-request', `${adapter.engine} does not offer ${JSON.stringify(req.op)}`), false];
    } catch (e) {
      if (e instanceof Refusal) return [error('illegal', e.message), false];
      return [error('internal', `${e && e.name}: ${e && e.message}`), false];
    }
  }

  return { handle, close: endLoop };
}

// --- the wire on stdin/stdout ----------------------------------------------------------------
function serve(adapter, input = process.stdin, output = process.stdout) {
  const server = createServer(adapter);
  const write = (obj) => output.write(JSON.stringify(obj) + '\n');
  console.log = (...args) => process.stderr.write(args.join(' ') + '\n');
  let chain = Promise.resolve(); // requests are answered one at a time, in order
  let done = false;

  function take(line) {
    if (done || !line.trim()) return;
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      write({ id: null, ok: false, error: { kind: 'bad-request', message: 'not JSON' } });
      return;
    }
    chain = chain.then(async () => {
      if (done) return;
      const [reply, stop] = await server.handle(req);
      write(reply);
      if (stop) { done = true; server.close(); process.exit(0); }
    });
  }

  let buffer = '';
  input.setEncoding('utf8');
  input.on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      take(line);
    }
  });
  input.on('end', () => { chain.then(() => { server.close(); process.exit(0); }); });
  return server;
}

// --- small helpers every adapter needs (gamecert.adapters.helpers has the Python ones) -------
const playerId = (nativeIndex) => nativeIndex + 1; // ours count players from 1
const nativePlayer = (player) => player - 1;
const rotation = (native, { unit = 1, clockwise = true, offset = 0 } = {}) => {
  const q = Math.floor(native / unit);
  return ((((clockwise ? q : -q) + offset) % 4) + 4) % 4; // clockwise quarter turns, 0-3
};
const nativeRotation = (ours, { unit = 1, clockwise = true, offset = 0 } = {}) => {
  const q = (((ours - offset) % 4) + 4) % 4;
  return (((clockwise ? q : -q) % 4 + 4) % 4) * unit;
};

// A parameter of the rules object new_game hands start(): param(rules, 'KD-PLAYERS', 'players').
function param(rules, rule, name) {
  const key = `${rule}.${name}`;
  if (!rules || !rules.parameters || !(key in rules.parameters)) {
    throw new Error(`the rules have no parameter ${key}`);
  }
  return rules.parameters[key];
}

// The engine's own move that is this canonical action (for engines that list their moves
// but do not check a move they are handed); null when there is none.
function matchAction(action, candidates, toCanonical) {
  for (const move of candidates) if (sameJson(toCanonical(move), action)) return move;
  return null;
}

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

module.exports = {
  VERSION, serve, createServer, capabilities, Refusal, LoopStopped, deepCopy, sameJson, param,
  playerId, nativePlayer, rotation, nativeRotation, matchAction, seededRandom,
};
