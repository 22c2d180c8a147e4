"""A dropped ``Visibility`` is freed at once, without the garbage collector: the tables hold
no reference cycle back to themselves (``SightTables.areas_of``'s lazy map and the per-pair
terrain proof's ``regions`` closure reach the tables through weak references). A game drops a
Visibility at every scene change; cycles left each one's caches (tens of thousands of tuples
and sight answers a k = 5 game) for the collector to find (docs/performance.md, gc25)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from tests.geometry.test_cover_far import _sparse_scene
from w40k.geometry import Visibility, scene_from_dict


@pytest.fixture
def no_collector() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _used(seed: int) -> tuple[weakref.ref[Visibility], int]:
    """A Visibility whose areas_of map and per-pair terrain proofs have been read (every
    cover question of the scene asked), returned as a weak reference only."""
    scene = scene_from_dict(_sparse_scene(seed))
    vis = Visibility(scene, jit=False)
    units = scene.units
    asked = 0
    for ou in range(len(units)):
        for tu in range(len(units)):
            if units[ou].player == units[tu].player:
                continue
            vis.stage(ou, tu)
            for om in range(len(units[ou].models)):
                vis.cover_against(ou, om, tu)
            far = vis._terrain_far(ou, tu)
            assert far is not None
            far.matrix()  # reads the regions closure
            for tm in range(len(units[tu].models)):
                asked += len(vis.areas_of[(tu, tm)]) >= 0
    return weakref.ref(vis), asked


@pytest.mark.parametrize("seed", range(4))
def test_a_dropped_visibility_is_freed_without_a_collection(no_collector: None,
                                                            seed: int) -> None:
    ref, asked = _used(seed)
    assert asked > 0
    # with the collector off, only reference counting can have freed it
    assert ref() is None


def test_the_kept_cover_answers_are_those_of_a_fresh_visibility() -> None:
    # the weak references change no answer: areas_of and the terrain proof read through
    # them give what a fresh Visibility's give
    scene = scene_from_dict(_sparse_scene(3))
    vis, fresh = Visibility(scene, jit=False), Visibility(scene, jit=False)
    units = scene.units
    for ou in range(len(units)):
        for tu in range(len(units)):
            if units[ou].player == units[tu].player:
                continue
            a, b = vis._terrain_far(ou, tu), fresh._terrain_far(ou, tu)
            assert a is not None and b is not None
            assert (a.matrix() == b.matrix()).all()
    for tu in range(len(units)):
        for tm in range(len(units[tu].models)):
            assert vis.areas_of[(tu, tm)] == fresh.areas_of[(tu, tm)]
