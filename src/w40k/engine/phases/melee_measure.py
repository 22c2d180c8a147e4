"""Measures of the melee moves (11.04, 12.03, 12.08): distances between models and units,
engagement with a group of models, objective range, base contact with an enemy model; the
kept answers (``engine/field.py``'s ``placement_count`` rule) the proposers and the checks of
``melee_moves.py`` ask again and again. Split from ``melee_moves.py``, which re-exports them."""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from w40k.core import kept
from w40k.engine import field, geo
from w40k.engine.context import Context
from w40k.engine.state import ModelData, ObjectiveData, UnitData, placement_count
from w40k.geometry import Model, ObjectiveMarker, engaged, in_range_of_area, in_range_of_marker
from w40k.geometry.battlefield import MARGIN, Layout, bounding_radius
from w40k.geometry.measure import (
    ENGAGEMENT_HORIZONTAL,
    horizontal_distance,
    in_base_contact,
    separation,
    shape_region_distance,
)
from w40k.geometry.shapes import mm

EPS = 1e-6
MARKER_RADIUS = mm(40.0) / 2
BEARINGS = 24
"""Bearings of the melee moves' rings of spots (the searches of ``melee_moves``, the greedy
move of ``melee_greedy``)."""


def unit_distance(a: Sequence[Model], b: Sequence[Model]) -> float:
    """Closest horizontal distance between two groups of models."""
    return min((horizontal_distance(x, y) for x in a for y in b), default=math.inf)



_T = TypeVar("_T")
_Kept = dict[tuple[int, int], tuple[Model, UnitData, int, int, _T]]


def _kept(table: _Kept[_T], m: Model, u: UnitData, compute: Callable[[], _T]) -> _T:
    """``compute()``'s answer for (model shape ``m``, unit ``u``), kept in ``table`` while no
    model is placed (``placement_count``) and ``u`` has as many models; an entry holds both
    (so their ``id`` is not reused while kept). Bounded: emptied past 4096 entries."""
    now = placement_count()
    key = (id(m), id(u))
    hit = table.get(key)
    if (hit is not None and hit[0] is m and hit[1] is u and hit[2] == now
            and hit[3] == len(u.models)):
        return hit[4]
    out = compute()
    if len(table) >= 4096:
        table.clear()
    table[key] = (m, u, now, len(u.models), out)
    return out


_TO_UNIT: _Kept[float] = kept.table()
""":func:`model_to_unit`'s kept answers (:func:`_kept`)."""


def model_to_unit(m: Model, u: UnitData) -> float:
    """Closest horizontal distance from a model to a unit (kept while no model is placed:
    the proposers' attempts and the check measure the same starts again)."""
    return _kept(_TO_UNIT, m, u, lambda: unit_distance([m], geo.unit_shapes(u)))


def _nearest_first(lower: npt.NDArray[np.float64], measure: Callable[[int], float]) -> float:
    """The least ``measure(k)`` over every index of ``lower``, a lower bound of each (the
    bounding discs' gap): measured in increasing order of the bound, stopping once a bound
    exceeds the least found by ``battlefield.MARGIN`` (no later pair can be closer: the
    same minimum as measuring them all)."""
    best = math.inf
    for k in np.argsort(lower, kind="stable").tolist():
        if lower[k] - MARGIN > best:
            break
        h = measure(k)
        if h < best:
            best = h
    return best


def closer_to_unit(m: Model, u: UnitData, than: float) -> bool:
    """``model_to_unit(m, u) < than``, measuring only the models of ``u`` whose bounding disc
    comes that near (the disc gap is a lower bound of the footprints' distance: same answer;
    the gaps in floats, ``field.rows``, with the arrays' 1e-6" to spare)."""
    lay = field.layout(u)
    models = lay.models
    if not models:
        return False
    fp = m.footprint()
    cx, cy = fp.center
    limit = than + 1e-6 + bounding_radius(fp)
    xs, ys, rs = field.rows(lay)[:3]
    hypot = math.hypot
    return any(hypot(xs[i] - cx, ys[i] - cy) - rs[i] < limit
               and horizontal_distance(m, models[i]) < than for i in range(len(models)))


def box_gap(lay: Layout, cx: float, cy: float) -> float:
    """A lower bound of the gap between (cx, cy) and each of the layout's bounding discs
    (all in its box): the point's gap to the box along x or along y. Past a threshold by
    1e-3" (rounding to spare), no disc gap ``hypot(centre - c) - radius`` is within it."""
    x0, y0, x1, y1 = lay.box
    return max(x0 - cx, cx - x1, y0 - cy, cy - y1)


class Group:
    """Models kept as lists of their bounding discs for "is a model engaged with any of
    them" (:meth:`engaged_any`): only the models whose bounding disc comes within engagement
    range are measured (the disc gap is a lower bound of the footprints' distance: same
    answer as ``engaged`` over all)."""

    def __init__(self, models: Sequence[Model], lay: Layout | None = None) -> None:
        self.models = list(models)
        if lay is not None:
            self._xs, self._ys, self._rs = field.rows(lay)[:3]
            self._box = lay.box
            return
        # Layout.of's centres, radii and box, without its arrays
        fps = [x.footprint() for x in self.models]
        self._xs = [float(f.center[0]) for f in fps]
        self._ys = [float(f.center[1]) for f in fps]
        self._rs = [float(bounding_radius(f)) for f in fps]
        if fps:
            xs, ys, rs = self._xs, self._ys, self._rs
            self._box = (min(x - r for x, r in zip(xs, rs, strict=True)),
                         min(y - r for y, r in zip(ys, rs, strict=True)),
                         max(x + r for x, r in zip(xs, rs, strict=True)),
                         max(y + r for y, r in zip(ys, rs, strict=True)))
        else:
            self._box = (math.inf, math.inf, -math.inf, -math.inf)

    @staticmethod
    def of_unit(u: UnitData) -> Group:
        """The unit's living models, with its kept layout (``engine/field.py``)."""
        lay = field.layout(u)
        return Group(lay.models, lay)

    def engaged_any(self, m: Model) -> bool:
        """03.04: ``m`` is engaged with one of the models (the disc gaps in floats, with the
        arrays' 1e-6" to spare)."""
        models = self.models
        if not models:
            return False
        fp = m.footprint()
        cx, cy = fp.center
        r = bounding_radius(fp)
        x0, y0, x1, y1 = self._box
        if max(x0 - cx, cx - x1, y0 - cy, cy - y1) - r > ENGAGEMENT_HORIZONTAL + 1e-3:
            return False  # no disc gap below is within range: none measured
        limit = ENGAGEMENT_HORIZONTAL + 1e-6
        xs, ys, rs = self._xs, self._ys, self._rs
        hypot = math.hypot
        return any(hypot(xs[i] - cx, ys[i] - cy) - rs[i] - r <= limit
                   and engaged(m, models[i]) for i in range(len(models)))


_ENGAGED: _Kept[bool] = kept.table()
""":func:`engaged_with_unit`'s kept answers (:func:`_kept`)."""


def engaged_with_unit(m: Model, e: UnitData) -> bool:
    """03.04: ``m`` is engaged with a living model of ``e`` (``Group.of_unit(e)``'s answer),
    kept while no model is placed (the pile-in placement's attempts and the check ask it of
    the same starts)."""
    return _kept(_ENGAGED, m, e, lambda: Group.of_unit(e).engaged_any(m))


def _shapes_distance(a: UnitData, b: UnitData) -> float:
    """``unit_distance(geo.unit_shapes(a), geo.unit_shapes(b))`` over the kept layouts, the
    pairs nearest by their bounding discs first (:func:`_nearest_first`: the same float)."""
    la, lb = field.layout(a), field.layout(b)
    if not len(la) or not len(lb):
        return math.inf
    dx = la.centres[:, 0, None] - lb.centres[None, :, 0]
    dy = la.centres[:, 1, None] - lb.centres[None, :, 1]
    lower = (np.sqrt(dx * dx + dy * dy) - la.radii[:, None] - lb.radii[None, :]).ravel()
    nb = len(lb)
    return _nearest_first(lower, lambda k: horizontal_distance(la.models[k // nb],
                                                                lb.models[k % nb]))


def units_distance(a: UnitData, b: UnitData) -> float:
    """The distance between units ``a`` and ``b`` (closest models, 01.04), kept until a model
    is placed (``engine/field.py``)."""
    return field.unit_distance(a, b, _shapes_distance)


BOX_SLACK = 1e-3
"""Inches: a gap between two units' boxes past a threshold by this much settles that no pair
of their models is within it (rounding to spare, as :func:`box_gap`)."""


def units_within(a: UnitData, b: UnitData, dist: float) -> bool:
    """Unit ``a`` within ``dist`` of unit ``b`` (:func:`units_distance`). R01.04-a: every
    footprint lies in its bounding disc and every disc in its unit's box, so no model pair is
    closer than the two boxes' gap; a gap past ``dist`` + EPS by :data:`BOX_SLACK` settles
    "no" without the closest models' distance (an empty unit: an infinite gap, and an
    infinite distance)."""
    if field.layout(a).box_gap(field.layout(b)) - BOX_SLACK > dist + EPS:
        return False
    return units_distance(a, b) <= dist + EPS


def units_farther(a: UnitData, b: UnitData, dist: float) -> bool:
    """``units_distance(a, b) > dist``, the boxes first (:func:`units_within`'s proof)."""
    if field.layout(a).box_gap(field.layout(b)) - BOX_SLACK > dist:
        return True
    return units_distance(a, b) > dist


def objective_distance(ctx: Context, m: Model, obj: ObjectiveData) -> float:
    """Horizontal distance from a model to an objective (marker disc or area)."""
    if obj.area is not None:
        _, ter = geo.terrain(ctx)
        return max(0.0, shape_region_distance(m.footprint(),
                                              np.asarray(ter.area(obj.area).footprint,
                                                         dtype=float)))
    return max(0.0, separation(m.footprint(), ObjectiveMarker(obj.x, obj.y).shape()))


def in_objective_range(ctx: Context, m: Model, obj: ObjectiveData) -> bool:
    """14.01 / Appendix, for a model shape."""
    if obj.area is not None:
        _, ter = geo.terrain(ctx)
        return in_range_of_area(m, np.asarray(ter.area(obj.area).footprint, dtype=float))
    return in_range_of_marker(m, ObjectiveMarker(obj.x, obj.y))


CONTACT = mm(0.5)
"""``in_base_contact``'s default tolerance (footprints within 0.5 mm)."""


_CONTACTS: dict[int, tuple[ModelData, Callable[[], object], str, int, int, bool]] = kept.table()
""":func:`base_contact_enemy`'s answers by model: the model (an entry holds it, so its ``id``
is not reused while kept), the state (weakly: a search's clones, each met a few times, are not
kept by the thousand), the unit's player, ``placement_count`` and the number of units it was
measured with."""


def base_contact_enemy(ctx: Context, u: UnitData, m: ModelData) -> bool:
    """12.03/12.08: the model is in base contact with an enemy model (kept while no model is
    placed: the proposers and the check ask it of the same model several times)."""
    s = ctx.state
    now = placement_count()
    hit = _CONTACTS.get(id(m))
    if (hit is not None and hit[0] is m and hit[1]() is s and hit[2] == u.player
            and hit[3] == now and hit[4] == len(s.units)):
        return hit[5]
    out = _base_contact_enemy(ctx, u, m)
    if len(_CONTACTS) >= 4096:
        _CONTACTS.clear()
    _CONTACTS[id(m)] = (m, weakref.ref(s), u.player, now, len(s.units), out)
    return out


def _base_contact_enemy(ctx: Context, u: UnitData, m: ModelData) -> bool:
    """:func:`base_contact_enemy`, measured. Only the enemy models whose bounding disc comes
    within the contact tolerance (plus 1e-6") are measured: the disc gap is a lower bound of
    the footprints' distance, so no answer changes."""
    shape = geo.model_shape(m)
    fp = shape.footprint()
    cx, cy = fp.center
    r = bounding_radius(fp)
    limit = CONTACT + 1e-6
    hypot = math.hypot
    x0, y0, x1, y1 = field.layout(u).box
    # an enemy unit whose box is beyond the unit's by the tolerance is beyond this model's
    # disc too where the disc lies in the unit's box (a living model's does): passed over
    # (its own test below would pass over it: _contact_screen)
    lays = _contact_screen(ctx, u) if (x0 <= cx - r and cx + r <= x1 and y0 <= cy - r
                                       and cy + r <= y1) else _enemy_layouts(ctx, u)
    for lay in lays:
        if box_gap(lay, cx, cy) - r > CONTACT + 1e-3:
            continue  # no disc gap below is within the tolerance: none measured
        xs, ys, rs = field.rows(lay)[:3]  # the disc gaps in floats (1e-6" to spare)
        models = lay.models
        if any(hypot(xs[i] - cx, ys[i] - cy) - rs[i] - r <= limit
               and in_base_contact(shape, models[i], CONTACT) for i in range(len(models))):
            return True
    return False


def _enemy_layouts(ctx: Context, u: UnitData) -> list[Layout]:
    """The kept layouts of ``u``'s enemy units that have living models, in the state's
    order."""
    out = []
    for e in ctx.state.units:
        if e.player == u.player or e.destroyed:
            continue
        lay = field.layout(e)
        if len(lay):
            out.append(lay)
    return out


SCREEN_SPARE = 1e-6
"""Inches to spare in :func:`_contact_screen`: far beyond the floats' rounding (~1e-13)."""

_SCREEN: list[tuple[object, int, UnitData, int, list[Layout]]] = kept.slot()
"""The last :func:`_contact_screen`: the state, ``placement_count``, the unit, the number of
units, and its answer."""


def _contact_screen(ctx: Context, u: UnitData) -> list[Layout]:
    """:func:`_enemy_layouts` but those whose box is more than ``CONTACT + 1e-3`` (and
    :data:`SCREEN_SPARE`) beyond ``u``'s layout box along x or y: for a model disc inside
    ``u``'s box, such a unit's ``box_gap`` less the disc's radius is at least the boxes' gap
    (less a rounding), beyond ``CONTACT + 1e-3``, so :func:`_base_contact_enemy` passes it
    over anyway. Kept for the unit while no model is placed (every model of a unit asks in
    turn)."""
    s = ctx.state
    now = placement_count()
    if _SCREEN:
        hit = _SCREEN[0]
        if hit[0] is s and hit[1] == now and hit[2] is u and hit[3] == len(s.units):
            return hit[4]
    a = field.layout(u).box
    far = CONTACT + 1e-3 + SCREEN_SPARE
    out = [lay for lay in _enemy_layouts(ctx, u)
           if max(lay.box[0] - a[2], a[0] - lay.box[2], lay.box[1] - a[3],
                  a[1] - lay.box[3]) <= far]
    _SCREEN[:] = [(s, now, u, len(s.units), out)]
    return out


def _radius(m: Model) -> float:
    """The radius of ``m``'s base (half its longest side; 0 without a base)."""
    b = m.base_mm
    if b is None:
        return 0.0
    if isinstance(b, tuple):
        return mm(max(b)) / 2
    return mm(b) / 2


def _objective_spots(ctx: Context, obj: ObjectiveData, r: float) -> list[tuple[float, float]]:
    """The spots the melee moves try toward an objective (a marker's ring and centre; an
    area's centre and its corners drawn in), for a model of radius ``r``."""
    if obj.area is None:
        d = MARKER_RADIUS + r + 2.5
        return [(obj.x + d * math.cos(a), obj.y + d * math.sin(a))
                for a in np.linspace(0, 2 * math.pi, BEARINGS, endpoint=False)] + [(obj.x, obj.y)]
    _, ter = geo.terrain(ctx)
    fp = np.asarray(ter.area(obj.area).footprint, dtype=float)
    c = fp.mean(axis=0)
    return [(float(c[0]), float(c[1]))] + [(float(p[0] + 0.7 * (c[0] - p[0])),
                                             float(p[1] + 0.7 * (c[1] - p[1]))) for p in fp]
