"""The geometry models the moves' checks make and measure (``shapes.Model``): each model's
kept footprint and reach are its own, kept as attributes (CPython 3.11 keeps a model's
attributes inline while its ``__dict__`` is never read), and give the answers of a model made
afresh (01.04 distances from the base, 17.02 a FRAME's hull); ``shapes.new_model``
(``Model.moved``, ``field.shape``), the constructor's fields set without its ``__init__``,
is the model the constructor makes (the moves' checks make thousands a game: the ends of
the tried moves, each step of a validated path, R03.01-a..i)."""

from __future__ import annotations

import dataclasses
import itertools
import math
import pickle
import random

from w40k.core.profiles import ModelProfile
from w40k.engine import field
from w40k.engine.state import ModelData
from w40k.geometry.measure import horizontal_distance
from w40k.geometry.movement import ending_violations
from w40k.geometry.shapes import Model, new_model
from w40k.geometry.terrain import Terrain

_FIELDS = [f.name for f in dataclasses.fields(Model)]

_KEYWORDS = (frozenset(), frozenset({"INFANTRY"}), frozenset({"VEHICLE", "FRAME"}),
             frozenset({"MONSTER", "FLY"}))


def _random_args(rng: random.Random) -> tuple[object, ...]:
    base: float | tuple[float, float] | None = rng.choice(
        [25.0, 32.0, 40.0, (60.0, 35.0), (90.0, 52.0), (50.0, 50.0), None])
    hull = None
    if base is None or rng.random() < 0.2:
        hull = ((-1.5, -1.0), (1.5, -1.0), (1.5, 1.0), (-1.5, 1.0))
    x = rng.choice([0.0, -0.0, rng.uniform(0.0, 60.0), 1e-300])
    return ("Model " + str(rng.randrange(100)), x, rng.uniform(0.0, 44.0),
            rng.choice([0.0, 3.0, rng.uniform(0.0, 6.0)]), base, rng.uniform(0.5, 5.0),
            rng.choice([0.0, -0.0, rng.uniform(-math.pi, math.pi)]), rng.choice(_KEYWORDS),
            hull)


def _same(a: Model, b: Model, identical: bool = True) -> None:
    assert type(a) is type(b) is Model
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b)
    for name in _FIELDS:  # the very values (-0.0 and 0.0 included)
        va, vb = getattr(a, name), getattr(b, name)
        assert va is vb if identical else (type(va) is type(vb) and repr(va) == repr(vb))
    assert list(vars(a)) == list(vars(b)) == _FIELDS  # the same fields, in the same order
    assert pickle.loads(pickle.dumps(a)) == b
    assert a.footprint() == b.footprint() and a.reach() == b.reach()
    assert a.footprint().bbox() == b.footprint().bbox()


def test_new_model_is_the_constructors_model() -> None:
    rng = random.Random(19)
    for _ in range(500):
        args = _random_args(rng)
        made = Model(*args)  # type: ignore[arg-type]
        _same(new_model(*args), made)  # type: ignore[arg-type]
        assert dataclasses.replace(new_model(*args), x=1.0) == dataclasses.replace(  # type: ignore[arg-type]
            made, x=1.0)


def test_moved_is_the_constructors_model_at_the_new_place() -> None:
    # R03.01-a..i: a move's checks measure the model at each step's end (``moved``)
    rng = random.Random(7)
    terrain = Terrain((), ())
    for _ in range(500):
        m = Model(*_random_args(rng))  # type: ignore[arg-type]
        x, y = rng.uniform(0.0, 60.0), rng.uniform(0.0, 44.0)
        z = rng.choice([None, 0.0, 2.5])
        facing = rng.choice([None, 0.0, -0.0, rng.uniform(-math.pi, math.pi)])
        want = Model(m.name, x, y, m.z if z is None else z, m.base_mm, m.height,
                     m.facing if facing is None else facing, m.keywords, m.hull)
        got = m.moved(x, y, z, facing)
        _same(got, want)
        assert ending_violations(terrain, got) == ending_violations(terrain, want)
        with_frozen = False
        try:
            got.x = 3.0  # type: ignore[misc]
        except dataclasses.FrozenInstanceError:
            with_frozen = True
        assert with_frozen  # still frozen


def test_the_kept_shape_is_the_constructors_model() -> None:
    profile = ModelProfile(name="Boy", T=5, Sv=5, W=1, base_mm=32.0,
                           keywords=("Infantry", "Orks"))
    m = ModelData(id="red.boyz.1", name="Boy 1", profile=profile)
    m.x, m.y, m.z, m.facing = 10.5, -0.0, 0.0, 0.25
    field.forget()
    got = field.shape(m)
    _same(got, Model(m.id, m.x, m.y, m.z, 32.0, profile.height, m.facing,
                     frozenset({"INFANTRY", "ORKS"})), identical=False)


def test_the_kept_footprint_and_reach_are_each_models_own() -> None:
    # 01.04: distances are measured from each model's own base (17.02: a FRAME's hull)
    rng = random.Random(3)
    models = [Model(*_random_args(rng)) for _ in range(300)]  # type: ignore[arg-type]
    for m in models:
        fresh = Model(m.name, m.x, m.y, m.z, m.base_mm, m.height, m.facing, m.keywords,
                      m.hull)
        want = fresh._make_footprint()
        assert m.footprint() == want and m.footprint() is m.footprint()
        assert m.reach() == fresh.reach() and m.reach() == m.reach()
        moved = m.moved(m.x + 1.0, m.y)
        assert moved.footprint() != m.footprint()  # not the first model's (nor the class's)
    assert Model._footprint is None and Model._reach is None  # set on the models only
    for a, b in itertools.pairwise(models):
        fa, fb = a.footprint(), b.footprint()
        assert horizontal_distance(a, b) == horizontal_distance(
            Model(a.name, a.x, a.y, a.z, a.base_mm, a.height, a.facing, a.keywords, a.hull),
            Model(b.name, b.x, b.y, b.z, b.base_mm, b.height, b.facing, b.keywords, b.hull))
        assert (fa, fb) == (a.footprint(), b.footprint())
