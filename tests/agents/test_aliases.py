"""The stable names ``best`` and ``best-net`` (:data:`agents.registry.ALIASES`)."""

from __future__ import annotations

import pytest

from agents.registry import ALIASES, AgentSpecError, describe_aliases, make_agent, parse_spec


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_a_stable_name_builds_the_agent_it_stands_for(alias):
    assert parse_spec(alias) == parse_spec(ALIASES[alias])
    agent = make_agent(alias)
    assert agent.spec == make_agent(ALIASES[alias]).spec  # the concrete spec, rebuildable
    assert make_agent(agent.spec).spec == agent.spec


def test_the_commands_say_what_each_stable_name_stands_for():
    assert describe_aliases(["best", "mc", "best", "best-net"]) == [
        f"best = {ALIASES['best']}",
        f"best-net = {ALIASES['best-net']}",
    ]
    assert describe_aliases(["greedy"]) == []


def test_best_net_decides_without_search_and_best_is_fair():
    assert not getattr(make_agent("best-net"), "uses_search", False)
    assert not getattr(make_agent("best"), "sees_all_hands", False)


def test_an_unknown_name_lists_the_stable_names():
    with pytest.raises(AgentSpecError, match="best-net"):
        parse_spec("bestest")
