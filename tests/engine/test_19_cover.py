"""Cover per attacking model (13.08 (ii)), the scalar forms of the cover proofs against their
array forms: the unit-pair proof that no terrain is near asked pair by pair
(:class:`w40k.geometry.cover_far.FarPairs`) against :func:`~w40k.geometry.cover_far.
terrain_far`'s matrix, regions and all; HULL_RAMP's ramp of one edge
(:func:`w40k.geometry.los_hull.above_ramp1`) against :func:`~w40k.geometry.los_hull.
above_ramp`, bit for bit; :func:`w40k.geometry.cover_near.blocker_sure` (edge by edge)
against the whole-array form it had, on the seeded walls of test_18_cover_near; and the
full-visibility test's facing sample (kept angles) and cuts (owners compared one by one,
kept vertex pairs) against the arrays computed afresh."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.engine.test_18_cover_near import _shape as _near_shape
from tests.engine.test_18_cover_near import _walls
from tests.geometry.test_cover_far import _box, _near_walls, _shape, _sparse_scene
from w40k.geometry import Visibility, full_visibility, scene_from_dict, sight_build
from w40k.geometry.cover_far import edge_rows, far_pairs, outline_disc, terrain_far
from w40k.geometry.cover_near import GROW_SLACK, MARGIN, _inner, blocker_sure
from w40k.geometry.los import Obstacles
from w40k.geometry.los_dist import _seg_dist1
from w40k.geometry.los_hull import (
    _edge_boxes,
    _point_seg_dist,
    above_ramp,
    above_ramp1,
    ramp_of,
)
from w40k.geometry.los_obstacles import TOUCH
from w40k.geometry.los_sides import _circumradius
from w40k.geometry.measure import point_segment
from w40k.geometry.shapes import Circle, Oval, Shape
from w40k.geometry.tangents import disc_tangents


@pytest.mark.parametrize("seed", range(40))
def test_far_pairs_asked_one_by_one_equal_the_matrix(seed: int) -> None:
    # R13.08-a: the pair-by-pair proof is terrain_far's, pair for pair (walls at the boxes'
    # bounds +-1e-12 .. 1e-6, some owned by regions either model may be within)
    rng = np.random.default_rng(19000 + seed)
    observers = [_shape(rng) for _ in range(int(rng.integers(1, 6)))]
    targets = [_shape(rng) for _ in range(int(rng.integers(1, 6)))]
    items = _near_walls(rng, [_box(s) for s in observers + targets], 12)
    items += _strip_walls(rng, observers, targets, 6)
    ter = Obstacles.build(items)
    emin, emax = _edge_boxes(ter)
    n_regions = 3
    col = rng.integers(-1, n_regions, size=len(items))[ter.owner]
    o_in = rng.random((len(observers), n_regions)) < 0.3
    t_in = rng.random((len(targets), n_regions)) < 0.3
    for ignored in (None, (col, o_in, t_in)):
        want = terrain_far(ter, emin, emax, observers, targets, ignored)
        rows = edge_rows(ter, emin, emax, None if ignored is None else col)
        got = far_pairs(rows, observers, targets,
                        None if ignored is None else (lambda: (o_in, t_in)))
        # asked in a random order, then as a whole (the kept answers)
        for i, j in rng.permutation([(i, j) for i in range(len(observers))
                                     for j in range(len(targets))]).tolist():
            assert got[i, j] is bool(want[i, j])
        assert (got.matrix() == want).all()


def _strip_walls(rng: np.random.Generator, observers: list[Shape], targets: list[Shape],
                 n: int) -> list[tuple[np.ndarray, float, float]]:
    """Walls parallel to the line through a pair's centres, at the strip's half-width plus
    their grow, +-1e-12 .. 1e-6 (the proof's bound across the strip)."""
    items: list[tuple[np.ndarray, float, float]] = []
    for _ in range(n):
        o = observers[int(rng.integers(len(observers)))]
        t = targets[int(rng.integers(len(targets)))]
        (ox, oy, ro), (tx, ty, rt) = outline_disc(o), outline_disc(t)
        ln = math.hypot(tx - ox, ty - oy)
        if ln < 1e-3:
            continue
        ux, uy = (tx - ox) / ln, (ty - oy) / ln
        grow = float(rng.choice([1e-6, 0.02, 0.5]))
        off = float(rng.choice([1e-6, 1e-9, 5e-10, 1e-12, 0.0, -1e-12, -5e-10, -1e-9, -1e-6]))
        d = float(rng.choice([1.0, -1.0])) * (max(ro, rt) + grow + off)
        s0 = float(rng.uniform(0.0, 0.8)) * ln
        items.append((np.array([[ox + ux * s0 - uy * d, oy + uy * s0 + ux * d],
                                [ox + ux * (s0 + 1.0) - uy * d, oy + uy * (s0 + 1.0) + ux * d]]),
                      grow, 6.0))
    return items


def test_far_pairs_on_the_random_scenes_equal_the_matrix() -> None:
    # R13.08-a, 13.10: a Visibility's pair-by-pair proof (its terrain's regions and each
    # model's membership) against terrain_far on the same arguments, every unit pair
    cleared = 0
    for seed in range(12):
        scene = scene_from_dict(_sparse_scene(seed))
        units = scene.units
        vis = Visibility(scene, jit=False)
        ter = sight_build.terrain_obstacles(vis._part.items)
        emin, emax = _edge_boxes(ter)
        for ou in range(len(units)):
            for tu in range(len(units)):
                if units[ou].player == units[tu].player:
                    continue
                far = vis._terrain_far(ou, tu)
                assert far is not None
                go = [vis.model_index[(ou, m)] for m in range(len(units[ou].models))]
                gt = [vis.model_index[(tu, m)] for m in range(len(units[tu].models))]
                rows = vis._area_rows(np.array(go + gt, dtype=np.int64))
                want = terrain_far(ter, emin, emax,
                                   [vis.footprints[(ou, m)] for m in range(len(go))],
                                   [vis.footprints[(tu, m)] for m in range(len(gt))],
                                   (vis.owner_area[ter.owner], rows[go], rows[gt]))
                assert (far.matrix() == want).all()
                cleared += int(want.sum())
    assert cleared > 20


def _ramp_line(o: Shape, t: Shape, level: float, top_o: float, obs: Obstacles) -> np.ndarray:
    """above_ramp's threshold per edge (its ramp + 1e-9), by its own array operations."""
    tc, oc = np.asarray(t.center), np.asarray(o.center)
    rt, ro = _circumradius(t), _circumradius(o)
    gap = max(float(np.hypot(*(tc - oc))) - rt - ro, 1e-9)
    dt = _point_seg_dist(float(tc[0]), float(tc[1]), obs.a[:, 0], obs.a[:, 1], obs.b[:, 0],
                         obs.b[:, 1])
    frac = np.clip((dt - rt - obs.grow) / gap, 0.0, 1.0)
    out: np.ndarray = level + (top_o - level) * frac + 1e-9
    return out


@pytest.mark.parametrize("seed", range(30))
def test_the_ramp_of_one_edge_is_the_arrays_bit_for_bit(seed: int) -> None:
    # R06.01-c HULL_RAMP: the scalar ramp test is above_ramp's, edge for edge, with tops
    # at the threshold itself and one float either side of it (where the last bit of the
    # ramp decides), and the walls' own tops
    rng = np.random.default_rng(19100 + seed)
    for _ in range(10):
        o, t = _near_shape(rng), _near_shape(rng)
        obs = Obstacles.build(_walls(rng, o, t, 10))
        for level, top_o in ((0.0, 1.6), (0.0, 8.0), (3.0, 1.0), (0.0, 0.5)):
            line = _ramp_line(o, t, level, top_o, obs)
            ramp = ramp_of(o, t)
            for tops in (obs.top, line, np.nextafter(line, np.inf),
                         np.nextafter(line, -np.inf)):
                want = above_ramp(o, t, level, top_o, obs.a, obs.b, obs.grow, tops)
                got = [above_ramp1(ramp, level, top_o, *a, *b, g, h) for a, b, g, h in zip(
                    obs.a.tolist(), obs.b.tolist(), obs.grow.tolist(), tops.tolist(),
                    strict=True)]
                assert got == want.tolist()
            # the threshold is where the answer turns
            assert not above_ramp(o, t, level, top_o, obs.a, obs.b, obs.grow, line).any()
            assert above_ramp(o, t, level, top_o, obs.a, obs.b, obs.grow,
                              np.nextafter(line, np.inf)).all()


def _blocker_sure_arrays(o: Shape, t: Shape, level_t: float, top_o: float,
                         obs: Obstacles) -> bool:
    """blocker_sure as it was (cover18): every edge near the capsule's box, then
    above_ramp on those that meet it."""
    if len(obs.a) == 0:
        return False
    ox, oy, ro = _inner(o)
    tx, ty, rt = _inner(t)
    rin = min(ro, rt)
    emin, emax = _edge_boxes(obs)
    lox, hix = min(ox, tx) - rin, max(ox, tx) + rin
    loy, hiy = min(oy, ty) - rin, max(oy, ty) + rin
    idx = np.nonzero((emax[:, 0] >= lox) & (emin[:, 0] <= hix)
                     & (emax[:, 1] >= loy) & (emin[:, 1] <= hiy))[0]
    if len(idx) == 0:
        return False
    a, b, grow = obs.a[idx], obs.b[idx], obs.grow[idx]
    meets = [
        (g > TOUCH + GROW_SLACK
         and _seg_dist1(ox, oy, tx, ty, ax, ay, bx, by) < rin + g - TOUCH - MARGIN)
        or point_segment(ax, ay, ox, oy, tx, ty) < rin - MARGIN
        for (ax, ay), (bx, by), g in zip(a.tolist(), b.tolist(), grow.tolist(), strict=True)
    ]
    if not any(meets):
        return False
    m = np.nonzero(np.array(meets, dtype=bool))[0]
    return bool(above_ramp(o, t, level_t, top_o, a[m], b[m], grow[m], obs.top[idx[m]]).any())


@pytest.mark.parametrize("seed", range(40))
def test_blocker_sure_edge_by_edge_equals_the_arrays(seed: int) -> None:
    # R06.01-c, R13.08-a: the proof that a terrain edge is a HULL_RAMP blocker, edge by
    # edge with the first answering, is the whole-array proof (walls at its bounds)
    rng = np.random.default_rng(19200 + seed)
    proven = 0
    for _ in range(6):
        o, t = _near_shape(rng), _near_shape(rng)
        items = _walls(rng, o, t, 12)
        for level, top_o in ((0.0, 1.6), (0.0, 8.0), (3.0, 1.0), (0.0, 0.5)):
            for one in [[it] for it in items] + [items]:
                obs = Obstacles.build(one)
                want = _blocker_sure_arrays(o, t, level, top_o, obs)
                assert blocker_sure(o, t, level, top_o, obs) is want
                proven += int(want)
    assert proven > 20


def _facing_sample_plain(o: Shape, t: Shape) -> tuple[np.ndarray, np.ndarray, set[int]] | None:
    """full_visibility._facing_sample as it was (cover18): the outline's angles, cosines
    and base sample computed afresh per call."""
    if isinstance(t, Circle | Oval):
        th = np.linspace(0.0, 2 * math.pi, full_visibility.OUTLINE_POINTS, endpoint=False)
        if isinstance(t, Circle):
            nrm = np.stack([np.cos(th), np.sin(th)], axis=1)
            pts = np.array(t.center) + t.r * nrm
        else:
            c, s = math.cos(t.angle), math.sin(t.angle)
            x, y = t.a * np.cos(th), t.b * np.sin(th)
            pts = np.stack([t.cx + c * x - s * y, t.cy + s * x + c * y], axis=1)
            nx, ny = np.cos(th) / t.a, np.sin(th) / t.b
            n = np.stack([c * nx - s * ny, s * nx + c * ny], axis=1)
            nrm = n / np.hypot(n[:, 0], n[:, 1])[:, None]
    else:
        pts, nrm = full_visibility._outline(t)
    ext = o.support(nrm)
    facing = ext - (nrm * pts).sum(axis=1) > 1e-9
    idx = np.nonzero(facing)[0]
    if len(idx) == 0:
        return None
    at = np.linspace(0, len(idx) - 1, full_visibility.BASE_SAMPLES).round().astype(int)
    return pts, facing, set(idx[at].tolist())


@pytest.mark.parametrize("seed", range(10))
def test_the_facing_sample_with_kept_angles_is_the_plain_one(seed: int) -> None:
    # R06.01-c fully visible: the outline (its shared angles and normals), the facing mask
    # and the base sample are those computed afresh, bit for bit (round, oval and box
    # targets; observers of every shape, some touching or overlapping the target)
    rng = np.random.default_rng(19400 + seed)
    for _ in range(30):
        o, t = _near_shape(rng), _near_shape(rng)
        got = full_visibility._facing_sample(o, t)
        want = _facing_sample_plain(o, t)
        if want is None:
            assert got is None
            continue
        assert got is not None
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        assert got[2] == want[2]


def _cuts_plain(o: Shape, blockers: Obstacles, owners: np.ndarray, pts: np.ndarray
                ) -> np.ndarray:
    """full_visibility._cuts as it was (cover18): np.isin and np.triu_indices."""
    keep = np.isin(blockers.vert_owner, owners)
    bc, br = blockers.verts[keep], blockers.vert_grow[keep]
    oc, orr = full_visibility._observer_discs(o)
    i, j = np.triu_indices(len(bc), 1)
    n, c = disc_tangents(
        np.concatenate([np.repeat(oc, len(bc), axis=0), bc[i]]),
        np.concatenate([np.repeat(orr, len(bc)), br[i]]),
        np.concatenate([np.tile(bc, (len(oc), 1)), bc[j]]),
        np.concatenate([np.tile(br, len(oc)), br[j]]))
    if len(n) == 0:
        return np.zeros(0, dtype=np.int64)
    out: np.ndarray = full_visibility._flip_rows(pts, n, c)
    return out


@pytest.mark.parametrize("seed", range(10))
def test_the_cuts_with_the_owners_compared_one_by_one_are_the_plain_ones(seed: int) -> None:
    # R06.01-c fully visible: the outline's cuts (the blockers' vertices chosen by one
    # comparison per owner, the pairs of vertices kept per count) are those of np.isin and
    # np.triu_indices, index for index; and the owner mask itself for many owners
    rng = np.random.default_rng(19500 + seed)
    for _ in range(10):
        o, t = _near_shape(rng), _near_shape(rng)
        obs = Obstacles.build(_walls(rng, o, t, 8))
        ids = np.unique(obs.owner)
        for n in (1, 2, 3, len(ids)):
            owners = np.sort(rng.choice(ids, size=min(n, len(ids)), replace=False))
            assert np.array_equal(full_visibility._of_owners(obs.vert_owner, owners),
                                  np.isin(obs.vert_owner, owners))
            sample = full_visibility._facing_sample(o, t)
            if sample is None:
                continue
            got = full_visibility._cuts(o, obs, owners, sample[0])
            assert np.array_equal(got, _cuts_plain(o, obs, owners, sample[0]))
    many = np.arange(20)
    ids = rng.integers(0, 30, size=200)
    assert np.array_equal(full_visibility._of_owners(ids, many), np.isin(ids, many))
