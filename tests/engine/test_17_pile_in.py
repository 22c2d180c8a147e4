"""The pile-in placement's kept work against its plain answers (sixteenth session)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import numpy as np
import pytest

from tests.engine.melee_helpers import pending
from tests.engine.test_16_pile_in_bounds import _model, _plain
from tests.sections.s12_fight_phase.test_12_pile_in_proposer import random_pile_in
from w40k.engine.phases import melee_moves as mm
from w40k.engine.phases import pile_in_bounds as pb
from w40k.engine.phases import pile_in_propose as pp
from w40k.geometry import Model, movement, movement_kept
from w40k.geometry.battlefield import MARGIN
from w40k.geometry.scene import Unit


@pytest.mark.parametrize("seed", range(6))
def test_candidates_refused_whole_give_the_plain_empty_answer(seed: int) -> None:
    """R12.03-d / R12.03-e / 03.01: ``candidates`` (its refusals tested before the codes,
    and no code made where every spot is refused) gives the plain matrix's answer
    (``_plain``, test_16) over crowded random scenes: friends and other models packed
    around the start, an engaged-with unit with no column near the move, ``than`` around
    0; both empty and non-empty answers are met."""
    rng = random.Random(seed)
    empty = kept = 0
    for _ in range(80):
        start = _model(rng, "s", 20.0, 20.0, 0.0)
        move = rng.choice([3.0, 6.0])

        def near(n: int, tag: str, w: float, s: Model = start) -> list[Model]:
            return [_model(rng, f"{tag}{i}", s.x, s.y, w) for i in range(n)]

        targets = near(rng.randint(1, 5), "t", move + 3.0)
        groups = [near(rng.randint(0, 4), f"g{j}", rng.choice([2.5, move + 8.0, 30.0]))
                  for j in range(rng.randint(0, 2))]
        friends = near(rng.randint(0, 25), "f", rng.choice([1.5, move]))
        others = near(rng.randint(0, 40), "o", move + 2.0)
        keep = rng.random() < 0.7
        than = rng.choice([rng.uniform(-0.5, 4.0), 0.0, MARGIN, -MARGIN])
        clearance = rng.choice([pb.TAKEN_CLEARANCE, pb.TAKEN_CLEARANCE, 0.05])
        spots = []
        for _ in range(rng.randint(1, 80)):
            a, r = rng.uniform(-math.pi, math.pi), move * math.sqrt(rng.random())
            spots.append((start.x + r * math.cos(a), start.y + r * math.sin(a)))
        gs = groups if keep else ()
        full = pb.fixed(start, targets, gs, [pb.block(tuple(others))], move + 1.0)
        cut = pb.fixed(start, targets, gs, [pb.block(tuple(others))], move + 1.0, move=move)
        want = _plain(start, spots, full, friends, than, keep, clearance)
        got = pb.candidates(start, np.array(spots), cut, friends, than, keep, clearance)
        assert got == want
        empty += not got[0]
        kept += bool(got[0])
    assert empty > 5 and kept > 5


def _pile_in_game(seed: int) -> tuple[object, object, object]:
    """A random pile-in (test_12's scenes: a packed unit, a few targets, a wall): the
    context, the unit and the frame of its positions request."""
    game = random_pile_in(random.Random(seed), (6, 20), 4, (0.05, 0.6), 3, bool(seed % 2))
    assert pending(game).kind == "positions"
    ctx = game.ctx
    d = ctx.top
    assert isinstance(d, mm.MeleeMoveFrame)
    return ctx, ctx.state.unit(d.unit), d


def test_goal_chunks_kept_for_the_later_passes_give_the_same_answers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R12.03-d / R03.03-d: ``propose_toward`` reading each model's goal chunks (target
    rings, straight move) made in its first pass again in the later passes answers as
    when every pass makes them anew, over random packed pile-ins with walls and several
    attempts (jitters); some proposals do reach a later pass, where the kept chunks are
    read."""
    plain_chunks = pp._spot_chunks
    reads = 0

    def counting(*args: object, **kw: object) -> Iterator[pp.Spots]:
        nonlocal reads
        kept = kw.get("kept", args[8] if len(args) > 8 else None)
        assert isinstance(kept, dict)
        reads += args[2] in kept
        return plain_chunks(*args, **kw)  # type: ignore[arg-type]

    def anew(*args: object, **kw: object) -> Iterator[pp.Spots]:
        return plain_chunks(*args[:8])  # type: ignore[arg-type]

    for seed in range(24):
        ctx, u, d = _pile_in_game(seed)
        for attempt in range(3):
            monkeypatch.setattr(pp, "_spot_chunks", counting)
            got = pp.propose_toward(ctx, u, d, random.Random(seed), attempt)  # type: ignore
            monkeypatch.setattr(pp, "_spot_chunks", anew)
            want = pp.propose_toward(ctx, u, d, random.Random(seed), attempt)  # type: ignore
            assert got == want
    assert reads > 0


def test_unit_facts_are_the_plain_ones_and_kept_per_unit() -> None:
    """R24.35-a / 03.01: ``movement_kept.unit_facts`` (kept per scene unit) gives the models by
    name and the super-heavy walker test as computed plainly, for units with and without
    the ability (any case and spacing), a unit with a repeated model name (the last kept,
    as the plain comprehension), and a new unit object is measured anew."""
    rng = random.Random(3)
    heavy = {True: 0, False: 0}
    for i in range(60):
        ms = tuple(Model(f"m{rng.randint(0, 6)}", rng.uniform(0, 40), rng.uniform(0, 40), 0.0,
                         32.0, 1.6) for _ in range(rng.randint(1, 8)))
        abilities = tuple(rng.sample(["Deep Strike", " Super-Heavy Walker ", "SUPER-HEAVY WALKER",
                                      "Super-heavy walkers", "Stealth", "Hover"],
                                     rng.randint(0, 3)))
        u = Unit(f"u{i}", "red", ms, abilities)
        for _ in range(2):  # made, then read back
            by_name, sh = movement_kept.unit_facts(u)
            assert dict(by_name) == {m.name: m for m in ms}
            want = any(a.strip().lower() == "super-heavy walker" for a in abilities)
            assert sh == want
        heavy[sh] += 1
        other = Unit(f"u{i}", "red", ms[:1], ())
        assert dict(movement_kept.unit_facts(other)[0]) == {ms[0].name: ms[0]}
    assert heavy[True] > 0 and heavy[False] > 0


def test_model_has_is_the_plain_any_of_its_keywords() -> None:
    """``Model.has`` (one set operation for a frozenset of keywords) answers as ``any(k in
    keywords for k in asked)``, for frozensets, other keyword collections, and no keyword
    asked."""
    rng = random.Random(5)
    words = ["INFANTRY", "BEASTS", "SWARM", "MOBILE", "FLY", "VEHICLE", "MONSTER", "TITANIC"]
    seen = set()
    for _ in range(400):
        kws = rng.sample(words, rng.randint(0, 4))
        kind = rng.choice([frozenset, frozenset, set, tuple])
        m = Model("m", 1.0, 1.0, 0.0, 32.0, 1.6, 0.0, kind(kws))  # type: ignore[arg-type]
        asked = rng.sample(words, rng.randint(0, 4))
        want = any(k in kws for k in asked)
        assert m.has(*asked) == want
        seen.add(want)
    assert seen == {True, False}


@pytest.mark.parametrize("seed", range(4))
def test_a_single_step_s_near_models_are_near_segment_s(seed: int) -> None:
    """R03.01-d / R17.01-a: ``movement_kept.near_step`` (the discs outside the step's
    grown box passed over, the others measured in Python floats) lists the same discs, in
    the same order, as ``Discs.near_segment``, over random discs and steps, with discs
    placed within 1e-12" of the limit either side, a step along an axis, and no disc."""
    rng = random.Random(seed)
    met = {True: 0, False: 0}
    for _ in range(300):
        n = rng.choice([0, 1, 5, 40, 120])
        models = [Model(f"o{i}", rng.uniform(0, 44), rng.uniform(0, 60), 0.0,
                        rng.choice([25.0, 32.0, 60.0, (90.0, 52.0)]), 1.6,
                        rng.uniform(-3.2, 3.2)) for i in range(n)]
        x0, y0 = rng.uniform(0, 44), rng.uniform(0, 60)
        a, length = rng.uniform(-math.pi, math.pi), rng.choice([1e-6, 0.5, 3.0, 12.0])
        if rng.random() < 0.2:
            a = rng.choice([0.0, math.pi / 2, math.pi, -math.pi / 2])
        x1, y1 = x0 + length * math.cos(a), y0 + length * math.sin(a)
        r = rng.choice([0.5, 0.63, 1.2])
        if models and rng.random() < 0.5:  # a disc on the limit beside the step
            o = rng.choice(models)
            t = rng.random()
            px, py = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
            g = r + o.reach() + MARGIN + rng.choice([-1e-12, 0.0, 1e-12])
            b = a + math.pi / 2 * rng.choice([-1, 1])
            models[models.index(o)] = o.moved(px + g * math.cos(b), py + g * math.sin(b))
        discs = movement.Discs.of(models)
        want = discs.near_segment(x0, y0, x1, y1, r, 0.0)
        assert movement_kept.near_step(discs, x0, y0, x1, y1, r) == want
        met[bool(want)] += 1
    assert met[True] > 20 and met[False] > 20
