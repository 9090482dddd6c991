// The kit as a process, over stdin/stdout, imported both ways (CommonJS and ES module).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as esm from '../index.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

// Send lines, then close stdin; the replies (one JSON per line) and stderr.
function talk(file, requests) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(here, 'fixtures', file)]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, replies: out.split('\n').filter(Boolean).map((l) => JSON.parse(l)), err }));
    child.stdin.end(requests.map((r) => JSON.stringify(r)).join('\n') + '\n');
  });
}

test('one implementation whichever way it is imported', () => {
  const cjs = require('..');
  assert.equal(esm.Refusal, cjs.Refusal);
  assert.equal(esm.serve, cjs.serve);
  assert.equal(esm.VERSION, require('../package.json').version);
  assert.equal(esm.default, cjs);
});

test('the CommonJS adapter speaks the wire, prints to stderr, and undoes', async () => {
  const { code, replies, err } = await talk('counter-wire.cjs', [
    { id: 1, op: 'hello' },
    { id: 2, op: 'new_game', profile: 'standard', seed: 4, rules: { players: 2 } },
    { id: 3, op: 'apply', action: { type: 'add', k: 2 } },
    { id: 4, op: 'apply', action: { type: 'add', k: 8 } },
    { id: 5, op: 'undo' },
    'not an object',
    { id: 6, op: 'bye' },
    { id: 7, op: 'observe' },
  ]);
  assert.equal(code, 0);
  assert.deepEqual(replies.map((r) => r.id), [1, 2, 3, 4, 5, null, 6]); // nothing after bye
  assert.deepEqual(replies[0].capabilities, ['undo', 'no_events']);
  assert.deepEqual(replies[1].state, { total: 4, turn: 1, to_move: 1 });
  assert.deepEqual(replies[2].state, { total: 6, turn: 2, to_move: 2 });
  assert.equal(replies[3].error.kind, 'illegal');
  assert.deepEqual(replies[4].state, replies[1].state);
  assert.match(err, /engine: playing/);
});

test('the ES module adapter speaks the wire too, and gets the rules', async () => {
  const { code, replies } = await talk('counter-wire.mjs', [
    { id: 1, op: 'hello' },
    { id: 2, op: 'new_game', profile: null, seed: 1, rules: { players: 4 } },
    { id: 3, op: 'apply', action: { type: 'add', k: 5 } },
    { id: 4, op: 'apply', action: { type: 'sub', k: 5 } },
  ]);
  assert.equal(code, 0); // end of input: exit
  assert.deepEqual(replies[0].capabilities, ['no_events']);
  assert.deepEqual(replies[1].state, { total: 1, players: 4 });
  assert.deepEqual(replies[2].state, { total: 6, players: 4 });
  assert.equal(replies[3].error.kind, 'illegal');
});
