"""11.04 charge move, the proposer's side: the chain placement screens its spots in the order
of their keys (within 1" of a target, a fresh target engaged, the distance to the nearest
target, the distance moved; R11.04-b/c, R03.03-a/b). With oval or hull models among the
mover, the placed models and the targets, the keys are exact measures, made lazily (a heap
of lower bounds): the order and the spots must be those of sorting every spot's key."""

from __future__ import annotations

import random

from w40k.engine.phases.charge_order import _ordered, _ordered_mixed, _scored_mixed
from w40k.geometry import Model
from w40k.geometry.measure import horizontal_distance

HULL = ((-1.5, -0.8), (1.5, -0.8), (1.7, 0.0), (1.5, 0.8), (-1.5, 0.8))


def _model(rng: random.Random, name: str, x: float, y: float, kinds: int = 4) -> Model:
    k = rng.randrange(kinds)
    if k == 0:
        return Model(name, x, y, 0.0, (75.0, 42.0), 2.0, rng.uniform(-3.1, 3.1))
    if k == 1:
        return Model(name, x, y, 0.0, None, 4.0, rng.uniform(-3.1, 3.1),
                     frozenset({"FRAME"}), HULL)
    return Model(name, x, y, 0.0, rng.choice((25.0, 32.0, 40.0)))


def _keep(x: float, y: float) -> bool:
    """A screen refusing about a third of the spots (as ``Occupied.free`` refuses some)."""
    return int(x * 1000 + y * 7000) % 3 != 0


def test_the_lazy_order_of_oval_and_hull_spots_is_the_sorted_order() -> None:
    # R11.04-b/c, R03.03-a/b: the lazily scored spots come in the stable sort's order of the
    # keys, less those the screen refuses, with the same keys and engaged targets; spots
    # given twice (equal keys) come in the order given.
    rng = random.Random(5)
    compared = 0
    for n in range(40):
        round_start = n % 2 == 0  # a round mover charging ovals (the battle's Boyz on a Rhino)
        start = Model("a", rng.uniform(10, 20), rng.uniform(10, 20), base_mm=32.0) \
            if round_start else _model(rng, "a", rng.uniform(10, 20), rng.uniform(10, 20))
        ends = [_model(rng, f"e{i}", rng.uniform(10, 20), rng.uniform(10, 20))
                for i in range(rng.randrange(0, 4))]
        targets = [(f"t{i % 2}", _model(rng, f"t{i}", rng.uniform(12, 22),
                                        rng.uniform(12, 22), kinds=2))
                   for i in range(rng.randrange(1, 5))]
        spots = [(rng.uniform(8, 24), rng.uniform(8, 24)) for _ in range(150)]
        spots += rng.sample(spots, 20)  # equal keys: the order given breaks the tie
        start_d = {tid: min(horizontal_distance(start, t) for k, t in targets if k == tid)
                   for tid in {k for k, _ in targets}}
        engaged_targets = {"t0"} if n % 3 else set()
        want = sorted(_scored_mixed(start, spots, ends, targets, engaged_targets, 7.0,
                                    start_d), key=lambda s: s[0])
        want = [s for s in want if _keep(s[1], s[2])]
        got = list(_ordered_mixed(start, spots, ends, targets, engaged_targets, 7.0, start_d,
                                  _keep))
        assert got == want
        compared += len(got)
    assert compared > 500  # spots were kept and compared


def test_a_chain_screens_few_spots_when_the_first_ones_pass() -> None:
    # The point of the lazy order: a spot is measured exactly only when it can come next;
    # taking the first few spots measures far fewer than all of them (the same first ones).
    import numpy as np

    from w40k.engine.phases import charge_order as cp

    rng = random.Random(3)
    start = Model("a", 15.0, 15.0, base_mm=32.0)
    targets = [("t0", Model("t0", 19.0, 15.0, 0.0, (120.0, 70.0), 2.0, 0.3))]
    spots = np.array([(rng.uniform(10, 22), rng.uniform(10, 22)) for _ in range(400)])
    start_d = {"t0": horizontal_distance(start, targets[0][1])}
    calls = []
    score = cp._MixedScores.score

    def counted(self: cp._MixedScores, i: int) -> object:
        calls.append(i)
        return score(self, i)

    cp._MixedScores.score = counted  # type: ignore[method-assign,assignment]
    try:
        first = list(zip(range(3), _ordered(start, spots, [], targets, set(), 7.0, start_d,
                                            _keep), strict=False))
    finally:
        cp._MixedScores.score = score  # type: ignore[method-assign]
    want = [s for s in sorted(_scored_mixed(start, [tuple(p) for p in spots.tolist()], [],
                                            targets, set(), 7.0, start_d),
                              key=lambda s: s[0]) if _keep(s[1], s[2])][:3]
    assert [s for _, s in first] == want
    assert len(calls) < 20  # of ~300 spots within the move


def test_the_engaged_mask_leaving_far_models_out_matches_every_pair() -> None:
    # R11.04-d (engaged with no other enemy unit), R03.04: the spots' engagement with the
    # other enemy models, measured only against the models near the spots' box, is the
    # engagement with every model (round, oval and hull movers; models near and far).
    from w40k.engine.phases.charge_propose import _engaged_mask
    from w40k.geometry import engaged

    rng = random.Random(9)
    hits = 0
    for n in range(30):
        start = Model("a", rng.uniform(20, 30), rng.uniform(20, 30), base_mm=32.0) \
            if n % 2 else _model(rng, "a", rng.uniform(20, 30), rng.uniform(20, 30))
        others = [_model(rng, f"o{i}", rng.uniform(0, 60), rng.uniform(0, 44))
                  for i in range(40)]
        spots = [(start.x + rng.uniform(-6, 6), start.y + rng.uniform(-6, 6))
                 for _ in range(120)]
        want = [any(engaged(start.moved(x, y), o) for o in others) for x, y in spots]
        assert _engaged_mask(start, spots, others) == want
        hits += sum(want)
    assert 100 < hits < 30 * 120  # both answers come up


def test_the_round_spots_come_in_the_sorted_order() -> None:
    # R11.04-b/c, R03.03-a/b: round bases' spots are keyed at once and ordered by numpy's
    # stable lexsort: the same spots, keys and targets as sorting the scored list, less the
    # refused ones; spots given twice (equal keys) come in the order given.
    import numpy as np

    from w40k.engine.phases.charge_order import _scored

    rng = random.Random(13)
    compared = 0
    for n in range(30):
        start = Model("a", rng.uniform(10, 20), rng.uniform(10, 20), base_mm=32.0)
        ends = [Model(f"e{i}", rng.uniform(10, 20), rng.uniform(10, 20), base_mm=32.0)
                for i in range(rng.randrange(0, 4))]
        targets = [(f"t{i % 2}", Model(f"t{i}", rng.uniform(12, 22), rng.uniform(12, 22),
                                       base_mm=rng.choice((25.0, 32.0, 40.0))))
                   for i in range(rng.randrange(1, 5))]
        spots = [(rng.uniform(8, 24), rng.uniform(8, 24)) for _ in range(200)]
        spots += rng.sample(spots, 30)
        start_d = {tid: min(horizontal_distance(start, t) for k, t in targets if k == tid)
                   for tid in {k for k, _ in targets}}
        engaged_targets = {"t0"} if n % 3 else set()
        pts = np.array(spots)
        want = sorted(_scored(start, pts, ends, targets, engaged_targets, 7.0, start_d),
                      key=lambda s: s[0])
        want = [s for s in want if _keep(s[1], s[2])]
        got = list(_ordered(start, pts, ends, targets, engaged_targets, 7.0, start_d, _keep))
        assert got == want
        compared += len(got)
    assert compared > 300  # spots were kept and compared
