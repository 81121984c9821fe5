"""OpenSkill ratings of :mod:`arena.ratings` on synthetic placements."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from arena.ratings import rate_games


def test_the_better_agent_gets_the_higher_ordinal():
    players = ["strong", "good", "fair", "weak"]
    games = []
    for i in range(40):
        seats = players[i % 4 :] + players[: i % 4]  # every seat order
        ranks = [players.index(p) + 1 for p in seats]
        if i % 5 == 0:  # now and then the two best swap places
            ranks = [{1: 2, 2: 1}.get(r, r) for r in ranks]
        games.append((seats, ranks))
    ratings = rate_games(games, players)
    ordinals = [ratings[p].ordinal for p in players]
    assert ordinals == sorted(ordinals, reverse=True)
    assert all(ratings[p].games == 40 for p in players)
    assert ratings["strong"].low == ratings["strong"].ordinal
    assert ratings["strong"].high == pytest.approx(
        ratings["strong"].mu + 3 * ratings["strong"].sigma
    )


def test_copies_in_one_game_get_the_mean_of_their_updates():
    ratings = rate_games([(["a", "b", "b", "b"], [2, 1, 3, 4])], ["a", "b"])
    model = PlackettLuce()
    teams = [[model.rating()] for _ in range(4)]
    updated = model.rate(teams, ranks=[2.0, 1.0, 3.0, 4.0])
    assert ratings["a"].mu == pytest.approx(updated[0][0].mu)
    assert ratings["b"].mu == pytest.approx(sum(t[0].mu for t in updated[1:]) / 3)
    assert ratings["b"].sigma == pytest.approx(sum(t[0].sigma for t in updated[1:]) / 3)
    assert ratings["b"].games == 1


def test_order_is_part_of_the_result_but_repeatable():
    games = [(["a", "b", "c", "d"], [1, 2, 3, 4]), (["a", "b", "c", "d"], [4, 3, 2, 1])]
    assert rate_games(games, "abcd") == rate_games(games, "abcd")
