// node-random: a Schmier bot in plain Node.js, using nothing beyond docs/protocol.md (no SDK).
//
// It reads one JSON object per line from stdin, answers the referee's `hello` with its own,
// and answers every `request` with a uniformly random legal action. `game_start`, `game_end`
// are not answered; `bye` (or the end of stdin) ends the program.
// Usage: node bot.js [--seed N]   (a seed makes its play reproducible)
"use strict";

const readline = require("readline");

const NAME = "node-random";
const VERSION = "1.0";

// A small seedable generator (mulberry32), so a seeded run is reproducible.
function makeRandom(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seedAt = process.argv.indexOf("--seed");
const random =
  seedAt >= 0 ? makeRandom(Number(process.argv[seedAt + 1])) : makeRandom(Date.now() ^ process.pid);

function randint(lo, hi) {
  // inclusive on both ends
  return lo + Math.floor(random() * (hi - lo + 1));
}

function log(text) {
  process.stderr.write(`${text}\n`);
}

function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

// A legal set in a discard phase: every `required` card, plus random `optional` cards, so the
// total is a random count between `min` and `max`.
function randomDiscard(spec) {
  const cards = spec.required.slice();
  const optional = spec.optional.slice();
  const low = Math.max(spec.min, cards.length);
  const high = Math.min(spec.max, cards.length + optional.length);
  const extra = randint(low, high) - cards.length;
  for (let i = 0; i < extra; i++) {
    const j = randint(i, optional.length - 1);
    [optional[i], optional[j]] = [optional[j], optional[i]];
    cards.push(optional[i]);
  }
  return cards.length ? `discard ${cards.join(" ")}` : "discard -";
}

function choose(legal) {
  if (legal.discard) {
    return randomDiscard(legal.discard);
  }
  return legal.actions[randint(0, legal.actions.length - 1)];
}

const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  if (!line.trim()) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (e) {
    log(`ignoring a line that is not JSON: ${line.slice(0, 200)}`);
    return;
  }
  switch (message.type) {
    case "hello":
      log(`seat ${message.seat}, team ${message.team}, partner ${message.partner}`);
      send({ type: "hello", protocol: message.protocol, name: NAME, version: VERSION });
      break;
    case "request":
      send({ type: "action", id: message.id, action: choose(message.legal) });
      break;
    case "game_start":
    case "game_end":
      break;
    case "bye":
      input.close();
      break;
    default:
      log(`ignoring a message of type ${message.type}`);
  }
});

input.on("close", () => process.exit(0));
