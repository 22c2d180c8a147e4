"""Validating moves (03.01, 09.05-09.07, 13.06, 17.01, 21.03, 24.35).

A proposed move gives, for each model that moves, a path of waypoints (:class:`Step`). The
model moves in a straight line from its position to each waypoint in turn; a step that only
changes ``z`` is a vertical move (climbing or descending, 13.06); ``facing`` rotates the model
about its centre (free, 03.01). :func:`validate_move` returns every rule broken (empty = legal).

Conventions (docs/geometry.md): a feature's footprint is solid from the ground to its height
(walls); exposed features are flat and can be stood in; the swept area of a base along a
straight segment is checked exactly: a capsule for round bases, the convex hull of the start
and end footprints for ovals and hulls (``measure.Swept``).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from w40k.core import kept
from w40k.geometry.battlefield import MARGIN, Discs
from w40k.geometry.measure import (
    ENGAGEMENT_HORIZONTAL,
    Swept,
    coherency_breaks,
    engaged,
    overlaps,
    point_segment,
    separation,
    shape_inside_region,
    shape_region_distance,
    swept_region_distance,
    swept_separation,
)
from w40k.geometry.movement_kept import near_step, unit_facts
from w40k.geometry.outlines import Outline, outlines
from w40k.geometry.scene import Scene, Unit
from w40k.geometry.shapes import EPS, Circle, Model, Polygon, Shape
from w40k.geometry.terrain import (
    DENSE_CROSSING_HEIGHT,
    SOLID_HEIGHT,
    SUPER_HEAVY_CROSSING_HEIGHT,
    Category,
    Terrain,
    TerrainFeature,
)

CLIMB_TOLERANCE = 0.5
"""13.06: while moving vertically a model stays within 1/2" horizontally of the feature."""
SKIES_PENALTY = 2.0
"""21.03: taking to the skies subtracts 2" from the maximum distance (not with Hover)."""
CLIMBERS = ("INFANTRY", "BEASTS", "SWARM")
"""13.06: keywords that move vertically through dense features."""
UPPER_SURFACE_KEYWORDS = ("INFANTRY", "BEASTS", "SWARM", "FLY", "MONSTER")
"""13.06: keywords allowed to end on a surface above ground level."""
FLOOR_HEIGHT = 0.5
"""R03.01-i reading (docs/rulings.md): a feature no taller than this (a crater, scattered
debris, a mat) is part of ground level, so a model may end a move standing in it. Any taller
feature is solid from the ground to its height: a model may end over its footprint only on top
of it or on one of its listed surfaces (13.06 Setting Up or Ending a Move)."""


ENDS_CHECKED = "ends"
"""A :func:`validate_move` ``skip`` token: the caller has found ``ending_violations`` (03.01
Ending a Move, R03.01-i, R13.06-e/f/g) empty for every moved model's end (``Occupied.free``,
``melee_moves.surely_refused``), so they are not measured again."""

ENDS_CLEAR = "ends clear"
"""A :func:`validate_move` ``skip`` token: the caller has found every moved model's end clear
of what :func:`ends_refused` tests (on the battlefield, on no other unit's model, engaged
with no enemy model where the move must end unengaged, ``ending_violations`` empty), so
the other units' models near the ends and the ends' engagement are not measured again
(implies :data:`ENDS_CHECKED`)."""

CAPSULE_MARGIN = 1e-6
"""Inches beyond a footprint's reach within which :func:`crosses_feature` still measures
exactly (so a feature the exact test would meet is never ruled out by the cheap one)."""


class MoveType(Enum):
    """Move types that change what a moving model may pass through."""

    NORMAL = "normal"
    ADVANCE = "advance"
    FALL_BACK = "fall_back"
    """Ordered Retreat."""
    DESPERATE_ESCAPE = "desperate_escape"
    """Fall back, Desperate Escape mode (09.07): through enemy models."""
    CHARGE = "charge"
    PILE_IN = "pile_in"
    CONSOLIDATE = "consolidate"
    OTHER = "other"
    """Scout, surge, disembark...: the basic 03.01 restrictions only."""


@dataclass(frozen=True)
class Step:
    """A waypoint: the model moves in a straight line to (x, y, z) and then faces ``facing``."""

    x: float
    """Target x."""
    y: float
    """Target y."""
    z: float | None = None
    """Target level (None: unchanged)."""
    facing: float | None = None
    """New facing after the step (None: unchanged)."""


@dataclass(frozen=True)
class MoveViolation:
    """One broken rule: the checklist ID, the model, and what happened."""

    rule: str
    """Checklist ID (``R13.06-c``)."""
    model: str
    """Model name (or the unit name for unit checks)."""
    message: str
    """Human-readable explanation."""


def _sweep_hits(start: Model, end: Model, other: Shape) -> bool:
    """Does the footprint, moved in a straight line from start to end, overlap ``other``?"""
    fa = start.footprint()
    if isinstance(fa, Circle):
        if isinstance(other, Circle):  # point_segment_distance's scalar twin (outlines.py)
            d = point_segment(other.cx, other.cy, fa.cx, fa.cy, end.x, end.y)
            return d < fa.r + other.r - 1e-6
        seg = (
            Polygon(((fa.cx, fa.cy), (end.x, end.y))) if (fa.cx, fa.cy) != (end.x, end.y) else None
        )
        probe: Shape = seg if seg is not None else Circle(fa.cx, fa.cy, 0.0)
        return separation(probe, other) < fa.r - 1e-6
    return swept_separation(Swept(fa, end.x - start.x, end.y - start.y), other) < -1e-6


def crosses_feature(start: Model, end: Model, o: Outline) -> bool:
    """Does ``start``'s footprint, moved in a straight line to ``end``, meet the feature of
    outline ``o``? (The caller has rejected the features whose box is apart from the box of
    the swept footprint: the exact tests would find a positive gap.)"""
    fa = start.footprint()
    if isinstance(fa, Circle):
        # the scalar twins of shape_region_distance and segment_segment_distance (outlines.py)
        if o.disc_meets(fa.cx, fa.cy, fa.r - 1e-6):
            return True
        return o.segment_within(fa.cx, fa.cy, end.x, end.y, fa.r - 1e-6)
    # An oval or hull moved without turning stays in the capsule of radius reach() around
    # its position's path: a feature farther than that (and CAPSULE_MARGIN more, far beyond
    # the rounding of the exact test) is not met; the exact test decides the rest.
    r = start.reach() + CAPSULE_MARGIN
    if not o.disc_meets(start.x, start.y, r) and not o.segment_within(
            start.x, start.y, end.x, end.y, r):
        return False
    return swept_region_distance(Swept(fa, end.x - start.x, end.y - start.y), o.region) <= 0.0


def sweep_box(start: Model, end: Model) -> tuple[float, float, float, float]:
    """The box of the footprint a straight step sweeps: ``start``'s footprint at the start
    and moved to ``end``'s position unturned (the step turns the model only once it stands
    there, R03.01-b; :func:`crosses_feature` and :func:`_sweep_hits` sweep that footprint,
    so the box of ``end``'s turned footprint alone could miss a feature they meet). The box
    of ``end``'s footprint is kept in too (the same box up to rounding when nothing turns)."""
    x0, y0, x1, y1 = start.footprint().bbox()
    dx, dy = end.x - start.x, end.y - start.y
    bx0, by0, bx1, by1 = end.footprint().bbox()
    return (min(x0, x0 + dx, bx0), min(y0, y0 + dy, by0), max(x1, x1 + dx, bx1),
            max(y1, y1 + dy, by1))


def passable(
    m: Model, f: TerrainFeature, move_type: MoveType, skies: bool, mobile: bool, super_heavy: bool
) -> tuple[bool, str]:
    """13.06 / 24.35 / 21.03: may ``m`` move horizontally through feature ``f``?"""
    if f.category is not Category.DENSE or skies:
        return True, ""  # R13.06-a; R21.03-b
    if m.has(*CLIMBERS, "MOBILE") or mobile:
        return True, ""  # R13.06-b
    walker = super_heavy and move_type in (
        MoveType.NORMAL,
        MoveType.ADVANCE,
        MoveType.FALL_BACK,
        MoveType.DESPERATE_ESCAPE,
    )
    limit = SUPER_HEAVY_CROSSING_HEIGHT if walker else DENSE_CROSSING_HEIGHT
    if f.height <= limit + EPS:
        return True, ""
    return False, f'cannot move horizontally through {f.name} ({f.height:g}" > {limit:g}")'


def _may_pass_model(
    m: Model, other: Model, friendly: bool, move_type: MoveType, skies: bool, super_heavy: bool
) -> bool:
    if friendly or skies or other.has("AIRCRAFT"):  # 03.01; R21.03-a; R23.02-c
        return True
    if move_type is MoveType.DESPERATE_ESCAPE:  # R09.07-c
        return True
    if super_heavy and move_type in (MoveType.NORMAL, MoveType.ADVANCE, MoveType.FALL_BACK):
        return not other.has("TITANIC")  # R24.35-a
    if m.has("MONSTER", "VEHICLE") and move_type in (MoveType.NORMAL, MoveType.ADVANCE):
        return not other.has("MONSTER", "VEHICLE")  # R17.01-a
    return False


def validate_move(
    scene: Scene,
    unit: str,
    moves: Mapping[str, Sequence[Step]],
    move_type: MoveType,
    max_distance: float,
    *,
    take_to_skies: bool = False,
    super_heavy_mobile: bool = False,
    must_end_unengaged: bool | None = None,
    skip: Collection[str] = (),
    first: bool = False,
) -> list[MoveViolation]:
    """Check a proposed move of ``unit``'s models (model name -> waypoints).

    ``max_distance`` is the move type's maximum (the caller rolls advance/charge dice);
    ``take_to_skies`` applies 21.03 (2" less unless HOVER; vertical distance ignored; through
    all models and terrain); ``super_heavy_mobile`` is the 24.35 choice to gain MOBILE.
    ``must_end_unengaged`` defaults to True for normal, advance and fall-back moves.
    ``skip`` names end-of-move checks the caller makes itself and does not want measured here:
    ``"R03.03-d"`` (the unit's coherency) and ``"R03.01-c"`` (ending on another model); a
    proposer placing one model at a time checks those for the whole unit; and
    :data:`ENDS_CHECKED`: the caller found every moved model's ``ending_violations`` empty at
    its path's end (the same terrain, level and ``take_to_skies``), so they are not measured
    again. Every other violation is found as without it.

    ``first``: stop at the first violation found (a caller that only asks whether the move
    is legal, or reads only the first violation): the answer is the full answer's first
    element alone (violations are only ever appended, in the same order), and empty exactly
    when the full answer is."""
    out: list[MoveViolation] = []
    the_unit = scene.unit(unit)
    by_name, super_heavy = unit_facts(the_unit)
    for name in moves:
        if name not in by_name:
            out.append(MoveViolation("R03.01-g", name, f"{name!r} is not a model of {unit}"))
    if out:
        return out
    if take_to_skies and not all(m.has("FLY") for m in the_unit.models):
        out.append(MoveViolation("R21.03-a", unit, "only FLYING units can take to the skies"))
        if first:
            return out
    budget = max_distance
    if take_to_skies and not any(a.strip().lower() == "hover" for a in the_unit.abilities):
        budget -= SKIES_PENALTY  # R21.03-a; Hover R21.03-c
    bf = scene.battlefield
    finals: dict[str, Model] = dict(by_name)
    others, discs = scene_others(scene, unit, the_unit.player)
    # _may_pass_model's tests that need no other model: it passes them all
    past_all = take_to_skies or move_type is MoveType.DESPERATE_ESCAPE
    # every step's model where it ends (``moved`` makes a new model and nothing else), and
    # the other models near each horizontal step (one array operation for them all)
    walks = _walks(by_name, moves)
    passing = None if past_all else _near_steps(discs, by_name, moves, walks)
    for name, walk in zip(moves, walks, strict=True):
        m = by_name[name]
        cur = m
        used = 0.0
        # passable's first two tests, once per model: such a model passes every feature
        through_all = take_to_skies or super_heavy_mobile or m.has(*CLIMBERS, "MOBILE")
        for k, nxt in enumerate(walk):
            nz = nxt.z
            horiz = math.hypot(nxt.x - cur.x, nxt.y - cur.y)
            vert = abs(nz - cur.z)
            used += horiz + (0.0 if take_to_skies else vert)  # R03.01-a, R13.06-d, R21.03-a
            if vert > EPS and not take_to_skies:
                near = [
                    f
                    for f in scene.terrain.features
                    if shape_region_distance(nxt.footprint(), f.array()) <= CLIMB_TOLERANCE + EPS
                ]
                if not near:
                    out.append(
                        MoveViolation(
                            "R13.06-d",
                            name,
                            f"step {k + 1}: moves vertically more than"
                            ' 1/2" from any terrain feature',
                        )
                    )
                    if first:
                        return out
                lo, hi = min(cur.z, nz), max(cur.z, nz)
                for f in near:
                    if f.category is Category.DENSE and not m.has(*CLIMBERS):
                        for s in f.standing_surfaces():
                            if (
                                lo + EPS < s.height < hi - EPS
                                and shape_region_distance(nxt.footprint(), s.array()) <= 0.0
                            ):
                                out.append(
                                    MoveViolation(
                                        "R13.06-c",
                                        name,
                                        f"step {k + 1}: cannot move "
                                        f'through the floor at {s.height:g}" of {f.name}',
                                    )
                                )
                                if first:
                                    return out
            if horiz > EPS:
                if not through_all:  # else every feature is passable (passable)
                    bx0, by0, bx1, by1 = sweep_box(cur, nxt)
                    for ol in outlines(scene.terrain):
                        if bx1 < ol.x0 or bx0 > ol.x1 or by1 < ol.y0 or by0 > ol.y1:
                            continue  # the boxes are apart (Outline.misses, inline)
                        f = ol.feature
                        if cur.z >= f.height - EPS and nz >= f.height - EPS:
                            continue  # over the top of it
                        ok, why = passable(
                            m, f, move_type, take_to_skies, super_heavy_mobile, super_heavy
                        )
                        # the cheap rule test first: a passable feature is never a violation,
                        # so its exact crossing test is not needed
                        if not ok and crosses_feature(cur, nxt, ol):
                            rule = "R24.35-a" if super_heavy else "R13.06-c"
                            out.append(MoveViolation(rule, name, f"step {k + 1}: {why}"))
                            if first:
                                return out
                # only models whose disc meets the swept disc can be moved through (none
                # is in the way when taking to the skies or in a Desperate Escape)
                for i in () if passing is None else passing[(name, k)]:
                    friendly, o = others[i]
                    if abs(o.z - cur.z) > max(o.height, cur.height):
                        continue  # different level
                    if not _may_pass_model(
                        m, o, friendly, move_type, take_to_skies, super_heavy
                    ) and _sweep_hits(cur, nxt, o.footprint()):  # the cheap rule test first
                        rule = "R17.01-a" if m.has("MONSTER", "VEHICLE") else "R03.01-d"
                        out.append(
                            MoveViolation(
                                rule, name, f"step {k + 1}: moves through enemy model {o.name}"
                            )
                        )
                        if first:
                            return out
            x0, y0, x1, y1 = nxt.footprint().bbox()
            if x0 < -EPS or y0 < -EPS or x1 > bf.width + EPS or y1 > bf.depth + EPS:
                out.append(
                    MoveViolation(
                        "R03.01-f", name, f"step {k + 1}: the base crosses the battlefield edge"
                    )
                )
                if first:
                    return out
            cur = nxt
        if used > budget + EPS:
            out.append(
                MoveViolation("R03.01-a", name, f'moves {used:.2f}" but the maximum is {budget:g}"')
            )
            if first:
                return out
        finals[name] = cur
    # --- where models end (03.01 Ending a Move, 13.06)
    placed = list(finals.values())
    clear = ENDS_CLEAR in skip  # no other unit's model under an end, no end engaged
    ends = ENDS_CHECKED not in skip and not clear
    if "R03.01-c" in skip:
        for name in moves if ends else ():
            out.extend(ending_violations(scene.terrain, finals[name], take_to_skies))
            if first and out:
                return out[:1]
    else:
        placed_reach = [(o, o.reach()) for o in placed]  # each model's reach read once
        # the other units' models whose disc meets each moved model's disc, for all at once
        # (_near_points: the near_segment answers of each model's point, one array operation)
        near_ends = [[] for _ in moves] if clear else _near_points(
            discs, [finals[name] for name in moves], 0.0)
        for name, around in zip(moves, near_ends, strict=True):
            m = finals[name]
            mx, my, mr = m.x, m.y, m.reach()
            close = [(o, o.reach()) for o in (others[i][1] for i in around)]
            for o, o_reach in placed_reach + close:
                reach = mr + o_reach  # farther apart, the bases cannot overlap
                if (abs(o.x - mx) <= reach and abs(o.y - my) <= reach and o.name != name
                        and overlaps(m, o)):
                    out.append(MoveViolation("R03.01-c", name,
                                             f"ends on another model ({o.name})"))
                    if first:
                        return out
                    break
            if ends:
                out.extend(ending_violations(scene.terrain, m, take_to_skies))
                if first and out:
                    return out[:1]
    # --- unit checks
    coh = [] if "R03.03-d" in skip else coherency_breaks(placed)
    for b in coh:
        out.append(
            MoveViolation(
                "R03.03-d",
                b.model,
                "unit not in coherency at the end of the move "
                f"({b.rule}{' vs ' + b.other if b.other else ''})",
            )
        )
        if first:
            return out
    if must_end_unengaged is None:
        must_end_unengaged = move_type in (
            MoveType.NORMAL,
            MoveType.ADVANCE,
            MoveType.FALL_BACK,
            MoveType.DESPERATE_ESCAPE,
        )
    if must_end_unengaged:
        # A model the move leaves as it stands in the scene (the same object) has the same
        # first engaged enemy model in every call on this scene: kept (``_standing``); the
        # others are measured (``_near_points`` row by row: the same indices for a subset).
        standing = _standing(scene, unit)
        # the moved models' ends engaged with no enemy model (ENDS_CLEAR): not measured
        found: dict[str, Model | None] = dict.fromkeys(moves) if clear else {}
        fresh = [m for m in placed if m.name not in found
                 and (m is not by_name[m.name] or m.name not in standing)]
        for m, around in zip(fresh, _near_points(discs, fresh, ENGAGEMENT_HORIZONTAL + EPS),
                             strict=True):
            e = next((others[i][1] for i in around if not others[i][0]
                      and engaged(m, others[i][1])), None)
            found[m.name] = e
            if m is by_name[m.name]:
                standing[m.name] = e
        for m in placed:
            e = found[m.name] if m.name in found else standing[m.name]
            if e is not None:
                rule = (
                    "R09.07-e"
                    if move_type in (MoveType.FALL_BACK, MoveType.DESPERATE_ESCAPE)
                    else "R09.05-a"
                )
                out.append(MoveViolation(rule, m.name, f"ends engaged with {e.name}"))
                if first:
                    return out
    return out


def _walks(by_name: Mapping[str, Model], moves: Mapping[str, Sequence[Step]]
           ) -> list[list[Model]]:
    """Per moved model (in ``moves``' order), the model at the end of each of its steps:
    ``validate_move``'s own ``cur.moved(x, y, z, facing)`` chain (a new model each, nothing
    else changed: made before the tests, the same models as made step by step)."""
    out = []
    for name, path in moves.items():
        cur = by_name[name]
        walk = []
        for step in path:
            cur = cur.moved(step.x, step.y, cur.z if step.z is None else step.z, step.facing)
            walk.append(cur)
        out.append(walk)
    return out


def _near_steps(discs: Discs, by_name: Mapping[str, Model], moves: Mapping[str, object],
                walks: Sequence[Sequence[Model]]) -> dict[tuple[str, int], list[int]]:
    """``discs.near_segment(cur.x, cur.y, nxt.x, nxt.y, cur.reach(), 0.0)`` for every step
    of ``walks`` that moves horizontally (``validate_move``'s ``horiz > EPS``), by (model
    name, step index): the other models the step may pass through (R03.01-d, R17.01-a).
    Two or more such steps are measured in one array operation, row by row the same float
    operations as ``near_segment``'s (its ``den > 0`` branch: such a step has a nonzero
    length), so the same indices; a single one by ``movement_kept.near_step`` (the same
    answer as ``near_segment``'s)."""
    keys: list[tuple[str, int]] = []
    rows: list[tuple[float, float, float, float, float]] = []
    for name, walk in zip(moves, walks, strict=True):
        cur = by_name[name]
        for k, nxt in enumerate(walk):
            if math.hypot(nxt.x - cur.x, nxt.y - cur.y) > EPS:
                keys.append((name, k))
                rows.append((cur.x, cur.y, nxt.x, nxt.y, cur.reach()))
            cur = nxt
    if len(rows) < 2 or not len(discs.models):
        return {key: near_step(discs, *row) for key, row in zip(keys, rows, strict=True)}
    a = np.array(rows, dtype=np.float64)
    x0, y0, x1, y1, r = (a[:, j:j + 1] for j in range(5))
    px = discs.xs[None, :] - x0
    py = discs.ys[None, :] - y0
    ax, ay = x1 - x0, y1 - y0
    den = ax * ax + ay * ay
    t = np.minimum(np.maximum((px * ax + py * ay) / den, 0.0), 1.0)
    px = px - t * ax
    py = py - t * ay
    gap = np.sqrt(px * px + py * py) - discs.rs[None, :] - r
    return dict(zip(keys, row_lists(gap <= 0.0 + MARGIN), strict=True))


def ends_refused(scene: Scene, unit: str, player: str, ends: Sequence[Model],
                 unengaged: bool, take_to_skies: bool = False) -> bool:
    """True when :func:`validate_move` surely refuses a move of ``unit`` whose moved models
    end at ``ends``: a base over the battlefield edge (R03.01-f), on a model of another unit
    (R03.01-c), engaged with an enemy model where ``unengaged`` (R09.05-a, R09.07-e), or
    where ``ending_violations`` refuses it (R03.01-i, R13.06-e/f/g). False: every end is
    clear of all of these (:data:`ENDS_CLEAR`). The other units' models near each end are
    found for all ends in one array operation (``near_segment``'s float operations for a
    point, as :func:`_near_points`: the same models); the answer is an "or" of tests without
    side effects, so their order does not change it."""
    bf = scene.battlefield
    for end in ends:
        x0, y0, x1, y1 = end.footprint().bbox()
        if x0 < -EPS or y0 < -EPS or x1 > bf.width + EPS or y1 > bf.depth + EPS:
            return True
    others, discs = scene_others(scene, unit, player)
    if ends and len(discs.models):
        px = discs.xs[None, :] - np.array([m.x for m in ends], dtype=np.float64)[:, None]
        py = discs.ys[None, :] - np.array([m.y for m in ends], dtype=np.float64)[:, None]
        r = np.array([m.reach() for m in ends], dtype=np.float64)[:, None]
        gap = np.sqrt(px * px + py * py) - discs.rs[None, :] - r
        touch = 0.0 + MARGIN  # near_segment's d + MARGIN: on a model (d = 0)
        near = (ENGAGEMENT_HORIZONTAL + EPS if unengaged else 0.0) + MARGIN
        rows, cols = np.nonzero(gap <= near)
        for i, j, g in zip(rows.tolist(), cols.tolist(), gap[rows, cols].tolist(),
                           strict=True):
            friendly, o = others[j]
            if g <= touch and overlaps(ends[i], o):
                return True
            if unengaged and not friendly and engaged(ends[i], o):
                return True
    return any(ending_violations(scene.terrain, m, take_to_skies) for m in ends)


def _near_points(discs: Discs, models: Sequence[Model], d: float) -> list[list[int]]:
    """``discs.near_segment(m.x, m.y, m.x, m.y, m.reach(), d)`` for every model of ``models``
    at once (the same float operations element by element, so the same indices)."""
    if not len(discs.models) or not models:
        return [[] for _ in models]
    px = discs.xs[None, :] - np.array([m.x for m in models], dtype=np.float64)[:, None]
    py = discs.ys[None, :] - np.array([m.y for m in models], dtype=np.float64)[:, None]
    r = np.array([m.reach() for m in models], dtype=np.float64)[:, None]
    gap = np.sqrt(px * px + py * py) - discs.rs[None, :] - r
    return row_lists(gap <= d + MARGIN)


def row_lists(hit: npt.NDArray[np.bool_]) -> list[list[int]]:
    """``[np.flatnonzero(row).tolist() for row in hit]`` of a 2-d mask from one ``nonzero``:
    its pairs come row by row, each row's columns ascending, so the same lists (without a
    ``flatnonzero`` and its Python-level wrappers per row)."""
    out: list[list[int]] = [[] for _ in range(len(hit))]
    rows, cols = hit.nonzero()
    for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
        out[i].append(j)
    return out


_DISCS: dict[tuple[int, str],
             tuple[Scene, list[tuple[bool, Model]], Discs, dict[str, Model | None]]] = kept.table()
""":func:`scene_others`' answers by (scene, unit), with :func:`_standing`'s table; an entry
holds the scene (its ``id`` is not reused while kept); emptied past 64 entries."""


def scene_others(scene: Scene, unit: str, player: str
                 ) -> tuple[list[tuple[bool, Model]], Discs]:
    """Every model not of ``unit`` as (friendly to ``player``, model), and their discs
    (``battlefield.Discs``), kept per scene."""
    hit = _others_entry(scene, unit, player)
    return hit[1], hit[2]


def _others_entry(scene: Scene, unit: str, player: str
                  ) -> tuple[Scene, list[tuple[bool, Model]], Discs, dict[str, Model | None]]:
    """:data:`_DISCS`' entry of (scene, unit), built when missing."""
    key = (id(scene), unit)
    hit = _DISCS.get(key)
    if hit is not None and hit[0] is scene:
        return hit
    others: list[tuple[bool, Model]] = []
    models: list[Model] = []
    xs: list[float] = []
    ys: list[float] = []
    rs: list[float] = []
    for u in scene.units:
        if u.name != unit:  # each unit's part kept with it (most units stand still)
            seg = _segment(u)
            others += seg[1] if u.player == player else seg[2]
            models += u.models
            xs += seg[3]
            ys += seg[4]
            rs += seg[5]
    # ``Discs.of`` the models of ``others``: the same floats, in order
    discs = Discs(tuple(models), np.array(xs, dtype=np.float64),
                  np.array(ys, dtype=np.float64), np.array(rs, dtype=np.float64))
    if len(_DISCS) >= 64:
        _DISCS.clear()
    hit = _DISCS[key] = (scene, others, discs, {})
    return hit


_SEGMENTS: dict[int, tuple[Unit, list[tuple[bool, Model]], list[tuple[bool, Model]],
                           list[float], list[float], list[float]]] = kept.table()
""":func:`_segment`'s answers by scene unit (an entry holds it, so its ``id`` is not reused
while kept; a scene unit never changes); emptied past 1024 entries."""


def _segment(u: Unit) -> tuple[Unit, list[tuple[bool, Model]], list[tuple[bool, Model]],
                                list[float], list[float], list[float]]:
    """Unit ``u``'s part of :func:`scene_others`' list, as (True, model) and (False, model)
    pairs, and its models' x, y and reach (``Discs.of``'s rows): kept per scene unit, the
    engine's scenes sharing the units that did not change."""
    hit = _SEGMENTS.get(id(u))
    if hit is not None and hit[0] is u:
        return hit
    ms = u.models
    hit = (u, [(True, m) for m in ms], [(False, m) for m in ms], [m.x for m in ms],
           [m.y for m in ms], [m.reach() for m in ms])
    if len(_SEGMENTS) >= 1024:
        _SEGMENTS.clear()
    _SEGMENTS[id(u)] = hit
    return hit


def share_others(scene: Scene, base: Scene, unit: str) -> None:
    """Enter :func:`scene_others`' list and discs of ``base`` (and ``unit``) as ``scene``'s:
    the caller built ``scene`` from ``base`` with only ``unit``'s models changed (the other
    units the same objects, in the same order), so the list it would build is the same and
    ``Discs.of`` it the same arrays. :func:`_standing`'s table is ``scene``'s own (new): it
    depends on where ``unit``'s models stand."""
    key = (id(scene), unit)
    hit = _DISCS.get(key)
    if hit is not None and hit[0] is scene:
        return
    _, others, discs, _ = _others_entry(base, unit, base.unit(unit).player)
    if len(_DISCS) >= 64:
        _DISCS.clear()
    _DISCS[key] = (scene, others, discs, {})


def _standing(scene: Scene, unit: str) -> dict[str, Model | None]:
    """Per model of ``unit`` as the scene has it (by name): the first enemy model of
    :func:`scene_others`' list it is engaged with (``validate_move``'s "ends engaged" test,
    R09.05-a / R09.07-e), or None; filled by ``validate_move`` as it measures them, kept with
    the scene's other models (the same list, so the same first model)."""
    return _others_entry(scene, unit, scene.unit(unit).player)[3]


def ending_violations(
    terrain: Terrain, m: Model, take_to_skies: bool = False
) -> list[MoveViolation]:
    """Where a model may stand when a move ends (03.01 Ending a Move, 13.06 Setting Up or
    Ending a Move), for model ``m`` as placed: empty when it may end there.

    R03.01-i reading: a feature taller than :data:`FLOOR_HEIGHT` is solid from the ground to its
    height, so a model whose base overlaps its footprint (more than touching) must stand on top
    of it (``z`` at least its height) or wholly on one of its listed surfaces at that level;
    otherwise it is partway through it (R13.06-g for the Solid part of a dense feature, 3" or
    less from the ground; R03.01-i otherwise). Features no taller than ``FLOOR_HEIGHT`` are
    floors at ground level. A model above ground level must also be allowed on the surface it
    stands on (R13.06-e keywords, stable, no overhang; R13.06-f dense reading)."""
    out: list[MoveViolation] = []
    fp = m.footprint()
    x0, y0, x1, y1 = fp.bbox()
    for o in outlines(terrain):
        if x1 < o.x0 or x0 > o.x1 or y1 < o.y0 or y0 > o.y1:
            continue  # the boxes are apart (Outline.misses, inline)
        f = o.feature
        if m.z >= f.height - EPS or f.height <= FLOOR_HEIGHT + EPS:
            continue  # on top of it (or above it); a floor at ground level
        if not _overlaps_outline(fp, o) or _on_listed_surface(fp, m.z, f):
            continue
        solid = f.category is Category.DENSE and m.z < SOLID_HEIGHT
        rule = "R13.06-g" if solid else "R03.01-i"
        out.append(MoveViolation(rule, m.name, f"ends partway through {f.name}"))
    if m.z > EPS:
        out.extend(_check_upper_surface(terrain, m, take_to_skies))
    return out


_SOLID: dict[tuple[int, float], tuple[Terrain, tuple[Outline, ...]]] = kept.table()
""":func:`solid_outlines`' answers by (terrain, level); an entry holds the terrain (so its
``id`` is not reused while kept); emptied past 64 entries."""


def solid_outlines(terrain: Terrain, z: float) -> tuple[Outline, ...]:
    """The outlines of the features that :func:`ending_violations` refuses a round base at
    level ``z`` partway through wherever the base's centre lies inside one: taller than
    :data:`FLOOR_HEIGHT`, ``z`` below its height, and no listed surface at ``z`` (the
    centre inside, the base meets the footprint; on no surface, it is partway through)."""
    key = (id(terrain), z)
    hit = _SOLID.get(key)
    if hit is not None and hit[0] is terrain:
        return hit[1]
    out = tuple(o for o in outlines(terrain)
                if not (z >= o.feature.height - EPS or o.feature.height <= FLOOR_HEIGHT + EPS)
                and not any(abs(s.height - z) <= EPS for s in o.feature.surfaces))
    if len(_SOLID) >= 64:
        _SOLID.clear()
    _SOLID[key] = (terrain, out)
    return out


def centre_in_solid(solid: Sequence[Outline], x: float, y: float) -> bool:
    """(x, y) lies inside one of ``solid`` (:func:`solid_outlines`): a round base centred
    there, at that level, surely ends partway through a feature (``ending_violations`` is
    not empty, R03.01-i / R13.06-g); False says nothing."""
    return any(o.x0 <= x <= o.x1 and o.y0 <= y <= o.y1 and o.holds_point(x, y)
               for o in solid)


def disc_in_solid(solid: Sequence[Outline], x: float, y: float, r: float) -> bool:
    """A round base of radius ``r`` centred at (x, y), at the level ``solid`` was found for
    (:func:`solid_outlines`), meets one of those features' footprints more than
    touching: ``ending_violations``' own test of such a feature (its box test, then
    ``Outline.disc_meets`` of the disc less 1e-6"), so it surely refuses the base there
    (partway through a feature with no surface at that level, R03.01-i / R13.06-g). Every
    centre :func:`centre_in_solid` finds is found here too (the disc holds its centre);
    False says nothing about the other features."""
    x0, y0, x1, y1 = x - r, y - r, x + r, y + r
    rr = max(r - 1e-6, 0.0)
    for o in solid:
        if x1 < o.x0 or x0 > o.x1 or y1 < o.y0 or y0 > o.y1:
            continue  # the boxes are apart (as ending_violations)
        if o.disc_meets(x, y, rr):
            return True
    return False


def _on_listed_surface(fp: Shape, z: float, f: TerrainFeature) -> bool:
    """The footprint stands wholly on one of ``f``'s listed surfaces (a ruin's floor) at ``z``."""
    return any(
        abs(s.height - z) <= EPS and shape_inside_region(fp, s.array()) for s in f.surfaces
    )


def separation_inside(fp: Shape, f: TerrainFeature) -> bool:
    """True if the footprint overlaps the feature's footprint by more than touching."""
    if isinstance(fp, Circle):
        return shape_region_distance(Circle(fp.cx, fp.cy, max(fp.r - 1e-6, 0.0)), f.array()) <= 0.0
    return shape_region_distance(fp, f.array()) <= 0.0


def _overlaps_outline(fp: Shape, o: Outline) -> bool:
    """:func:`separation_inside` for the feature's kept outline (a round base by the scalar
    twin of ``shape_region_distance``, outlines.py: the same answer)."""
    if isinstance(fp, Circle):
        return o.disc_meets(fp.cx, fp.cy, max(fp.r - 1e-6, 0.0))
    return shape_region_distance(fp, o.region) <= 0.0


def _check_upper_surface(terrain: Terrain, m: Model, skies: bool) -> list[MoveViolation]:
    """13.06: ending above ground level."""
    out: list[MoveViolation] = []
    if not m.has(*UPPER_SURFACE_KEYWORDS):
        out.append(
            MoveViolation(
                "R13.06-e",
                m.name,
                "only INFANTRY/BEASTS/SWARM/FLY/MONSTER models can "
                "end on a surface above ground level",
            )
        )
        return out
    fp = m.footprint()
    for f in terrain.features:
        for s in f.standing_surfaces():
            if abs(s.height - m.z) > EPS or not shape_inside_region(fp, s.array()):
                continue
            if not s.stable:
                out.append(
                    MoveViolation("R13.06-e", m.name, f"the surface of {f.name} is not stable")
                )
            elif (
                f.category is Category.DENSE
                and not m.has(*CLIMBERS)
                and not (skies and m.has("FLY"))
            ):
                # R13.06-f reading: non-INFANTRY/BEASTS/SWARM models do not end on upper
                # surfaces of dense features unless they FLY and took to the skies.
                out.append(
                    MoveViolation(
                        "R13.06-f", m.name, f"cannot end on an upper surface of dense {f.name}"
                    )
                )
            return out
    out.append(
        MoveViolation(
            "R13.06-e", m.name, f'not wholly on a surface at {m.z:g}" (overhangs or unsupported)'
        )
    )
    return out
