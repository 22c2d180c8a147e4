"""A unit's keywords (02.05, Appendix 'Mixed keywords'): ``UnitData.has`` and ``keys`` read
each distinct keyword list of its living models once (every model of a loaded unit has its
own, equal, profile object), with the same answers as asking every model."""

from __future__ import annotations

from tests.engine.core_helpers import model, unit
from w40k.engine.state import UnitData


def _unit() -> UnitData:
    # three equal troopers (separate profiles), a sergeant with one keyword more, a dead
    # MONSTER: the unit is INFANTRY and CHARACTER, never MONSTER while a model lives
    models = [model(f"u.{i}", i * 2.0, 0.0, keywords=("INFANTRY", "BATTLELINE"))
              for i in range(3)]
    models.append(model("u.sgt", 8.0, 0.0, keywords=("INFANTRY", "BATTLELINE", "CHARACTER")))
    models.append(model("u.beast", 10.0, 0.0, keywords=("MONSTER",), destroyed=True))
    return UnitData.from_json(unit("u", "red", models))


def test_a_unit_has_every_living_models_keyword_in_any_number() -> None:
    u = _unit()
    assert len({id(m.profile) for m in u.models}) == len(u.models)  # no profile shared
    # R02.05-a: singular and plural forms are equivalent
    assert u.has("INFANTRY") and u.has("Characters") and u.has("BATTLELINE")
    assert not u.has("MONSTER") and not u.has("VEHICLE")  # the MONSTER model is destroyed
    assert u.keys == frozenset({"INFANTRY", "BATTLELINE", "CHARACTER"})
    for keyword in ("INFANTRY", "CHARACTER", "MONSTER", "VEHICLE"):
        assert u.has(keyword) == any(keyword in m.keys for m in u.alive)


def test_a_unit_with_no_living_model_has_every_models_keywords() -> None:
    u = _unit()
    for m in u.models:
        m.destroyed = True
    assert u.has("MONSTER") and u.has("CHARACTER")
    assert u.keys == frozenset({"INFANTRY", "BATTLELINE", "CHARACTER", "MONSTER"})
