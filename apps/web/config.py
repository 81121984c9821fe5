"""What a web table server lets its clients do: :class:`ServerConfig`.

A server others share must not let a remote client pick its compute or its
files, so the configuration says, and the server enforces:

* ``agents`` — the agent specs a client may seat, exactly (a client picks
  from this list by spec; ``ppo:`` specs name a shipped checkpoint, never a
  file). Each is built once when the configuration is read; an agent that
  searches must bound its thinking time per decision (``ms=``, at most
  ``limits.decision_seconds``), so no seat can think without limit.
* ``practice`` — whether a client may choose the deal's seed (a practice
  game: the seed is shown on the table and the game is not rated). Otherwise
  the server draws every seed and gives it only when the match is over.
* ``db`` — the SQLite file that remembers every game (:mod:`apps.web.store`).
* ``limits`` (:class:`Limits`) — games and connections in all, per client
  and per network block, the request rate per client and per block, the
  size, nesting and numbers of a request, the per-decision time of an agent,
  the idle times after which a game leaves memory or counts as abandoned,
  the replays' bounds. ``docs/web.md`` lists them all (:func:`limits_table`).

The file form is TOML (``env121 serve --config server.toml``; ``env121 serve
--print-config`` writes the defaults as such a file to edit). A server bound
to anything but the loopback address needs a file whose ``[limits]`` table
sets every limit (:func:`check_exposed`): the operator has then chosen them.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # the web extra installs tomli on Python 3.10
    import tomli as tomllib

DEFAULT_AGENTS: tuple[str, ...] = (
    "random",
    "greedy",
    "mc:budget=16,ms=500",
    "mc:budget=64,ms=2000",
)
"""Agents every server offers; the shipped ``ppo:`` checkpoints are added by
:func:`default_agents` where torch is installed."""


@dataclass(frozen=True)
class Limits:
    """The limits that keep one client from taking the server from others."""

    games: int = 64
    """Games held in memory at once, all clients together; a new game beyond
    them is refused (an idle or finished game leaves memory first: no game in
    play is evicted for another)."""
    games_per_client: int = 4
    """Games in play one client (one address) may hold at once."""
    games_per_block: int = 8
    """Games in play the clients of one network block (a /24 of IPv4, a /64
    of IPv6) may hold at once, all their addresses together."""
    connections: int = 256
    """WebSockets open at once, all clients together."""
    connections_per_client: int = 8
    """WebSockets one client (one address) may hold open at once."""
    connections_per_block: int = 16
    """WebSockets the clients of one network block may hold open at once."""
    requests_per_second: float = 20.0
    """Requests (every HTTP request, the page and the rules included, each
    WebSocket connection and message) one client may send per second, on
    average."""
    requests_burst: int = 60
    """Requests one client may send at once before the rate applies."""
    block_requests_per_second: float = 40.0
    """Requests the clients of one network block may send per second, all
    their addresses together."""
    block_requests_burst: int = 120
    """Requests the clients of one network block may send at once."""
    refusal_hold_seconds: float = 1.0
    """Seconds a request refused for its rate (or a WebSocket message), or
    for want of room (a game, a replay: 429, 503), is held before it is
    answered (a tarpit: a client that keeps asking gets each refusal late, so
    it asks less often and costs the server a sleeping task instead of an
    answer at once); a refusal for the rate then closes the HTTP connection.
    0 answers at once."""
    refusals_held: int = 512
    """Refused requests held at once, all clients together; beyond, a
    refusal is answered at once (and its connection closed)."""
    refusals_held_per_client: int = 4
    """Refused requests of one client (one address) held at once."""
    refusals_held_per_block: int = 64
    """Refused requests of the clients of one network block held at once."""
    body_bytes: int = 4_000_000
    """The largest request body or WebSocket message accepted (an uploaded
    record of a long match is ~50 kB)."""
    json_depth: int = 16
    """How deep lists and objects may nest in a body or message (a record
    nests 4 deep)."""
    number_digits: int = 24
    """The longest number literal accepted in a body or message, in characters."""
    decision_seconds: float = 2.0
    """The most time an agent may think per decision: a searching agent must
    carry ``ms=`` at most this; any decision slower than it is logged."""
    idle_seconds: float = 30 * 60.0
    """Seconds after the person's last move a game leaves memory (it stays in
    the database); an unfinished rated game then counts as abandoned:
    finished, its person last."""
    full_idle_seconds: float = 5 * 60.0
    """When the server is full, seconds after the person's last move an
    unfinished game leaves memory to make room (it stays in the database and
    resumes when asked for, until ``idle_seconds``)."""
    replay_actions: int = 10_000
    """The most actions of a record drawn into a replay here (drawing takes
    ~12 ms of CPU an action; ``env121 replay --html`` draws any record)."""
    replays_queued: int = 4
    """Replays being drawn or waiting to be, all clients together."""
    replays_per_client: int = 1
    """Replays one client may have drawn or waiting at once."""
    replays_per_block: int = 1
    """Replays the clients of one network block may have drawn or waiting at
    once (a draw is charged to ``replay_cpu_seconds`` only when it ends, so
    this keeps a block's draws one after another)."""
    replay_cpu_seconds: float = 10.0
    """CPU seconds of replay drawing the clients of one network block may use
    per minute, paced: each draw is charged its CPU time when it ends, the
    budget refills evenly (a sixtieth a second, no saving up), and a replay
    asked for while the block is in debt is refused (429, ``Retry-After``);
    a cached replay costs nothing. So a block's uploads keep at most this
    share of a core busy, even in bursts."""
    replay_cache: int = 8
    """Replays of finished games (and uploaded records) kept, drawn, in memory."""
    replay_processes: int = 1
    """Worker processes that draw replays (so the drawing does not hold up
    the server's own process); 0 draws them in the server's threads."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            zero = f.name in ZERO_ALLOWED
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or value < 0
                or (value == 0 and not zero)
            ):
                more = ">= 0" if zero else "> 0"
                raise ConfigError(
                    f"limits.{f.name} = {value!r} is not valid: expected a number {more}"
                )
        for name in (f.name for f in fields(self) if f.type == "int"):
            if not isinstance(getattr(self, name), int):
                raise ConfigError(
                    f"limits.{name} = {getattr(self, name)!r} is not valid: expected an integer"
                )


ZERO_ALLOWED = frozenset({"replay_processes", "refusal_hold_seconds"})
"""The limits that may be 0."""


class ConfigError(ValueError):
    """A server configuration that cannot be used; the message names the setting."""


@dataclass(frozen=True)
class ServerConfig:
    """Everything ``env121 serve`` enforces (see the module docstring)."""

    agents: tuple[str, ...] = DEFAULT_AGENTS
    """The agent specs a client may seat, in the order the page lists them."""
    practice: bool = True
    """Whether a client may choose the seed (a practice game, shown as such, not rated)."""
    db: Path | None = None
    """The SQLite file; None: :func:`default_db` (a folder of the user's data)."""
    limits: Limits = field(default_factory=Limits)
    limits_given: bool = False
    """Whether the configuration file set every limit (needed off loopback)."""

    def database(self) -> Path:
        """The SQLite file the games are kept in."""
        return self.db if self.db is not None else default_db()


def default_db() -> Path:
    """``apps/web.sqlite`` in the user's data folder: ``$XDG_DATA_HOME``,
    else ``~/.local/share``."""
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local/share")
    return Path(data) / "env121" / "web.sqlite"


def default_agents() -> tuple[str, ...]:
    """:data:`DEFAULT_AGENTS` and, where torch is installed, ``ppo:NAME`` for
    every shipped checkpoint."""
    import importlib.util

    from agents.ppo import shipped_checkpoints

    if importlib.util.find_spec("torch") is None:
        return DEFAULT_AGENTS
    return (*DEFAULT_AGENTS, *(f"ppo:{name}" for name in shipped_checkpoints()))


def agent_menu(config: ServerConfig) -> dict[str, str]:
    """The agents a client may seat: each allowed spec as configured and its
    summary (a client's spec is matched in the canonical spelling, so
    ``mc:ms=500,budget=16`` is ``mc:budget=16,ms=500``). Raises
    :class:`ConfigError` for a spec that is not valid, a ``ppo:`` spec (or a
    ``search`` network) naming a file rather than a shipped checkpoint, or a
    searching agent without a time
    limit within ``limits.decision_seconds``."""
    from agents.registry import AgentSpecError, available_agents, make_agent, parse_spec
    from env121.play.protocol import UnfairAgentError, require_fair

    summaries = available_agents()
    menu: dict[str, str] = {}
    most_ms = config.limits.decision_seconds * 1000
    for spec in config.agents:
        try:
            name, params = parse_spec(spec)
        except AgentSpecError as err:
            raise ConfigError(f"agents: {err}") from None
        if name == "ppo":
            _check_shipped(spec, str(params.get("checkpoint", "")))
        else:
            if name == "search" and str(params.get("net", "scratch")) != "none":
                _check_shipped(spec, str(params.get("net", "scratch")))
            try:
                agent = make_agent(spec)
            except AgentSpecError as err:
                raise ConfigError(f"agents: {err}") from None
            try:
                require_fair(agent, "at the web table, beside a person")
            except UnfairAgentError as err:
                raise ConfigError(f"agents: {err}") from None
            ms = getattr(agent, "ms", 0)
            if agent.uses_search and not 0 < ms <= most_ms:
                limit = "budget_ms" if name == "search" else "ms"
                raise ConfigError(
                    f"agents: {spec!r} searches without a time limit per decision: add "
                    f"{limit}=N with N at most {most_ms:g} (limits.decision_seconds)"
                )
        menu[spec] = summaries[name]
    return menu


def _check_shipped(spec: str, checkpoint: str) -> None:
    """A ``ppo:`` spec (or ``search:net=``) a server may offer names a shipped
    checkpoint, not a file."""
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        raise ConfigError(f"agents: {spec!r} needs torch: install the train extra")
    from agents.ppo import shipped_checkpoints

    if checkpoint not in shipped_checkpoints():
        raise ConfigError(
            f"agents: {spec!r} is not a shipped checkpoint: a server offers ppo:NAME with NAME "
            f"one of {shipped_checkpoints()} (never a file)"
        )


def load_config(path: str | Path | None) -> ServerConfig:
    """The configuration in the TOML file ``path`` (None: the defaults);
    raises :class:`ConfigError` naming a bad or unknown setting."""
    if path is None:
        return ServerConfig(agents=default_agents())
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise ConfigError(f"{path}: cannot read the server configuration ({err})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: not a TOML file ({err})") from None
    return config_from_dict(data, source=str(path))


def config_from_dict(data: dict[str, Any], *, source: str = "config") -> ServerConfig:
    """A :class:`ServerConfig` from the parsed TOML ``data`` (see :func:`load_config`)."""
    known = {"agents", "practice", "db", "limits"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{source}: unknown setting {unknown[0]!r}: expected {sorted(known)}")
    agents = data.get("agents", list(default_agents()))
    if not isinstance(agents, list) or not agents or not all(isinstance(a, str) for a in agents):
        raise ConfigError(f"{source}: agents = {agents!r} is not valid: expected a list of specs")
    practice = data.get("practice", True)
    if not isinstance(practice, bool):
        raise ConfigError(f"{source}: practice = {practice!r} is not valid: expected true or false")
    db = data.get("db")
    if db is not None and not isinstance(db, str):
        raise ConfigError(f"{source}: db = {db!r} is not valid: expected a file path")
    raw_limits = data.get("limits", {})
    if not isinstance(raw_limits, dict):
        raise ConfigError(f"{source}: [limits] is not a table")
    names = [f.name for f in fields(Limits)]
    unknown = sorted(set(raw_limits) - set(names))
    if unknown:
        raise ConfigError(f"{source}: unknown limit {unknown[0]!r}: expected {names}")
    return ServerConfig(
        agents=tuple(agents),
        practice=practice,
        db=None if db is None else Path(os.path.expanduser(db)),
        limits=Limits(**raw_limits),
        limits_given=set(raw_limits) == set(names),
    )


def with_overrides(config: ServerConfig, **changes: Any) -> ServerConfig:
    """``config`` with the settings in ``changes`` that are not None replaced."""
    return replace(config, **{k: v for k, v in changes.items() if v is not None})


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (``127.0.0.0/8``, ``::1``, ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_exposed(config: ServerConfig, host: str) -> str | None:
    """The warning to print when serving on ``host`` beyond this machine;
    raises :class:`ConfigError` if the limits were not all set in a file."""
    if is_loopback(host):
        return None
    if not config.limits_given:
        names = ", ".join(f.name for f in fields(Limits))
        raise ConfigError(
            f"--host {host} lets other machines in: give --config FILE whose [limits] table "
            f"sets every limit ({names}); env121 serve --print-config writes one to edit"
        )
    limits = config.limits
    return (
        f"warning: serving on {host}, reachable from other machines: anyone who reaches it may "
        f"play. Limits: {limits.games} games in memory, {limits.games_per_client} per client, "
        f"{limits.requests_per_second:g} requests/s per client (bursts of "
        f"{limits.requests_burst}), bodies up to {limits.body_bytes:,} bytes, "
        f"{limits.decision_seconds:g} s per agent decision; agents {', '.join(config.agents)}"
    )


def limits_table() -> str:
    """Every limit as a Markdown table (its TOML key under ``[limits]``, its
    default, what it bounds: the field's docstring), as ``docs/web.md`` has
    it (a test compares them)."""
    import ast
    import inspect
    import itertools
    import textwrap

    (declared,) = ast.parse(textwrap.dedent(inspect.getsource(Limits))).body
    assert isinstance(declared, ast.ClassDef)
    meanings = {
        node.target.id: " ".join(str(following.value.value).split())
        for node, following in itertools.pairwise(declared.body)
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and isinstance(following, ast.Expr)
        and isinstance(following.value, ast.Constant)
    }
    defaults = Limits()
    rows = ["| key | default | what it bounds |", "|---|---|---|"]
    for f in fields(Limits):
        meaning = meanings[f.name].replace("``", "`").replace("|", "\\|")
        rows.append(f"| `{f.name}` | `{getattr(defaults, f.name)!r}` | {meaning} |")
    return "\n".join(rows) + "\n"


def config_toml(config: ServerConfig) -> str:
    """``config`` as the TOML file :func:`load_config` reads (every limit set)."""
    lines = [
        "# env121 serve --config FILE: what remote clients of the web table may do.",
        "# The agent specs a client may seat (exactly these; ppo:NAME names a shipped",
        "# checkpoint). An agent that searches must carry ms= (its time per decision).",
        "agents = [" + ", ".join(f'"{a}"' for a in config.agents) + "]",
        "# Whether a client may choose the seed (a practice game: shown so, not rated).",
        f"practice = {str(config.practice).lower()}",
        f'db = "{config.database()}"',
        "",
        "[limits]",
    ]
    for f in fields(Limits):
        lines.append(f"{f.name} = {getattr(config.limits, f.name)!r}")
    return "\n".join(lines) + "\n"


__all__ = [
    "DEFAULT_AGENTS",
    "ConfigError",
    "Limits",
    "ServerConfig",
    "agent_menu",
    "check_exposed",
    "config_from_dict",
    "config_toml",
    "default_agents",
    "default_db",
    "is_loopback",
    "limits_table",
    "load_config",
    "with_overrides",
]
