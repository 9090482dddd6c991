'use strict';
// Toy engines for the kit's own tests (no gamecert game rules needed): a counter that players
// add to in turn, as a move-by-move engine and as one that owns its loop and awaits its bots.

const { Refusal } = require('..');

// A native game object: a class with a method, so a copy must keep its prototype.
class Counter {
  constructor(players, seed) {
    this.players = players;
    this.total = seed;
    this.turn = 1;
  }
  toMove() { return ((this.turn - 1) % this.players) + 1; }
  static check(k) {
    return Number.isInteger(k) && k >= 1 && k <= 3 ? null : `add ${k}: only 1, 2 or 3`;
  }
  add(k) {
    this.total += k; // changed before the check: only a copy keeps a refused move harmless
    const why = Counter.check(k);
    if (why) throw new Refusal(why);
    this.turn += 1;
  }
}

const canonical = (c) => ({ total: c.total, turn: c.turn, to_move: c.toMove() });

function counterAdapter(extra = {}) {
  return {
    game: 'flit',
    engine: 'counter',
    started: [],
    start(profile, seed, rules) {
      this.started.push({ profile, seed, rules });
      return new Counter(rules ? rules.players : 2, seed);
    },
    play(c, action) {
      if (action.type !== 'add') throw new Refusal(`no such move: ${action.type}`);
      c.add(action.k);
      return c;
    },
    canonical,
    ...extra,
  };
}

// An engine that owns its loop: `run(bots)` awaits bot.think(view) for each turn, until the
// total reaches `goal`. A move it refuses is asked for again with `error` set.
class LoopMatch {
  constructor(players, seed, goal = 10) {
    this.counter = new Counter(players, seed);
    this.goal = goal;
    this.stopped = null; // how its loop ended, for the tests
    this.hangAfter = null; // turn after which the loop waits forever (a hung engine)
  }
  async run(bots) {
    try {
      let error = null;
      while (this.counter.total < this.goal) {
        if (this.hangAfter !== null && this.counter.turn > this.hangAfter) {
          await new Promise(() => {}); // never settles
        }
        const k = await bots[this.counter.toMove() - 1].think(canonical(this.counter), error);
        error = Counter.check(k);
        if (error === null) this.counter.add(k);
      }
      this.stopped = 'ended';
    } catch (e) {
      this.stopped = e.name;
      throw e;
    }
  }
}

function loopAdapter(extra = {}) {
  return {
    game: 'flit',
    engine: 'counter-loop',
    seatMethod: 'think',
    loopTimeout: 300,
    matches: [],
    start(profile, seed, rules) {
      const m = new LoopMatch(rules ? rules.players : 2, seed);
      this.matches.push(m);
      return m;
    },
    run(m, seats) { return m.run(seats); },
    move(ask, action) {
      if (action.type !== 'add') throw new Refusal(`no such move: ${action.type}`);
      return action.k;
    },
    canonical: (m) => canonical(m.counter),
    refused: (before, after) => after.args[1] || null, // the engine says why it asks again
    ...extra,
  };
}

module.exports = { Counter, counterAdapter, LoopMatch, loopAdapter, canonical };
