"""The web table and the replay viewer: ``env121 serve``, ``env121 replay --html``.

* :mod:`apps.web.tables` — the games being played (a person and three
  agents each), their moves checked and applied one at a time, shown to the
  person as their seat sees them, held within the server's limits;
* :mod:`apps.web.config` — what clients may do: the agents offered, practice
  games, the database, the limits (a TOML file for ``env121 serve --config``);
* :mod:`apps.web.store` — every game kept in SQLite, the ratings;
* :mod:`apps.web.clients` — the request rate and the connections per
  client and per network block;
* :mod:`apps.web.messages` — what a request or message may hold, checked
  before anything is done (bounded JSON, strict schemas);
* :mod:`apps.web.app` — the FastAPI app serving the page and the API, and
  :func:`~apps.web.app.serve` (uvicorn); needs the ``web`` extra;
* :mod:`apps.web.replay` — a record made into a replay (every step's
  picture, the events, each vòng explained), and the replay viewer as one
  self-contained HTML file;
* :mod:`apps.web.explain` — why a vòng ended as it did, row by row;
* ``static/`` — the page: ``index.html`` (with the glossary), ``table.js``
  (the table, the results), ``viewer.js`` (the replay viewer), ``style.css``.
  Plain JavaScript, no build step, nothing fetched from elsewhere: it works
  offline.

It sits above the agents (a game seats them by spec) and the arena (whose
OpenSkill ratings rate the games) and below the CLI. Only
:mod:`apps.web.app` imports the web framework (the ``web`` extra,
:mod:`env121.extras`).
"""
