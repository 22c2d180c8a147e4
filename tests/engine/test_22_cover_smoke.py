"""15.10 Smokescreen's second part asked only when the target's player has another unit that
used Smokescreen this phase (issue 10, cover22: ``shooting._resolve`` reads the stratagems
used once per target, not per attacking model): ``ShooterFacts.smoke_cover`` is False
whenever no such unit exists, and the attacks resolve as when it is asked for every model
(the scripted scenes of tests/sections/s15_stratagems/test_15_10_smokescreen_behind.py)."""

from __future__ import annotations

import pytest

from tests.sections.s15_stratagems.test_15_10_smokescreen_behind import (
    _facts,
    _game,
    _shoot,
    _smokescreen,
)
from w40k.engine.phases import shooting
from w40k.engine.stratagems.effects import smokescreen_units

pytestmark = pytest.mark.stratagems

_CASES = [(use, y, x) for use in (True, False) for y in (15.0, 30.0) for x in (10.0, 25.0)]


@pytest.mark.parametrize(("use", "smoke_y", "target_x"), _CASES)
def test_no_other_smokescreened_unit_means_no_smoke_cover(use: bool, smoke_y: float,
                                                          target_x: float) -> None:
    # R15.10-a: the second part reads the models of the target's player's other
    # smokescreened units only
    game = _game(smoke_y, target_x=target_x)
    _smokescreen(game, use=use)
    f = _facts(game)
    for target in ("blue.t", "blue.v"):
        if not smokescreen_units(game.ctx, "blue") - {target}:
            assert not f.smoke_cover("red.s.1", target)


@pytest.mark.parametrize(("use", "smoke_y", "target_x"), _CASES)
def test_the_attacks_resolve_as_when_asked_for_every_model(
        use: bool, smoke_y: float, target_x: float, monkeypatch: pytest.MonkeyPatch) -> None:
    # R15.10-a, R13.08-a: the same hits with the pre-check and with smoke_cover always asked
    # (the pre-check made to see another unit)
    game = _game(smoke_y, target_x=target_x)
    _smokescreen(game, use=use)
    fast = _shoot(game)
    if use and smoke_y == 15.0 and target_x == 10.0:
        assert fast["hits"] == 0  # behind the SMOKE vehicle's base: cover, the 3 misses
    game = _game(smoke_y, target_x=target_x)
    _smokescreen(game, use=use)
    calls: list[str] = []
    real = shooting.ShooterFacts.smoke_cover

    def spy(self: shooting.ShooterFacts, model: str, target: str) -> bool:
        calls.append(target)
        return real(self, model, target)

    monkeypatch.setattr(shooting, "smokescreen_units", lambda *a: frozenset({"other"}))
    monkeypatch.setattr(shooting.ShooterFacts, "smoke_cover", spy)
    plain = _shoot(game)
    assert fast == plain
    assert calls or use  # asked for every model (unless the unit's own Smokescreen answers)
