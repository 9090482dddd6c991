'use strict';
// The kit's server without a process: what an adapter declares, the rules new_game hands
// start(), copies and undo, load_state and bot_output, errors, and the loop bridge.

const test = require('node:test');
const assert = require('node:assert/strict');
const { createServer, capabilities, deepCopy, sameJson, param, matchAction, Refusal } = require('..');
const { Counter, counterAdapter, loopAdapter } = require('./toys.cjs');

const RULES = { profile: 'standard', players: 3, parameters: { 'FLIT-TURN-ORDER.bots': 3 },
  readings: {}, off: [] };

let nextId = 0;
async function call(server, op, fields = {}) {
  const [reply] = await server.handle({ id: ++nextId, op, ...fields });
  return reply;
}

test('capabilities are declared from what the adapter gives', () => {
  assert.deepEqual(capabilities(counterAdapter()), ['no_events']);
  assert.deepEqual(capabilities(counterAdapter({ events: () => [] })), []);
  const full = counterAdapter({ load: () => null, referee: () => null, stateless: true,
    copyBeforePlay: true, noReferee: true });
  assert.deepEqual(capabilities(full),
    ['load_state', 'bot_output', 'stateless', 'undo', 'no_events', 'no_referee']);
  // a running loop is not copied: no undo for a loop adapter
  assert.deepEqual(capabilities(loopAdapter({ copyBeforePlay: true })), ['no_events']);
});

test('new_game hands start() the profile, the seed and the rules object', async () => {
  const adapter = counterAdapter();
  const server = createServer(adapter);
  const reply = await call(server, 'new_game', { profile: 'standard', seed: 5, rules: RULES });
  assert.equal(reply.ok, true);
  assert.deepEqual(reply.state, { total: 5, turn: 1, to_move: 1 });
  assert.deepEqual(adapter.started[0], { profile: 'standard', seed: 5, rules: RULES });
  assert.equal(param(adapter.started[0].rules, 'FLIT-TURN-ORDER', 'bots'), 3);
  assert.throws(() => param(RULES, 'FLIT-NOPE', 'x'), /no parameter FLIT-NOPE.x/);
  await call(server, 'new_game', { profile: null, seed: null }); // an old harness: no rules
  assert.deepEqual(adapter.started[1], { profile: null, seed: 0, rules: null });
  const bad = await call(server, 'new_game', { seed: 1.5 });
  assert.equal(bad.error.kind, 'bad-state');
});

test('copyBeforePlay: a refused move leaves the game as it was, and undo takes a move back', async () => {
  const server = createServer(counterAdapter({ copyBeforePlay: true }));
  await call(server, 'new_game', { seed: 0, rules: RULES });
  const none = await call(server, 'undo');
  assert.equal(none.error.kind, 'illegal');
  const one = await call(server, 'apply', { action: { type: 'add', k: 2 } });
  assert.deepEqual(one.state, { total: 2, turn: 2, to_move: 2 });
  const refused = await call(server, 'apply', { action: { type: 'add', k: 9 } });
  assert.equal(refused.error.kind, 'illegal');
  assert.deepEqual((await call(server, 'observe')).state, one.state);
  await call(server, 'apply', { action: { type: 'add', k: 3 } });
  const back = await call(server, 'undo');
  assert.deepEqual(back.state, one.state); // the game before the last accepted move
  assert.equal((await call(server, 'undo')).error.kind, 'illegal'); // one step only
  const again = await call(server, 'apply', { action: { type: 'add', k: 1 } });
  assert.deepEqual(again.state, { total: 3, turn: 3, to_move: 3 });
});

test('without copyBeforePlay, undo is not offered (and a refused move is the engine\'s affair)', async () => {
  const server = createServer(counterAdapter());
  await call(server, 'new_game', { seed: 0 });
  await call(server, 'apply', { action: { type: 'add', k: 1 } });
  assert.equal((await call(server, 'undo')).error.kind, 'bad-request');
  assert.equal((await call(server, 'apply', { action: { type: 'add', k: 9 } })).error.kind, 'illegal');
  assert.equal((await call(server, 'observe')).state.total, 10); // played in place
});

test('load_state and bot_output are offered when the adapter gives them', async () => {
  const plain = createServer(counterAdapter());
  await call(plain, 'new_game', { seed: 0 });
  assert.equal((await call(plain, 'load_state', { state: { total: 1 } })).error.kind, 'bad-request');
  assert.equal((await call(plain, 'bot_output', { text: '2' })).error.kind, 'bad-request');
  assert.equal((await call(plain, 'legal')).error.kind, 'bad-request');

  const server = createServer(counterAdapter({
    load(profile, state) {
      if (!Number.isInteger(state.total)) throw new Refusal('total must be a whole number');
      const c = new Counter(2, state.total);
      c.turn = state.turn;
      return c;
    },
    referee(c, text) {
      const k = Number(text.trim());
      return Number.isInteger(k) ? { type: 'add', k } : { type: 'invalid' };
    },
  }));
  const loaded = await call(server, 'load_state', { state: { total: 7, turn: 4, profile: 'standard' } });
  assert.deepEqual(loaded.state, { total: 7, turn: 4, to_move: 2 });
  assert.equal((await call(server, 'load_state', { state: { total: 'x' } })).error.kind, 'bad-state');
  assert.deepEqual((await call(server, 'observe')).state, loaded.state);
  assert.deepEqual((await call(server, 'bot_output', { text: '3\n' })).action, { type: 'add', k: 3 });
  assert.deepEqual((await call(server, 'bot_output', { text: 'hi' })).action, { type: 'invalid' });
});

test('an engine error is an internal error reply, never a dead server', async () => {
  const server = createServer(counterAdapter({ play() { throw new TypeError('native bug'); } }));
  assert.equal((await call(server, 'apply', { action: { type: 'add', k: 1 } })).error.kind, 'illegal');
  await call(server, 'new_game', { seed: 0 });
  const reply = await call(server, 'apply', { action: { type: 'add', k: 1 } });
  assert.equal(reply.error.kind, 'internal');
  assert.match(reply.error.message, /TypeError: native bug/);
  assert.equal((await call(server, 'observe')).ok, true);
  assert.equal((await server.handle('nonsense'))[0].error.kind, 'bad-request');
});

test('deepCopy keeps classes, maps, sets and cycles', () => {
  const c = new Counter(2, 1);
  c.self = c;
  c.seen = new Map([['a', new Set([1, 2])]]);
  const d = deepCopy(c);
  assert.ok(d instanceof Counter && d !== c && d.self === d);
  d.add(2);
  assert.equal(c.total, 1);
  assert.equal(d.total, 3);
  assert.ok(d.seen.get('a').has(2) && d.seen.get('a') !== c.seen.get('a'));
});

test('JSON equality ignores key order; matchAction finds the engine move', () => {
  assert.ok(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }));
  assert.ok(!sameJson({ a: 1 }, { a: 1, b: null }));
  assert.equal(matchAction({ k: 2, type: 'add' }, [1, 2, 3], (m) => ({ type: 'add', k: m })), 2);
  assert.equal(matchAction({ type: 'add', k: 9 }, [1, 2, 3], (m) => ({ type: 'add', k: m })), null);
});

// --- the loop bridge ----------------------------------------------------------------------------

test('a loop engine: each apply answers the bot it asks, until its loop ends', async () => {
  const adapter = loopAdapter();
  const server = createServer(adapter);
  const start = await call(server, 'new_game', { seed: 0, rules: RULES });
  assert.deepEqual(start.state, { total: 0, turn: 1, to_move: 1 });
  let state = start.state;
  for (const k of [3, 3, 3]) {
    const reply = await call(server, 'apply', { action: { type: 'add', k } });
    assert.equal(reply.ok, true, JSON.stringify(reply));
    state = reply.state;
  }
  assert.deepEqual(state, { total: 9, turn: 4, to_move: 1 });
  const last = await call(server, 'apply', { action: { type: 'add', k: 1 } });
  assert.deepEqual(last.state, { total: 10, turn: 5, to_move: 2 });
  assert.equal(adapter.matches[0].stopped, 'ended');
  const after = await call(server, 'apply', { action: { type: 'add', k: 1 } });
  assert.equal(after.error.kind, 'illegal');
  assert.match(after.error.message, /loop has ended/);
});

test('a loop engine: a move it asks again for is a refusal, the game goes on', async () => {
  const server = createServer(loopAdapter());
  await call(server, 'new_game', { seed: 0, rules: RULES });
  const bad = await call(server, 'apply', { action: { type: 'add', k: 7 } });
  assert.equal(bad.error.kind, 'illegal');
  assert.match(bad.error.message, /only 1, 2 or 3/);
  assert.deepEqual((await call(server, 'observe')).state, { total: 0, turn: 1, to_move: 1 });
  const none = await call(server, 'apply', { action: { type: 'pass' } }); // no native form
  assert.equal(none.error.kind, 'illegal');
  const good = await call(server, 'apply', { action: { type: 'add', k: 2 } });
  assert.deepEqual(good.state, { total: 2, turn: 2, to_move: 2 });
});

test('a loop engine: the default refusal is the same bot asked again, state unchanged', async () => {
  const server = createServer(loopAdapter({ refused: undefined }));
  await call(server, 'new_game', { seed: 0, rules: RULES });
  const bad = await call(server, 'apply', { action: { type: 'add', k: 0 } });
  assert.equal(bad.error.kind, 'illegal');
  assert.match(bad.error.message, /asked player 1 again/);
});

test('a loop engine: a new game ends the last loop; a hung loop is stopped in time', async () => {
  const adapter = loopAdapter();
  const server = createServer(adapter);
  await call(server, 'new_game', { seed: 0, rules: RULES });
  await call(server, 'new_game', { seed: 1, rules: RULES });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(adapter.matches[0].stopped, 'LoopStopped'); // its pending bot call rejected
  adapter.matches[1].hangAfter = 1;
  const t0 = Date.now();
  const hung = await call(server, 'apply', { action: { type: 'add', k: 1 } });
  const waited = Date.now() - t0;
  assert.equal(hung.error.kind, 'internal');
  assert.match(hung.error.message, /neither asked a bot nor ended within 300 ms/);
  assert.ok(waited >= 250 && waited < 3000, `waited ${waited} ms`);
  const later = await call(server, 'apply', { action: { type: 'add', k: 1 } });
  assert.match(later.error.message, /hung/);
  const bye = await server.handle({ id: 99, op: 'bye' });
  assert.equal(bye[1], true);
});
