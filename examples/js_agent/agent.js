#!/usr/bin/env node
// A 121 agent in JavaScript, speaking env121's line protocol, version 2 (docs/agent-protocol.md).
//
//   env121 tournament --vs "program:node examples/js_agent/agent.js" random --deals 20
//   env121 benchmark "program:node examples/js_agent/agent.js" --quick
//
// Each line on stdin is one JSON message. "hello" is answered "hello 2"; a
// "decision" is answered "ID ACTION" (its id, a space, an action id). It declares
// Ù (U, id 121) or Thế trắng (THE_TRANG, id 123) whenever they are legal and
// otherwise picks a legal move at random from a generator seeded by "start", so
// a seeded match replays the same. Logs go to stderr; stdout carries answers only.
"use strict";
const readline = require("node:readline");

const PROTOCOL = 2;
const U = 121;
const THE_TRANG = 123;

let state = 1;
function seed(s) {
  state = (Number(s) % 2147483646) + 1;
}
function next() {
  // Park–Miller minimal standard generator: deterministic and tiny.
  state = (state * 48271) % 2147483647;
  return state / 2147483647;
}

function choose(legal) {
  for (const wanted of [U, THE_TRANG]) if (legal.includes(wanted)) return wanted;
  return legal[Math.floor(next() * legal.length)];
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      if (message.protocol !== PROTOCOL) {
        console.error(`agent.js speaks protocol ${PROTOCOL}, not ${message.protocol}`);
      }
      process.stdout.write(`hello ${PROTOCOL}\n`);
      break;
    case "start":
      seed(message.seed);
      break;
    case "decision":
      process.stdout.write(`${message.id} ${choose(message.legal)}\n`);
      break;
    // "end": the game is over; nothing to answer.
  }
});
// When env121 closes stdin, readline ends and node exits.
