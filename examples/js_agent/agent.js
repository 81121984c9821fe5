#!/usr/bin/env node
// A 121 agent in JavaScript, speaking env121's line protocol (docs/agent-protocol.md, v1).
//
//   env121 tournament --vs "program:node examples/js_agent/agent.js" random --deals 20
//   env121 benchmark "program:node examples/js_agent/agent.js" --quick
//
// Each line on stdin is one JSON message; a "decision" is answered with one line
// holding an action id. It declares Ù (U) or Thế trắng whenever they are legal and
// otherwise picks a legal move at random from a generator seeded by "reset", so a
// seeded match replays the same.
"use strict";
const readline = require("node:readline");

let state = 1;
function seed(s) {
  state = (Number(s) % 2147483646) + 1;
}
function next() {
  // Park–Miller minimal standard generator: deterministic and tiny.
  state = (state * 48271) % 2147483647;
  return state / 2147483647;
}

function choose(message) {
  const legal = message.legal;
  for (const wanted of ["U", "THE_TRANG"]) {
    const move = legal.find((m) => m.name === wanted);
    if (move) return move.id;
  }
  return legal[Math.floor(next() * legal.length)].id;
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.protocol !== 1) throw new Error(`protocol ${message.protocol}: expected 1`);
  if (message.type === "reset") seed(message.seed);
  else if (message.type === "decision") process.stdout.write(`${choose(message)}\n`);
});
