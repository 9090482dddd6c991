#!/usr/bin/env node
// Flit (spec/flit.json), a second engine written from the rules in plain JavaScript.
//
// Speaks the gamecert wire protocol (schemas/wire.schema.json): one JSON request per line on
// stdin, one JSON reply per line on stdout. No npm packages; tested on Node 20.
//
//   node examples/engines/flit-js/flit.js
//
// Profiles: "standard" (the catalogue's default), "list-neutrals" and "strict".
// Squares are indices y * width + x; colours 0 empty, 1-4 bots, 5 neutral.
'use strict';

const ENGINE_NAME = 'flit-js';
const EMPTY = 0;
const NEUTRAL = 5;
const MAX_REQUEST = 16 << 20;

// --- rule sets ------------------------------------------------------------------------------
// Parameters of spec/flit.json; each profile picks its interpretation of the open points.
const BASE = {
  width: 32, height: 32, // FLIT-BOARD-SIZE
  piecesPerBot: 2, // FLIT-SETUP-ORDER
  hitDenominator: 16, listDenominator: 6, // FLIT-NEUTRAL-ADD
  freezeAfter: 5, // FLIT-FREEZE consecutive_timeouts
  maxTurns: 32768, // FLIT-END-TURNCAP (at-cap in every profile)
  pOffset: 4, // FLIT-END-CATCHUP
  listNeutrals: false, // FLIT-NEUTRAL-ADD: square-1-in-16 | list-1-in-6
  invalidDisqualifies: false, // FLIT-MOVE-INVALID: no-move | disqualify
  frozenSkipped: false, // FLIT-FREEZE: turn-as-no-move | skipped
  anyNoMoveCounts: true, // FLIT-END-ALLPASS: any-no-move | chosen-only
};
const PROFILES = {
  'standard': {},
  'list-neutrals': { listNeutrals: true },
  'strict': { invalidDisqualifies: true, anyNoMoveCounts: false, frozenSkipped: true },
};
const DEFAULT_PROFILE = 'standard';

const CONFIGS = new Map();
function configOf(id) {
  let cfg = CONFIGS.get(id);
  if (!cfg) {
    cfg = Object.freeze({ id, ...BASE, ...PROFILES[id], size: BASE.width * BASE.height,
                          nbrs: torusNeighbours(BASE.width, BASE.height) });
    CONFIGS.set(id, cfg);
  }
  return cfg;
}

// FLIT-BOARD-TORUS: four orthogonal neighbours per square, wrapping; stored N, E, S, W.
function torusNeighbours(w, h) {
  const t = new Int32Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const k = (y * w + x) * 4;
      t[k] = ((y + h - 1) % h) * w + x;
      t[k + 1] = y * w + (x + 1) % w;
      t[k + 2] = ((y + 1) % h) * w + x;
      t[k + 3] = y * w + (x + w - 1) % w;
    }
  }
  return t;
}

class Refusal extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}
const illegal = (m) => new Refusal('illegal', m);
const badState = (m) => new Refusal('bad-state', m);
const badRequest = (m) => new Refusal('bad-request', m);

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) &&
  !(v instanceof FloatLit) && !(v instanceof BigLit);
const isInt = (v) => typeof v === 'number' && Number.isInteger(v);

// --- the game -------------------------------------------------------------------------------

function newGame(cfg) {
  return { cfg, board: new Uint8Array(cfg.size), phase: 'setup', toMove: 1, turn: 0, passes: 0,
           timeouts: [0, 0, 0, 0], frozen: [false, false, false, false], result: null };
}

function cloneState(s) {
  return { cfg: s.cfg, board: s.board.slice(), phase: s.phase, toMove: s.toMove, turn: s.turn,
           passes: s.passes, timeouts: s.timeouts.slice(), frozen: s.frozen.slice(),
           result: s.result };
}

function xy(s, i) {
  return [i % s.cfg.width, Math.floor(i / s.cfg.width)];
}

// FLIT-SETUP-AVAILABLE: an empty square whose four neighbours are empty.
function isAvailable(s, i) {
  const b = s.board, n = s.cfg.nbrs, k = i * 4;
  return b[i] === EMPTY && b[n[k]] === EMPTY && b[n[k + 1]] === EMPTY &&
    b[n[k + 2]] === EMPTY && b[n[k + 3]] === EMPTY;
}

function availableSquares(s) {
  const out = [];
  for (let i = 0; i < s.cfg.size; i++) if (isAvailable(s, i)) out.push(i);
  return out;
}

// FLIT-MOVE-VALID: some piece of `bot`, other than the one lifted from `origin`, touches `dest`.
function touchedByOther(s, origin, dest, bot) {
  const b = s.board, n = s.cfg.nbrs, k = dest * 4;
  for (let j = k; j < k + 4; j++) if (n[j] !== origin && b[n[j]] === bot) return true;
  return false;
}

function moveProblem(s, origin, dest) {
  const bot = s.toMove;
  if (origin === dest) return 'origin equals destination: that is a pass';
  if (s.board[origin] !== bot) return `origin holds no piece of bot ${bot}`;
  if (s.board[dest] !== EMPTY) return 'destination is not empty';
  if (!touchedByOther(s, origin, dest, bot)) return 'destination touches no other piece of the bot';
  return null;
}

function counts(s) {
  const c = [0, 0, 0, 0, 0, 0];
  for (const v of s.board) c[v]++;
  return c; // indexed by colour
}

// One action, already read from JSON, on a copy of the state. Returns [next, events].
function applyAction(state, a) {
  if (state.phase === 'over') throw illegal('the game is over');
  const s = cloneState(state);
  const events = [];
  if (s.phase === 'setup') {
    if (a.type !== 'setup') throw illegal(`a setup square is due, not ${a.type}`);
    placeSetupPiece(s, a.at, events);
  } else if (s.phase === 'move') {
    if (a.type === 'move') {
      const problem = moveProblem(s, a.from, a.to);
      if (problem) throw illegal(problem);
      movePiece(s, a.from, a.to, events);
    } else if (a.type === 'pass' || a.type === 'timeout' || a.type === 'invalid') {
      noMove(s, a.type, events);
    } else {
      throw illegal(`bot ${s.toMove} must move, not ${a.type}`);
    }
  } else { // neutral step
    if (a.type === 'neutral' && !s.cfg.listNeutrals) {
      neutralStep(s, a.at, a.hit, events);
    } else if (a.type === 'neutral-list' && s.cfg.listNeutrals) {
      neutralStep(s, a.at, a.at !== null, events);
    } else {
      throw illegal(`a neutral-step outcome is due, not ${a.type}`);
    }
  }
  return [s, events];
}

// FLIT-SETUP-AVAILABLE and FLIT-SETUP-ORDER
function placeSetupPiece(s, at, events) {
  if (!isAvailable(s, at)) throw illegal(`setup square ${xy(s, at)} is not available`);
  const bot = s.toMove;
  s.board[at] = bot;
  events.push({ type: 'piece-placed', rule: 'FLIT-SETUP-AVAILABLE', bot, at: xy(s, at) });
  let placed = 0;
  for (const v of s.board) if (v !== EMPTY) placed++;
  if (placed >= s.cfg.piecesPerBot * 4) {
    s.phase = 'move';
    s.toMove = 1; // bot 1 moves first
  } else {
    s.toMove = (placed % 4) + 1; // bots 1..4 get a first piece, then a second, ...
  }
}

// FLIT-MOVE-VALID, FLIT-CONVERT
function movePiece(s, origin, dest, events) {
  const bot = s.toMove, b = s.board, n = s.cfg.nbrs;
  b[origin] = EMPTY;
  b[dest] = bot;
  events.push({ type: 'moved', rule: 'FLIT-MOVE-VALID', bot, from: xy(s, origin), to: xy(s, dest) });
  for (let j = dest * 4; j < dest * 4 + 4; j++) {
    const q = n[j];
    if (b[q] === NEUTRAL) {
      b[q] = bot;
      events.push({ type: 'converted', rule: 'FLIT-CONVERT', bot, at: xy(s, q) });
    }
  }
  s.timeouts[bot - 1] = 0; // FLIT-TIME-LIMIT: a reply in time resets the run
  s.passes = 0; // FLIT-END-ALLPASS: a real move resets the run
  s.turn += 1;
  s.phase = 'neutral'; // FLIT-END-TIMING after-neutral: the neutral step comes first
}

// FLIT-MOVE-NOMOVE, FLIT-MOVE-INVALID, FLIT-TIME-LIMIT, FLIT-FREEZE
function noMove(s, cause, events) {
  const bot = s.toMove;
  const rule = { pass: 'FLIT-MOVE-NOMOVE', timeout: 'FLIT-TIME-LIMIT', invalid: 'FLIT-MOVE-INVALID' }[cause];
  events.push({ type: 'no-move', rule, bot, cause });
  if (cause === 'timeout') {
    s.timeouts[bot - 1] += 1;
    if (s.timeouts[bot - 1] >= s.cfg.freezeAfter) {
      s.frozen[bot - 1] = true;
      events.push({ type: 'frozen', rule: 'FLIT-FREEZE', bot, cause: 'timeouts' });
    }
  } else {
    s.timeouts[bot - 1] = 0;
    if (cause === 'invalid' && s.cfg.invalidDisqualifies) {
      s.frozen[bot - 1] = true;
      events.push({ type: 'frozen', rule: 'FLIT-MOVE-INVALID', bot, cause: 'invalid-move' });
    }
  }
  s.passes = (cause === 'pass' || s.cfg.anyNoMoveCounts) ? s.passes + 1 : 0;
  s.turn += 1;
  s.phase = 'neutral';
}

// FLIT-NEUTRAL-ADD, then FLIT-END-TIMING (after-neutral), FLIT-TURN-ORDER, FLIT-FREEZE
function neutralStep(s, at, hit, events) {
  if (hit) {
    if (!isAvailable(s, at)) throw illegal(`square ${xy(s, at)} is not available for a neutral`);
    s.board[at] = NEUTRAL;
    events.push({ type: 'neutral-added', rule: 'FLIT-NEUTRAL-ADD', at: xy(s, at) });
  }
  if (checkEnd(s, events)) return;
  nextTurn(s, events);
}

function nextTurn(s, events) {
  let bot = (s.toMove % 4) + 1;
  if (!s.frozen[bot - 1]) {
    s.phase = 'move';
    s.toMove = bot;
    return;
  }
  if (!s.cfg.frozenSkipped) {
    // turn-as-no-move: the frozen bot's turn happens, as a no move, with its neutral step
    events.push({ type: 'no-move', rule: 'FLIT-FREEZE', bot, cause: 'frozen' });
    s.toMove = bot;
    s.turn += 1;
    s.passes = s.cfg.anyNoMoveCounts ? s.passes + 1 : 0;
    s.phase = 'neutral';
    return;
  }
  // skipped: the next bot still playing moves
  for (let k = 0; k < 4; k++) {
    if (!s.frozen[bot - 1]) {
      s.phase = 'move';
      s.toMove = bot;
      return;
    }
    bot = (bot % 4) + 1;
  }
  finish(s, ['all-pass'], events);
}

// FLIT-END-CATCHUP, FLIT-END-ALLPASS, FLIT-END-TURNCAP
function endReasons(s) {
  const c = counts(s);
  const bots = [c[1], c[2], c[3], c[4]];
  const p = c[NEUTRAL] + c[EMPTY] - s.cfg.pOffset;
  const reasons = [];
  for (let i = 0; i < 4; i++) {
    let m = -Infinity;
    for (let j = 0; j < 4; j++) if (j !== i) m = Math.max(m, bots[j] + p);
    if (bots[i] > m) {
      reasons.push('catch-up');
      break;
    }
  }
  let playing = 4;
  if (s.cfg.frozenSkipped) for (const f of s.frozen) if (f) playing--;
  if (s.passes >= playing) reasons.push('all-pass');
  if (s.turn >= s.cfg.maxTurns) reasons.push('turn-cap');
  return reasons;
}

function checkEnd(s, events) {
  const reasons = endReasons(s);
  if (!reasons.length) return false;
  finish(s, reasons, events);
  return true;
}

const END_RULE = { 'catch-up': 'FLIT-END-CATCHUP', 'all-pass': 'FLIT-END-ALLPASS',
                   'turn-cap': 'FLIT-END-TURNCAP' };

// FLIT-WINNER, FLIT-WINNER-TIE
function finish(s, reasons, events) {
  const c = counts(s);
  const bots = [c[1], c[2], c[3], c[4]];
  const best = Math.max(...bots);
  const leaders = bots.filter((v) => v === best).length;
  const winner = leaders === 1 ? bots.indexOf(best) + 1 : null;
  s.result = { reasons, counts: bots, winner };
  events.push({ type: 'game-ended', rule: END_RULE[reasons[0]], reasons: reasons.slice(),
                counts: bots.slice(), winner });
  s.phase = 'over';
  s.toMove = 0;
}

// --- legal actions and chance outcomes ----------------------------------------------------

function gcd(a, b) {
  while (b) [a, b] = [b, a % b];
  return a;
}
function frac(num, den) {
  const g = gcd(num, den) || 1;
  return `${num / g}/${den / g}`;
}

function sqJSON(s, i) {
  return `[${i % s.cfg.width},${Math.floor(i / s.cfg.width)}]`;
}

// The `legal` reply body (without id/ok) as JSON text, built by hand: it can be long.
function legalJSON(s) {
  if (s.phase === 'over') return '"to_move":null,"actions":[]';
  if (s.phase === 'move') return `"to_move":${s.toMove},"actions":[${playerActions(s).join(',')}]`;
  const parts = [];
  if (s.phase === 'setup') {
    const squares = availableSquares(s);
    const p = frac(1, squares.length);
    for (const i of squares) parts.push(`{"action":{"type":"setup","at":${sqJSON(s, i)}},"p":"${p}"}`);
  } else if (s.cfg.listNeutrals) {
    // list-1-in-6: nothing with (k-1)/k, else one available square drawn uniformly
    const squares = availableSquares(s), k = s.cfg.listDenominator;
    if (!squares.length) {
      parts.push('{"action":{"type":"neutral-list","at":null},"p":"1/1"}');
    } else {
      parts.push(`{"action":{"type":"neutral-list","at":null},"p":"${frac(k - 1, k)}"}`);
      const p = frac(1, k * squares.length);
      for (const i of squares) {
        parts.push(`{"action":{"type":"neutral-list","at":${sqJSON(s, i)}},"p":"${p}"}`);
      }
    }
  } else {
    // square-1-in-16: square s drawn with 1/size; if available, a neutral with 1/k
    const size = s.cfg.size, k = s.cfg.hitDenominator;
    const pHit = frac(1, size * k), pMiss = frac(k - 1, size * k), pOther = frac(1, size);
    for (let i = 0; i < size; i++) {
      const at = sqJSON(s, i);
      if (isAvailable(s, i)) {
        parts.push(`{"action":{"type":"neutral","at":${at},"hit":true},"p":"${pHit}"}`);
        parts.push(`{"action":{"type":"neutral","at":${at},"hit":false},"p":"${pMiss}"}`);
      } else {
        parts.push(`{"action":{"type":"neutral","at":${at},"hit":false},"p":"${pOther}"}`);
      }
    }
  }
  return `"to_move":"chance","outcomes":[${parts.join(',')}]`;
}

// Pass first, then moves by origin ascending and, per origin, destination ascending.
function playerActions(s) {
  const bot = s.toMove, b = s.board, n = s.cfg.nbrs, size = s.cfg.size;
  const touching = new Uint8Array(size); // own pieces next to each empty square
  const origins = [];
  for (let i = 0; i < size; i++) {
    if (b[i] !== bot) continue;
    origins.push(i);
    for (let j = i * 4; j < i * 4 + 4; j++) if (b[n[j]] === EMPTY) touching[n[j]]++;
  }
  const dests = [];
  for (let i = 0; i < size; i++) if (touching[i]) dests.push(i);
  const out = ['{"type":"pass"}'];
  for (const o of origins) {
    const from = sqJSON(s, o);
    for (const d of dests) {
      let others = touching[d];
      if (others === 1) { // the only own piece beside d might be the one that moves
        const k = d * 4;
        if (n[k] === o || n[k + 1] === o || n[k + 2] === o || n[k + 3] === o) others = 0;
      }
      if (others) out.push(`{"type":"move","from":${from},"to":${sqJSON(s, d)}}`);
    }
  }
  return out;
}

// --- the referee: a bot's raw reply (FLIT-PROTO-REPLY, FLIT-MOVE-NOMOVE, FLIT-MOVE-INVALID) ---
// FLIT-PROTO-REPLY: one line of four whole numbers in ASCII digits (optional minus), spaces
// or tabs between, an optional line end. The value counts: leading zeros are allowed, and a
// number with more than 12 significant digits is off any board.
const REPLY = /^[ \t]*(-?[0-9]+)[ \t]+(-?[0-9]+)[ \t]+(-?[0-9]+)[ \t]+(-?[0-9]+)[ \t]*(?:\r?\n)?$/;

function wholeNumber(text) {
  const neg = text.startsWith('-');
  const digits = (neg ? text.slice(1) : text).replace(/^0+/, '');
  if (digits.length > 12) return null;
  const v = digits === '' ? 0 : Number(digits);
  return neg ? -v : v;
}

function referee(s, text) {
  if (s.phase !== 'move') throw illegal('no bot is asked to move now');
  const INVALID = { type: 'invalid' };
  const m = REPLY.exec(text);
  if (m === null) return INVALID;
  const v = m.slice(1, 5).map(wholeNumber);
  if (v.some((x) => x === null)) return INVALID;
  const [x0, y0, x1, y1] = v;
  const { width: w, height: h } = s.cfg;
  if (![x0, x1].every((x) => x >= 0 && x < w) || ![y0, y1].every((y) => y >= 0 && y < h)) {
    return INVALID;
  }
  const origin = y0 * w + x0, dest = y1 * w + x1;
  if (origin === dest) return { type: 'pass' };
  if (moveProblem(s, origin, dest)) return INVALID;
  return { type: 'move', from: [x0, y0], to: [x1, y1] };
}

// --- canonical JSON -------------------------------------------------------------------------

function boardText(b) {
  const text = Buffer.allocUnsafe(b.length);
  for (let i = 0; i < b.length; i++) text[i] = 48 + b[i]; // '0' + colour
  return text.latin1Slice(0, b.length);
}

function observe(s) {
  const board = boardText(s.board);
  return {
    game: 'flit', profile: s.cfg.id, width: s.cfg.width, height: s.cfg.height, board,
    phase: s.phase, to_move: s.toMove || null, turn: s.turn, passes: s.passes,
    timeouts: s.timeouts.slice(), frozen: s.frozen.slice(),
    result: s.result && { reasons: s.result.reasons.slice(), counts: s.result.counts.slice(),
                          winner: s.result.winner },
  };
}

const ACTION_FIELDS = {
  move: ['from', 'to', 'type'], pass: ['type'], timeout: ['type'], invalid: ['type'],
  setup: ['at', 'type'], neutral: ['at', 'hit', 'type'], 'neutral-list': ['at', 'type'],
};

// A canonical action as {type, from, to, at (square indices), hit}; refuses any other shape.
function readAction(s, data) {
  if (!isObject(data) || !hasOwn(data, 'type') || typeof data.type !== 'string') {
    throw illegal('not a Flit action (an object with a "type")');
  }
  const kind = data.type;
  const fields = hasOwn(ACTION_FIELDS, kind) ? ACTION_FIELDS[kind] : null;
  if (!fields) throw illegal(`unknown Flit action type ${JSON.stringify(kind)}`);
  const keys = Object.keys(data).sort();
  if (keys.length !== fields.length || keys.some((k, i) => k !== fields[i])) {
    throw illegal(`a ${kind} action has exactly the fields ${fields.join(', ')}`);
  }
  const square = (v) => {
    if (!Array.isArray(v) || v.length !== 2 || !isInt(v[0]) || !isInt(v[1])) {
      throw illegal('a square is [x, y] with whole numbers');
    }
    const [x, y] = v;
    if (x < 0 || x >= s.cfg.width || y < 0 || y >= s.cfg.height) {
      throw illegal(`square (${x}, ${y}) is off the board`);
    }
    return y * s.cfg.width + x;
  };
  switch (kind) {
    case 'move': return { type: kind, from: square(data.from), to: square(data.to) };
    case 'setup': return { type: kind, at: square(data.at) };
    case 'neutral': {
      const at = square(data.at);
      if (typeof data.hit !== 'boolean') throw illegal('neutral "hit" is true or false');
      return { type: kind, at, hit: data.hit };
    }
    case 'neutral-list': return { type: kind, at: data.at === null ? null : square(data.at) };
    default: return { type: kind };
  }
}

const STATE_FIELDS = ['board', 'frozen', 'game', 'height', 'passes', 'phase', 'profile', 'result',
  'timeouts', 'to_move', 'turn', 'width'];
const REASONS = new Set(['catch-up', 'all-pass', 'turn-cap']);

function shapeProblem(o) {
  if (!isObject(o)) return 'a state is a JSON object';
  const keys = Object.keys(o).sort();
  if (keys.length !== STATE_FIELDS.length || keys.some((k, i) => k !== STATE_FIELDS[i])) {
    return `a state has exactly the fields ${STATE_FIELDS.join(', ')}`;
  }
  if (o.game !== 'flit') return 'game must be "flit"';
  if (typeof o.profile !== 'string') return 'profile must be a string';
  for (const k of ['width', 'height', 'turn', 'passes']) {
    if (!isInt(o[k]) || o[k] < 0 || !Number.isSafeInteger(o[k])) {
      return `${k} must be a whole number >= 0 (below 2^53)`;
    }
  }
  if (o.width < 3 || o.width > 256 || o.height < 3 || o.height > 256) {
    return 'width and height must be 3 to 256';
  }
  if (typeof o.board !== 'string' || !/^[0-5]+$/.test(o.board)) {
    return 'board must be a non-empty string of 0-5';
  }
  if (!['setup', 'move', 'neutral', 'over'].includes(o.phase)) return 'unknown phase';
  if (!(o.to_move === null || (isInt(o.to_move) && o.to_move >= 1 && o.to_move <= 4))) {
    return 'to_move must be 1-4 or null';
  }
  if (!Array.isArray(o.timeouts) || o.timeouts.length !== 4 ||
      !o.timeouts.every((v) => isInt(v) && v >= 0 && Number.isSafeInteger(v))) {
    return 'timeouts must be four whole numbers >= 0';
  }
  if (!Array.isArray(o.frozen) || o.frozen.length !== 4 ||
      !o.frozen.every((v) => typeof v === 'boolean')) {
    return 'frozen must be four booleans';
  }
  const r = o.result;
  if (r !== null) {
    if (!isObject(r)) return 'result must be null or an object';
    const rk = Object.keys(r).sort();
    if (rk.join() !== 'counts,reasons,winner') return 'result has exactly reasons, counts, winner';
    if (!Array.isArray(r.reasons) || r.reasons.length < 1 || !r.reasons.every((x) => REASONS.has(x))) {
      return 'result.reasons must be a non-empty list of catch-up, all-pass, turn-cap';
    }
    if (!Array.isArray(r.counts) || r.counts.length !== 4 ||
        !r.counts.every((v) => isInt(v) && v >= 0 && Number.isSafeInteger(v))) {
      return 'result.counts must be four whole numbers >= 0';
    }
    if (!(r.winner === null || (isInt(r.winner) && r.winner >= 1 && r.winner <= 4))) {
      return 'result.winner must be 1-4 or null';
    }
  }
  return null;
}

function loadState(o) {
  const problem = shapeProblem(o);
  if (problem) throw badState(`not a Flit state: ${problem}`);
  if (!hasOwn(PROFILES, o.profile)) throw badState(`no profile ${JSON.stringify(o.profile)}`);
  const cfg = configOf(o.profile);
  if (o.width !== cfg.width || o.height !== cfg.height) {
    throw badState(`board is ${o.width}x${o.height}, profile ${cfg.id} plays ${cfg.width}x${cfg.height}`);
  }
  if (o.board.length !== cfg.size) {
    throw badState(`board has ${o.board.length} squares, expected ${cfg.size}`);
  }
  const over = o.phase === 'over';
  if (over !== (o.to_move === null)) throw badState('to_move must be null exactly when the game is over');
  if (over !== (o.result !== null)) throw badState('result must be set exactly when the game is over');
  const board = new Uint8Array(cfg.size);
  for (let i = 0; i < cfg.size; i++) board[i] = o.board.charCodeAt(i) - 48;
  const s = {
    cfg, board, phase: o.phase, toMove: o.to_move || 0, turn: o.turn, passes: o.passes,
    timeouts: o.timeouts.slice(), frozen: o.frozen.slice(),
    result: o.result && { reasons: o.result.reasons.slice(), counts: o.result.counts.slice(),
                          winner: o.result.winner },
  };
  const c = counts(s);
  if (s.phase === 'setup') {
    const placed = cfg.size - c[EMPTY];
    if (c[NEUTRAL] || placed >= cfg.piecesPerBot * 4 || s.toMove !== (placed % 4) + 1) {
      throw badState('a setup state has no neutrals, fewer than all initial pieces, and the ' +
                     'next bot in setup order to place');
    }
  } else if (s.phase === 'move' || s.phase === 'neutral') {
    for (let bot = 1; bot <= 4; bot++) {
      if (c[bot] < cfg.piecesPerBot) {
        throw badState(`bot ${bot} has fewer than ${cfg.piecesPerBot} pieces after the setup`);
      }
    }
    if (s.phase === 'move' && s.frozen[s.toMove - 1]) {
      throw badState(`bot ${s.toMove} is frozen and cannot be to move`);
    }
  }
  // FLIT-CONVERT / FLIT-NEUTRAL-ADD: a neutral never touches anything
  for (let i = 0; i < cfg.size; i++) {
    if (board[i] !== NEUTRAL) continue;
    for (let j = i * 4; j < i * 4 + 4; j++) {
      if (board[cfg.nbrs[j]] !== EMPTY) {
        throw badState(`neutral at (${xy(s, i)}) touches a piece: it would have converted`);
      }
    }
  }
  return s;
}

// --- exact JSON reading ---------------------------------------------------------------------
// JSON.parse cannot tell 1 from 1.0, and rounds integers past 2^53. Lines that might hold
// either are read again with this small parser, which keeps them apart: a literal with a
// fraction or exponent (or NaN/Infinity, which Python's json accepts) becomes a FloatLit, an
// integer past 2^53 a BigLit; neither passes a whole-number check.
class FloatLit {
  constructor(raw) { this.raw = raw; }
}
class BigLit {
  constructor(raw) { this.raw = raw; }
}

function parseExact(text) {
  let i = 0;
  const fail = (what) => { throw new SyntaxError(`${what} at character ${i}`); };
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else return;
    }
  };
  const NUM = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
  const value = (depth) => {
    if (depth > 1000) fail('nested too deeply');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj = {};
      ws();
      if (text[i] === '}') { i++; return obj; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name');
        const key = string();
        ws();
        if (text[i] !== ':') fail('expected ":"');
        i++;
        Object.defineProperty(obj, key, { value: value(depth + 1), enumerable: true,
                                          writable: true, configurable: true });
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return obj; }
        fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const arr = [];
      ws();
      if (text[i] === ']') { i++; return arr; }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return arr; }
        fail('expected "," or "]"');
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    for (const word of ['NaN', 'Infinity', '-Infinity']) {
      if (text.startsWith(word, i)) { i += word.length; return new FloatLit(word); }
    }
    NUM.lastIndex = i;
    const m = NUM.exec(text);
    if (!m) fail('expected a value');
    i += m[0].length;
    if (m[1] !== undefined || m[2] !== undefined) return new FloatLit(m[0]);
    const n = Number(m[0]);
    return Number.isSafeInteger(n) ? n : new BigLit(m[0]);
  };
  const string = () => {
    i++; // opening quote
    let out = '';
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) fail('unterminated string');
      if (c === 0x22) { i++; return out; }
      if (c < 0x20) fail('control character in a string');
      if (c !== 0x5c) { out += text[i++]; continue; }
      const e = text[i + 1];
      const simple = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      if (e === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else if (e !== undefined && hasOwn(simple, e)) {
        out += simple[e];
        i += 2;
      } else {
        fail('bad escape');
      }
    }
  };
  const v = value(0);
  ws();
  if (i !== text.length) fail('extra data');
  return v;
}

function hasUnsafeNumber(root) {
  const stack = [root];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) return true;
    } else if (v !== null && typeof v === 'object') {
      for (const k in v) stack.push(v[k]);
    }
  }
  return false;
}

function parseRequest(line) {
  if (!/[0-9][.eE]/.test(line)) {
    let v;
    try {
      v = JSON.parse(line);
    } catch (e) {
      v = undefined; // perhaps NaN or Infinity: the exact reader decides
    }
    if (v !== undefined && !hasUnsafeNumber(v)) return v;
  }
  return parseExact(line);
}

function dumpJSON(v) {
  if (v instanceof FloatLit || v instanceof BigLit) return v.raw;
  if (Array.isArray(v)) return `[${v.map(dumpJSON).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${dumpJSON(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

// --- the session: one game in progress, wire operations -------------------------------------

let current = null; // the game in progress, or null before new_game / load_state

function game() {
  if (!current) throw illegal('no game in progress: send new_game or load_state first');
  return current;
}

function body(obj) {
  return JSON.stringify(obj).slice(1, -1); // "k":v,... to splice after id and ok
}

// One request object -> [reply body text (after "ok":true,), stop?]
function handle(req) {
  if (!isObject(req) || !hasOwn(req, 'op') || typeof req.op !== 'string') {
    throw badRequest('a request is an object with "id" and "op"');
  }
  switch (req.op) {
    case 'hello':
      return [body({ game: 'flit', engine: ENGINE_NAME, profiles: Object.keys(PROFILES).sort(),
                     capabilities: ['load_state', 'legal', 'bot_output', 'chance'] }), false];
    case 'new_game': {
      const p = hasOwn(req, 'profile') ? req.profile : null;
      if (p !== null && typeof p !== 'string') throw badRequest('profile is a string or null');
      const id = p === null ? DEFAULT_PROFILE : p;
      if (!hasOwn(PROFILES, id)) {
        throw badState(`no profile ${JSON.stringify(id)} (known: ${Object.keys(PROFILES).sort().join(', ')})`);
      }
      current = newGame(configOf(id)); // the seed is not needed: chance is an explicit action
      return [body({ state: observe(current) }), false];
    }
    case 'load_state':
      if (!hasOwn(req, 'state')) throw badRequest('load_state needs "state"');
      current = loadState(req.state); // a refused state leaves the game as it was
      return [body({ state: observe(current) }), false];
    case 'apply': {
      if (!hasOwn(req, 'action')) throw badRequest('apply needs "action"');
      const s = game();
      const [next, events] = applyAction(s, readAction(s, req.action));
      current = next;
      return [body({ state: observe(next), events }), false];
    }
    case 'legal':
      return [legalJSON(game()), false];
    case 'observe':
      return [body({ state: observe(game()) }), false];
    case 'bot_output': {
      const text = hasOwn(req, 'text') ? req.text : undefined;
      if (typeof text !== 'string') throw badRequest('bot_output needs "text" (a string)');
      return [body({ action: referee(game(), text) }), false];
    }
    case 'bye':
      return ['', true];
    default:
      throw badRequest(`unknown op ${JSON.stringify(req.op)}`);
  }
}

function errorReply(idText, kind, message) {
  return `{"id":${idText},"ok":false,"error":${JSON.stringify({ kind, message })}}`;
}

// One line in, one reply line out (without the newline) and whether to stop.
function serveLine(line) {
  let req;
  try {
    req = parseRequest(line);
  } catch (e) {
    return [errorReply('null', 'bad-request', `not JSON: ${e.message}`), false];
  }
  const idText = isObject(req) && hasOwn(req, 'id') ? dumpJSON(req.id) : 'null';
  try {
    const [text, stop] = handle(req);
    return [`{"id":${idText},"ok":true${text ? ',' + text : ''}}`, stop];
  } catch (e) {
    if (e instanceof Refusal) return [errorReply(idText, e.kind, e.message), false];
    return [errorReply(idText, 'internal', `${e && e.name}: ${e && e.message}`), false];
  }
}

// A blank line (only spaces, tabs and line ends) is skipped, as the reference server does.
function blank(line) {
  return /^[ \t\r\n]*$/.test(line);
}

function main() {
  let chunks = []; // the line being read, in pieces
  let pending = 0;
  let tooLong = false; // the line being read is past MAX_REQUEST: skip it to its newline
  let stopped = false;
  const out = [];

  const flush = (done) => {
    if (!out.length) {
      if (done) done();
      return;
    }
    const text = out.join('');
    out.length = 0;
    process.stdout.write(text, done);
  };

  const onLine = () => {
    const buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    const skipped = tooLong || buf.length > MAX_REQUEST;
    chunks = [];
    pending = 0;
    tooLong = false;
    if (stopped) return;
    let reply = errorReply('null', 'bad-request', 'request too long');
    let stop = false;
    if (!skipped) {
      const line = buf.toString('utf8');
      if (blank(line)) return;
      [reply, stop] = serveLine(line);
    }
    out.push(reply + '\n');
    if (stop) {
      stopped = true;
      flush(() => process.exit(0));
    }
  };

  process.stdin.on('data', (chunk) => {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      if (!tooLong) chunks.push(chunk.subarray(start, nl));
      onLine();
      start = nl + 1;
      if (stopped) return;
    }
    if (start < chunk.length && !tooLong) {
      chunks.push(Buffer.from(chunk.subarray(start))); // a copy: the chunk may be reused
      pending += chunk.length - start;
      if (pending > MAX_REQUEST) {
        tooLong = true;
        chunks = [];
      }
    }
    flush();
  });
  process.stdin.on('end', () => {
    if (!stopped && (chunks.length || tooLong)) onLine();
    if (!stopped) flush(() => process.exit(0));
  });
}

if (require.main === module) {
  main();
}

module.exports = { serveLine };
