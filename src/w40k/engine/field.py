"""The kept battlefield model: geometry derived from the game state, kept between decisions.

The state (``engine/state.py``) stays plain data that is saved, loaded and cloned; this module
only caches what ``engine/geo.py`` derives from it, so it never changes an answer:

* a model's shape (:class:`w40k.geometry.Model`, with its footprint) is kept while the model's
  position, level, facing and profile are the same values;
* a unit's :class:`w40k.geometry.battlefield.Layout` (its models as arrays), the engagement
  answer of each pair of units, the engaged enemies of a unit and the whole
  :class:`w40k.geometry.Scene` are kept while :func:`w40k.engine.state.placement_count` is
  unchanged: that count goes up whenever any model's position, level, facing, profile or
  destroyed flag is set, in any game, so a move, a removal or a load drops them all;
* once the count has changed, a unit's layout is still kept when each of its models has the
  same id, position, level, facing, destroyed flag and profile as when it was made, and the
  engagement answers of a pair of units are kept while both layouts are the very objects they
  were measured on (only the units that moved are measured again);
* per layout object (never changed once made): its arrays as Python lists (:func:`rows`, for
  the engagement pairs measured in floats) and its coherency.

Entries hold the objects they describe (so an ``id`` is never reused while cached) and each
table is emptied when it grows past :data:`LIMIT` entries. Nothing here is saved.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from operator import attrgetter, is_
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from w40k.core import kept
from w40k.engine.state import PLACEMENT, ModelData, UnitData
from w40k.engine.undo import CHANGES
from w40k.geometry import Model, Scene
from w40k.geometry.battlefield import MARGIN, Layout, coherent
from w40k.geometry.measure import (
    COHERENCY_ALL,
    COHERENCY_NEIGHBOUR,
    COHERENCY_VERTICAL,
    ENGAGEMENT_HORIZONTAL,
    ENGAGEMENT_VERTICAL,
    vertical_extent,
    within,
)
from w40k.geometry.shapes import EPS, Circle, new_model

if TYPE_CHECKING:
    from w40k.engine.context import Context

LIMIT = 8192
"""Entries per table before it is emptied (several games at once stay cheap)."""
SCENES_LIMIT = 16
"""Entries of :data:`_SCENES` before it is emptied: one per state, and an entry holds its
state (every unit, model and event of a game), so a search's clones, each met once, are not
kept by the thousand; 16 covers a game and the clones a search has in flight."""

_KEYWORDS: dict[int, tuple[object, frozenset[str]]] = kept.table()
_SHAPES: dict[int, tuple[ModelData, float, float, float, float, object, Model]] = kept.table()
_Placed = tuple[tuple[str, float, float, float, float, bool, object], ...]
"""What a unit's layout is made of: per model its id, x, y, z, facing, destroyed flag and
profile (:func:`_placed`)."""
_LAYOUTS: dict[int, tuple[UnitData, int, int, _Placed, Layout, list[ModelData]]] = kept.table()
_PAIRS: dict[tuple[int, int], tuple[UnitData, UnitData, int, Layout, Layout, bool]] = kept.table()
_MODEL_PAIRS: dict[tuple[int, int],
                   tuple[UnitData, UnitData, int, Layout, Layout, list[bool]]] = kept.table()
_Pair = tuple[UnitData, Layout, bool]
"""An enemy unit, its layout when measured and whether it was engaged (:func:`engaged_enemies`)."""
_ENEMIES: dict[int, tuple[UnitData, int, list[UnitData], int, list[UnitData], Layout,
                          tuple[_Pair | None, ...]]] = kept.table()
_SCENES: dict[int, tuple[object, int, tuple[tuple[Any, ...], ...], Scene, int,
                         list[UnitData]]] = kept.table()
"""Per state: the state, the placement count, the key (per unit: the unit, its attachment,
its two ranged-attack flags and its number of models), the scene, :data:`CHANGES`' count when
the key was last compared and the units (the key's first entries)."""
_DISTANCES: dict[tuple[int, int, Callable[[UnitData, UnitData], float]],
                 tuple[UnitData, UnitData, int, int, int, Layout, Layout, float]] = kept.table()


def _room(table: dict[Any, Any]) -> None:
    if len(table) >= LIMIT:
        table.clear()


def shape(m: ModelData) -> Model:
    """The model as geometry sees it where it stands (kept while it stays)."""
    hit = _SHAPES.get(id(m))
    p = m.profile
    if (hit is not None and hit[0] is m and hit[1] == m.x and hit[2] == m.y
            and hit[3] == m.z and hit[4] == m.facing and hit[5] is p):
        return hit[6]
    kw = _KEYWORDS.get(id(p))
    if kw is None or kw[0] is not p:
        _room(_KEYWORDS)
        kw = (p, frozenset(k.upper() for k in p.keywords))
        _KEYWORDS[id(p)] = kw
    s = new_model(m.id, m.x, m.y, m.z, p.base_mm, p.height, m.facing, kw[1])  # Model(...)
    _room(_SHAPES)
    _SHAPES[id(m)] = (m, m.x, m.y, m.z, m.facing, p, s)
    return s


_STAMP = attrgetter("placed_at")
"""A model's ``placed_at`` stamp (:func:`layout`)."""


def _placed(u: UnitData) -> _Placed:
    """Everything :func:`layout` reads of the unit's models (:func:`shape`'s inputs and the
    destroyed flags), in order."""
    return tuple((m.id, m.x, m.y, m.z, m.facing, m.destroyed, m.profile) for m in u.models)


def layout(u: UnitData) -> Layout:
    """The unit's living models as arrays: kept while no model is placed, and after that
    while the unit's own models stand as they did (another unit's move, or a model moved
    and put back, leaves it: the same object, so the answers kept for it stay valid).
    Whether they stand as they did: the same model objects, none of them set since the
    count the entry was last checked at (their ``placed_at`` stamps, when no restore came
    after that count), else everything :func:`_placed` reads compared."""
    now = PLACEMENT.count
    hit = _LAYOUTS.get(id(u))
    models = u.models
    if hit is not None and hit[0] is u:
        if hit[1] == now and hit[2] == len(models):
            return hit[4]
        then, old = hit[1], hit[5]
        # the same model objects, none set since ``then``: the loop "any model another, or
        # one set since" as two C-level passes (the same "and" of side-effect-free reads)
        if (then >= PLACEMENT.restored and len(old) == len(models)
                and all(map(is_, models, old))
                and max(map(_STAMP, models), default=then) <= then):
            _LAYOUTS[id(u)] = (u, now, len(models), hit[3], hit[4], hit[5])
            return hit[4]
        placed = _placed(u)
        if placed == hit[3]:  # profiles compared by identity first (tuple ==)
            _LAYOUTS[id(u)] = (u, now, len(models), placed, hit[4], list(models))
            return hit[4]
    else:
        placed = _placed(u)
    lay = layout_of([shape(m) for m in u.alive])
    _room(_LAYOUTS)
    _LAYOUTS[id(u)] = (u, now, len(models), placed, lay, list(models))
    return lay


_F64 = np.float64


def layout_of(models: list[Model]) -> Layout:
    """``Layout.of(models)`` (``geometry/battlefield.py``), the same arrays and box, cheaper
    where every footprint is a round base (a :class:`Circle`, the common case): its bounding
    radius is its ``r`` (``bounding_radius``), its centre ``(cx, cy)`` and the box's four
    bounds are taken in Python floats: each ``cx - r`` (and so on) is the same IEEE
    subtraction of the same doubles as the array's, and the least (greatest) of the same
    values is the same value (never NaN; never a signed zero tie: a radius is positive, so
    ``cx - r`` is ``+0.0`` or not zero), without ~16 array operations on a few models (a
    moved unit's layout is rebuilt ~250 times a k = 5 game). Other footprints:
    ``Layout.of``."""
    fps = [m.footprint() for m in models]
    n = len(fps)
    if not n or not all([type(f) is Circle for f in fps]):
        return Layout.of(models)
    circles = cast(list[Circle], fps)
    xs = [f.cx for f in circles]
    ys = [f.cy for f in circles]
    rs = [f.r for f in circles]
    ext = [vertical_extent(m) for m in models]
    centres = np.array([f.center for f in fps], dtype=_F64).reshape(n, 2)
    radii = np.array(rs, dtype=_F64)
    z0 = np.array([e[0] for e in ext], dtype=_F64)
    z1 = np.array([e[1] for e in ext], dtype=_F64)
    rnd = np.array([True] * n, dtype=bool)
    box = (min([x - r for x, r in zip(xs, rs, strict=True)]),
           min([y - r for y, r in zip(ys, rs, strict=True)]),
           max([x + r for x, r in zip(xs, rs, strict=True)]),
           max([y + r for y, r in zip(ys, rs, strict=True)]))
    return Layout(tuple(models), centres, radii, rnd, z0, z1, box)


def shapes(u: UnitData) -> list[Model]:
    """The unit's living models' shapes (a new list each time)."""
    return list(layout(u).models)


_Rows = tuple[list[float], list[float], list[float], list[float], list[float], list[bool]]
"""A layout's arrays as Python lists: centre x, centre y, bounding radius, bottom and top of
the vertical extent, round base."""
_ROWS: dict[int, tuple[Layout, _Rows]] = kept.table()


def rows(lay: Layout) -> _Rows:
    """The layout's arrays as lists (kept per layout object, which is never changed): for
    loops over a few models, cheaper than array operations."""
    hit = _ROWS.get(id(lay))
    if hit is not None and hit[0] is lay:
        return hit[1]
    c = lay.centres
    out = (c[:, 0].tolist(), c[:, 1].tolist(), lay.radii.tolist(), lay.z0.tolist(),
           lay.z1.tolist(), lay.round.tolist())
    _room(_ROWS)
    _ROWS[id(lay)] = (lay, out)
    return out


_H = ENGAGEMENT_HORIZONTAL + EPS
"""03.04's horizontal limit as ``battlefield.within_matrix`` writes it."""
_V = ENGAGEMENT_VERTICAL + EPS
"""03.04's vertical limit as ``battlefield.within_matrix`` writes it."""
ROW_SLACK = 1e-6
"""Inches: a model's disc farther than this past the limit from the other layout's box has
no pair near the limit (the box's rounding to spare)."""


def _engaged_rows(a: Layout, b: Layout, first: bool) -> list[bool]:
    """``battlefield.within_matrix(a, b, 2", 5")`` per model of ``a`` (any over ``b``), pair
    by pair in floats: the same operations on the same doubles (centre distance less both
    radii, the vertical gap), so the same "sure" pairs (both round, both within the limits
    less ``MARGIN``) and the same pairs measured by ``measure.within`` (within the limits
    plus ``MARGIN``). A model of ``a`` whose disc is farther from ``b``'s box than the limit
    plus ``MARGIN`` and :data:`ROW_SLACK` has no such pair (every disc gap is at least the
    centre's gap to the box less the radius) and is not paired. ``first``: stop at the first
    engaged model (the rest left False)."""
    na, nb = len(a), len(b)
    out = [False] * na
    if not na or not nb:
        return out
    bx0, by0, bx1, by1 = b.box
    xa, ya, ra, za0, za1, rounda = rows(a)
    xb, yb, rb, zb0, zb1, roundb = rows(b)
    sure_h, near_h = _H - MARGIN, _H + MARGIN
    sure_v, near_v = _V - MARGIN, _V + MARGIN
    row_limit = near_h + ROW_SLACK
    sqrt = math.sqrt
    for i in range(na):
        x, y, r = xa[i], ya[i], ra[i]
        if max(bx0 - x, x - bx1, by0 - y, y - by1) - r > row_limit:
            continue
        z0, z1, rnd = za0[i], za1[i], rounda[i]
        for j in range(nb):
            dx, dy = x - xb[j], y - yb[j]
            h = sqrt(dx * dx + dy * dy) - r - rb[j]
            if h > near_h:
                continue
            v = max(0.0, max(zb0[j] - z1, z0 - zb1[j]))
            if v > near_v:
                continue
            if (h <= sure_h and v <= sure_v and rnd and roundb[j]) or within(
                    a.models[i], b.models[j], ENGAGEMENT_HORIZONTAL, ENGAGEMENT_VERTICAL):
                out[i] = True
                break
        if first and out[i]:
            break
    return out


def any_engaged(a: Layout, b: Layout) -> bool:
    """03.04: ``battlefield.any_engaged(a, b)`` (its box test, then :func:`_engaged_rows`
    stopping at the first engaged pair)."""
    if not len(a) or not len(b) or a.box_gap(b) > _H + MARGIN:
        return False
    return any(_engaged_rows(a, b, True))


def engaged_with(a: Layout, b: Layout) -> list[bool]:
    """03.04: ``battlefield.engaged_with(a, b)`` as a list (its box test, then
    :func:`_engaged_rows`)."""
    if not len(a) or not len(b) or a.box_gap(b) > _H + MARGIN:
        return [False] * len(a)
    return _engaged_rows(a, b, False)


def units_engaged(a: UnitData, b: UnitData) -> bool:
    """03.04: a model of one within engagement range of a model of the other (kept)."""
    return _engaged_pair(a, b, PLACEMENT.count, None)


def _engaged_pair(a: UnitData, b: UnitData, now: int, la: Layout | None,
                  lb: Layout | None = None) -> bool:
    """:func:`units_engaged` at placement count ``now``; ``la``, ``lb``: ``layout(a)``,
    ``layout(b)`` when the caller has them (the same objects: nothing is placed between)."""
    key = (id(a), id(b))
    hit = _PAIRS.get(key)
    if hit is not None and hit[0] is a and hit[1] is b and hit[2] == now:
        return hit[5]
    if la is None:
        la = layout(a)
    if lb is None:
        lb = layout(b)
    if hit is not None and hit[0] is a and hit[1] is b and hit[3] is la and hit[4] is lb:
        result = hit[5]  # neither unit's models moved: the same layouts, the same answer
    else:
        result = any_engaged(la, lb)
    _room(_PAIRS)
    _PAIRS[key] = (a, b, now, la, lb, result)
    return result


def unit_distance(a: UnitData, b: UnitData, measure: Callable[[UnitData, UnitData], float]
                  ) -> float:
    """The closest distance between two units as ``measure`` gives it (kept per measure
    until a model is placed, and after that while both units' layouts are the same objects:
    ``measure`` reads only what a layout is made of, the models' places and profiles)."""
    now = PLACEMENT.count
    key = (id(a), id(b), measure)
    hit = _DISTANCES.get(key)
    same = hit is not None and hit[0] is a and hit[1] is b and hit[3] == len(a.models) \
        and hit[4] == len(b.models)
    if same and hit is not None and hit[2] == now:
        return hit[7]
    la, lb = layout(a), layout(b)
    # neither unit's models moved since it was measured: the same answer
    kept = same and hit is not None and hit[5] is la and hit[6] is lb
    result = hit[7] if kept and hit is not None else measure(a, b)
    _room(_DISTANCES)
    _DISTANCES[key] = (a, b, now, len(a.models), len(b.models), la, lb, result)
    return result


def engaged_models(a: UnitData, b: UnitData) -> list[bool]:
    """Per living model of ``a`` (in order): engaged with some model of ``b`` (03.04)."""
    now = PLACEMENT.count
    key = (id(a), id(b))
    hit = _MODEL_PAIRS.get(key)
    if hit is not None and hit[0] is a and hit[1] is b and hit[2] == now:
        return hit[5]
    la, lb = layout(a), layout(b)
    if hit is not None and hit[0] is a and hit[1] is b and hit[3] is la and hit[4] is lb:
        result = hit[5]  # neither unit's models moved: the same layouts, the same answer
    else:
        result = engaged_with(la, lb)
    _room(_MODEL_PAIRS)
    _MODEL_PAIRS[key] = (a, b, now, la, lb, result)
    return result


def engaged_enemies(ctx: Context, u: UnitData) -> list[UnitData]:
    """The enemy units engaged with ``u``, in the state's order (a new list)."""
    return list(_enemies(ctx, u))


def is_engaged(ctx: Context, u: UnitData) -> bool:
    """03.04: some enemy unit engaged with ``u`` (:func:`engaged_enemies`, not copied)."""
    return bool(_enemies(ctx, u))


def kept_enemies(ctx: Context, u: UnitData) -> list[UnitData] | None:
    """:func:`engaged_enemies`' kept list when it was made at this placement count for this
    state's units (not to be changed), else None: nothing is measured."""
    hit = _ENEMIES.get(id(u))
    units = ctx.state.units
    if (hit is not None and hit[0] is u and hit[1] == PLACEMENT.count and hit[2] is units
            and hit[3] == len(units)):
        return hit[4]
    return None


def _enemies(ctx: Context, u: UnitData) -> list[UnitData]:
    """:func:`engaged_enemies`' kept list (not to be changed): kept until a model is placed;
    after that, each enemy's answer is kept while both units' layouts are the very objects
    it was measured on: a move measures again only the pairs with the unit moved."""
    now = PLACEMENT.count
    units = ctx.state.units
    hit = _ENEMIES.get(id(u))
    kept: tuple[_Pair | None, ...] | None = None
    if hit is not None and hit[0] is u and hit[2] is units and hit[3] == len(units):
        if hit[1] == now:
            return hit[4]
        kept = hit[6]
    # the unit's layout once for every pair (nothing is placed in this walk)
    player, lu = u.player, layout(u)
    if kept is not None and hit is not None and hit[5] is not lu:
        kept = None  # the unit's own models moved: every pair is measured again
    out: list[UnitData] = []
    pairs: list[_Pair | None] = []
    lays = _LAYOUTS
    for e, k in zip(units, (None,) * len(units) if kept is None else kept, strict=True):
        if e.player == player:
            pairs.append(None)
            continue
        # ``layout(e)``: its first test inline (kept at this count), else the call below
        h = lays.get(id(e))
        le: Layout | None = None
        if h is not None and h[0] is e and h[1] == now and h[2] == len(e.models):
            le = h[4]
            if k is not None and k[1] is le and k[0] is e:
                # the very layout the pair was measured on (and ``e`` was not destroyed
                # then): the same models standing as they did, their destroyed flags too
                # (a layout is kept only then), so still not destroyed, the same answer
                pairs.append(k)
                if k[2]:
                    out.append(e)
                continue
        if e.destroyed:
            pairs.append(None)
            continue
        if le is None:
            le = layout(e)
        if k is not None and k[0] is e and k[1] is le:
            pairs.append(k)  # neither unit's models moved: the same layouts, the same answer
            engaged = k[2]
        else:
            engaged = _engaged_pair(u, e, now, lu, le)
            pairs.append((e, le, engaged))
        if engaged:
            out.append(e)
    _room(_ENEMIES)
    _ENEMIES[id(u)] = (u, now, units, len(units), out, lu, tuple(pairs))
    return out


_COHERENT: dict[int, tuple[Layout, bool]] = kept.table()


def in_coherency(u: UnitData) -> bool:
    """03.03 for the unit's living models, from its layout (kept per layout object: the same
    models at the same places; the end of each phase asks every unit again, most unmoved)."""
    lay = layout(u)
    hit = _COHERENT.get(id(lay))
    if hit is not None and hit[0] is lay:
        return hit[1]
    r = rows(lay)
    floats = 1 < len(lay) <= COHERENT_FLOATS and all(r[5])
    out = _coherent_round(r) if floats else coherent(lay)
    _room(_COHERENT)
    _COHERENT[id(lay)] = (lay, out)
    return out


_NEAR_H = COHERENCY_NEIGHBOUR + EPS
"""03.03's 2" as ``battlefield.within_matrix`` writes it (``coherent``'s first matrix)."""
_ALL_H = COHERENCY_ALL + EPS
"""03.03's 9" as ``battlefield.within_matrix`` writes it (``coherent``'s second matrix)."""
_COH_V = COHERENCY_VERTICAL + EPS
"""03.03's 5" vertically as ``battlefield.within_matrix`` writes it."""


def _coherent_round(r: _Rows) -> bool:
    """``battlefield.coherent`` of a layout of two or more models, all on round bases, from
    its :func:`rows`, pair by pair in floats: each ordered pair's horizontal distance
    (``sqrt(dx * dx + dy * dy) - r_i - r_j``: ``_horizontal_bound``'s operations on the same
    doubles, in its order) and vertical gap (``_vertical``'s), compared with the same limits
    (``within_matrix``'s ``as_matrix`` decision, where two round bases are never measured
    again). 03.03: every model within 2"/5" of another and within 9"/5" of every model.
    Both are plain "and"s, so the order of the pairs and an early "no" do not change the
    answer. Each unordered pair once: (j, i) has the same square sum (``dx`` negated), so
    the same root, and the same vertical gap (the max of the same two differences); its
    horizontal distance is computed again (``- r_j - r_i``) only when the radii differ. The
    diagonal always passes (a radius is never negative and a model's top never below its
    bottom: ``-2 r <= 9"``, a gap of 0). Python floats for the few models of a unit
    (:data:`COHERENT_FLOATS`): cheaper than two rounds of ~25 array operations."""
    xs, ys, rs, z0s, z1s, _ = r
    n = len(xs)
    near = [False] * n
    sqrt = math.sqrt
    for i in range(n):
        x, y, ri, z0, z1 = xs[i], ys[i], rs[i], z0s[i], z1s[i]
        for j in range(i + 1, n):
            dx, dy = x - xs[j], y - ys[j]
            d = sqrt(dx * dx + dy * dy)
            rj = rs[j]
            h = d - ri - rj
            if not (h <= _ALL_H and max(0.0, max(z0s[j] - z1, z0 - z1s[j])) <= _COH_V):
                return False
            if h <= _NEAR_H:
                near[i] = True
            if rj != ri:
                h = d - rj - ri  # (j, i)'s own order
                if not h <= _ALL_H:
                    return False
            if h <= _NEAR_H:
                near[j] = True
    return all(near)


COHERENT_FLOATS = 12
"""Models a unit has at most for :func:`in_coherency` to decide it in floats (measured: at
10 models ~2x cheaper than the matrices, even at ~18, three times dearer at 30)."""


def scene(ctx: Context, build: Callable[[], Scene]) -> Scene:
    """The whole-battlefield scene, kept while no model is placed and the units' flags that
    the scene reads are the same; ``build`` makes it when needed."""
    s = ctx.state
    now = PLACEMENT.count
    units = s.units
    hit = _SCENES.get(id(s))
    if hit is not None and hit[0] is s and hit[1] == now and len(hit[2]) == len(units):
        if hit[4] == CHANGES.count and all(map(is_, hit[5], units)):
            # the same units, none of their fields, flags or model lists changed since the
            # key was last compared: the same key (its entries read only those)
            return hit[3]
        # the key below, compared entry by entry without building it (most calls hit)
        for x, u in zip(hit[2], units, strict=True):
            flags = u.flags
            if (x[0] is not u or x[1] != u.attached
                    or x[2] != flags.get("ranged_attacks_this_turn", False)
                    or x[3] != flags.get("ranged_attacks_last_turn", False)
                    or x[4] != len(u.models)):
                break
        else:
            _SCENES[id(s)] = (s, now, hit[2], hit[3], CHANGES.count, hit[5])
            return hit[3]
    # ``u.flag(name)`` is ``u.flags.get(name, False)``
    key = tuple([(u, u.attached, u.flags.get("ranged_attacks_this_turn", False),
                  u.flags.get("ranged_attacks_last_turn", False), len(u.models))
                 for u in units])
    changes = CHANGES.count  # before the build (it reads the units only)
    sc = build()
    if len(_SCENES) >= SCENES_LIMIT:
        _SCENES.clear()
    _SCENES[id(s)] = (s, now, key, sc, changes, [x[0] for x in key])
    return sc


def forget() -> None:
    """Empty every table (tests use it to compare kept and fresh answers)."""
    for t in (_KEYWORDS, _SHAPES, _LAYOUTS, _PAIRS, _MODEL_PAIRS, _ENEMIES, _SCENES,
              _DISTANCES, _ROWS, _COHERENT):
        t.clear()
