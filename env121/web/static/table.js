/* The web table: open a game, play it over a WebSocket, open records in the
   replay viewer (viewer.js). Talks only to the server that served it. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let game = null;
  let socket = null;

  function say(text, error) {
    $("status").textContent = text;
    $("status").className = error ? "status error" : "status";
  }

  async function api(method, path, body) {
    const response = await fetch(path, {
      method, headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : (typeof body === "string" ? body : JSON.stringify(body)),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || response.statusText);
    return answer;
  }

  function agentFields() {
    const seat = Number($("seat").value);
    const old = [...document.querySelectorAll("input.spec")].map((i) => i.value);
    const fields = [0, 1, 2, 3].filter((s) => s !== seat).map((s, k) => {
      const label = document.createElement("label");
      label.textContent = `S${s} `;
      const input = document.createElement("input");
      Object.assign(input, { className: "spec", name: `agent${k}`, id: `agent${k}`,
        value: old[k] || "random", required: true });
      input.setAttribute("list", "agent-names");
      label.append(input);
      return label;
    });
    $("agent-fields").replaceChildren(...fields);
  }

  function render(next) {
    game = next;
    $("game").hidden = false;
    $("table").innerHTML = game.svg;
    $("download").href = `/api/games/${game.id}/record`;
    for (const card of $("table").querySelectorAll("g.card[data-card]")) {
      const action = game.card_moves[card.dataset.card];
      if (action !== undefined && Number(card.dataset.seat) === game.seat) {
        card.classList.add("playable");
        card.addEventListener("click", () => send(action));
      }
    }
    $("moves").replaceChildren(...game.moves.map((move) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = move.name;
      button.dataset.action = move.action;
      button.addEventListener("click", () => send(move.action));
      const item = document.createElement("li");
      item.append(button);
      return item;
    }));
    $("results").replaceChildren(...(game.results.length
      ? game.results.slice().reverse().map((r) => ReplayViewer.resultBox(r, game.specs.map((spec, s) => `S${s} ${spec}`)))
      : [document.createTextNode("none yet")]));
    $("transcript").textContent = game.transcript.join("\n");
    $("table").dataset.step = game.step;
    $("table").dataset.over = game.over;
    say(game.over ? `The match is over (${game.match_end}). Scores: ${game.scores.join(" · ")}`
      : `Your move (step ${game.step}).`);
  }

  function send(action) {
    if (!game || !socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ action, step: game.step }));
  }

  function connect(id) {
    if (socket) socket.close();
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${id}/ws`);
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") render(message.game);
      else say(message.error, true);
    });
    socket.addEventListener("close", () => { if (game && !game.over) say("The connection closed: start a new game.", true); });
  }

  $("new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const agents = [...document.querySelectorAll("input.spec")].map((i) => i.value.trim());
    say("dealing…");
    try {
      const opened = await api("POST", "/api/games",
        { seed: Number($("seed").value), seat: Number($("seat").value), agents });
      render(opened);
      connect(opened.id);
    } catch (error) { say(error.message, true); }
  });
  $("seat").addEventListener("change", agentFields);

  function tab(name) {
    $("play").hidden = name !== "play";
    $("replay").hidden = name !== "replay";
    $("tab-play").classList.toggle("active", name === "play");
    $("tab-replay").classList.toggle("active", name === "replay");
  }
  window.addEventListener("hashchange", () => tab(location.hash === "#replay" ? "replay" : "play"));
  tab(location.hash === "#replay" ? "replay" : "play");

  $("record-file").addEventListener("change", async () => {
    const file = $("record-file").files[0];
    if (!file) return;
    $("replay-status").textContent = "drawing every step…";
    $("replay-status").className = "status";
    try {
      const data = await api("POST", "/api/replays", await file.text());
      ReplayViewer.mount($("viewer"), data);
      $("replay-status").textContent = `${file.name}: ${data.steps.length - 1} actions, ${data.vongs.length} vòng`;
    } catch (error) {
      $("replay-status").textContent = error.message;
      $("replay-status").className = "status error";
    }
  });

  agentFields();
  api("GET", "/api/agents").then((agents) => {
    $("agent-names").replaceChildren(...Object.entries(agents).map(([name, summary]) => {
      const option = document.createElement("option");
      option.value = name; option.label = summary;
      return option;
    }));
  }).catch(() => {});
})();
