/* The web table: open a game, play it over a WebSocket, list the results and
   ratings, open records and finished games in the replay viewer (viewer.js).
   Talks only to the server that served it. The game in play and its seat
   token (the secret that plays the seat, given once when the game opens) are
   remembered in localStorage, so a reload (or a restart of the server)
   resumes it; without the token a game is only watched. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const ORDINALS = ["1st", "2nd", "3rd", "4th"];
  const glossary = Object.fromEntries([...document.querySelectorAll("#glossary dt[data-kind]")]
    .map((dt) => [dt.dataset.kind, `${dt.textContent}: ${dt.nextElementSibling.textContent}`]));
  let game = null;
  let socket = null;
  let setup = { agents: {}, practice: false };

  function say(text, error) {
    $("status").textContent = text;
    $("status").className = error ? "status error" : "status";
  }

  const TOKEN_HEADER = "X-Seat-Token";

  async function api(method, path, body, token) {
    const headers = { "Content-Type": "application/json" };
    if (token) headers[TOKEN_HEADER] = token;
    const response = await fetch(path, {
      method, headers,
      body: body === undefined ? undefined : (typeof body === "string" ? body : JSON.stringify(body)),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || response.statusText);
    return answer;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    node.append(...children);
    return node;
  }

  function agentFields() {
    const seat = Number($("seat").value);
    const old = [...document.querySelectorAll("select.spec")].map((i) => i.value);
    const specs = Object.keys(setup.agents);
    const fields = [0, 1, 2, 3].filter((s) => s !== seat).map((s, k) => {
      const select = el("select", { class: "spec", name: `agent${k}`, id: `agent${k}` },
        ...specs.map((spec) => el("option", { value: spec, title: setup.agents[spec] }, spec)));
      select.value = old[k] || specs[Math.min(1, specs.length - 1)] || "";
      return el("label", {}, `S${s} `, select);
    });
    $("agent-fields").replaceChildren(...fields);
  }

  function render(next) {
    game = next;
    $("game").hidden = false;
    $("intro").hidden = true;
    if (game.watching) {
      $("table").replaceChildren();
      $("moves").replaceChildren();
      $("table").dataset.step = game.step;
      say(`Watching ${game.names[game.seat]}'s game (step ${game.step}): only the browser that opened it may play it.`);
      return;
    }
    $("table").innerHTML = game.svg;
    for (const card of $("table").querySelectorAll("g.card[data-card]")) {
      const action = game.card_moves[card.dataset.card];
      if (action !== undefined && Number(card.dataset.seat) === game.seat) {
        card.classList.add("playable");
        card.addEventListener("click", () => send(action));
      }
    }
    $("moves").replaceChildren(...game.moves.map((move) => {
      const button = el("button", { type: "button", title: glossary[move.kind] || "" }, move.name);
      button.dataset.action = move.action;
      button.dataset.kind = move.kind;
      button.addEventListener("click", () => send(move.action));
      return el("li", {}, button);
    }));
    $("results").replaceChildren(...(game.results.length
      ? game.results.slice().reverse().map((r) => ReplayViewer.resultBox(r, game.names))
      : [document.createTextNode("none yet")]));
    $("transcript").textContent = game.transcript.join("\n");
    $("table").dataset.step = game.step;
    $("table").dataset.over = game.over;
    $("practice-note").hidden = !game.practice;
    $("practice-note").textContent = game.practice
      ? `Practice game: seed ${game.seed}, chosen by you. Anyone with the seed can work out every hidden card, so it is not rated.`
      : "";
    $("after-end").hidden = !(game.over || game.practice);
    $("download").href = `/api/games/${game.id}/record`;
    $("replay-this").hidden = !game.over;
    if (game.over) {
      localStorage.removeItem("env121-game");
      localStorage.removeItem("env121-token");
      say(game.end);
    } else {
      localStorage.setItem("env121-game", game.id);
      say(game.to_act ? `Your move, ${game.player} (step ${game.step}).` : "The others are playing…");
    }
  }

  function send(action) {
    if (!game || !socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ action, step: game.step }));
  }

  function connect(id, token) {
    if (socket) socket.close();
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${id}/ws${query}`);
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") render(message.game);
      else say(message.error, true);
    });
    socket.addEventListener("close", () => {
      if (game && !game.over) say("The connection closed: reload the page to resume your game.", true);
    });
  }

  async function open(id) {
    const token = localStorage.getItem("env121-token");
    try {
      render(await api("GET", `/api/games/${id}`, undefined, token));
      connect(id, token);
    } catch (error) {
      localStorage.removeItem("env121-game");
      localStorage.removeItem("env121-token");
      $("resume").hidden = true;
      say(error.message, true);
    }
  }

  $("new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const agents = [...document.querySelectorAll("select.spec")].map((i) => i.value);
    const body = { name: $("name").value.trim(), seat: Number($("seat").value), agents };
    if (setup.practice && $("practice").checked) body.practice_seed = Number($("seed").value);
    localStorage.setItem("env121-name", body.name);
    say("dealing…");
    try {
      const opened = await api("POST", "/api/games", body);
      localStorage.setItem("env121-token", opened.token);
      render(opened);
      connect(opened.id, opened.token);
    } catch (error) { say(error.message, true); }
  });
  $("seat").addEventListener("change", agentFields);
  $("resume").addEventListener("click", () => open(localStorage.getItem("env121-game")));

  async function showResults() {
    const player = $("results-player").value.trim();
    $("results-status").textContent = "";
    try {
      const data = await api("GET", "/api/results" + (player ? `?player=${encodeURIComponent(player)}` : ""));
      $("ratings").tBodies[0].replaceChildren(...data.ratings.map((r, i) => el("tr", {},
        el("td", {}, String(i + 1)), el("td", {}, r.name), el("td", {}, r.kind),
        el("td", { class: "num" }, r.ordinal.toFixed(1)),
        el("td", { class: "num" }, `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`),
        el("td", { class: "num" }, String(r.games)))));
      $("games").tBodies[0].replaceChildren(...data.games.map((g) => {
        const order = [0, 1, 2, 3].sort((a, b) => g.ranks[a] - g.ranks[b] || a - b);
        const places = g.stopped ? `stopped: ${g.stopped}`
          : (g.abandoned ? `abandoned by ${g.names[g.seat]} (no move in time), counted as finished: ` : "")
            + order.map((s) => `${ORDINALS[g.ranks[s] - 1]} ${g.names[s]}`).join(", ");
        const open = el("button", { type: "button", class: "open-replay" }, "replay");
        open.addEventListener("click", () => replayGame(g.id));
        return el("tr", {}, el("td", {}, g.finished + (g.practice ? " (practice)" : "")),
          el("td", {}, places), el("td", {}, g.scores.join(" · ")), el("td", {}, open));
      }));
      $("results-status").textContent = `${data.finished} finished game${data.finished === 1 ? "" : "s"} in all`;
    } catch (error) {
      $("results-status").textContent = error.message;
    }
  }
  $("results-refresh").addEventListener("click", showResults);

  async function replayGame(id) {
    location.hash = "#replay";
    $("replay-status").textContent = "drawing every step…";
    $("replay-status").className = "status";
    try {
      const data = await api("GET", `/api/games/${id}/replay`);
      ReplayViewer.mount($("viewer"), data);
      $("replay-status").textContent = `${data.steps.length - 1} actions, ${data.vongs.length} vòng`;
    } catch (error) {
      $("replay-status").textContent = error.message;
      $("replay-status").className = "status error";
    }
  }
  $("replay-this").addEventListener("click", (event) => { event.preventDefault(); replayGame(game.id); });

  const pages = { play: "play", results: "results-page", replay: "replay" };
  function tab() {
    const name = location.hash.slice(1) in pages ? location.hash.slice(1) : "play";
    for (const [key, id] of Object.entries(pages)) {
      $(id).hidden = key !== name;
      $(`tab-${key}`).classList.toggle("active", key === name);
    }
    if (name === "results") showResults();
  }
  window.addEventListener("hashchange", tab);
  tab();

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

  $("name").value = localStorage.getItem("env121-name") || "";
  $("resume").hidden = !localStorage.getItem("env121-game");
  api("GET", "/api/setup").then((answer) => {
    setup = answer;
    $("practice-field").hidden = !setup.practice;
    agentFields();
  }).catch((error) => say(error.message, true));
})();
