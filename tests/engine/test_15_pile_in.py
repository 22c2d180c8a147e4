"""The pile-in placement's fast paths against their plain answers (fifteenth session)."""

from __future__ import annotations

import random

import pytest

from w40k.engine.phases.pile_in_coherency import Breaks
from w40k.geometry import Model
from w40k.geometry.measure import coherency_breaks

_BASES: list[float | tuple[float, float]] = [25.0, 32.0, 40.0, (60.0, 35.0), (32.0, 32.0)]
_HULL = ((-1.5, -1.0), (1.5, -1.0), (1.5, 1.0), (-1.5, 1.0))


def _model(rng: random.Random, name: str, cx: float, cy: float, spread: float) -> Model:
    base = rng.choice(_BASES)
    frame = rng.random() < 0.1
    return Model(name, cx + rng.uniform(-spread, spread), cy + rng.uniform(-spread, spread),
                 rng.choice([0.0, 0.0, 0.0, 3.0, 6.0]), base, 1.6, rng.uniform(-3.2, 3.2),
                 frozenset({"FRAME"}) if frame else frozenset(), _HULL if frame else None)


@pytest.mark.parametrize("seed", range(6))
def test_kept_coherency_breaks_count_as_the_whole_unit_measured(seed: int) -> None:
    """R03.03-d: ``Breaks.moved`` (one model's pairs measured again) gives the number of
    ``coherency_breaks`` of the whole unit with that model moved, and ``Breaks.move`` keeps
    it so, over random units (round, oval and FRAME models, levels, up to 20 models: the
    larger ones counted by ``coherency_breaks`` itself) and random moves."""
    rng = random.Random(seed)
    checked = broken = 0
    for _ in range(40):
        n = rng.choice([1, 2, 3, 5, 8, 12, 16, 17, 20])
        spread = rng.choice([1.0, 2.5, 5.0])
        models = [_model(rng, f"m{i}", 30.0, 20.0, spread) for i in range(n)]
        kept = Breaks(models)
        assert kept.count == len(coherency_breaks(models))
        for _ in range(12):
            k = rng.randrange(n)
            end = models[k].moved(models[k].x + rng.uniform(-3, 3),
                                  models[k].y + rng.uniform(-3, 3))
            want = len(coherency_breaks([end if j == k else m for j, m in enumerate(models)]))
            assert kept.moved(k, end) == want
            checked += 1
            broken += want > 0
            if rng.random() < 0.5:
                if rng.random() < 0.3:  # another spot asked in between: move measures again
                    kept.moved((k + 1) % n, models[(k + 1) % n].moved(0.0, 0.0))
                kept.move(k, end)
                models[k] = end
                assert kept.count == want
    assert checked > 400 and 0 < broken < checked


@pytest.mark.parametrize("seed", [1])
def test_the_closest_target_and_its_gap_are_those_min_and_gap_give(seed: int) -> None:
    """R12.03-d: ``pile_in_propose._closest`` (each target unit measured once) names the unit
    ``min(targets, key=model_to_unit)`` picks, ties to the first, and ``_gap``'s float, for
    models of snapshot games against one, two or all enemy units."""
    from tests.engine.snapshot_helpers import greedy_snapshots
    from w40k.engine import geo
    from w40k.engine.phases import melee_moves as mm_
    from w40k.engine.phases import pile_in_propose as pp
    seen = 0
    for game in greedy_snapshots(seed):
        units = [u for u in game.state.units if not u.destroyed]
        for u in units:
            enemies = [e for e in units if e.player != u.player]
            for targets in (enemies[:1], enemies[:2], enemies, enemies[:1] * 2):
                if not targets:
                    continue
                for m in u.alive[:2]:
                    s = geo.model_shape(m)
                    want = min(targets, key=lambda t, s=s: mm_.model_to_unit(s, t))
                    got, gap = pp._closest(game.ctx, s, targets, None)
                    assert got is want
                    assert gap == pp._gap(game.ctx, s, want, None)
                    seen += 1
    assert seen > 20
