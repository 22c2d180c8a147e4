"""The reaction windows' stratagem asks with less repeated work (issue 10, pass ow25): an
own-unit stratagem's facts unit looked up once (``usage.legal_targets``), the turn keys and
roll kinds read once (``usage._when``, ``reroll._targets``), Explosives' units without
EXPLOSIVES/GRENADES skipped whole and each enemy's engagement asked once
(``core._explosives_targets``), Smokescreen's key made once, and a window's player order
(``windows._order``). Each answer must be the plain one (the code as it was,
copied below), in greedy games and on random changes of them."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, cast

import pytest

from tests.engine.core_helpers import greedy_record
from w40k.core.dice import RollKind
from w40k.core.jsonval import JSON
from w40k.core.keywords import keyword_set
from w40k.engine import geo, windows
from w40k.engine.context import Context
from w40k.engine.game import Game
from w40k.engine.phases.melee_moves import units_within
from w40k.engine.phases.shooting import can_shoot
from w40k.engine.phases.shooting_facts import ShooterFacts, box_gap
from w40k.engine.stratagems import core, interventions, reroll, usage
from w40k.engine.stratagems.effects import this_phase
from w40k.engine.stratagems.model import Stratagem, Target, TurnKey
from w40k.engine.windows import Facts
from w40k.geometry import engaged
from w40k.geometry.shapes import EPS
from w40k.io.battle_scale import scaled_position

pytestmark = pytest.mark.stratagems  # plays with the core stratagems


# -- the plain versions (the code before pass ow25) ------------------------------------------
def _plain_when(ctx: Context, strat: Stratagem, player: str) -> bool:
    s = ctx.state
    if strat.turn is TurnKey.YOURS and s.turn_player != player:
        return False
    if strat.turn is TurnKey.OPPONENTS and s.turn_player in ("", player):
        return False
    return not strat.phases or s.phase in strat.phases


def _plain_another_players(ctx: Context, facts: Facts, player: str) -> bool:
    """The facts' ``unit`` names a unit on the battlefield (the first of that id) of another
    player than ``player`` (usage's check before ow25 folded it into ``_facts_unit``)."""
    uid = facts.get("unit")
    if not isinstance(uid, str):
        return False
    for u in ctx.state.units:
        if u.id == uid:
            return u.player != player
    return False


def _plain_legal_targets(ctx: Context, strat: Stratagem, facts: Facts,
                         player: str) -> list[Target]:
    s = ctx.state
    if not s.options.get("stratagems", True):
        return []
    cp = s.player(player).cp
    if cp < strat.cp or not _plain_when(ctx, strat, player):
        return []
    if strat.own_unit and _plain_another_players(ctx, facts, player):
        return []
    if strat.once_per_battle and any(u.player == player and u.name == strat.name
                                     for u in s.stratagems):
        return []
    used = this_phase(ctx, player)
    if any(u.name == strat.name for u in used):
        return []
    targeted = {t for u in used for t in u.units}
    out: list[Target] = []
    for t in strat.targets(ctx, facts, player):
        unit = s.any_unit(t.unit)
        if t.unit in targeted:
            continue
        if unit.flag("battle_shocked"):
            continue
        if strat.cp + t.extra_cp > cp:
            continue
        out.append(t)
    return out


def _plain_explosives(ctx: Context, facts: Facts, player: str) -> list[Target]:
    if facts.get("phase") != "shooting":
        return []
    s = ctx.state
    asked: list[tuple[str, ShooterFacts, str, list[str]]] = []
    for u in s.units_of(player):
        bombs = [m.id for m in u.alive if core._explosive_model(m.keys)]
        if not (bombs and not u.flag("advanced")
                and can_shoot(ctx, u) and not geo.is_engaged(ctx, u)):
            continue
        facts_u = ShooterFacts(ctx, u)
        for e in facts_u.enemies:
            if geo.is_engaged(ctx, e):
                continue
            tu = facts_u.tu(e.id)
            if box_gap(facts_u.vis.unit_box(facts_u.ou), facts_u.vis.unit_box(tu)) \
                    > core.EXPLOSIVES_RANGE + EPS + 1e-6:
                continue
            if float(facts_u.vis.unit_distances(facts_u.ou, tu).min()) \
                    > core.EXPLOSIVES_RANGE + 1e-9:
                continue
            near = [m for m in bombs
                    if facts_u.distance(m, e.id) <= core.EXPLOSIVES_RANGE + 1e-9]
            if near:
                asked.append((u.id, facts_u, e.id, near))
    out: list[Target] = []
    for uid, f, eid, near in asked:
        m = next((m for m in near if f.visible(m, eid)), None)
        if m is not None:
            out.append(Target(uid, {"model": m, "enemy": eid}))
    return out


def _answer(ask: Any, *args: Any) -> object:
    """``ask(*args)``'s targets (as answers), or the error it raises."""
    try:
        return [t.answer() for t in ask(*args)]
    except (KeyError, ValueError, StopIteration) as exc:
        return (type(exc), str(exc))


# -- the tests ---------------------------------------------------------------------------
def test_legal_targets_equal_the_plain_ones_at_every_ask(monkeypatch: pytest.MonkeyPatch) -> None:
    """R15.01-a..e: at every stratagem ask of three greedy games, for both players,
    ``legal_targets`` (the facts' unit looked up once for an own-unit stratagem) equals the
    plain one (``any_unit`` for each selection); the games' records are unchanged."""
    fast_lt = usage.legal_targets
    asked = {"own": 0, "targets": 0}

    def checked(ctx: Context, strat: Stratagem, facts: Facts, player: str) -> list[Target]:
        for p in (player, ctx.state.opponent(player)):
            fast = _answer(fast_lt, ctx, strat, facts, p)
            assert fast == _answer(_plain_legal_targets, ctx, strat, facts, p)
            asked["own"] += strat.own_unit
            asked["targets"] += bool(fast)
        return fast_lt(ctx, strat, facts, player)

    want = [greedy_record(1, 0), greedy_record(2, 1)]
    monkeypatch.setattr(usage, "legal_targets", checked)
    assert [greedy_record(1, 0), greedy_record(2, 1)] == want
    assert asked["own"] > 200 and asked["targets"] > 50


def test_own_unit_selections_on_a_unit_also_off_the_battlefield() -> None:
    """A unit id on the battlefield and also off it (a copy in ``off_table`` whose
    battle-shock differs): both versions read the battlefield's unit (``any_unit`` reads it
    first), for Command Re-roll, Epic Challenge and Insane Bravery in either player's turn;
    facts naming no unit raise the same error; no unit id selects nothing."""
    from w40k.agents.greedy import GreedyAgent

    pos = scaled_position(1)
    pos["options"] = {**cast(dict[str, JSON], pos.get("options") or {}), "stratagems": True}
    game = Game.new(pos, 3)
    agents = {p.name: GreedyAgent(i) for i, p in enumerate(game.state.players)}
    while game.state.phase != "charge":
        req = game.pending()
        assert req is not None
        game.submit(agents[req.player].choose(game, req))
    ctx = game.ctx
    s = game.state
    rng = random.Random(25)
    chosen = 0
    for u in rng.sample(s.units, 4):
        twin = dataclasses.replace(u, flags={**u.flags,
                                             "battle_shocked": not u.flag("battle_shocked")})
        s.off_table.append(twin)
        for shocked in (False, True):
            u.flags["battle_shocked"] = shocked
            for strat in (reroll.COMMAND_REROLL, core.EPIC_CHALLENGE, core.INSANE_BRAVERY):
                s.phase = strat.phases[0] if strat.phases else "shooting"
                for turn_player in (p.name for p in s.players):
                    s.turn_player = turn_player
                    for uid in (u.id, "no.such.unit", None):
                        faces = [rng.randint(1, 6) for _ in range(rng.randint(1, 5))]
                        facts: dict[str, JSON] = {
                            "kind": rng.choice((RollKind.CHARGE, RollKind.HIT, "other")),
                            "faces": list[JSON](faces), "action": "fight",
                            "rerollable": list[JSON](range(len(faces)))}
                        if uid is not None:
                            facts["unit"] = uid
                        for p in s.players:
                            fast = _answer(usage.legal_targets, ctx, strat, facts, p.name)
                            assert fast == _answer(_plain_legal_targets, ctx, strat, facts,
                                                   p.name)
                            chosen += isinstance(fast, list) and bool(fast)
        s.off_table.remove(twin)
    assert chosen > 5


def test_when_equals_the_plain_turn_and_phase_test() -> None:
    """R15.01-e: every turn key, turn player (none too), player and phase list."""
    from w40k.engine.stratagems.interventions import FIRE_OVERWATCH

    game = Game.new(scaled_position(1), 0)
    ctx = game.ctx
    s = game.state
    for turn in TurnKey:
        for phases in ((), ("movement",), ("shooting", "fight")):
            strat = dataclasses.replace(FIRE_OVERWATCH, turn=turn, phases=phases)
            for turn_player in ("", *(p.name for p in s.players)):
                for phase in ("command", "movement", "shooting", "fight"):
                    s.turn_player, s.phase = turn_player, phase
                    for p in s.players:
                        assert usage._when(ctx, strat, p.name) \
                            == _plain_when(ctx, strat, p.name)


def _reworded(rng: random.Random, words: tuple[str, ...]) -> tuple[str, ...]:
    """The keywords with EXPLOSIVES / GRENADES taken out or put in, in any number or case."""
    out = [w for w in words if rng.random() < 0.5 or keyword_set((w,)) & core._EXPLOSIVE_KEYS
           == frozenset()]
    if rng.random() < 0.3:
        out.append(rng.choice(("Grenades", "GRENADE", "explosives", "Explosive")))
    return tuple(out)


def test_explosives_equal_the_plain_search_on_changed_keywords() -> None:
    """15.05: at the start of each Shooting phase of greedy games, for both players,
    ``_explosives_targets`` equals the plain search, on the game as it is and on clones
    whose models' keywords lose or gain EXPLOSIVES / GRENADES at random (whole units, some
    models of a unit, dead models only), units advanced or not."""
    rng = random.Random(2025)
    seen = {"asks": 0, "options": 0}

    def hook(game: Game) -> None:
        s = game.state
        if s.phase != "shooting":
            return
        key = (s.round, s.turn_player)
        if key in done:
            return
        done.add(key)
        for trial in range(4):
            g = game.clone() if trial else game
            if trial:
                for u in g.state.units:
                    whole = rng.random() < 0.3
                    for m in u.models:
                        if whole or rng.random() < 0.3:
                            m.profile = dataclasses.replace(
                                m.profile, keywords=_reworded(rng, m.profile.keywords))
                    if rng.random() < 0.2:
                        u.flags["advanced"] = not u.flag("advanced")
            for p in g.state.players:
                facts: dict[str, JSON] = {"phase": "shooting"}
                fast = _answer(core._explosives_targets, g.ctx, facts, p.name)
                assert fast == _answer(_plain_explosives, g.ctx, facts, p.name)
                seen["asks"] += 1
                seen["options"] += len(cast(list[Any], fast))
            assert _answer(core._explosives_targets, g.ctx, {"phase": "movement"},
                           s.players[0].name) == []

    for scale, seed in ((1, 0), (2, 1)):
        done: set[tuple[int, str]] = set()
        greedy_record(scale, seed, hook)
    assert seen["asks"] > 50 and seen["options"] > 10


def test_explosive_words_equal_the_keys_test() -> None:
    """``_explosive_words`` of a keyword tuple is ``_explosive_model`` of its keys (02.05:
    any number or case), and a unit's keys hold a bomb model's (Appendix 'Mixed
    keywords')."""
    rng = random.Random(5)
    pool = ("INFANTRY", "Grenades", "GRENADE", "explosives", "EXPLOSIVE", "Smoke",
            "Battleline", "Explosivess", "grenadiers", "VEHICLE")
    for _ in range(400):
        words = tuple(rng.sample(pool, rng.randint(0, 4)))
        assert core._explosive_words(words) is core._explosive_model(keyword_set(words))


def test_smokescreen_and_window_order_equal_the_plain_ones() -> None:
    """15.10: the SMOKE units are ``has("SMOKE")``'s; a window asks the active player first,
    then ``opponent``'s (with no active player, the first player first)."""
    game = Game.new(scaled_position(1), 1)
    ctx = game.ctx
    s = game.state
    rng = random.Random(10)
    for _ in range(50):
        for u in s.units:
            models = []
            for m in u.models:
                if rng.random() < 0.3:
                    words = [w for w in m.profile.keywords if keyword_set((w,)) != {"SMOKE"}]
                    if rng.random() < 0.5:
                        words.append(rng.choice(("SMOKE", "Smoke", "smokes")))
                    m = dataclasses.replace(
                        m, profile=dataclasses.replace(m.profile, keywords=tuple(words)))
                models.append(m)
            u.models = models  # (new model objects: the unit's kept keys are made again)
        for p in s.players:
            fast = core._smoke_targets(ctx, {"phase": "shooting"}, p.name)
            assert [t.unit for t in fast] == [u.id for u in s.units_of(p.name)
                                              if u.has("SMOKE")]
        for active in ("", *(p.name for p in s.players)):
            s.active = active
            first = active or s.players[0].name
            assert windows._order(ctx) == [first, s.opponent(first)]
    assert reroll._CHARGE is RollKind.CHARGE and reroll._HIT is RollKind.HIT
    assert reroll._ADVANCE is RollKind.ADVANCE


def _plain_heroic(ctx: Context, facts: Facts, player: str) -> list[Target]:
    if facts.get("phase") != "charge":
        return []
    from w40k.engine.phases.charge import eligible_to_charge
    s = ctx.state
    enemies = s.units_of(s.opponent(player))
    out: list[Target] = []
    for u in s.units_of(player):
        if u.has("VEHICLE") and not (u.has("CHARACTER") or u.has("WALKER")):
            continue
        if u.has("AIRCRAFT") or geo.is_engaged(ctx, u) or u.flag("selected_to_charge") \
                or u.flag("emergency_disembark"):
            continue
        if not any(units_within(u, e, interventions.HEROIC_RANGE) for e in enemies):
            continue
        if not eligible_to_charge(ctx, u):
            continue
        out.append(Target(u.id, {"mode": interventions.LEAP}))
        out.append(Target(u.id, {"mode": interventions.FRAY}, extra_cp=1))
    return out


def _plain_impact(ctx: Context, facts: Facts, player: str) -> list[Target]:
    uid = core._own(ctx, facts, player)
    if uid is None:
        return []
    u = ctx.state.unit(uid)
    if not (u.has("MONSTER") or u.has("VEHICLE")):
        return []
    out: list[Target] = []
    for e in geo.engaged_enemies(ctx, u):
        es = geo.unit_shapes(e)
        seen: set[int] = set()
        for m in u.alive:
            if m.profile.T not in seen and any(engaged(geo.model_shape(m), o) for o in es):
                seen.add(m.profile.T)
                out.append(Target(uid, {"enemy": e.id, "model": m.id}))
    return out


_UNIT_WORDS = ("VEHICLE", "Vehicles", "CHARACTER", "Walker", "AIRCRAFT", "MONSTER",
               "Monsters", "TITANIC", "SMOKE")
_COMBOS = ((), ("VEHICLE",), ("Vehicles", "Walker"), ("VEHICLE", "CHARACTER"),
           ("VEHICLE", "WALKERS", "Character"), ("AIRCRAFT",), ("MONSTER",), ("Titanic",),
           ("Monsters", "VEHICLE"), ("SMOKE", "Walker"))


def test_heroic_impact_and_overwatch_units_equal_the_plain_keyword_tests() -> None:
    """15.11 (R15.11-a), 15.06 and 15.08 (R15.08-a): at the end of each Charge phase and
    each Fight phase of greedy games, on clones whose units gain or lose VEHICLE,
    CHARACTER, WALKER, AIRCRAFT, MONSTER or TITANIC (in any number or case), Heroic
    Intervention's and Crushing Impact's selections equal the plain ones (``has``), and the
    keys made once are ``has``'s."""
    rng = random.Random(1125)
    seen = {"heroic": 0, "impact": 0}

    def hook(game: Game) -> None:
        s = game.state
        key = (s.round, s.turn_player, s.phase)
        if s.phase not in ("charge", "fight") or key in done:
            return
        done.add(key)
        for trial in range(3):
            g = game.clone() if trial else game
            if trial:
                for u in g.state.units:
                    if rng.random() < 0.5:
                        continue
                    add = rng.choice(_COMBOS)
                    for m in u.models:
                        words = [w for w in m.profile.keywords
                                 if not (keyword_set((w,)) & keyword_set(_UNIT_WORDS))
                                 or rng.random() < 0.3]
                        m.profile = dataclasses.replace(m.profile,
                                                        keywords=(*words, *add))
            ctx = g.ctx
            for p in g.state.players:
                fast = _answer(interventions._heroic_targets, ctx, {"phase": "charge"}, p.name)
                assert fast == _answer(_plain_heroic, ctx, {"phase": "charge"}, p.name)
                seen["heroic"] += len(cast(list[Any], fast))
                for u in g.state.units:
                    facts: dict[str, JSON] = {"unit": u.id}
                    got = _answer(core._impact_targets, ctx, facts, p.name)
                    assert got == _answer(_plain_impact, ctx, facts, p.name)
                    seen["impact"] += len(cast(list[Any], got))
                    for k in ("TITANIC", "VEHICLE", "CHARACTER", "WALKER", "AIRCRAFT"):
                        assert (getattr(interventions, f"_{k}") in u.keys) is u.has(k)

    for scale, seed in ((1, 0), (2, 1)):
        done: set[tuple[int, str, str]] = set()
        greedy_record(scale, seed, hook)
    assert seen["heroic"] > 10 and seen["impact"] > 0
