"""R12.03-d / R11.04-c: ``melee_moves.can_reach``'s bound test of its spots
(``battlefield.gap_tri``) kept per exact inputs (``melee_near_kept.near_codes``, pile22). The
pile-in repair and ``check_move`` ask the same search of the same start, candidate rows,
target models and gap; the check's ``gap_tri`` answer is the repair's. These tests compare the
kept answers with ``gap_tri`` measured anew, on limits placed exactly on a spot's bound and a
float either side, and the proposer's answers and the check's verdicts with nothing kept."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tests.engine.test_17_pile_in import _pile_in_game
from w40k.engine import geo
from w40k.engine.phases import melee_moves as mm
from w40k.engine.phases import melee_near_kept as nk
from w40k.geometry.battlefield import MARGIN, gap_tri, spot_bounds


def _limits(start: object, rows: np.ndarray, targets: list[object], gap: float
            ) -> list[float]:
    """The search's limit and limits on a spot's bounds exactly (the sure and the maybe
    thresholds of ``gap_tri``), a float either side."""
    lower, upper = spot_bounds(start, rows, targets)  # type: ignore[arg-type]
    out = [gap + mm.EPS]
    for v in (float(lower.min()) - MARGIN, float(upper.min()) + MARGIN,
              float(np.median(upper)) + MARGIN):
        out += [math.nextafter(v, -math.inf), v, math.nextafter(v, math.inf)]
    return out


def test_kept_codes_are_gap_tri_s_for_the_same_objects_only() -> None:
    # R12.03-d: every answer equals gap_tri's measured anew; a second call with the same
    # objects and limit reads the kept list, another limit, rows array (equal floats) or
    # target list (another unit's models) is measured for itself.
    read = differ = 0
    for seed in range(12):
        ctx, u, d = _pile_in_game(seed)
        assert isinstance(d, mm.MeleeMoveFrame)
        nk._NEAR.clear()
        others = [e for e in ctx.state.units if e.id != u.id and not e.destroyed]
        for m in u.alive:
            start = geo.model_shape(m)
            for t in others:
                tshapes = list(geo.unit_shapes(t))
                _, rows = mm.candidate_rows(start, tshapes, 2.0, d.max_distance)
                if not len(rows):
                    continue
                answers = set()
                for limit in _limits(start, rows, tshapes, 2.0):
                    want = gap_tri(start, rows, tshapes, limit)
                    got = nk.near_codes(start, rows, tshapes, limit)
                    assert got == want
                    again = nk.near_codes(start, rows, tshapes, limit)
                    assert again is got
                    read += 1
                    answers.add(tuple(want))
                    copy = rows.copy()
                    assert nk.near_codes(start, copy, tshapes, limit) == want
                    assert nk.near_codes(start, copy, tshapes, limit) is not got
                differ += len(answers) > 1
                # another list of target models: measured against them
                fewer = tshapes[:1]
                assert nk.near_codes(start, rows, fewer, 2.0 + mm.EPS) == \
                    gap_tri(start, rows, fewer, 2.0 + mm.EPS)
    assert read > 20 and differ > 3


def test_the_table_empties_past_its_limit() -> None:
    ctx, u, d = _pile_in_game(0)
    assert isinstance(d, mm.MeleeMoveFrame)
    nk._NEAR.clear()
    start = geo.model_shape(u.alive[0])
    tshapes = [s for e in ctx.state.units if e.id != u.id for s in geo.unit_shapes(e)]
    _, rows = mm.candidate_rows(start, tshapes, 2.0, d.max_distance)
    for k in range(nk.NEAR_LIMIT + 3):
        limit = 0.5 + k * 0.01
        assert nk.near_codes(start, rows, tshapes, limit) == \
            gap_tri(start, rows, tshapes, limit)
        assert len(nk._NEAR) <= nk.NEAR_LIMIT


def test_the_proposer_and_the_check_answer_as_with_nothing_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # R12.03-c/-d/-e, R03.03-d: over random packed pile-ins with walls and several attempts,
    # the answers and the check's verdicts with the kept codes are those with gap_tri
    # measured every time; the check does read codes the repair measured. These scenes
    # have round bases throughout, whose spots can_reach takes as within the gap without
    # measuring (pile25's _rings_within, test_25_pile25_reach_rings); that shortcut is off
    # here so that the kept codes (what an oval or hull base reads) are exercised.
    from w40k.engine.phases import pile_in_propose as pp
    monkeypatch.setattr(mm, "_rings_within", lambda start, targets: False)
    plain = nk.near_codes
    reads = 0

    def counting(start: object, rows: np.ndarray, targets: list[object], limit: float
                 ) -> list[int]:
        nonlocal reads
        key = (id(start), id(rows), tuple(map(id, targets)), limit)
        reads += key in nk._NEAR
        return plain(start, rows, targets, limit)  # type: ignore[arg-type]

    def anew(start: object, rows: np.ndarray, targets: list[object], limit: float
             ) -> list[int]:
        return gap_tri(start, rows, targets, limit)  # type: ignore[arg-type]

    for seed in range(24):
        ctx, u, d = _pile_in_game(seed)
        assert isinstance(d, mm.MeleeMoveFrame)
        for attempt in range(2):
            out = []
            for fn in (counting, anew):
                monkeypatch.setattr(mm, "near_codes", fn)
                mm._CHECKED.clear()
                answer = pp.propose_toward(ctx, u, d, random.Random(seed), attempt)
                verdict = None if answer is None else \
                    mm.check_move(ctx, u, mm.parse_positions(u, answer), d)
                out.append((answer, verdict))
            assert out[0] == out[1]
    assert reads > 0
