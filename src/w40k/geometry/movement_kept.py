"""``validate_move``'s per-call work kept or narrowed (``movement.py``): the unit's facts
kept per scene unit, and a single step's nearby models found without array operations.
Each gives the answer of the plain computation it replaces (tests:
``tests/engine/test_17_pile_in.py``)."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Mapping

import numpy as np

from w40k.core import kept
from w40k.geometry.battlefield import MARGIN, Discs
from w40k.geometry.scene import Unit
from w40k.geometry.shapes import Model

_FACTS: dict[int, tuple[Unit, Mapping[str, Model], bool]] = kept.table()
""":func:`unit_facts`' answers by scene unit (an entry holds the unit, so its ``id`` is not
reused while kept; a scene unit is frozen, its models a tuple); emptied past 1024 entries."""


def unit_facts(u: Unit) -> tuple[Mapping[str, Model], bool]:
    """``u``'s models by name (never changed by a caller: ``movement.validate_move``
    copies it before it writes) and whether it is a super-heavy walker (24.35), kept per scene unit:
    the engine's scenes share the units that did not change, so a proposer's validations of
    one unit read them once."""
    hit = _FACTS.get(id(u))
    if hit is not None and hit[0] is u:
        return hit[1], hit[2]
    by_name = {m.name: m for m in u.models}
    heavy = any(a.strip().lower() == "super-heavy walker" for a in u.abilities)
    if len(_FACTS) >= 1024:
        _FACTS.clear()
    _FACTS[id(u)] = (u, by_name, heavy)
    return by_name, heavy


_DISC_ROWS: dict[int, tuple[Discs, list[float], list[float], list[float], float,
                             list[float], list[int]]] = kept.table()
""":func:`near_step`'s lists of a ``Discs`` (x, y, reach, the largest reach, and the x
sorted with the discs' indices in that order), by the discs' object (an entry holds it, so
its ``id`` is not reused while kept; the discs are kept per scene and never changed);
emptied past 256 entries."""


def _disc_rows(discs: Discs) -> tuple[Discs, list[float], list[float], list[float], float,
                                      list[float], list[int]]:
    """:data:`_DISC_ROWS`' entry of ``discs`` (made when missing)."""
    hit = _DISC_ROWS.get(id(discs))
    if hit is not None and hit[0] is discs:
        return hit
    rs = discs.rs.tolist()
    xs = discs.xs.tolist()
    # the discs' indices by x, ties in index order: numpy's stable sort of the x gives
    # ``sorted(range(n), key=xs.__getitem__)``'s order (both stable, the same float
    # comparisons: a model's x is never NaN), without a Python key call per disc
    by_x = np.argsort(discs.xs, kind="stable")
    hit = (discs, xs, discs.ys.tolist(), rs, max(rs, default=0.0), discs.xs[by_x].tolist(),
           by_x.tolist())
    if len(_DISC_ROWS) >= 256:
        _DISC_ROWS.clear()
    _DISC_ROWS[id(discs)] = hit
    return hit


def near_step(discs: Discs, x0: float, y0: float, x1: float, y1: float, r: float
              ) -> list[int]:
    """``discs.near_segment(x0, y0, x1, y1, r, 0.0)`` for a step that moves (its ``den >
    0`` branch), without its dozen array operations over every disc: a disc within ``r +
    reach + MARGIN`` of the segment lies within that of the segment's x span and y span,
    so the discs outside the segment's box grown by ``r``, the largest reach, ``MARGIN``
    and 1e-6" (far beyond the floats' rounding) are not near; the others are measured
    with ``near_segment``'s float operations in its order (IEEE operations on one element
    each: the same floats, so the same answers), in ascending order. The discs within the
    box's x span are found by bisection in the x kept sorted (those with ``lo_x <= x <=
    hi_x``, the box test's x half: the same discs), then tested in y."""
    _, xs, ys, rs, top, sx, order = _disc_rows(discs)
    pad = r + top + MARGIN + 1e-6
    ax, ay = x1 - x0, y1 - y0
    lo_x, hi_x = min(x0, x1) - pad, max(x0, x1) + pad
    lo_y, hi_y = min(y0, y1) - pad, max(y0, y1) + pad
    den = ax * ax + ay * ay
    out: list[int] = []
    for j in order[bisect_left(sx, lo_x):bisect_right(sx, hi_x)]:
        y = ys[j]
        if lo_y <= y <= hi_y:
            px, py = xs[j] - x0, y - y0
            t = min(max((px * ax + py * ay) / den, 0.0), 1.0)  # np.minimum(np.maximum(...))
            px = px - t * ax
            py = py - t * ay
            if math.sqrt(px * px + py * py) - rs[j] - r <= 0.0 + MARGIN:
                out.append(j)
    out.sort()
    return out
