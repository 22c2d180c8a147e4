"""The core stratagems 15.03-15.12 (Command Re-roll, 15.02, is in ``reroll``), each written as
a :class:`~w40k.engine.stratagems.model.Stratagem`. Their lasting effects are read by the
phases through ``effects``. Rapid Ingress (15.07) needs strategic reserves, which the engine
does not have yet: it is not listed."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from w40k.core.dice import RollKind
from w40k.core.jsonval import JSON
from w40k.core.keywords import canonical_keyword, keyword_set
from w40k.engine import geo
from w40k.engine.phases.fight import eligible_to_fight
from w40k.engine.phases.movement import push_mortal_wounds
from w40k.engine.phases.shooting import can_shoot
from w40k.engine.phases.shooting_facts import ShooterFacts, box_gap
from w40k.engine.stratagems.model import Stratagem, Target, TurnKey
from w40k.engine.windows import Facts, Window
from w40k.geometry import engaged
from w40k.geometry.shapes import EPS

if TYPE_CHECKING:
    from w40k.engine.context import Context

MAX_IMPACT_MW = 6
"""15.06: at most 6 mortal wounds per unit."""
EXPLOSIVES_RANGE = 8.0
"""15.05: within 8"."""
EXPLOSIVES_DICE = 6
"""15.05: roll six D6."""


def _own(ctx: Context, facts: Facts, player: str) -> str | None:
    """The window's unit when it is ``player``'s."""
    uid = facts.get("unit")
    if isinstance(uid, str) and ctx.state.unit(uid).player == player:
        return uid
    return None


# -- 15.03 Epic Challenge ------------------------------------------------------------------------
def _epic_targets(ctx: Context, facts: Facts, player: str) -> list[Target]:
    uid = _own(ctx, facts, player)
    if uid is None or facts.get("action") != "fight":
        return []
    u = ctx.state.unit(uid)
    return [Target(uid, {"model": m.id}) for m in u.alive
            if "CHARACTER" in m.keys and any(w.is_melee for w in m.weapons)]


def _epic_effect(ctx: Context, facts: Facts, player: str, target: Target) -> None:
    # Read by fight_sequence.selection: the model's melee weapons gain [PRECISION].
    ctx.log("epic_challenge", unit=target.unit, model=target.detail["model"])


EPIC_CHALLENGE = Stratagem(
    "Epic Challenge", 1, Window.UNIT_SELECTED, TurnKey.EITHER, ("fight",), "15.03",
    _epic_targets, _epic_effect, own_unit=True,  # _own: the selected unit, its owner's
    text="A CHARACTER model's melee weapons gain [PRECISION] until the end of the phase.")


# -- 15.04 Insane Bravery ------------------------------------------------------------------------
def _bravery_targets(ctx: Context, facts: Facts, player: str) -> list[Target]:
    uid = _own(ctx, facts, player)
    return [] if uid is None else [Target(uid)]


def _bravery_effect(ctx: Context, facts: Facts, player: str, target: Target) -> None:
    pass  # flow._command reads effects.insane_bravery: the roll is automatically passed


INSANE_BRAVERY = Stratagem(
    "Insane Bravery", 1, Window.BEFORE_BATTLE_SHOCK, TurnKey.YOURS, ("command",), "15.04",
    _bravery_targets, _bravery_effect, once_per_battle=True, own_unit=True,  # _own
    text="A battle-shock roll about to be made is automatically passed (once per battle).")


# -- 15.05 Explosives ----------------------------------------------------------------------------
_EXPLOSIVE_KEYS = frozenset(canonical_keyword(k) for k in ("EXPLOSIVES", "GRENADES"))


def _explosive_model(keys: frozenset[str]) -> bool:
    return bool(keys & _EXPLOSIVE_KEYS)


@functools.lru_cache(maxsize=1024)
def _explosive_words(words: tuple[str, ...]) -> bool:
    """:func:`_explosive_model` of a model with these keywords as written (its ``keys``,
    ``ModelProfile.keys``, are ``keyword_set(words)``): one lookup a model (pass ow25)."""
    return _explosive_model(keyword_set(words))


def _explosives_targets(ctx: Context, facts: Facts, player: str) -> list[Target]:
    if facts.get("phase") != "shooting":
        return []
    s = ctx.state
    # (unit, its facts, enemy, its EXPLOSIVES/GRENADES models within 8" of the enemy, in unit
    # order): the pairs whose sight is asked, staged in one batch below
    asked: list[tuple[str, ShooterFacts, str, list[str]]] = []
    # each enemy's ``is_engaged``, asked once for every unit (one state: the same answer)
    engaged: dict[int, bool] = {}
    for u in s.units_of(player):
        # Appendix 'Mixed keywords': the unit's keys hold every living model's, so a unit
        # without EXPLOSIVES/GRENADES in them has no such model (pass ow25)
        if not (u.keys & _EXPLOSIVE_KEYS):
            continue
        bombs = [m.id for m in u.alive if _explosive_words(m.profile.keywords)]
        if not (bombs and not u.flag("advanced")
                and can_shoot(ctx, u) and not geo.is_engaged(ctx, u)):
            continue
        facts_u = ShooterFacts(ctx, u)
        for e in facts_u.enemies:
            busy = engaged.get(id(e))
            if busy is None:
                busy = engaged[id(e)] = geo.is_engaged(ctx, e)
            if busy:
                continue
            # the boxes that hold the two units' footprints first (``ShooterFacts.beyond``'s
            # test: a box gap over 8" + EPS + 1e-6 leaves every model pair farther than
            # 8" + 1e-9), then the closest pair of the two units: no model within 8" of the
            # enemy unit when even the closest is not (the same distances,
            # ``ShooterFacts.distance``)
            tu = facts_u.tu(e.id)
            if box_gap(facts_u.vis.unit_box(facts_u.ou), facts_u.vis.unit_box(tu)) \
                    > EXPLOSIVES_RANGE + EPS + 1e-6:
                continue
            if float(facts_u.vis.unit_distances(facts_u.ou, tu).min()) \
                    > EXPLOSIVES_RANGE + 1e-9:
                continue
            near = [m for m in bombs
                    if facts_u.distance(m, e.id) <= EXPLOSIVES_RANGE + 1e-9]
            if near:
                asked.append((u.id, facts_u, e.id, near))
    # the sight of every asked unit pair staged in one batch per scene (``stage_many``: each
    # model pair's answer is its own, only the per-call cost is shared)
    batches: dict[int, tuple[ShooterFacts, list[tuple[int, int]]]] = {}
    for _, f, eid, _ in asked:
        batches.setdefault(id(f.vis), (f, []))[1].append((f.ou, f.tu(eid)))
    for f, pairs in batches.values():
        f.vis.stage_many(pairs)
    out: list[Target] = []
    for uid, f, eid, near in asked:
        # 15.05: one EXPLOSIVES/GRENADES model with the enemy within 8" and visible; the
        # effect does not depend on which, so one option per enemy unit (the first such
        # model in unit order, docs/rulings.md R15.05-a).
        m = next((m for m in near if f.visible(m, eid)), None)
        if m is not None:
            out.append(Target(uid, {"model": m, "enemy": eid}))
    return out


def _explosives_effect(ctx: Context, facts: Facts, player: str, target: Target) -> None:
    enemy = ctx.state.unit(str(target.detail["enemy"]))
    dice = [d.unmodified for d in ctx.roll(RollKind.OTHER, EXPLOSIVES_DICE, unit=target.unit)]
    mw = sum(1 for d in dice if d >= 4)
    ctx.log("explosives", unit=target.unit, model=target.detail["model"], enemy=enemy.id,
             dice=list[JSON](dice), mortal_wounds=mw)
    if mw:
        push_mortal_wounds(ctx, enemy, mw, cause="Explosives")


EXPLOSIVES = Stratagem(
    "Explosives", 1, Window.START_OF_PHASE, TurnKey.YOURS, ("shooting",), "15.05",
    _explosives_targets, _explosives_effect,
    text="Six D6 at an unengaged enemy within 8\" of a GRENADES model: each 4+ is a mortal "
         "wound.")


# -- 15.06 Crushing Impact -----------------------------------------------------------------------
def _impact_targets(ctx: Context, facts: Facts, player: str) -> list[Target]:
    uid = _own(ctx, facts, player)
    if uid is None:
        return []
    u = ctx.state.unit(uid)
    if not (_MONSTER in u.keys or _VEHICLE in u.keys):  # (``u.has``'s test, keys made once)
        return []
    out: list[Target] = []
    for e in geo.engaged_enemies(ctx, u):
        es = geo.unit_shapes(e)
        seen: set[int] = set()
        for m in u.alive:
            # the model only sets the number of dice (its T): one option per T value
            if m.profile.T not in seen and any(engaged(geo.model_shape(m), o) for o in es):
                seen.add(m.profile.T)
                out.append(Target(uid, {"enemy": e.id, "model": m.id}))
    return out


def _impact_effect(ctx: Context, facts: Facts, player: str, target: Target) -> None:
    u = ctx.state.unit(target.unit)
    enemy = ctx.state.unit(str(target.detail["enemy"]))
    model = next(m for m in u.alive if m.id == target.detail["model"])
    dice = [d.unmodified for d in ctx.roll(RollKind.OTHER, model.profile.T, unit=u.id)]
    own = min(MAX_IMPACT_MW, sum(1 for d in dice if d == 1))
    theirs = min(MAX_IMPACT_MW, sum(1 for d in dice if d >= 5))
    ctx.log("crushing_impact", unit=u.id, model=model.id, enemy=enemy.id,
             dice=list[JSON](dice), mortal_wounds={u.id: own, enemy.id: theirs})
    # The enemy's wounds resolve first (pushed last), then the unit's own.
    if own:
        push_mortal_wounds(ctx, u, own, cause="Crushing Impact")
    if theirs:
        push_mortal_wounds(ctx, enemy, theirs, cause="Crushing Impact")


CRUSHING_IMPACT = Stratagem(
    "Crushing Impact", 1, Window.CHARGE_MOVE_ENDED, TurnKey.YOURS, ("charge",), "15.06",
    _impact_targets, _impact_effect, own_unit=True,  # _own: the charging unit
    text="After a MONSTER/VEHICLE charge move: T D6, each 1 a mortal wound on your unit, each "
         "5+ on the enemy (at most 6 each).")


# -- 15.10 Smokescreen ---------------------------------------------------------------------------
def _smoke_targets(ctx: Context, facts: Facts, player: str) -> list[Target]:
    if facts.get("phase") != "shooting":
        return []
    return [Target(u.id) for u in ctx.state.units_of(player) if _SMOKE in u.keys]


_SMOKE, _MONSTER, _VEHICLE = (canonical_keyword(k) for k in ("SMOKE", "MONSTER", "VEHICLE"))
"""The keys ``UnitData.has`` tests these keywords by, made once (pass ow25)."""


def _smoke_effect(ctx: Context, facts: Facts, player: str, target: Target) -> None:
    # shooting reads effects.smokescreened (attacks targeting the unit get cover) and
    # ShooterFacts.smoke_cover (a unit not fully visible because of its models gets cover)
    pass


SMOKESCREEN = Stratagem(
    "Smokescreen", 1, Window.START_OF_PHASE, TurnKey.OPPONENTS, ("shooting",), "15.10",
    _smoke_targets, _smoke_effect,
    text="Until the end of the phase, a SMOKE unit, and your units not fully visible to the "
         "attacker because of its models, have the benefit of cover.")


# -- 15.12 Counteroffensive ----------------------------------------------------------------------
def _counter_targets(ctx: Context, facts: Facts, player: str) -> list[Target]:
    uid = facts.get("unit")
    if not isinstance(uid, str) or ctx.state.unit(uid).player == player:
        return []  # just after an *enemy* unit has resolved its attacks
    return [Target(u.id) for u in ctx.state.units_of(player) if eligible_to_fight(ctx, u)]


def _counter_effect(ctx: Context, facts: Facts, player: str, target: Target) -> None:
    # Fights First until the end of the phase (the turn flags are cleared at the next turn,
    # and the Fight phase is the turn's last); fight._seq makes it the next unit selected.
    ctx.state.unit(target.unit).flags["fights_first"] = True


COUNTEROFFENSIVE = Stratagem(
    "Counteroffensive", 2, Window.AFTER_FIGHT, TurnKey.OPPONENTS, ("fight",), "15.12",
    _counter_targets, _counter_effect,
    text="A friendly unit eligible to fight gains Fights First and is the next you select.")
