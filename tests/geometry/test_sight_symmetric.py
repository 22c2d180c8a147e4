"""Raw line of sight is symmetric (06.01: a line joins some part of each model; every piece of
the exact search's definition treats the two models alike: the line's height joins the two
tops, the 1 mm line's width, the areas either model is within, the two units' own models left
out), so :class:`SightTables` keeps each answer under both orders of the pair: a pair asked in
one direction (Fire Overwatch at the end of the Movement phase) answers the other (the next
Shooting phase's listing) without a second search, in this scene and, through the memo, in the
next. These tests check that the exact search gives one answer both ways on seeded random
scenes (walls, L-shaped walls, areas, upper levels, ovals), and that the kept reverse answers
are those a fresh search gives, with the witness line turned round."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict, sight_memo
from w40k.geometry.los import Sight
from w40k.geometry.sight_tables import SightTables

Pair = tuple[int, int, int, int]


def _pairs(v: Visibility, a_first: bool) -> list[Pair]:
    units = v.scene.units
    out: list[Pair] = []
    for ou, a in enumerate(units):
        for tu, b in enumerate(units):
            if (a.player == "A") != a_first or a.player == b.player:
                continue
            out += [(ou, om, tu, tm) for om in range(len(a.models))
                    for tm in range(len(b.models))]
    return out


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[Pair]:
    calls: list[Pair] = []
    search = SightTables._search_sight

    def counting(self: SightTables, ou: int, om: int, tu: int, tm: int) -> Any:
        calls.append((ou, om, tu, tm))
        return search(self, ou, om, tu, tm)

    monkeypatch.setattr(SightTables, "_search_sight", counting)
    return calls


@pytest.mark.parametrize("seed", (5, 7, 9))
def test_the_exact_search_gives_one_answer_both_ways(seed: int) -> None:
    # R06.01-a: a pair's raw sight is the same whichever model observes
    sight_memo.forget()
    v = Visibility(scene_from_dict(random_scene(np.random.default_rng(900 + seed))), jit=False)
    codes = {Sight.CLEAR: 0, Sight.BLOCKED: 0, Sight.CONVENTION: 0}
    for ou, om, tu, tm in _pairs(v, a_first=True):
        there = v._search_sight(ou, om, tu, tm)
        back = v._search_sight(tu, tm, ou, om)
        assert there.sight is back.sight, (ou, om, tu, tm)
        codes[there.sight] += 1
    assert all(codes.values())  # the three answers are exercised


@pytest.mark.parametrize("seed", (5, 9))
def test_a_pair_asked_one_way_answers_the_other_without_a_search(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # R06.01-a: the kept reverse answer is the fresh answer, its witness turned round
    data = random_scene(np.random.default_rng(900 + seed))
    sight_memo.forget()
    fresh = Visibility(scene_from_dict(data), jit=False)
    want = {k: fresh.raw_sight(*k).sight for k in _pairs(fresh, a_first=True)}
    sight_memo.forget()
    calls = _counted(monkeypatch)
    v = Visibility(scene_from_dict(data), jit=False)
    back = {k: v.raw_sight(*k) for k in _pairs(v, a_first=False)}
    calls.clear()
    for (ou, om, tu, tm), code in want.items():
        r = v.raw_sight(ou, om, tu, tm)
        assert r.sight is code
        w, b = r.witness, back[(tu, tm, ou, om)].witness
        assert (w is None) == (b is None) and (w is None or w == (b[1], b[0]))
    assert calls == []


def test_the_memo_answers_the_reverse_pair_in_the_next_scene(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # R06.01-a: a new scene (same models) finds the other direction's kept answers
    data = random_scene(np.random.default_rng(905))
    sight_memo.forget()
    fresh = Visibility(scene_from_dict(data), jit=False)
    want = {k: fresh.raw_sight(*k).sight for k in _pairs(fresh, a_first=True)}
    sight_memo.forget()
    first = Visibility(scene_from_dict(data), jit=False)
    for k in _pairs(first, a_first=False):
        first.raw_sight(*k)
    calls = _counted(monkeypatch)
    v = Visibility(scene_from_dict(data), jit=False)
    assert {k: v.raw_sight(*k).sight for k in want} == want
    assert calls == []
