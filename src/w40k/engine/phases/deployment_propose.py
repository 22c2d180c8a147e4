"""Proposers for the pre-battle sequence's free-form requests (engine/phases/deployment.py):
``declare_formations``, ``deploy`` and ``scout``, so that the random, greedy and heuristic
players answer them (engine/table.py PROPOSERS). Each draws only from the caller's RNG and
returns an answer the frame accepts."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, cast

from w40k.core.errors import IllegalChoice
from w40k.engine import geo, offtable
from w40k.engine.context import Context
from w40k.engine.moves import propose_move
from w40k.engine.phases.deployment import (
    DeploymentFrame,
    deploy_violations,
    formation_problems,
    infiltrators,
    reserve_limit,
    scout_move_check,
    scout_options,
    scouts,
    undeployed,
    zone_of,
)
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.engine.state import UnitData
from w40k.geometry import Model, MoveType
from w40k.geometry.movement import MoveViolation
from w40k.geometry.shapes import FloatArray
from w40k.rules.placement import Check, first_legal, grid, packed
from w40k.rules.setup import wholly_in_zone


def propose_formations(ctx: Context, req: Request, rng: random.Random) -> JSON:
    """A legal declaration: every AIRCRAFT in reserves (R23.01-a), then each other unit with
    Deep Strike (or, one time in three, any unit) in reserves and each INFANTRY unit (one time
    in two) embarked within a transport with room, kept only while the answer stays legal.
    Without points (no 20.01 limit to keep) it keeps at least half the units on the table."""
    s = ctx.state
    frame = ctx.need(DeploymentFrame)
    units = undeployed(s, req.player)
    most = len(units) // 2 if reserve_limit(s, frame, req.player) == 0 else len(units)
    reserves: list[str] = [u.id for u in units if offtable.is_aircraft(u)]
    embarked: dict[str, str] = {}
    transports = [u for u in units if offtable.capacity_of(u) is not None]
    for u in units:
        if offtable.is_aircraft(u):
            continue
        res, emb = list(reserves), dict(embarked)
        hosts = [t for t in transports if t.id != u.id and t.id not in emb]
        if hosts and u.id not in [t.id for t in transports] and rng.random() < 0.5:
            emb[u.id] = rng.choice(hosts).id
        elif (offtable.deep_strike(u) or rng.random() < 1 / 3) and len(res) < most:
            res.append(u.id)
        else:
            continue
        trial: JSON = {"reserves": list[JSON](res), "embarked": dict[str, JSON](emb)}
        if not formation_problems(s, frame, req.player, trial):
            reserves, embarked = res, emb
    return {"reserves": list[JSON](reserves), "embarked": dict[str, JSON](embarked)}


def _zone_anchors(zone: FloatArray, bf: Any, rng: random.Random,
                  step: float = 1.5) -> list[tuple[float, float]]:
    probe = Model("probe", 0.0, 0.0, base_mm=1.0)
    out = [a for a in grid(bf, step) if wholly_in_zone(replace(probe, x=a[0], y=a[1]), zone)]
    rng.shuffle(out)
    return out


def _checker(ctx: Context, u: UnitData, zone_only: bool = True) -> Check:
    # A ``models`` answer gives positions only: each model keeps its own facing, so a
    # block turned a quarter (first_legal) is checked as it will stand (an oval hull
    # turned in the check but not on the table left its zone).
    facings = [m.facing for m in u.alive]

    def check(models: list[Model]) -> list[MoveViolation]:
        kept = [replace(p, facing=f) for p, f in zip(models, facings, strict=True)]
        return deploy_violations(ctx, u, kept, zone_only=zone_only)
    return check


def _first_packed(models: list[Model], anchors: list[tuple[float, float]],
                  check: Check) -> list[Model] | None:
    """The first :func:`packed` block (rows of 4 or 6, along x or y) that ``check``
    accepts."""
    for x, y in anchors:
        for per_row, along_y in ((4, False), (4, True), (6, False), (6, True), (3, False),
                                 (3, True), (8, False), (8, True)):
            placed = packed(models, x, y, per_row, along_y)
            if not check(placed):
                return placed
    return None


def propose_deploy(ctx: Context, req: Request, rng: random.Random) -> JSON:
    """A legal ``deploy`` answer: the undeployed unit with the most models (ties at random)
    as a block at a random free spot
    of the zone (rules/placement.first_legal), or, one time in two for Infiltrators, of the
    whole battlefield (24.20); the next unit when one does not fit."""
    s = ctx.state
    units = undeployed(s, req.player)
    rng.shuffle(units)
    # the hardest unit to fit first (the most models), so a crowded zone
    # keeps room for it; ties stay in the random order
    units.sort(key=lambda u: -len(u.alive))
    bf = offtable.battlefield(s)
    anchors = _zone_anchors(zone_of(s, req.player), bf, rng)
    for u in units:
        models = [geo.model_shape(m) for m in u.alive]
        placed = None
        if infiltrators(u) and rng.random() < 0.5:
            anywhere = list(grid(bf, 2.0))
            rng.shuffle(anywhere)
            placed = first_legal(models, anywhere[:150], _checker(ctx, u, zone_only=False))
        if placed is None:
            placed = first_legal(models, anchors, _checker(ctx, u))
        if placed is None:  # a large unit a block of fives spreads over 9" (R03.03-b)
            placed = _first_packed(models, anchors, _checker(ctx, u))
        if placed is None:  # a crowded or narrow zone: every spot 0.5" apart
            fine = _zone_anchors(zone_of(s, req.player), bf, rng, step=0.5)
            placed = _first_packed(models, fine, _checker(ctx, u))
        if placed is not None:
            return {"unit": u.id,
                    "models": {m.id: [p.x, p.y] for m, p in zip(u.alive, placed, strict=True)}}
    raise RuntimeError(f"no unit of {req.player} fits in its deployment zone")


def scout_ends_clear(ctx: Context, unit: UnitData, answer: dict[str, JSON]) -> bool:
    """A proposed scout move passes the engine's own check (R24.32-a)."""
    try:
        scout_move_check(ctx, unit, answer)
    except IllegalChoice:
        return False
    return True


def propose_scout(ctx: Context, req: Request, rng: random.Random) -> JSON:
    """A legal ``scout`` answer: a Scouts unit's move toward the nearest enemy (or a reserve
    unit set up in the zone), or ``done`` when none is found (or one time in four)."""
    s = ctx.state
    frame = ctx.need(DeploymentFrame)
    if rng.random() < 0.25:
        return "done"
    for u in scout_options(s, frame, req.player):
        if u.location == offtable.RESERVES:
            anchors = _zone_anchors(zone_of(s, u.player), offtable.battlefield(s), rng)
            placed = first_legal([geo.model_shape(m) for m in u.alive], anchors,
                                 _checker(ctx, u))
            if placed is not None:
                return {"unit": u.id, "models": {m.id: [p.x, p.y] for m, p in
                                                 zip(u.alive, placed, strict=True)}}
            continue
        enemies = [m for e in s.units if e.player != u.player for m in e.alive]
        toward = None
        if enemies:
            cx = sum(m.x for m in u.alive) / len(u.alive)
            cy = sum(m.y for m in u.alive) / len(u.alive)
            e = min(enemies, key=lambda m: (m.x - cx) ** 2 + (m.y - cy) ** 2)
            toward = (e.x, e.y)

        moved = propose_move(ctx, u, MoveType.OTHER, cast(float, scouts(u, s)), rng,
                             toward=toward, extra_check=scout_ends_clear)
        if moved:
            return {"unit": u.id, "positions": cast(JSON, moved)}
    return "done"
