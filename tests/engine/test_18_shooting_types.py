"""The shoot loop's eligibility test without listing the shooting types (issue 10, pass
atk18): ``has_shooting_type`` must answer ``bool(shooting_types(...))`` for every unit, engaged
or not, advanced or not, fallen back, with or without [ASSAULT], [PISTOL] and [INDIRECT FIRE]
weapons, melee weapons only, MONSTER / VEHICLE or INFANTRY (R10.02-a, R10.04-a, R10.05-a,
R10.06-a, R10.07-a, R09.07)."""

from __future__ import annotations

import random

from tests.engine import shooting_helpers as sh
from tests.engine.melee_helpers import BASE
from w40k.engine.game import Game
from w40k.engine.phases.shooting_facts import has_shooting_type, shooting_types

_ABILITIES = ("ASSAULT", "PISTOL", "INDIRECT FIRE", "HEAVY", "BLAST")


def _weapon(rng: random.Random, i: int) -> dict[str, object]:
    if rng.random() < 0.2:
        return sh.weapon(f"blade {i}", range="Melee")
    return sh.weapon(f"gun {i}", abilities=tuple(rng.sample(_ABILITIES, rng.randint(0, 2))))


def test_has_shooting_type_answers_whether_any_shooting_type_is_eligible() -> None:
    # R10.02-a: a unit can be selected to shoot only if eligible for some shooting type.
    rng = random.Random(18)
    seen: set[tuple[bool, bool]] = set()
    for case in range(160):
        keywords = rng.choice([("INFANTRY",), ("VEHICLE",), ("MONSTER",),
                               ("INFANTRY", "CHARACTER")])
        n = rng.randint(1, 3)
        models = [sh.model(f"red.a.{k + 1}", 10 + 1.5 * k, 10,
                           *[_weapon(rng, j) for j in range(rng.randint(0, 3))],
                           keywords=keywords) for k in range(n)]
        flags = {f: True for f in ("advanced", "fell_back", "desperate_escape")
                 if rng.random() < 0.3}
        engaged = rng.random() < 0.5
        y = 10 + BASE + 0.5 if engaged else 30
        red = sh.unit("red.a", models, flags=flags)
        game = Game.new(sh.position(red, sh.unit("blue.x", [sh.model("blue.x.1", 10, y)])),
                        seed=case)
        u = game.state.unit("red.a")
        if rng.random() < 0.1:
            for m in u.models:
                m.destroyed = True
        expected = bool(shooting_types(game.ctx, u))
        assert has_shooting_type(game.ctx, u) is expected, (case, flags, engaged, keywords)
        seen.add((engaged, expected))
    assert seen == {(False, False), (False, True), (True, False), (True, True)}
