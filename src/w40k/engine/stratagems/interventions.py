"""15.08 Fire Overwatch (with 15.09 snap shooting) and 15.11 Heroic Intervention: the two core
stratagems that make a unit act in the opponent's turn, through the phases' own frames (a
``shoot_unit`` frame with ``snap``; a ``charge_unit`` frame with ``heroic``).

R15.08-a (recommended reading): Fire Overwatch is used at the end of the opponent's Movement
phase only. R15.09-a: the one target unit (visible, within 24" of the shooting unit) is
selected with the stratagem; every weapon then shoots at it (docs/rulings.md).
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from w40k.core import kept
from w40k.core.keywords import canonical_keyword
from w40k.engine import field, geo
from w40k.engine.phases.melee_moves import EPS, units_within
from w40k.engine.phases.shooting_facts import ShooterFacts, visibility
from w40k.engine.stratagems.effects import this_phase
from w40k.engine.stratagems.model import Stratagem, Target, TurnKey
from w40k.engine.stratagems.overwatch_sight import seen_pairs
from w40k.engine.windows import Facts, Window

if TYPE_CHECKING:
    from w40k.engine.context import Context
    from w40k.engine.state import UnitData
    from w40k.geometry.battlefield import Layout
    from w40k.geometry.visibility import Visibility

SNAP_RANGE = 24.0
"""15.09: within 24" of your unit."""
HEROIC_RANGE = 12.0
"""15.11: within 12" of one or more enemy units."""
INTO_THE_FRAY_ROLL = 6
"""15.11: a charge roll above 6 becomes 6."""
INTO_THE_FRAY_REACH = 6.0
"""15.11: enemy units within 6" may be selected."""
LEAP, FRAY = "leap_to_defend", "into_the_fray"
"""The two modes of Heroic Intervention."""
_TITANIC, _VEHICLE, _CHARACTER, _WALKER, _AIRCRAFT = (
    canonical_keyword(k) for k in ("TITANIC", "VEHICLE", "CHARACTER", "WALKER", "AIRCRAFT"))
"""The keys ``UnitData.has`` tests these keywords by, made once (pass ow25)."""


# -- 15.08 Fire Overwatch --------------------------------------------------------------------
def _in_reach(ctx: Context, facts: ShooterFacts | _Shooter,
              engaged: dict[int, bool] | None = None,
              sure: list[int] | None = None) -> list[UnitData]:
    """The unengaged enemy units within 24" of the unit (R15.09-a, R15.09-e: an engaged
    enemy is never a target; 17.03 is 'in your Shooting phase' only). ``engaged``: each
    enemy's :func:`geo.is_engaged` answer by ``id``, kept by the caller across its shooters
    (one state: the same answer for every shooter). ``sure``: per enemy of
    ``facts.enemies``, :func:`_reach_sure`'s answer (1 within, 0 not, -1 measured here)."""
    u = facts.unit
    lu = field.layout(u)
    out: list[UnitData] = []
    for i, e in enumerate(facts.enemies):
        known = -1 if sure is None else sure[i]
        if known == 0:
            continue
        if known < 0:
            near = _round_within(lu, field.layout(e), SNAP_RANGE)
            if not (units_within(u, e, SNAP_RANGE) if near is None else near):
                continue
        if engaged is None:
            busy = geo.is_engaged(ctx, e)
        else:
            hit = engaged.get(id(e))
            busy = engaged[id(e)] = geo.is_engaged(ctx, e) if hit is None else hit
        if not busy:
            out.append(e)
    return out


ROW_SLACK = 1e-6
"""Inches: a model whose disc is farther than the reach past the other unit's box by this
much has no model pair within it (the box's rounding to spare)."""


def _round_within(la: Layout, lb: Layout, dist: float) -> bool | None:
    """``units_within`` for two units of round bases (None: another footprint): some model
    pair within ``dist`` (+ EPS), pair by pair in floats. R01.04-a: the units' distance is
    the least of their model pairs' (``units_distance``), and two round bases' distance is
    ``measure.horizontal_distance``'s first case, computed here on the same floats (the
    layout's centres and radii are the footprints' own), so the same answer without the
    closest distance itself; a model whose disc is past the other unit's box by more than
    ``dist`` + EPS + :data:`ROW_SLACK` has no such pair (its gap to the box bounds its
    distance to every model of the other unit)."""
    xa, ya, ra, _, _, rnda = field.rows(la)
    xb, yb, rb, _, _, rndb = field.rows(lb)
    if not (all(rnda) and all(rndb)):
        return None
    limit = dist + EPS
    bx0, by0, bx1, by1 = lb.box
    hypot = math.hypot
    for i in range(len(xa)):
        x, y, r = xa[i], ya[i], ra[i]
        if max(bx0 - x, x - bx1, by0 - y, y - by1) - r > limit + ROW_SLACK:
            continue
        for j in range(len(xb)):
            if max(0.0, hypot(x - xb[j], y - yb[j]) - r - rb[j]) <= limit:
                return True
    return False


SURE_MARGIN = 1e-9
"""Inches: a least gap this far from the reach decides it on numpy's floats (its ``hypot``
may differ from ``math.hypot`` by an ulp, ~1e-14 at these distances)."""


def _reach_sure(rows: list[Layout], cols: list[Layout], dist: float) -> list[list[int]] | None:
    """For each (row, column) layout pair, :func:`_round_within` where it is plain: 1 within
    ``dist`` (+ EPS), 0 not, -1 too near the limit to say (measured pair by pair); None
    unless every layout has models, all round bases. The least gap over each block of
    one matrix of every model pair (the centre distance less both radii, as
    :func:`_round_within` measures it; a gap below 0 is 0 there, and the limit is
    positive): a block whose least gap is :data:`SURE_MARGIN` inside the limit or past it
    has the same answer pair by pair (R01.04-a: the units' distance is their closest model
    pair's)."""
    lays = [*rows, *cols]
    if not rows or not cols or not all(len(la) and la.round.all() for la in lays):
        return None
    a = np.concatenate([la.centres for la in rows])
    b = np.concatenate([la.centres for la in cols])
    gap = (np.hypot(a[:, 0, None] - b[None, :, 0], a[:, 1, None] - b[None, :, 1])
           - np.concatenate([la.radii for la in rows])[:, None]
           - np.concatenate([la.radii for la in cols])[None, :])
    starts_a = np.cumsum([0, *(len(la) for la in rows[:-1])])
    starts_b = np.cumsum([0, *(len(la) for la in cols[:-1])])
    least = np.minimum.reduceat(np.minimum.reduceat(gap, starts_a, axis=0), starts_b, axis=1)
    limit = dist + EPS
    out: list[list[int]] = np.where(least <= limit - SURE_MARGIN, 1,
                                    np.where(least > limit + SURE_MARGIN, 0, -1)).tolist()
    return out


def snap_targets(ctx: Context, u: UnitData) -> list[str]:
    """R15.09-a: the unengaged enemy units visible to the unit and within 24" of it."""
    facts = ShooterFacts(ctx, u)
    return [e.id for e in _in_reach(ctx, facts) if facts.unit_visible(e.id)]


_KEPT: list[tuple[weakref.ref[Visibility], str, frozenset[str], tuple[Target, ...]]] = \
    kept.slot()
"""The last Fire Overwatch selections: (the battlefield's Visibility, weakly: the kept answer
never keeps an old battlefield's caches alive; player, the units left out (:func:`_barred`),
targets)."""


def _barred(ctx: Context, player: str) -> frozenset[str]:
    """The ids of ``player``'s units that ``usage.legal_targets`` drops from any selection now
    whatever its geometry: battle-shocked (R01.07-c / R15.01-d) or already targeted by one of
    the player's stratagems this phase (R15.01-b). Their (unit, enemy) pairs are not searched
    (pass ow22): the request lists the same options in the same order (the search's order,
    less those units' pairs, which ``legal_targets`` skips anyway), and each other pair's
    answer is its own (which pairs are staged decides only what a later question finds kept,
    not its answer)."""
    targeted = {t for use in this_phase(ctx, player) for t in use.units}
    return frozenset(u.id for u in ctx.state.units_of(player)
                     if u.id in targeted or u.flag("battle_shocked"))


def _overwatch_targets(ctx: Context, facts: Facts, player: str) -> list[Target]:
    """R15.08-a / R15.09-a: each unengaged, non-TITANIC unit of ``player`` with each unengaged
    enemy unit within 24" that it sees. A function of the battlefield (the units, their
    models and positions: the scene that :func:`visibility` keys its Visibility on), so kept
    while that Visibility is the one in force: a window asks it twice (whether to open, then
    the request), with the same answer."""
    if facts.get("phase") != "movement":
        return []
    vis = visibility(ctx)
    barred = _barred(ctx, player)
    if _KEPT and _KEPT[0][0]() is vis and _KEPT[0][1] == player and _KEPT[0][2] == barred:
        return list(_KEPT[0][3])
    out = _overwatch_search(ctx, player, barred)
    _KEPT[:] = [(weakref.ref(vis), player, barred, tuple(out))]
    return out


def _overwatch_search(ctx: Context, player: str,
                      barred: frozenset[str] = frozenset()) -> list[Target]:
    """The search of :func:`_overwatch_targets`; the units of ``barred`` (:func:`_barred`)
    left out."""
    s = ctx.state
    units = [u for u in s.units_of(player)
             if not (u.id in barred or _TITANIC in u.keys or geo.is_engaged(ctx, u))]  # R15.08-a
    if not units:
        return []
    # what the search reads of each unit's ``ShooterFacts``, made once for them all (pass
    # ow23): its Visibility (``visibility(ctx, player)``: the same object for every unit of
    # the player, nothing changing between), its enemies (the opponent's units: one list)
    # and the scene indices
    vis = visibility(ctx, player)
    enemies = s.units_of(s.opponent(player))
    index = vis.unit_index
    shooters = [_Shooter(u, enemies, index[u.id]) for u in units]
    engaged: dict[int, bool] = {}
    # the 24" reach of every (shooter, enemy) pair from one matrix where it is plain (the
    # shooters are one player's: the same enemies)
    sure = _reach_sure([field.layout(u) for u in units], [field.layout(e) for e in enemies],
                       SNAP_RANGE)
    reach = [_in_reach(ctx, f, engaged, None if sure is None else sure[i])
             for i, f in enumerate(shooters)]
    # R15.09-a: some model of the unit sees some model of the enemy (06.01), the batched
    # sight tests of the candidate pairs staged in two rounds (the same answers)
    pairs = [(f, e) for f, es in zip(shooters, reach, strict=True) for e in es]
    seen = seen_pairs(vis, [(f.ou, index[e.id]) for f, e in pairs])
    return [Target(f.unit.id, {"enemy": e.id})
            for (f, e), ok in zip(pairs, seen, strict=True) if ok]


class _Shooter(NamedTuple):
    """What :func:`_overwatch_search` and :func:`_in_reach` read of a unit's
    ``ShooterFacts``: the unit, its enemy units (the opponent's, in state order) and its
    scene index."""

    unit: UnitData
    enemies: list[UnitData]
    ou: int


def _overwatch_effect(ctx: Context, facts: Facts, player: str, target: Target) -> None:
    # 15.09: the unit shoots (04) at the one enemy unit, hitting only on unmodified 6s.
    ctx.log("fire_overwatch", unit=target.unit, enemy=target.detail["enemy"])
    ctx.push("shoot_unit", unit=target.unit, snap=target.detail["enemy"])


FIRE_OVERWATCH = Stratagem(
    "Fire Overwatch", 1, Window.END_OF_PHASE, TurnKey.OPPONENTS, ("movement",), "15.08",
    _overwatch_targets, _overwatch_effect,
    text="At the end of the opponent's Movement phase, a friendly unengaged unit shoots at one "
         "enemy unit within 24\", hitting only on unmodified 6s.")


# -- 15.11 Heroic Intervention ---------------------------------------------------------------
def _heroic_targets(ctx: Context, facts: Facts, player: str) -> list[Target]:
    if facts.get("phase") != "charge":
        return []
    from w40k.engine.phases.charge import eligible_to_charge  # charge.py imports this module
    s = ctx.state
    enemies = s.units_of(s.opponent(player))
    out: list[Target] = []
    for u in s.units_of(player):
        keys = u.keys  # (``u.has(k)`` is ``canonical_keyword(k) in u.keys``: the keys made once)
        if _VEHICLE in keys and not (_CHARACTER in keys or _WALKER in keys):
            continue  # R15.11-a
        if _AIRCRAFT in keys or geo.is_engaged(ctx, u) or u.flag("selected_to_charge") \
                or u.flag("emergency_disembark"):  # R18.05-b: no charge this turn
            continue
        if not any(units_within(u, e, HEROIC_RANGE) for e in enemies):
            continue
        if not eligible_to_charge(ctx, u):
            continue  # R15.11-e: 11.02's restrictions this turn (emergency disembark ...)
        out.append(Target(u.id, {"mode": LEAP}))
        out.append(Target(u.id, {"mode": FRAY}, extra_cp=1))  # R15.01-c: the +1CP section
    return out


def _heroic_effect(ctx: Context, facts: Facts, player: str, target: Target) -> None:
    # 11.02: the unit declares a charge (the mode was chosen before the roll, R15.11-b).
    u = ctx.state.unit(target.unit)
    u.flags["selected_to_charge"] = True
    ctx.log("declare_charge", unit=u.id, heroic=target.detail["mode"])
    ctx.push("charge_unit", unit=u.id, heroic=target.detail["mode"])


HEROIC_INTERVENTION = Stratagem(
    "Heroic Intervention", 1, Window.END_OF_PHASE, TurnKey.OPPONENTS, ("charge",), "15.11",
    _heroic_targets, _heroic_effect,
    text="At the end of the opponent's Charge phase, a friendly unengaged unit within 12\" of "
         "an enemy charges: Leap to Defend (only units that charged), or Into the Fray (+1CP: "
         "roll capped at 6, any enemy within 6\").")


def heroic_roll(mode: str | None, roll: int) -> int:
    """15.11 Into the Fray: a charge roll greater than 6 becomes 6 (other charges: as rolled).
    ``mode``: the ``charge_unit`` frame's ``heroic`` mode."""
    if mode == FRAY:
        return min(roll, INTO_THE_FRAY_ROLL)
    return roll


def heroic_targets(ctx: Context, mode: str | None, u: UnitData,
                   ids: list[str]) -> list[str]:
    """15.11: the charge targets a heroic charge may select among ``ids`` (those within the
    maximum distance): Leap to Defend, units that made a charge move this phase; Into the
    Fray, units within 6" of the unit. Other charges: ``ids``."""
    if mode is None:
        return ids
    s = ctx.state
    if mode == LEAP:
        return [i for i in ids if s.unit(i).flag("charged")]
    return [i for i in ids if units_within(u, s.unit(i), INTO_THE_FRAY_REACH)]
