"""A unit's keywords (02.05, Appendix 'Mixed keywords'): ``UnitData.has`` and ``keys`` read
each distinct keyword list of its living models once (every model of a loaded unit has its
own, equal, profile object), with the same answers as asking every model."""

from __future__ import annotations

from dataclasses import replace

from tests.engine.core_helpers import model, unit
from w40k.core.keywords import canonical_keyword
from w40k.engine.state import GameState, UnitData


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


def _plain(u: UnitData) -> frozenset[str]:
    # Appendix 'Mixed keywords', asked of every model afresh (no kept answer)
    return frozenset().union(*(m.keys for m in (u.alive or u.models)))


def _same_as_plain(u: UnitData) -> None:
    assert u.keys == _plain(u)
    for keyword in ("INFANTRY", "Characters", "MONSTER", "VEHICLE", "FLY"):
        assert u.has(keyword) == (canonical_keyword(keyword) in _plain(u))


def test_the_kept_keys_follow_every_change_of_the_units_models() -> None:
    # R02.05-a, Appendix 'Mixed keywords': the keys are kept while no model is placed and the
    # unit holds the same models; each change below must be seen
    u = _unit()
    other = UnitData.from_json(unit("o", "red", [
        model("o.1", 0.0, 5.0, keywords=("VEHICLE", "FLY")),
        model("o.2", 2.0, 5.0, keywords=("VEHICLE",))]))
    _same_as_plain(u)
    assert u.keys is u.keys  # kept: the same set
    u.models[3].destroyed = True  # the sergeant dies: no CHARACTER
    _same_as_plain(u)
    assert not u.has("CHARACTER")
    u.models[0].profile = replace(u.models[0].profile, keywords=("INFANTRY", "FLY"))
    _same_as_plain(u)
    assert u.has("FLY")
    # another model object put in place (made before the keys were kept: no count bump after)
    _same_as_plain(u)
    u.models[1] = other.models[0]
    _same_as_plain(u)
    assert u.has("VEHICLE")
    u.models = list(other.models) + u.models[2:]  # a new list of the same length
    _same_as_plain(u)
    u.models.append(other.models[1])  # in place, one more model
    _same_as_plain(u)
    for m in u.models:
        m.destroyed = True
    _same_as_plain(u)


def test_the_kept_keys_follow_a_restore() -> None:
    # a refused answer's restore sets the destroyed flags back (Game.submit)
    u = _unit()
    state = GameState(battlefield={}, terrain={}, players=[], units=[u])
    assert u.has("CHARACTER")
    cp = state.checkpoint()
    u.models[3].destroyed = True
    assert not u.has("CHARACTER")
    state.restore(cp)
    assert u.has("CHARACTER")
    _same_as_plain(u)
