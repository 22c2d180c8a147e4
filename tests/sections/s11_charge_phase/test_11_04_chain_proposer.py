"""11.04 charge move, the proposer's side: a unit whose direct paths are partly blocked still
gets a legal charge move from the engine's proposer (``engine/phases/charge_propose.py``: the
models placed as a coherent chain, R03.03-a/-d, R11.04-b/-c/-d), a charge that cannot be made
is still declined, and the proposer's answer always passes ``check_move``."""

from __future__ import annotations

import random

import pytest

from tests.engine.core_helpers import scripted
from tests.engine.melee_helpers import BASE, charge_phase, fighter, pending, unit
from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.engine.phases.melee_moves import MeleeMoveFrame, check_move, parse_positions
from w40k.engine.serial import JSON
from w40k.io.battle_setup import default_position


def _wall(*boxes: tuple[float, float, float, float]) -> dict[str, JSON]:
    """Dense 3"-tall walls (a MOUNTED model cannot cross them, R13.06-c)."""
    return {"areas": [], "terrain": [
        {"name": f"wall{i}", "category": "dense", "area": None,
         "footprint": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], "height": 3.0}
        for i, (x0, y0, x1, y1) in enumerate(boxes)]}


def _to_positions(units: list[dict[str, JSON]], dice: list[int],
                  terrain: dict[str, JSON] | None = None) -> Game:
    """Declare red.a's charge at blue.b, roll ``dice``, select blue.b: the positions request."""
    game = scripted(Game.new(charge_phase(units, terrain=terrain), seed=1), dice)
    assert pending(game).kind == "select_unit_to_charge"
    game.submit("red.a")
    req = pending(game)
    assert req.kind == "charge_targets" and ["blue.b"] in req.options
    game.submit(["blue.b"])
    assert pending(game).kind == "positions"
    return game


def _legal(game: Game, answer: JSON) -> bool:
    frame = game.ctx.top
    assert isinstance(frame, MeleeMoveFrame)
    u = game.state.unit(frame.unit)
    return not check_move(game.ctx, u, parse_positions(u, answer), frame)


def _line_of_ten() -> dict[str, JSON]:
    step = BASE + 0.5
    return unit("red.a", "red", [fighter(f"red.a.{i + 1}", 10.0 + i * step, 10.0,
                                         keywords=("MOUNTED",)) for i in range(10)])


def test_a_ten_model_unit_with_most_direct_paths_walled_off_gets_a_legal_charge_move() -> None:
    # R03.03-d, R11.04-b/-c/-d: ten models in a line, the target 5" beyond the first; a 3"-tall
    # dense wall covers the straight paths of models 3..10. Moving each model on its own
    # toward the target leaves those behind out of coherency (every greedy try is refused);
    # the chain placement brings them around the wall's end within 2" of each other.
    blue = unit("blue.b", "blue", [fighter("blue.b.1", 10.0, 10.0 + BASE + 5.0)])
    game = _to_positions([_line_of_ten(), blue], [3, 4], terrain=_wall((13.5, 12.0, 40.0, 13.0)))
    answer = sample(game, pending(game), random.Random(1))
    assert answer != "fail"
    assert _legal(game, answer)
    game.submit(answer)
    u = game.state.unit("red.a")
    assert u.flag("charged")


def test_the_skirmish_battles_charge_moves_are_made_not_declined() -> None:
    # The report: in the skirmish battle (game seed 1, heuristic players 3 and 4) blue's More
    # Boyz rolled 7" in round 3 and the greedy tries all broke coherency (R03.03-d), so the
    # charge was declined. Asserted for every charge move of a few whole heuristic games, so
    # that a change of the players' plans keeps the point: charges happen, none is declined.
    from w40k.agents.heuristic import HeuristicAgent
    seen: list[tuple[JSON, JSON, JSON]] = []
    for seed in (1, 2, 3):
        game = Game.new(default_position(), seed)
        players = [p.name for p in game.state.players]
        agents = {p: HeuristicAgent(seed * 2 + i + 1) for i, p in enumerate(players)}
        while (req := game.pending()) is not None:
            answer = agents[req.player].choose(game, req)
            if req.kind == "positions" and req.context.get("move_type") == "charge":
                seen.append((req.context["unit"], req.context["max_distance"], answer))
            game.submit(answer, player=req.player, request_id=req.id)
    assert seen and all(a != "fail" for _, _, a in seen)


def test_a_charge_that_cannot_be_made_is_still_declined_by_the_proposer() -> None:
    # R11.04-f: the target is behind a wall spanning the table for a MOUNTED unit; no move
    # reaches it, so the proposer answers the failed charge.
    blue = unit("blue.b", "blue", [fighter("blue.b.1", 20.0, 10.0 + BASE + 5.0)])
    game = _to_positions([_line_of_ten(), blue], [3, 4], terrain=_wall((0.0, 12.0, 60.0, 13.0)))
    assert sample(game, pending(game), random.Random(1)) == "fail"


@pytest.mark.parametrize("seed", range(12))
def test_the_proposer_s_charge_answer_always_passes_check_move(seed: int) -> None:
    # R11.04-b/-c/-d, R03.03-d: random units, target and walls; whatever the proposer answers
    # is legal (the failed charge, or a move check_move accepts and submit applies).
    rng = random.Random(seed)
    n = rng.randint(2, 10)
    x0, y0 = rng.uniform(8.0, 30.0), rng.uniform(6.0, 12.0)
    cols = rng.randint(2, 5)
    step = BASE + rng.uniform(0.2, 0.9)
    red = unit("red.a", "red", [fighter(f"red.a.{i + 1}", x0 + (i % cols) * step,
                                        y0 - (i // cols) * step, keywords=("MOUNTED",))
                                for i in range(n)])
    tx, ty = x0 + rng.uniform(-4.0, 6.0), y0 + BASE + rng.uniform(2.5, 6.0)
    blue = unit("blue.b", "blue", [fighter(f"blue.b.{i + 1}", tx + i * (BASE + 0.3), ty)
                                   for i in range(rng.randint(1, 3))])
    walls = [(wx, y0 + 1.2, wx + rng.uniform(2.0, 8.0), y0 + 2.0)
             for wx in (x0 + rng.uniform(-6.0, 8.0) for _ in range(rng.randint(0, 2)))]
    game = _to_positions([red, blue], [6, 6], terrain=_wall(*walls))
    answer = sample(game, pending(game), random.Random(seed))
    assert answer == "fail" or _legal(game, answer)
    game.submit(answer)


def test_the_spots_scored_at_once_for_round_bases_match_the_one_by_one_scores() -> None:
    # R03.03-a/b (coherent with the placed models), R11.04-c (within 1"/engaged first): the
    # vectorised measure of round bases gives the same spots, classes and distances.
    import random

    from w40k.engine.phases.charge_order import _scored, _scored_each
    from w40k.engine.phases.charge_propose import _engaged_mask
    from w40k.geometry import Model, engaged
    from w40k.geometry.measure import horizontal_distance

    rng = random.Random(7)
    kept = 0
    for _ in range(20):
        start = Model("a", rng.uniform(10, 20), rng.uniform(10, 20), base_mm=32.0)
        ends = [Model(f"e{i}", rng.uniform(10, 20), rng.uniform(10, 20), base_mm=32.0)
                for i in range(rng.randrange(0, 4))]
        targets = [(f"t{i % 2}", Model(f"t{i}", rng.uniform(12, 22), rng.uniform(12, 22),
                                       base_mm=rng.choice((25.0, 32.0, 40.0))))
                   for i in range(4)]
        spots = [(rng.uniform(8, 24), rng.uniform(8, 24)) for _ in range(200)]
        start_d = {tid: min(horizontal_distance(start, t) for k, t in targets if k == tid)
                   for tid in ("t0", "t1")}
        fast = _scored(start, spots, ends, targets, {"t0"}, 7.0, start_d)
        slow = _scored_each(start, spots, ends, targets, {"t0"}, 7.0, start_d)
        assert [(k[:3], x, y, e) for k, x, y, e in fast] == \
            [(k[:3], x, y, e) for k, x, y, e in slow]
        assert all(abs(a[0][3] - b[0][3]) < 1e-12 for a, b in zip(fast, slow, strict=True))
        kept += len(fast)
        # R11.04-d's test, all at once, against round and oval bases
        others = [t for _, t in targets] + [Model("v", 15.0, 15.0, base_mm=(120.0, 70.0))]
        assert _engaged_mask(start, spots, others) == [
            any(engaged(start.moved(x, y), o) for o in others) for x, y in spots]
    assert kept > 300  # spots were kept and compared


def test_the_spots_scored_with_bounds_for_ovals_and_hulls_match_the_one_by_one_scores() -> None:
    # R03.03-a/b, R11.04-b/c: with oval bases and FRAME hulls among the models, the scores
    # settled by bounds (measured exactly near a threshold) are the one-by-one scores, in
    # the same order, with the same nearest distances.
    import random

    from w40k.engine.phases.charge_order import _scored_each, _scored_mixed
    from w40k.geometry import Model
    from w40k.geometry.measure import horizontal_distance

    hull = ((-1.5, -0.8), (1.5, -0.8), (1.7, 0.0), (1.5, 0.8), (-1.5, 0.8))

    def model(name: str, x: float, y: float) -> Model:
        k = rng.randrange(4)
        if k == 0:
            return Model(name, x, y, 0.0, (75.0, 42.0), 2.0, rng.uniform(-3.1, 3.1))
        if k == 1:
            return Model(name, x, y, 0.0, None, 4.0, rng.uniform(-3.1, 3.1),
                         frozenset({"FRAME"}), hull)
        return Model(name, x, y, 0.0, rng.choice((25.0, 32.0, 40.0)))

    rng = random.Random(11)
    kept = 0
    for _ in range(25):
        start = model("a", rng.uniform(10, 20), rng.uniform(10, 20))
        ends = [model(f"e{i}", rng.uniform(10, 20), rng.uniform(10, 20))
                for i in range(rng.randrange(0, 4))]
        targets = [(f"t{i % 2}", model(f"t{i}", rng.uniform(12, 22), rng.uniform(12, 22)))
                   for i in range(4)]
        spots = [(rng.uniform(8, 24), rng.uniform(8, 24)) for _ in range(150)]
        start_d = {tid: min(horizontal_distance(start, t) for k, t in targets if k == tid)
                   for tid in ("t0", "t1")}
        fast = _scored_mixed(start, spots, ends, targets, {"t0"}, 7.0, start_d)
        slow = _scored_each(start, spots, ends, targets, {"t0"}, 7.0, start_d)
        assert fast == slow
        kept += len(fast)
    assert kept > 300  # spots were kept and compared


def test_a_checked_answer_asked_again_gets_the_same_verdict_and_a_refused_one_is_refused() -> None:
    # R11.04-b/-c/-d: check_move keeps its verdict of the same moves in the same state and
    # frame (the proposer checks its answer, the frame checks it again when submitted): the
    # kept verdicts are the checked ones, a refused answer is still refused on submission.
    from w40k.core.errors import IllegalChoice
    from w40k.engine.phases import melee_moves as mm_
    blue = unit("blue.b", "blue", [fighter("blue.b.1", 10.0, 10.0 + BASE + 5.0)])
    game = _to_positions([_line_of_ten(), blue], [3, 4], terrain=_wall((13.5, 12.0, 40.0, 13.0)))
    frame = game.ctx.top
    assert isinstance(frame, MeleeMoveFrame)
    u = game.state.unit("red.a")
    answer = sample(game, pending(game), random.Random(1))
    stay: JSON = {"red.a.1": [[10.0, 10.0 + 0.1]]}  # no closer to the target (R11.04-b)
    for a in (answer, stay):
        moves = parse_positions(u, a)
        fresh = mm_._check_move(game.ctx, u, moves, frame)
        assert check_move(game.ctx, u, moves, frame) == fresh
        assert check_move(game.ctx, u, parse_positions(u, a), frame) == fresh
    assert not check_move(game.ctx, u, parse_positions(u, answer), frame)
    with pytest.raises(IllegalChoice):
        game.submit(stay)
    game.submit(answer)
    assert game.state.unit("red.a").flag("charged")


def test_asking_again_for_the_first_chain_gives_the_same_moves_and_draws_R11_04_b() -> None:
    # R11.04-b/-c: the chain placement's attempt 0 depends on no draw; asked again in the same
    # state it gives the kept answer (a new copy) after the same draws as placing it again.
    from w40k.engine.phases import charge_propose as cp
    blue = unit("blue.b", "blue", [fighter("blue.b.1", 10.0, 10.0 + BASE + 5.0)])
    game = _to_positions([_line_of_ten(), blue], [3, 4], terrain=_wall((13.5, 12.0, 40.0, 13.0)))
    u, targets = game.state.unit("red.a"), [game.state.unit("blue.b")]
    cp._FIRST.clear()
    kept, fresh = random.Random(3), random.Random(3)
    first = cp.first_chain(game.ctx, u, targets, 7.0, kept)
    assert first
    again = [cp.first_chain(game.ctx, u, targets, 7.0, kept) for _ in range(2)]
    assert again == [first, first] and again[0] is not again[1]
    for _ in range(3):
        cp._FIRST.clear()
        assert cp.first_chain(game.ctx, u, targets, 7.0, fresh) == first
    assert kept.getstate() == fresh.getstate()


def test_an_oval_spot_proven_on_a_round_base_is_one_that_overlaps_measures_as_overlapping(
) -> None:
    # R03.01-c: the charge repair skips a spot where an oval base surely ends on another
    # model; the proof (its inner disc) never claims a spot that ``overlaps`` clears, and it
    # settles most of the deep ones.
    import math
    import random

    from w40k.engine.propose_moves import surely_overlapping
    from w40k.geometry import Battlefield, Model, Scene, Terrain, Unit
    from w40k.geometry.measure import overlaps

    rng = random.Random(5)
    proven = deep = 0
    for _ in range(30):
        start = Model("o", 20.0, 20.0, 0.0, (rng.choice((75.0, 90.0, 120.0)), 42.0), 2.0,
                      rng.uniform(-3.1, 3.1))
        friends = tuple(Model(f"f{i}", rng.uniform(16, 24), rng.uniform(16, 24),
                              base_mm=32.0) for i in range(3))
        foes = tuple(Model(f"e{i}", rng.uniform(16, 24), rng.uniform(16, 24),
                           base_mm=rng.choice((25.0, 32.0, 40.0))) for i in range(6))
        scene = Scene(Battlefield(60.0, 44.0), Terrain(),
                      (Unit("u", "red", (start, *friends)), Unit("v", "blue", foes)))
        spots = [(rng.uniform(15, 25), rng.uniform(15, 25)) for _ in range(60)]
        sure = surely_overlapping(scene, "u", "o", start, spots, ovals=True)
        for (x, y), s in zip(spots, sure, strict=True):
            end = start.moved(x, y)
            hit = any(overlaps(end, m) for m in (*friends, *foes))
            assert hit or not s
            proven += s
            deep += any(math.hypot(m.x - x, m.y - y) < 0.5 for m in (*friends, *foes))
    assert proven > deep > 0


def test_a_greedy_charge_leaving_a_model_behind_is_given_up_after_the_same_draws_R11_04_b(
) -> None:
    # R11.04-b: a charging model left where it is ends no closer to a charge target, so the
    # greedy try that leaves one behind is surely refused; the proposer stops building it but
    # makes every draw the whole try makes (the same random stream as building it all).
    import dataclasses

    from w40k.engine.phases import melee_moves as mm_
    blue = unit("blue.b", "blue", [fighter("blue.b.1", 10.0, 10.0 + BASE + 5.0)])
    game = _to_positions([_line_of_ten(), blue], [3, 4], terrain=_wall((13.5, 12.0, 40.0, 13.0)))
    frame = game.ctx.top
    assert isinstance(frame, MeleeMoveFrame)
    u = game.state.unit("red.a")
    # the same try built whole: a surge frame places the models by the same spots and draws
    whole = dataclasses.replace(frame, move_type="surge")
    for attempt in range(mm_.GREEDY_ATTEMPTS):
        given_up, built = random.Random(attempt), random.Random(attempt)
        assert mm_._greedy(game.ctx, u, frame, frame.max_distance, given_up, attempt) \
            is mm_.REFUSED
        full = mm_._greedy(game.ctx, u, whole, frame.max_distance, built, attempt)
        assert given_up.getstate() == built.getstate()
        assert isinstance(full, dict) and len(full) < len(u.alive)  # a model left behind
        refused = check_move(game.ctx, u, parse_positions(u, full), frame)
        assert refused  # validate_move's own refusal, or R11.04-b
