"""The batched engine plays exactly as the reference engine, in lock-step.

Each case of :data:`tests.support.batched.CASES` plays 24 games at once in a
:class:`~env121.engine.batched.BatchedEngine` and 24 reference matches of the
same seeds (hands rotated by ``g % 4``), one policy choosing every action, and
compares at every step the seat to act, the legal actions and mask, the
events, results, rewards, the whole state, the end of each match with its
ranks, and the records replayed on the reference. The cases cover every rule
variant (each non-default RuleConfig value, ``the_trang_asks_every_seat``
both ways, and combinations) under policies that reach the rare paths
(Cướp twice, Nhất Bản declared and won, Đền, busts with carried scores,
truncated and empty-Nọc draws), plus scripted deals for the rarest (Quốc Sĩ
Vô Song ending the match, Nhất Bản won on the last card, Thế trắng). Each case
must also take the paths it is there for. About 2,000 vòng in all.

``scripts/differential.py`` runs the same cases on many more seeds.
"""

from __future__ import annotations

import pytest

from tests.support.batched import CASES, POLICIES, RARE_PATHS, lockstep

GAMES = 24


@pytest.mark.parametrize("name", CASES)
def test_the_batched_engine_plays_as_the_reference(name):
    case = CASES[name]
    tally = lockstep(
        case.config,
        range(GAMES),
        case.steps,
        POLICIES[case.policy],
        rng_seed=len(name),
        scenario=case.scenario,
    )
    assert tally.differences == []
    assert tally.vong > 0 and tally.records_replayed >= GAMES
    missing = [path for path in case.expects if tally.paths[path] == 0]
    assert missing == [], f"{name} no longer reaches {missing}"


def test_the_cases_expect_every_rare_path():
    expected = {path for case in CASES.values() for path in case.expects}
    assert expected == set(RARE_PATHS)
