"""The normal move's proposer and its validation (geometry/movement.py): the other models near
every step found in one array operation (``_near_steps``) equal ``near_segment``'s per step;
``ends_refused`` (every end at once) equals the per-end tests it replaces; and where it
finds the ends clear, ``validate_move`` told so (``ENDS_CLEAR``) gives the plain answer."""

from __future__ import annotations

import math
import random

from tests.geometry.test_move_fast_paths import _scene, _unit
from w40k.geometry import movement
from w40k.geometry.measure import ENGAGEMENT_HORIZONTAL, engaged, overlaps
from w40k.geometry.movement import ENDS_CLEAR, MoveType, Step, ends_refused, validate_move
from w40k.geometry.scene import Scene
from w40k.geometry.shapes import EPS, Model


def _walks(rng: random.Random, models: list[Model]) -> tuple[dict[str, list[Step]],
                                                                list[list[Model]]]:
    """Random paths (one to three steps, some of them vertical only or not moving at all)
    and the models at the end of each step."""
    moves: dict[str, list[Step]] = {}
    for m in rng.sample(models, rng.randint(1, len(models))):
        path = []
        x, y = m.x, m.y
        for _ in range(rng.randint(1, 3)):
            kind = rng.random()
            if kind < 0.15:
                path.append(Step(x, y, m.z + rng.choice((0.0, 3.0))))  # vertical (or nothing)
                continue
            far = rng.choice((0.5, 2.0, 6.0))
            x, y = x + rng.uniform(-far, far), y + rng.uniform(-far, far)
            path.append(Step(x, y, None, rng.choice((None, 1.0))))
        moves[m.name] = path
    return moves, movement._walks({m.name: m for m in models}, moves)


def test_the_near_steps_are_the_near_segment_discs() -> None:
    # R03.01-d, R17.01-a: the models a step may pass through, for every step at once.
    rng = random.Random(11)
    batched = 0
    for _ in range(200):
        mine, theirs = _unit(rng, "a", rng.randint(1, 8)), _unit(rng, "b", rng.randint(0, 10))
        if theirs:  # close to the first unit
            ox, oy = mine[0].x - theirs[0].x + rng.uniform(-4, 4), mine[0].y - theirs[0].y
            theirs = [m.moved(m.x + ox, m.y + oy) for m in theirs]
        discs = movement.Discs.of(theirs)
        moves, walks = _walks(rng, mine)
        by_name = {m.name: m for m in mine}
        want = {}
        for name, walk in zip(moves, walks, strict=True):
            cur = by_name[name]
            for k, nxt in enumerate(walk):
                if math.hypot(nxt.x - cur.x, nxt.y - cur.y) > EPS:
                    want[(name, k)] = discs.near_segment(cur.x, cur.y, nxt.x, nxt.y,
                                                         cur.reach(), 0.0)
                cur = nxt
        got = movement._near_steps(discs, by_name, moves, walks)
        assert got == want
        batched += len(want) >= 2 and any(want.values())
    assert batched >= 50  # the array operation did run, and found models


def _plain_refused(scene: Scene, ends: list[Model], unengaged: bool) -> bool:
    """The per-end tests ``ends_refused`` replaces (the proposer's loop as it was)."""
    bf = scene.battlefield
    others, discs = movement.scene_others(scene, "A", "p1")
    for end in ends:
        x0, y0, x1, y1 = end.footprint().bbox()
        if x0 < -EPS or y0 < -EPS or x1 > bf.width + EPS or y1 > bf.depth + EPS:
            return True
        r = end.reach()
        if any(overlaps(end, others[i][1])
               for i in discs.near_segment(end.x, end.y, end.x, end.y, r, 0.0)):
            return True
        reach = ENGAGEMENT_HORIZONTAL + EPS
        if unengaged and any(not others[i][0] and engaged(end, others[i][1])
                             for i in discs.near_segment(end.x, end.y, end.x, end.y, r, reach)):
            return True
        if movement.ending_violations(scene.terrain, end):
            return True
    return False


def _translation(rng: random.Random, scene: Scene) -> tuple[dict[str, list[Step]], list[Model]]:
    """Some of unit A's models moved by one vector (sometimes onto or next to unit B)."""
    unit = scene.unit("A")
    movers = rng.sample(unit.models, rng.randint(1, len(unit.models)))
    if rng.random() < 0.3:  # toward the other unit, often just short of it or onto it
        o = rng.choice(scene.unit("B").models)
        m = movers[0]
        d = math.hypot(o.x - m.x, o.y - m.y) or 1.0
        f = 1.0 - rng.choice((0.0, 0.5, 1.0, 1.5, 2.5)) / d
        dx, dy = (o.x - m.x) * f, (o.y - m.y) * f
    else:
        far = rng.choice((1.0, 3.0, 8.0))
        dx, dy = rng.uniform(-far, far), rng.uniform(-far, far)
    moves = {m.name: [Step(m.x + dx, m.y + dy)] for m in movers}
    return moves, [m.moved(m.x + dx, m.y + dy) for m in movers]


def test_ends_refused_equals_the_per_end_tests() -> None:
    # R03.01-c, R03.01-f, R03.01-i, R09.05-a, R13.06-g: the same answer for every end at once.
    rng = random.Random(12)
    refused = 0
    for _ in range(400):
        scene = _scene(rng)
        movement._DISCS.clear()
        _, ends = _translation(rng, scene)
        unengaged = rng.random() < 0.7
        want = _plain_refused(scene, ends, unengaged)
        assert ends_refused(scene, "A", "p1", ends, unengaged) == want
        refused += want
    assert 40 <= refused <= 360  # both answers came up


def test_clear_ends_leave_the_answer() -> None:
    # R03.01-a, R03.01-c, R03.01-d, R03.03-d, R09.05-a, R13.06-c: with the ends found clear,
    # validate_move gives the same violations in the same order (own-unit overlaps, paths,
    # coherency and the unmoved models' engagement are still measured).
    rng = random.Random(13)
    clear = rules = 0
    seen: set[str] = set()
    for _ in range(900):
        scene = _scene(rng)
        movement._DISCS.clear()
        moves, ends = _translation(rng, scene)
        mt = rng.choice((MoveType.NORMAL, MoveType.ADVANCE, MoveType.FALL_BACK,
                         MoveType.OTHER))
        unengaged = mt is not MoveType.OTHER
        if ends_refused(scene, "A", "p1", ends, unengaged):
            continue
        clear += 1
        whole = validate_move(scene, "A", moves, mt, 6.0)
        movement._DISCS.clear()
        assert validate_move(scene, "A", moves, mt, 6.0, skip=(ENDS_CLEAR,)) == whole
        assert validate_move(scene, "A", moves, mt, 6.0, skip=(ENDS_CLEAR,),
                             first=True) == whole[:1]
        seen |= {v.rule for v in whole}
        rules += bool(whole)
    assert clear >= 80 and rules >= 30  # clear ends with other violations came up
    assert {"R03.01-a", "R03.01-c", "R03.03-d", "R09.07-e"} <= seen
