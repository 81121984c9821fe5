"""A game record made into a replay a browser steps through.

:func:`replay_data` replays a record action by action and keeps, for every
step (the state after ``i`` actions, step 0 the deal), the action in words
(who did what, as :func:`env121.play.moves.describe_move` names it), the picture of the
table (:func:`env121.engine.picture.table_svg`) in the god view and in each
seat's view, the events that step produced (with who saw them), and every
finished vòng explained (:func:`apps.web.explain.explain_results`) with the
step it started and ended at. The replay viewer (``static/viewer.js``) shows
it: forward and back, jump to a vòng, hidden hands shown or not.

A full ván is about a thousand steps, and five pictures a step of ~32 kB
each would be ~170 MB, so the pictures are stored once as lines: the SVG
writer puts one element per line and most lines recur from step to step (the
same card in the same place), so ``lines`` holds each distinct line once and
each picture is a list of runs ``[first, count, first, count, …]`` of
consecutive line numbers. :func:`standalone_html` writes the whole viewer as
one HTML file with everything inline (the data gzip-compressed and base64
encoded, unpacked by the browser's ``DecompressionStream``): a few MB for a
full ván (``env121 replay game.json --html out.html``).
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import time
from collections.abc import Sequence
from importlib.resources import files
from typing import Any
from xml.sax.saxutils import escape

from apps.web.explain import explain_results
from env121.engine.game import apply, new_game
from env121.engine.picture import table_svg
from env121.engine.records import loads, replay, to_record
from env121.engine.render import SEAT_NAMES, describe_result, format_event
from env121.engine.state import (
    NUM_SEATS,
    PRIVATE_EVENTS,
    VONG_PER_VAN,
    Event,
    State,
    VongStarted,
    Won,
)
from env121.engine.view import observe
from env121.play.moves import describe_move
from env121.rules.config import RuleConfig

VIEWS: tuple[str, ...] = ("god", *(str(s) for s in range(NUM_SEATS)))
"""The pictures kept per step: the god view, then seat 0..3's views."""


class _Lines:
    """The distinct lines of every picture, each stored once."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ids: dict[str, int] = {}

    def runs(self, svg: str) -> list[int]:
        """The picture as runs of line numbers ``[first, count, …]``."""
        runs: list[int] = []
        for line in svg.split("\n"):
            number = self.ids.get(line)
            if number is None:
                number = self.ids[line] = len(self.lines)
                self.lines.append(line)
            if runs and runs[-2] + runs[-1] == number:
                runs[-1] += 1
            else:
                runs += [number, 1]
        return runs


def replay_data(state: State, names: Sequence[str] = SEAT_NAMES) -> dict[str, Any]:
    """Everything the replay viewer shows of the match ``state`` (any state:
    it is replayed from its record, so it may be finished or not)."""
    record = to_record(state)
    start = new_game(state.seed, state.config, rotation=state.rotation, first_deal=state.first_deal)
    lines = _Lines()
    pictures: dict[str, list[list[int]]] = {view: [] for view in VIEWS}
    steps: list[dict[str, Any]] = []
    vong_starts: list[int] = []
    ended_at: list[int] = []

    def keep(current: State, action: str | None, seen: int) -> int:
        step = len(steps)
        for view in VIEWS:
            seat = None if view == "god" else int(view)
            pictures[view].append(lines.runs(table_svg(current, seat)))
        new = current.events[seen:]
        steps.append(
            {
                "action": action,
                "events": [
                    [event_line(e), e.seat if isinstance(e, PRIVATE_EVENTS) else -1] for e in new
                ],
            }
        )
        vong_starts.extend(step for e in new if isinstance(e, VongStarted))
        ended_at.extend([step] * (len(current.results) - len(ended_at)))
        return len(current.events)

    seen = keep(start, None, 0)
    for action in record["actions"]:
        actor = start.current_player
        said = describe_move(observe(start, actor), action, start.config)
        apply(start, action)
        seen = keep(start, f"{names[actor]}: {said}", seen)
    results = explain_results(start.events, start.results, names, ended_at=ended_at)
    vongs = [
        {
            "start": first,
            "title": f"ván {van + 1}, vòng {vong + 1}",
            "result": results[i] if i < len(results) else None,
        }
        for i, (first, (van, vong)) in enumerate(
            zip(vong_starts, _vong_numbers(start), strict=True)
        )
    ]
    return {
        "names": list(names),
        "seed": state.seed,
        "views": list(VIEWS),
        "lines": lines.lines,
        "pictures": pictures,
        "steps": steps,
        "vongs": vongs,
        "record": record,
    }


def most_actions(config: RuleConfig) -> int | None:
    """The most actions a match under ``config`` can have: ``num_van`` ván of
    at most :data:`~env121.engine.state.VONG_PER_VAN` vòng, each ended by
    the engine at ``max_actions_per_vong`` actions (a truncated draw); None
    when that cap is off (a vòng of endless swaps never ends)."""
    cap = config.max_actions_per_vong
    return None if cap is None else config.num_van * VONG_PER_VAN * cap


def packed_replay(record: str | dict[str, Any], names: Sequence[str] = SEAT_NAMES) -> bytes:
    """The replay of ``record`` (a record's text, checked as an uploaded
    one, or a record as a dict) as gzip-compressed JSON, what the server
    sends. A top-level function so a worker process can run it."""
    state = (
        loads(record, source="the uploaded record") if isinstance(record, str) else replay(record)
    )
    raw = json.dumps(replay_data(state, names), ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(raw.encode(), compresslevel=6, mtime=0)


def drawn_replay(
    record: str | dict[str, Any], names: Sequence[str] = SEAT_NAMES
) -> tuple[bytes, float]:
    """:func:`packed_replay` and the CPU seconds its thread spent on it (what
    the server charges the client's network block)."""
    started = time.thread_time()
    packed = packed_replay(record, names)
    return packed, time.thread_time() - started


def lower_priority() -> None:
    """Run this process (a replay worker) at ``nice`` 10, so drawing yields
    the CPU to the games' moves. Not Linux's ``SCHED_IDLE``: on a host busy
    with other work an idle-class worker got no CPU at all (a viewer waited
    past 40 s for its replay in the browser test on the loaded test machine);
    how much a block may draw is bounded by ``replay_cpu_seconds`` instead."""
    os.nice(10)


def event_line(event: Event) -> str:
    """One event in words (:func:`~env121.engine.render.format_event`), a win
    with its Thế and Thưởng by their Vietnamese names, as the transcript has it."""
    return describe_result(event.result) if isinstance(event, Won) else format_event(event)


def _vong_numbers(state: State) -> list[tuple[int, int]]:
    """``(ván, vòng)`` of every vòng started, in order."""
    return [(e.van, e.vong) for e in state.events if isinstance(e, VongStarted)]


def pack(data: dict[str, Any]) -> str:
    """The replay data as gzip-compressed JSON in base64 (what the HTML embeds)."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def static_text(name: str) -> str:
    """A file of the web page (``static/NAME``) as text."""
    return files("apps.web").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def standalone_html(state: State, names: Sequence[str] = SEAT_NAMES) -> str:
    """The replay viewer and the match's replay as one self-contained HTML page
    (no network needed: the style, the script and the data are inline)."""
    title = f"121 replay — seed {state.seed}"
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>\n{static_text('style.css')}</style>\n"
        "</head>\n<body>\n"
        f'<header class="bar"><h1>{escape(title)}</h1></header>\n'
        '<main><section id="viewer" class="viewer"></section></main>\n'
        '<script type="application/octet-stream" id="replay-data">'
        f"{pack(replay_data(state, names))}</script>\n"
        f"<script>\n{static_text('viewer.js')}</script>\n"
        "<script>\nReplayViewer.fromEmbedded(document.getElementById('viewer'), "
        "document.getElementById('replay-data').textContent);\n</script>\n"
        "</body>\n</html>\n"
    )


__all__ = [
    "VIEWS",
    "drawn_replay",
    "event_line",
    "lower_priority",
    "most_actions",
    "pack",
    "packed_replay",
    "replay_data",
    "standalone_html",
    "static_text",
]
