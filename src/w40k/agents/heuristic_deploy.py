"""The heuristic player before the battle (engine/phases/deployment.py): its answers to
``declare_formations``, ``deploy``, ``scout`` and ``first_turn``.

- **Declare Battle Formations** (20.01, 18.01, 23.01): every AIRCRAFT in strategic reserves
  (R23.01-a), then the army file's own choices (a unit it starts ``embarked_in`` a transport
  or in ``reserves``, read from the game's starting position), then each unit with Deep
  Strike and each fast, fragile, short-ranged melee unit (:func:`fast_and_fragile`) in
  reserves, and each empty transport loaded with the unit that wants it most (melee-minded
  INFANTRY first, never Infiltrators or Scouts, whose abilities need them on the table);
  each addition is kept only while the declaration stays legal (``formation_problems``:
  the 50% points limit, capacity).
- **Deployment** (03.02): units deploy in the order long-range shooters, transports, melee
  units, lone characters, Infiltrators (the later ones see where the enemy stands). Each
  unit's place is scored on a 2" grid of anchors where its packed block
  (``rules/placement.packed``) fits (a hundred or two, no geometry but segment tests), and
  on a finer ½" grid around the best two; forward units' anchors are nudged toward their
  goal while the block fits; the best anchors are tried, best first, with the engine's own
  check (``deploy_violations``) until one is legal:
  shooters near terrain (:func:`cover_distance`) with open lanes (:func:`open_lanes`, no
  dense terrain in between) to the objectives and the battlefield's centre; melee units and
  transports as far forward as possible toward the objective they go for (the nearest one
  not already claimed by a friendly forward unit), out of the lanes of enemy shooters
  already deployed; a character that is not attached next to a friendly INFANTRY unit;
  Infiltrators anywhere legal (more than 8" from the enemy's zone and units, R24.20-a) as
  close as possible to their objective. A small random jitter (the agent's RNG) breaks
  near-ties, so placements vary with the seed.
- **Scouts** (24.31): a reserve unit is set up as a deployment would; a unit on the table
  moves toward its planned objective (``heuristic_plan``), ending more than 8" from every
  enemy (R24.32-a, the engine's ``scout_move_check``); ``done`` when nothing legal is
  found.
- **First turn** (07.02, the roll-off's winner chooses): take it, unless the opponent has
  clearly more long-range firepower (``SECOND_IF_OUTGUNNED`` times ours, expected damage at
  24") and we have units in reserve: then go second, so that their first volley finds
  fewer targets and our reserves arrive with the last turn to take objectives.

Every answer is checked with the engine's own rules before it is given; when nothing is
found the engine's proposer answers (``safe_answer``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from w40k.agents import deploy_grid, deploy_scores
from w40k.agents.deploy_scores import Kept, Seg, point_in_polygon
from w40k.agents.heuristic_eval import (
    Estimates,
    centre,
    max_range,
    move_of,
    value_of,
)
from w40k.agents.heuristic_plan import plan
from w40k.core import kept
from w40k.engine import geo, offtable
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.engine.moves import propose_move
from w40k.engine.phases.deployment import (
    DeploymentFrame,
    deploy_violations,
    formation_problems,
    infiltrators,
    scout_options,
    scouts,
    undeployed,
    zone_of,
)
from w40k.engine.phases.deployment_propose import scout_ends_clear
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.engine.state import GameState, UnitData
from w40k.geometry import Model, MoveType
from w40k.geometry.shapes import FloatArray
from w40k.rules.placement import packed

Point = tuple[float, float]

LONG_RANGE = 18.0
"""A unit whose longest ranged weapon reaches this far is a shooter (deploys for lanes)."""
REACH_DISCOUNT = 0.4
"""What a unit's melee is worth against its shooting when it deploys (it must reach)."""
FAST = 10.0
"""A melee unit with at least this Move is fast (strategic reserves suit it)."""
FRAGILE_WOUNDS = 12
"""A fast melee unit with at most this many wounds in all is fragile."""
ANCHOR_STEP = 2.0
"""The grid of candidate anchors in the zone (inches apart)."""
TRIES = 60
"""At most this many anchors are checked with the engine's rules (best first)."""
FINE_AROUND = 2
"""Around how many of the best anchors a finer grid is scored."""
FINE_STEP, FINE_REACH = 0.5, 6
"""The finer grid: ``FINE_STEP``" apart, ``FINE_REACH`` steps each way (3")."""
NUDGE = 0.25
"""The step (inches) a forward unit's anchor is moved toward its goal while it fits."""
FORWARD = ("melee", "transport", "infiltrator")
"""The roles that deploy as far forward toward their objective as they can."""
SCOUT_TURNS = (0.0, 25.0, -25.0, 50.0, -50.0, 75.0, -75.0)
"""The bearings (degrees off the line to its goal) a scout move tries, in order: each one
still brings the unit nearer its goal."""
SECOND_IF_OUTGUNNED = 1.25
"""Go second when the enemy's long-range firepower is this many times ours (and we have
reserves)."""


# -- Declare Battle Formations -------------------------------------------------------------
def _starting_choices(game: Game, player: str) -> tuple[list[str], dict[str, str]]:
    """The reserves and the embarked units the game's starting position gives ``player``
    (an army file's ``reserves`` and ``embarked_in``, io/battle_setup.py)."""
    setup = game.record().get("setup")
    units = setup.get("units") if isinstance(setup, dict) else None
    reserves: list[str] = []
    embarked: dict[str, str] = {}
    for u in units if isinstance(units, list) else []:
        if not isinstance(u, dict) or u.get("player") != player:
            continue
        where, host = u.get("location"), u.get("embarked_in")
        if where == offtable.RESERVES:
            reserves.append(str(u["id"]))
        elif where == offtable.EMBARKED and isinstance(host, str):
            embarked[str(u["id"])] = host
    return reserves, embarked


def fast_and_fragile(u: UnitData, enemies: list[UnitData], est: Estimates) -> bool:
    """A fast (Move :data:`FAST`"+), fragile (:data:`FRAGILE_WOUNDS` wounds or fewer, no
    VEHICLE or MONSTER), short-ranged (under :data:`LONG_RANGE`) melee unit: it waits in
    strategic reserves instead of standing in the open for a turn."""
    wounds = sum(m.remaining for m in u.alive)
    return (move_of(u) >= FAST and wounds <= FRAGILE_WOUNDS and max_range(u) < LONG_RANGE
            and not u.has("VEHICLE") and not u.has("MONSTER") and melee_first(u, enemies, est))


def _wants_ride(u: UnitData, enemies: list[UnitData], est: Estimates
                ) -> tuple[int, float, str]:
    """Who rides first (smallest): melee-minded units, then the shortest-ranged."""
    return (0 if melee_first(u, enemies, est) else 1, max_range(u), u.id)


def declare(game: Game, r: Request, est: Estimates | None = None) -> JSON:
    """The ``declare_formations`` answer (module docstring); ``est``: the player's estimates
    (:class:`~w40k.agents.heuristic_eval.Estimates`; default: a fresh view of the state)."""
    s = game.state
    est = Estimates(s) if est is None else est
    frame = game.ctx.need(DeploymentFrame)
    units = {u.id: u for u in undeployed(s, r.player)}
    enemies = [u for u in (*s.units, *s.off_table) if u.player != r.player]
    reserves: list[str] = []
    embarked: dict[str, str] = {}

    def keep(res: list[str], emb: dict[str, str]) -> bool:
        trial: JSON = {"reserves": list[JSON](res), "embarked": dict[str, JSON](emb)}
        if formation_problems(s, frame, r.player, trial):
            return False
        reserves[:] = res
        embarked.clear()
        embarked.update(emb)
        return True

    for u in units.values():  # R23.01-a: every AIRCRAFT starts in strategic reserves
        if offtable.is_aircraft(u):
            keep([*reserves, u.id], dict(embarked))
    own_res, own_emb = _starting_choices(game, r.player)
    for uid, tid in own_emb.items():
        if uid in units and tid in units and uid not in reserves:
            keep(list(reserves), {**embarked, uid: tid})
    for uid in own_res:
        if uid in units and uid not in reserves and uid not in embarked:
            keep([*reserves, uid], dict(embarked))
    for u in units.values():
        if u.id in reserves or u.id in embarked or u.id in embarked.values():
            continue
        if offtable.deep_strike(u) or (fast_and_fragile(u, enemies, est) and not infiltrators(u)
                                       and scouts(u) is None):
            keep([*reserves, u.id], dict(embarked))
    hosts = [t for t in units.values() if offtable.capacity_of(t) is not None
             and t.id not in embarked and t.id not in embarked.values()]
    riders = sorted((u for u in units.values() if u.id not in reserves
                     and u.id not in embarked and offtable.capacity_of(u) is None
                     and not infiltrators(u) and scouts(u) is None),
                    key=lambda u: _wants_ride(u, enemies, est))
    for t in hosts:
        for u in riders:
            if u.id not in embarked and keep(list(reserves), {**embarked, u.id: t.id}):
                break
    return {"reserves": list[JSON](reserves), "embarked": dict[str, JSON](embarked)}


# -- terrain and lanes ---------------------------------------------------------------------
@dataclass(frozen=True)
class Piece:
    """A terrain piece as the deployment scores see it."""

    category: str
    poly: tuple[Point, ...]
    edges: tuple[tuple[Point, Point], ...]
    box: tuple[float, float, float, float]


def _segs(edges: tuple[tuple[Point, Point], ...]) -> tuple[Seg, ...]:
    """Each edge ``a``-``b`` as ``(ax, ay, bx, by, dx, dy, n)``: its ends, ``b - a`` and
    ``|b - a|²`` (what :func:`_seg_dist` and the crossing test compute per call)."""
    out: list[Seg] = []
    for (ax, ay), (bx, by) in edges:
        dx, dy = bx - ax, by - ay
        out.append((ax, ay, bx, by, dx, dy, dx * dx + dy * dy))
    return tuple(out)


_PIECES: dict[int, tuple[object, tuple[Piece, ...]]] = kept.table()
"""The pieces of a terrain section, kept by its identity (a state's terrain never changes)."""


def _pieces(state: GameState) -> tuple[Piece, ...]:
    """The terrain pieces (category, footprint, edges, bounding box)."""
    kept = _PIECES.get(id(state.terrain))
    if kept is not None and kept[0] is state.terrain:
        return kept[1]
    out: list[Piece] = []
    for t in cast(list[dict[str, JSON]], state.terrain.get("terrain", [])):
        foot = [(float(p[0]), float(p[1])) for p in cast(list[list[float]],
                                                           t.get("footprint", []))]
        if len(foot) < 3:
            continue
        out.append(Piece(str(t.get("category", "")), tuple(foot), tuple(_edges(foot)),
                         (min(x for x, _ in foot), min(y for _, y in foot),
                          max(x for x, _ in foot), max(y for _, y in foot))))
    if len(_PIECES) > 8:
        _PIECES.clear()
    _PIECES[id(state.terrain)] = (state.terrain, tuple(out))
    return tuple(out)


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / n))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _edges(poly: Sequence[Point]) -> list[tuple[Point, Point]]:
    return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]


def cover_distance(state: GameState, p: Point) -> float:
    """How far ``p`` is from the nearest terrain piece that gives cover (dense or light; 0
    inside one): :func:`~w40k.agents.deploy_scores.cover_one` of the cover pieces."""
    return deploy_scores.cover_one(_kept(state)[0], p)


_KEPT: dict[int, tuple[object, tuple[list[Kept], list[Kept]]]] = kept.table()
"""Per terrain section (by identity): the cover pieces and the dense pieces, each as
``(poly, box, segs)`` (what :func:`cover_distance` and :func:`clear_lane` walk)."""


def _kept(state: GameState) -> tuple[list[Kept], list[Kept]]:
    kept = _KEPT.get(id(state.terrain))
    if kept is not None and kept[0] is state.terrain:
        return kept[1]
    pieces = _pieces(state)
    out = ([(t.poly, t.box, _segs(t.edges)) for t in pieces if t.category in ("dense", "light")],
           [(t.poly, t.box, _segs(t.edges)) for t in pieces if t.category == "dense"])
    if len(_KEPT) > 8:
        _KEPT.clear()
    _KEPT[id(state.terrain)] = (state.terrain, out)
    return out


def clear_lane(state: GameState, p: Point, q: Point) -> bool:
    """Whether the segment ``p``-``q`` crosses no dense terrain piece (a wall that blocks
    sight; a rough, horizontal estimate of a firing lane):
    :func:`~w40k.agents.deploy_scores.clear_one` of the dense pieces."""
    return deploy_scores.clear_one(_kept(state)[1], p, q)


def lane_targets(state: GameState) -> list[Point]:
    """What a shooter wants to see: the objectives and the battlefield's centre."""
    bf = offtable.battlefield(state)
    return [(o.x, o.y) for o in state.objectives] + [(bf.width / 2, bf.depth / 2)]


def open_lanes(state: GameState, p: Point) -> int:
    """How many of :func:`lane_targets` ``p`` sees along a :func:`clear_lane`."""
    return sum(clear_lane(state, p, q) for q in lane_targets(state))


# -- Deployment ------------------------------------------------------------------------------
def role(u: UnitData, enemies: list[UnitData], est: Estimates) -> str:
    """``shooter``, ``transport``, ``melee``, ``character`` (not attached) or
    ``infiltrator``: what decides where (and when) the unit deploys."""
    if infiltrators(u):
        return "infiltrator"
    if offtable.capacity_of(u) is not None:
        return "transport"
    if u.has("CHARACTER") and not u.attached:
        return "character"
    if max_range(u) < LONG_RANGE or melee_first(u, enemies, est):
        return "melee"
    return "shooter"


def melee_first(u: UnitData, enemies: list[UnitData], est: Estimates) -> bool:
    """Whether ``u`` does more in melee (charging, discounted by :data:`REACH_DISCOUNT`: it
    must get there first) than by shooting at 18", against the enemy's units in all
    (wherever they stand: a role that does not change as the armies deploy)."""
    melee = sum(value_of(est.melee_outcome(u, e, charged=True), e) for e in enemies)
    shoot = sum(value_of(est.ranged_outcome(u, e, distance=min(max_range(u), 18.0)), e)
                for e in enemies)
    return REACH_DISCOUNT * melee > shoot


ORDER = ("shooter", "transport", "melee", "character", "infiltrator")
"""The order the heuristic deploys its units in, by role."""


def _anchors(zone: FloatArray, bf_w: float, bf_d: float, rng: random.Random) -> list[Point]:
    """Grid points inside ``zone`` (offset by a random fraction of a step)."""
    ox, oy = rng.uniform(0, ANCHOR_STEP), rng.uniform(0, ANCHOR_STEP)
    poly = [(float(x), float(y)) for x, y in zone]
    return deploy_scores.grid(ox, oy, ANCHOR_STEP, bf_w, bf_d, poly)


def _forward_goal(state: GameState, player: str, zone: FloatArray) -> Point:
    """The objective a forward unit goes for: the nearest to our zone that no friendly
    forward unit already stands closest to (else the nearest)."""
    zx, zy = float(zone[:, 0].mean()), float(zone[:, 1].mean())
    poly = [(float(x), float(y)) for x, y in zone]
    objs = [(o.x, o.y) for o in state.objectives if not point_in_polygon((o.x, o.y), poly)]
    objs = objs or [(o.x, o.y) for o in state.objectives]
    if not objs:
        return offtable.battlefield(state).width / 2, offtable.battlefield(state).depth / 2
    claimed: dict[Point, int] = {}
    for u in state.units_of(player):
        if max_range(u) >= LONG_RANGE and offtable.capacity_of(u) is None:
            continue
        c = centre(u)
        near = min(objs, key=lambda o: math.hypot(o[0] - c[0], o[1] - c[1]))
        claimed[near] = claimed.get(near, 0) + 1
    return min(objs, key=lambda o: (claimed.get(o, 0), math.hypot(o[0] - zx, o[1] - zy)))


def _shooters(state: GameState, player: str) -> list[tuple[Point, float]]:
    """The enemy's shooters on the table: centre and range plus move (what a placement's
    exposure is measured against, :func:`_scores`; read once per placement)."""
    out: list[tuple[Point, float]] = []
    for e in state.units_of(state.opponent(player)):
        reach = max_range(e)
        if reach >= LONG_RANGE:
            out.append((centre(e), reach + move_of(e)))
    return out


def _scores(state: GameState, kind: str, points: Sequence[Point], goal: Point,
            guard: Point | None, shooters: list[tuple[Point, float]], lanes: list[Point]
            ) -> list[float]:
    """Smaller is better: where a unit of ``kind`` should stand, its anchor at each of
    ``points`` (module docstring; ``shooters``/``lanes``: :func:`_shooters` and
    :func:`lane_targets`, read once by the caller). A shooter: the distance to cover (at
    most 6") less 2 per open lane to a target, plus 0.5 per enemy shooter that sees the
    point; a character with a guard: the distance to it; the others: the distance to
    ``goal``, plus 3 per enemy shooter that sees the point and 0.2 x the distance to cover
    (at most 6"). Every point at once (agents/deploy_scores.py), the same floats as the
    point-by-point formula (kept in tests/agents/test_deploy_scores.py)."""
    if kind == "character" and guard is not None:
        return [math.hypot(p[0] - guard[0], p[1] - guard[1]) for p in points]
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    cover, dense = _kept(state)
    capped = deploy_scores.cover_distances(cover, xs, ys, cap=6.0)  # min(cover_distance, 6.0)
    if kind == "shooter":
        seen, exposed = deploy_scores.lanes_and_exposure(dense, shooters, lanes, xs, ys)
        return [c - 2.0 * n + 0.5 * e for c, n, e in zip(capped, seen, exposed, strict=True)]
    _, exposed = deploy_scores.lanes_and_exposure(dense, shooters, None, xs, ys)
    gx, gy = goal
    return [math.hypot(x - gx, y - gy) + 3.0 * e + 0.2 * c
            for x, y, c, e in zip(xs, ys, capped, exposed, strict=True)]


Shape = tuple[int, bool]
"""A block's shape: models per row, and whether the rows run along y instead of x."""
SHAPES: tuple[Shape, ...] = ((5, False), (5, True), (4, False), (4, True), (6, False),
                             (6, True), (3, False), (3, True))
"""The blocks tried (a 21-model unit must stay within 9" of itself, R03.03-b, and fit a
12"-wide zone)."""


def _placed(u: UnitData, p: Point, shape: Shape) -> list[Model]:
    """The unit as a packed block centred on ``p`` (rules/placement.packed: rows of
    ``shape[0]``, in coherency, each model keeping its own facing: a ``deploy`` answer gives
    positions only)."""
    return packed([geo.model_shape(m) for m in u.alive], p[0], p[1], shape[0], shape[1])


def _extent(u: UnitData, shape: Shape) -> tuple[float, float, float, float]:
    """The bounding box of the unit's block around (0, 0)."""
    boxes = [m.footprint().bbox() for m in _placed(u, (0.0, 0.0), shape)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _fits(p: Point, box: tuple[float, float, float, float], poly: list[Point]) -> bool:
    """Whether the block's box around ``p`` has its four corners within ``poly``."""
    x0, y0, x1, y1 = box
    return all(point_in_polygon((p[0] + dx, p[1] + dy), poly)
               for dx, dy in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


def _crowded(p: Point, box: tuple[float, float, float, float], taken: list[Point],
             blocks: list[tuple[float, float, float, float]]) -> bool:
    """Whether a model already on the table stands within the block's box around ``p``, or
    the box overlaps a terrain piece's box (a base may not end partway through a piece,
    03.01; a quick filter before the engine's exact check)."""
    x0, y0, x1, y1 = p[0] + box[0], p[1] + box[1], p[0] + box[2], p[1] + box[3]
    if any(x0 - 0.5 < q[0] < x1 + 0.5 and y0 - 0.5 < q[1] < y1 + 0.5 for q in taken):
        return True
    return any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in blocks)


def _far_from(p: Point, box: tuple[float, float, float, float], points: list[Point],
              poly: list[Point] | None) -> bool:
    """R24.20-a, roughly (the engine checks it exactly): the block's box around ``p`` more
    than 8" from the ``points`` (enemy models) and from the polygon ``poly`` (their zone)."""
    x0, y0, x1, y1 = box
    reach = max(x1 - x0, y1 - y0) / 2 + 8.0
    if any(math.hypot(p[0] - q[0], p[1] - q[1]) <= reach - 1.0 for q in points):
        return False
    if poly is None:
        return True
    if point_in_polygon(p, poly):
        return False
    return min(_seg_dist(p, a, b) for a, b in _edges(poly)) > reach - 1.0


def _far_from_all(pts: Sequence[Point], box: tuple[float, float, float, float],
                  points: list[Point], poly: list[Point] | None) -> list[bool]:
    """``[_far_from(p, box, points, poly) for p in pts]``: numpy's answer where it settles
    it (agents/deploy_scores.py), the scalar's where it does not."""
    x0, y0, x1, y1 = box
    bound = max(x1 - x0, y1 - y0) / 2 + 8.0 - 1.0  # _far_from's reach - 1.0
    sure = deploy_scores.far_from([p[0] for p in pts], [p[1] for p in pts], bound, points,
                                  poly)
    return [_far_from(p, box, points, poly) if v is None else v
            for p, v in zip(pts, sure, strict=True)]


def place(ctx: Context, u: UnitData, rng: random.Random, *, zone_only: bool = False,
          est: Estimates | None = None) -> dict[str, JSON] | None:
    """The best legal placement of ``u`` (``{model id: [x, y]}``) for its role, or None:
    anchors whose block fits in the zone (or, for Infiltrators, on the battlefield away from
    the enemy) scored (module docstring); the best :data:`TRIES` and then a spread of the
    others checked with ``deploy_violations`` (03.02, R24.20-a)."""
    s = ctx.state
    enemies = [e for e in (*s.units, *s.off_table) if e.player != u.player]
    kind = role(u, enemies, Estimates(s) if est is None else est)
    zone = zone_of(s, u.player)
    bf = offtable.battlefield(s)
    whole = [(0.0, 0.0), (bf.width, 0.0), (bf.width, bf.depth), (0.0, bf.depth)]
    own = [(float(x), float(y)) for x, y in zone]
    infiltrate = kind == "infiltrator" and not zone_only
    opp = offtable.opponent_zone(s, u.player)
    opp_poly = None if opp is None else [(float(x), float(y)) for x, y in opp]
    foes = [(m.x, m.y) for e in s.units_of(s.opponent(u.player)) for m in e.alive]
    goal = _forward_goal(s, u.player, zone)
    guard = None
    if kind == "character":
        friends = [f for f in s.units_of(u.player) if f.has("INFANTRY")
                   and not f.has("CHARACTER")]
        if friends:
            guard = centre(max(friends, key=lambda f: (len(f.alive), f.id)))
    cands: list[tuple[float, Point, Shape]] = []
    shapes = list(dict.fromkeys((min(n, len(u.alive)), along) for n, along in SHAPES))
    boxes = [(shape, _extent(u, shape)) for shape in shapes]
    area = whole if infiltrate else own
    lo_x, hi_x = min(x for x, _ in area) - 12.0, max(x for x, _ in area) + 12.0
    lo_y, hi_y = min(y for _, y in area) - 12.0, max(y for _, y in area) + 12.0
    taken = [(m.x, m.y) for f in s.units for m in f.alive
             if lo_x < m.x < hi_x and lo_y < m.y < hi_y]
    blocks = [t.box for t in _pieces(s)]
    shooters, lanes = _shooters(s, u.player), lane_targets(s)
    anchors = _anchors(np.array(area), bf.width, bf.depth, rng)
    ax = np.array([a[0] for a in anchors], dtype=float)
    ay = np.array([a[1] for a in anchors], dtype=float)
    open_ = [deploy_grid.open_blocks(ax, ay, box, area, taken, blocks).tolist()
             for _, box in boxes]  # _fits and not _crowded, for every anchor at once
    first: list[Shape | None] = [None] * len(anchors)  # the first shape that fits (the most
    for j, (shape, box) in enumerate(boxes):  # compact first), shape by shape
        idx = [i for i, ok in enumerate(open_[j]) if ok and first[i] is None]
        far = _far_from_all([anchors[i] for i in idx], box, foes, opp_poly) if infiltrate \
            else [True] * len(idx)
        for i, ok in zip(idx, far, strict=True):
            if ok:
                first[i] = shape
    scored = [(a, shape) for a, shape in zip(anchors, first, strict=True) if shape is not None]
    # each scored anchor's jitter drawn in the anchors' order, after its score
    for (a, shape), score in zip(scored, _scores(s, kind, [a for a, _ in scored], goal,
                                                 guard, shooters, lanes), strict=True):
        cands.append((score + rng.uniform(0.0, 0.3), a, shape))
    cands.sort(key=lambda t: t[0])
    box_of = dict(boxes)

    def usable(p: Point, shape: Shape) -> bool:
        box = box_of[shape]
        return _fits(p, box, area) and not _crowded(p, box, taken, blocks) and (
            not infiltrate or _far_from(p, box, foes, opp_poly))

    # the grid is coarse: a finer one around the best few anchors (a zone's front edge, the
    # gap beside a wall) is scored too
    fine: list[tuple[float, Point, Shape]] = []
    steps = [i * FINE_STEP for i in range(-FINE_REACH, FINE_REACH + 1)]
    offsets = [(dx, dy) for dx in steps for dy in steps]
    fx = np.array([o[0] for o in offsets], dtype=float)
    fy = np.array([o[1] for o in offsets], dtype=float)
    for _, a, shape in cands[:FINE_AROUND]:
        box = box_of[shape]
        near = deploy_grid.open_blocks(a[0] + fx, a[1] + fy, box, area, taken,
                                       blocks).tolist()  # usable's first two tests
        pts = [(a[0] + dx, a[1] + dy) for (dx, dy), ok in zip(offsets, near, strict=True)
               if (dx or dy) and ok]
        if infiltrate:
            pts = [p for p, ok in zip(pts, _far_from_all(pts, box, foes, opp_poly),
                                      strict=True) if ok]
        fine.extend((score, p, shape) for p, score in zip(
            pts, _scores(s, kind, pts, goal, guard, shooters, lanes), strict=True))
    fine.sort(key=lambda t: t[0])
    rest = cands[TRIES:]
    tries = sorted(fine[:FINE_AROUND] + cands[:TRIES], key=lambda t: t[0]) + rest[
        ::max(1, len(rest) // TRIES)]

    def nudged(a: Point, shape: Shape) -> Point:
        """A forward unit's anchor moved toward its goal while the block still fits (the
        grid is coarse: the zone's front edge lies between its points)."""
        d = math.hypot(goal[0] - a[0], goal[1] - a[1])
        if kind not in FORWARD or d < 1e-9:
            return a
        ux, uy = (goal[0] - a[0]) / d, (goal[1] - a[1]) / d
        best = a
        for k in range(1, int(min(d, 2 * ANCHOR_STEP) / NUDGE) + 1):
            p = (a[0] + ux * k * NUDGE, a[1] + uy * k * NUDGE)
            if not usable(p, shape):
                break
            best = p
        return best

    for _, a, shape in tries:
        for spot in dict.fromkeys((nudged(a, shape), a)):
            models = _placed(u, spot, shape)
            if not deploy_violations(ctx, u, models, zone_only=zone_only):
                return {m.id: [p.x, p.y] for m, p in zip(u.alive, models, strict=True)}
    return None


def deploy_order(state: GameState, units: list[UnitData], est: Estimates | None = None
                 ) -> list[UnitData]:
    """The order the heuristic sets its units up in (:data:`ORDER`, then the most points'
    worth of models first)."""
    enemies = [e for e in (*state.units, *state.off_table)
               if units and e.player != units[0].player]
    view = Estimates(state) if est is None else est
    return sorted(units, key=lambda u: (ORDER.index(role(u, enemies, view)), -len(u.alive),
                                        u.id))


def deploy(game: Game, r: Request, rng: random.Random, est: Estimates | None = None
           ) -> JSON:
    """The ``deploy`` answer; the engine's proposer's when no unit finds a legal place."""
    s = game.state
    est = Estimates(s) if est is None else est
    for u in deploy_order(s, undeployed(s, r.player), est):
        models = place(game.ctx, u, rng, est=est)
        if models is not None:
            return {"unit": u.id, "models": dict[str, JSON](models)}
    return sample(game, r, rng)


# -- Scouts ----------------------------------------------------------------------------------
def scout(game: Game, r: Request, rng: random.Random, est: Estimates | None = None) -> JSON:
    """The ``scout`` answer: the first Scouts unit with a legal set-up or move toward its
    planned objective; ``done`` when there is none."""
    s = game.state
    ctx = game.ctx
    frame = ctx.need(DeploymentFrame)
    est = Estimates(s) if est is None else est
    goals = plan(s, r.player, random.Random(rng.random()), est=est)
    for u in scout_options(s, frame, r.player):
        if u.location == offtable.RESERVES:
            models = place(ctx, u, rng, zone_only=True, est=est)
            if models is not None:
                return {"unit": u.id, "models": dict[str, JSON](models)}
            continue
        g = goals.get(u.id)
        toward = g.point if g is not None else _forward_goal(s, u.player, zone_of(s, u.player))

        dist = cast(float, scouts(u, s))
        cx, cy = centre(u)
        ahead = math.atan2(toward[1] - cy, toward[0] - cx)
        reach = min(dist, math.hypot(toward[0] - cx, toward[1] - cy))
        for turn in SCOUT_TURNS:  # toward the goal, else as near its bearing as is legal
            a = ahead + math.radians(turn)
            point = (cx + reach * math.cos(a), cy + reach * math.sin(a))
            moved = propose_move(ctx, u, MoveType.OTHER, dist, rng, toward=point,
                                 extra_check=scout_ends_clear, tries=0)
            if moved:
                return {"unit": u.id, "positions": cast(JSON, moved)}
    return "done"


# -- the first turn --------------------------------------------------------------------------
def firepower(state: GameState, player: str, est: Estimates | None = None) -> float:
    """``player``'s long-range firepower: the expected value its units on the table take
    from the average enemy unit at 24"."""
    foes = state.units_of(state.opponent(player))
    if not foes:
        return 0.0
    view = Estimates(state) if est is None else est
    return sum(value_of(view.ranged_outcome(u, e, distance=24.0), e)
               for u in state.units_of(player) for e in foes) / len(foes)


def first_turn(game: Game, r: Request, est: Estimates | None = None) -> JSON:
    """The ``first_turn`` answer (module docstring): ours, unless outgunned with reserves."""
    s = game.state
    est = Estimates(s) if est is None else est
    me, them = r.player, s.opponent(r.player)
    in_reserve = any(u.player == me and u.location == offtable.RESERVES for u in s.off_table)
    if in_reserve and firepower(s, them, est) > SECOND_IF_OUTGUNNED * firepower(s, me, est):
        return them
    return me
