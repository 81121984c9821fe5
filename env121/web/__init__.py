"""The web table and the replay viewer: ``env121 serve``, ``env121 replay --html``.

* :mod:`env121.web.tables` — the games being played (a person and three
  agents each), their moves checked and applied one at a time, idle games
  reclaimed;
* :mod:`env121.web.app` — the FastAPI app serving the page and the API, and
  :func:`~env121.web.app.serve` (uvicorn); needs the ``web`` extra;
* :mod:`env121.web.replay` — a record made into a replay (every step's
  picture, the events, each vòng explained), and the replay viewer as one
  self-contained HTML file;
* :mod:`env121.web.explain` — why a vòng ended as it did, row by row;
* ``static/`` — the page: ``index.html``, ``table.js`` (the table),
  ``viewer.js`` (the replay viewer), ``style.css``. Plain JavaScript, no
  build step, nothing fetched from elsewhere: it works offline.

It sits above the agents (a game seats them by spec) and below the CLI. Only
:mod:`env121.web.app` imports the web framework (the ``web`` extra,
:mod:`env121.extras`).
"""
