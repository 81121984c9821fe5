"""The replay: every step's pictures rebuilt from the shared lines, the
standalone viewer file, ``env121 serve`` without the web extra."""

from __future__ import annotations

import base64
import gzip
import importlib.util
import json
import re

from apps.cli import main
from apps.web.replay import replay_data
from env121.engine.game import apply, new_game
from env121.engine.picture import table_svg
from env121.engine.records import save
from env121.engine.state import State
from env121.extras import install_command
from env121.play.match import play_agents
from env121.play.random_agent import random_players
from env121.rules.config import RuleConfig


def played(seed: int, actions: int) -> State:
    """A seeded match between random players, stopped after ``actions`` actions."""
    state = new_game(seed, RuleConfig())
    play_agents(state, random_players(seed), until=lambda s: len(s.actions) >= actions)
    return state


def picture(data: dict[str, object], view: str, step: int) -> str:
    """The SVG of one step as the viewer puts it together from the runs."""
    lines = data["lines"]
    runs = data["pictures"][view][step]  # type: ignore[index]
    assert isinstance(lines, list)
    pairs = zip(runs[::2], runs[1::2], strict=True)
    return "\n".join("\n".join(lines[first : first + count]) for first, count in pairs)


def test_every_step_is_drawn_in_every_view_from_the_shared_lines():
    state = played(11, 80)
    data = replay_data(state)
    assert len(data["steps"]) == 81 and data["steps"][0]["action"] is None
    again = new_game(11, RuleConfig())
    for step, action in enumerate([None, *state.actions]):
        if action is not None:
            apply(again, action)
        if step % 20 == 0:
            assert picture(data, "god", step) == table_svg(again)
            assert picture(data, "2", step) == table_svg(again, 2)


def test_the_vongs_of_a_replay_start_and_end_where_the_match_says():
    data = replay_data(played(5, 2_000))
    starts = [v["start"] for v in data["vongs"]]
    assert starts[0] == 0 and starts == sorted(starts)
    for vong in data["vongs"]:
        result = vong["result"]
        if result is not None:
            assert vong["start"] <= result["step"]
            assert sum(points for _, _, points in result["rows"]) == result["points"]


def test_replay_html_writes_one_self_contained_file(tmp_path, capsys):
    state = played(3, 60)
    save(state, tmp_path / "game.json")
    out = tmp_path / "game.html"
    assert main(["replay", str(tmp_path / "game.json"), "--html", str(out)]) == 0
    assert "replay viewer written" in capsys.readouterr().out
    html = out.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # nothing from elsewhere
    packed = re.search(r'id="replay-data">([^<]+)</script>', html)
    assert packed is not None
    assert json.loads(gzip.decompress(base64.b64decode(packed.group(1)))) == replay_data(state)


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch, capsys):
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "uvicorn" else find_spec(name, *a),
    )
    assert main(["serve"]) == 2
    assert capsys.readouterr().err.strip() == (
        "env121: error: env121 serve needs the web extra (missing: uvicorn): "
        f"install it with {install_command('web')}"  # as this env121 was installed
    )
