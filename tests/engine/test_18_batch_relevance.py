"""The per-pair sight search of a pair the batch left open reads the batch's relevance (the
obstacles with an edge within the pair's reach of its centre segment) instead of running that
step again: the same relevant obstacles, array for array, and the same answers and witnesses,
on the seeded random scenes of ``test_los_batch`` (walls, L-shaped ruins, areas, upper
levels, ovals, both PARTIAL_HEIGHT conventions). R06.01-a (a line of sight between any parts
of the two models), R13.10-b (the areas either model is within are ignored), R13.11-a."""

from __future__ import annotations

import numpy as np
import pytest

from tests.engine.sight_helpers import Key, batch_args
from tests.geometry.test_los_batch import random_scene
from w40k.geometry import Visibility, scene_from_dict
from w40k.geometry.los import Obstacles, line_of_sight, owned_above, relevant_obstacles
from w40k.geometry.los_batch import UNDECIDED, batch_sight

_FIELDS = ("a", "b", "grow", "top", "owner", "verts", "vert_grow", "vert_top", "vert_owner")


def _same(x: Obstacles, y: Obstacles) -> bool:
    """The same arrays (values, dtypes and order), and the same convexity table."""
    for name in _FIELDS:
        p, q = getattr(x, name), getattr(y, name)
        if p.dtype != q.dtype or p.shape != q.shape or not np.array_equal(p, q):
            return False
    return x.convex is y.convex or np.array_equal(x.convex, y.convex)


def _round_pairs(v: Visibility) -> list[Key]:
    """Every canonical model pair of round bases between units of different players."""
    units = v.scene.units
    return [(ou, om, tu, tm) for ou in range(len(units)) for tu in range(ou + 1, len(units))
            if units[ou].player != units[tu].player
            for om in range(len(units[ou].models)) for tm in range(len(units[tu].models))
            if v._round[v.model_index[(ou, om)]] and v._round[v.model_index[(tu, tm)]]]


def _batch(v: Visibility, pairs: list[Key]) -> tuple[tuple[np.ndarray, ...], list[np.ndarray],
                                                     tuple[np.ndarray, ...]]:
    """``batch_sight`` of the pairs as ``SightTables._batch_stage`` calls it: without and
    with ``relevant``."""
    args, allowed = batch_args(v, pairs)
    relevant: list[np.ndarray] = []
    plain = batch_sight(*args, allowed)
    with_rows = batch_sight(*args, allowed, None, relevant)
    return plain, relevant, with_rows


@pytest.mark.parametrize("seed", (0, 1, 2, 3, 4, 5, 6, 7))
def test_the_batch_relevance_is_the_search_relevance_and_its_answers_are_the_same(
        seed: int) -> None:
    """Each pair's row of ``relevant`` keeps, of the scene's obstacles, exactly the arrays
    ``relevant_obstacles`` keeps of the pair's own obstacles (``_obstacles_for``: the two
    units' models and the areas either model is within left out), for every pair of the
    batch (decided or not); the batch answers as without ``relevant``; and the search with
    the row answers as the plain search, witness included, for every pair."""
    scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
    v = Visibility(scene, jit=False)
    units = scene.units
    pairs = _round_pairs(v)
    assert pairs
    plain, relevant, with_rows = _batch(v, pairs)
    for x, y in zip(plain, with_rows, strict=True):
        assert np.array_equal(x, y)
    assert len(relevant) == 1 and relevant[0].shape[0] == len(pairs)
    for k, row in zip(pairs, relevant[0], strict=True):
        ou, om, tu, tm = k
        o, t = units[ou].models[om], units[tu].models[tm]
        fo, ft = v.footprints[(ou, om)], v.footprints[(tu, tm)]
        lowest = min(o.top, t.top)
        mine = v._obstacles_for(ou, om, tu, tm)
        assert _same(owned_above(v.obstacles, row, lowest),
                     relevant_obstacles(fo, ft, lowest, mine)), (seed, k)
        assert line_of_sight(fo, o.top, ft, t.top, v.obstacles, row) == line_of_sight(
            fo, o.top, ft, t.top, mine), (seed, k)


@pytest.mark.parametrize("seed", (0, 1, 2, 3, 6, 7))
def test_staged_searches_read_the_kept_rows_and_answer_as_the_plain_search(seed: int) -> None:
    """R06.01-a, R13.09-b, R24.24-a: after a batched stage the open pairs (only those) have
    the batch's row kept; their searches, and every visibility question, answer as on a
    Visibility whose searches run the relevance step themselves (rows dropped), under both
    PARTIAL_HEIGHT conventions; raw sight with the same witnesses."""
    scene = scene_from_dict(random_scene(np.random.default_rng(500 + seed)))
    units = scene.units
    kept_rows = 0
    for conv in (False, True):
        fast = Visibility(scene, conv, jit=False)
        slow = Visibility(scene, conv, jit=False)
        pairs = [(ou, tu) for ou in range(len(units)) for tu in range(len(units))
                 if units[ou].player != units[tu].player]
        fast.stage_many(pairs)
        slow.stage_many(pairs)
        slow._relevant.clear()
        open_pairs = {k for k in fast._relevant}
        kept_rows += len(open_pairs)
        for k in open_pairs:
            assert k[0] <= k[2] and k not in fast._raw_cache, k  # open, canonical
            assert fast._hint.get(k) is not None
            ou, om, tu, tm = k
            o, t = units[ou].models[om], units[tu].models[tm]
            fo, ft = fast.footprints[(ou, om)], fast.footprints[(tu, tm)]
            lowest = min(o.top, t.top)
            # the pair's own row: its relevant obstacles, array for array
            assert _same(owned_above(fast.obstacles, fast._relevant[k], lowest),
                         relevant_obstacles(fo, ft, lowest, fast._obstacles_for(*k))), k
        for ou, tu in pairs:
            for om in range(len(units[ou].models)):
                for tm in range(len(units[tu].models)):
                    assert fast.raw_sight(ou, om, tu, tm) == slow.raw_sight(ou, om, tu, tm)
            assert np.array_equal(fast.sight_matrix(units[ou].name, units[tu].name),
                                  slow.sight_matrix(units[ou].name, units[tu].name))


def test_some_scene_leaves_pairs_open_with_rows() -> None:
    """A guard: the scenes above leave pairs open (so the rows are read), each row a
    boolean row by obstacle index."""
    rows = 0
    for seed in (0, 1, 2, 3):
        v = Visibility(scene_from_dict(random_scene(np.random.default_rng(500 + seed))),
                       jit=False)
        pairs = _round_pairs(v)
        _, relevant, with_rows = _batch(v, pairs)
        rows += int((with_rows[0] == UNDECIDED).sum())
        assert relevant[0].dtype == bool
    assert rows > 0
