"""Units off the battlefield (18, 20, 23): strategic reserves and units embarked within a
TRANSPORT, kept in ``GameState.off_table`` so that no rule looking at the battlefield sees
them (R18.02-b). This module moves units between the battlefield and off it, answers "may it
arrive or disembark now", and resolves what happens to them at the end of a turn or round.
"""

from __future__ import annotations

from typing import cast

from w40k.core.abilities import DeepStrike
from w40k.core.dice import RollKind
from w40k.core.errors import IllegalChoice
from w40k.core.jsonval import JSON
from w40k.core.transport import Capacity
from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.model_states import model_states
from w40k.engine.phases.movement_frames import MortalWoundsFrame
from w40k.engine.state import GameState, ModelData, UnitData
from w40k.geometry import Battlefield, Model
from w40k.geometry.shapes import FloatArray
from w40k.rules.placement import emergency_placement
from w40k.rules.primitives import hazard_fails, hazard_mortal_wounds
from w40k.rules.reserves import destroyed_for_not_arriving, may_arrive
from w40k.rules.setup import zone
from w40k.rules.transport import TransportMove, capacity_violations

RESERVES = "reserves"
"""``UnitData.location`` of a unit in strategic reserves."""
EMBARKED = "embarked"
"""``UnitData.location`` of a unit embarked within a TRANSPORT."""
BATTLEFIELD = "battlefield"
"""``UnitData.location`` of a unit on the battlefield."""
UNDEPLOYED = "undeployed"
"""``UnitData.location`` of a unit not yet set up in the pre-battle sequence (03.02
deployment, engine/phases/deployment.py)."""


def _touch(u: UnitData) -> None:
    """Re-set each model's position, so that anything cached from model placements (the
    kept battlefield model) knows the battlefield changed."""
    for m in u.models:
        m.x = m.x


def capacity_of(u: UnitData) -> Capacity | None:
    """The unit's transport capacity (its first TRANSPORT model's), or None."""
    for m in u.alive:
        if m.profile.transport is not None:
            return m.profile.transport
    return None


def passengers(state: GameState, transport: str) -> list[UnitData]:
    """The units embarked within ``transport``, in order."""
    return [u for u in state.off_table if u.location == EMBARKED and u.embarked_in == transport]


def model_keywords(u: UnitData) -> list[frozenset[str]]:
    """One keyword set per living model (upper case), as capacity rules read them."""
    return [frozenset(k.upper() for k in m.profile.keywords) for m in u.alive]


def can_carry(state: GameState, transport: UnitData, u: UnitData) -> list[str]:
    """18.01: the rules broken if ``u`` embarked within ``transport`` now (empty: it fits)."""
    cap = capacity_of(transport)
    if cap is None or transport.player != u.player or transport.id == u.id:
        return ["R18.01-a: not a friendly TRANSPORT"]
    load = [model_keywords(p) for p in passengers(state, transport.id)]
    return capacity_violations(cap, load, model_keywords(u))


def embark(state: GameState, u: UnitData, transport: UnitData) -> None:
    """18.02: the unit is removed from the battlefield, embarked within ``transport``."""
    _touch(u)
    state.units.remove(u)
    u.location, u.embarked_in = EMBARKED, transport.id
    state.off_table.append(u)


def to_reserves(state: GameState, u: UnitData) -> None:
    """The unit is removed from the battlefield and placed in strategic reserves (23.02
    AIRCRAFT, 20.02 repositioned units)."""
    _touch(u)
    state.units.remove(u)
    u.location, u.embarked_in = RESERVES, None
    state.off_table.append(u)


def reposition(ctx: Context, u: UnitData, *, rule: str = "") -> None:
    """20.02: a rule removes ``u`` from the battlefield and places it in strategic reserves
    (a repositioned unit). In the Movement phase it may have moved already (R20.02-a). Its
    status flags stay: an advance, fall-back or disembark move made this turn still counts
    once it is set up again this turn, and an effect with a stated duration (battle-shocked
    until its next Command phase) still applies; auras are read where it arrives, as they
    are measured from positions (R20.02-b). It is not destroyed for never arriving (R20.04-e,
    its ``repositioned`` flag)."""
    if u.location != BATTLEFIELD or u.destroyed:
        raise IllegalChoice(f"{u.name} is not on the battlefield", rule="R20.02-a")
    to_reserves(ctx.state, u)
    u.flags["repositioned"] = True
    ctx.log("repositioned", unit=u.id, rule=rule or "R20.02-a")


def undeploy(state: GameState, u: UnitData) -> None:
    """Before the battle: the unit waits off the battlefield to be declared and deployed."""
    _touch(u)
    if u in state.units:
        state.units.remove(u)
        state.off_table.append(u)
    u.location, u.embarked_in = UNDEPLOYED, None


def place_in_reserves(u: UnitData, transport: UnitData | None = None) -> None:
    """Declare Battle Formations: an off-table unit starts in strategic reserves (20.01) or
    embarked within ``transport`` (18.01)."""
    if transport is None:
        u.location, u.embarked_in = RESERVES, None
    else:
        u.location, u.embarked_in = EMBARKED, transport.id


def own_zone(state: GameState, player: str) -> FloatArray | None:
    """``player``'s deployment zone, if the mission has zones."""
    return opponent_zone(state, state.opponent(player))


def arrive(state: GameState, u: UnitData, places: dict[str, tuple[float, float, float]]
           ) -> None:
    """The unit is set up on the battlefield at ``places`` (model id -> x, y, z)."""
    state.off_table.remove(u)
    u.location, u.embarked_in = BATTLEFIELD, None
    for m in u.alive:
        m.x, m.y, m.z = places[m.id]
    state.units.append(u)


def deep_strike(u: UnitData) -> bool:
    """24.09: every model has Deep Strike."""
    return bool(u.alive) and all(any(isinstance(a, DeepStrike) for a in m.profile.abilities)
                                 for m in u.alive)


def is_aircraft(u: UnitData) -> bool:
    """The unit has the AIRCRAFT keyword."""
    return u.has("AIRCRAFT")


def opponent_zone(state: GameState, player: str) -> FloatArray | None:
    """The deployment zone of ``player``'s opponent, if the mission has zones."""
    zones = state.mission.get("deployment_zones")
    if not isinstance(zones, list):
        return None
    other = state.opponent(player)
    for z in cast(list[dict[str, JSON]], zones):
        if z.get("player") == other:
            return zone([(float(cast(float, p[0])), float(cast(float, p[1])))
                         for p in cast(list[list[JSON]], z["polygon"])])
    return None


def battlefield(state: GameState) -> Battlefield:
    """The battlefield rectangle."""
    return Battlefield(float(cast(float, state.battlefield["width"])),
                       float(cast(float, state.battlefield["depth"])))


def enemy_models(state: GameState, player: str) -> list[Model]:
    """Every living enemy model on the battlefield, as geometry sees it."""
    return [geo.model_shape(m) for u in state.units if u.player != player
            for m in u.alive]


def transport_move(u: UnitData) -> TransportMove:
    """What a TRANSPORT has done this phase, as 18.04 reads it (its movement flags)."""
    if u.flag("advanced"):
        return TransportMove.ADVANCE
    if u.flag("fell_back"):
        return TransportMove.FALL_BACK
    if u.flag("ingress_this_turn") and u.flag("selected_to_move"):
        return TransportMove.INGRESS
    if u.flag("moved"):
        return TransportMove.NORMAL
    if u.flag("remained_stationary"):
        return TransportMove.STATIONARY
    return TransportMove.NOT_SELECTED


def can_ingress(state: GameState, u: UnitData) -> bool:
    """20.03 / 20.04: a unit in strategic reserves (not one embarked within a transport in
    reserves) may make an ingress move from the second battle round."""
    return u.location == RESERVES and may_arrive(state.round)


def can_disembark(state: GameState, u: UnitData) -> bool:
    """18.04 Eligible if: embarked within a TRANSPORT on the battlefield, not embarked this
    phase, and the transport has not advanced or fallen back this phase."""
    if u.location != EMBARKED or u.embarked_in is None or u.flag("embarked_this_phase"):
        return False
    host = next((t for t in state.units if t.id == u.embarked_in), None)
    if host is None or host.destroyed:
        return False
    return transport_move(host) not in (TransportMove.ADVANCE, TransportMove.FALL_BACK)


def movable_off_table(state: GameState, player: str) -> list[UnitData]:
    """``player``'s units off the battlefield that can be selected to move now (09.02): an
    ingress or a disembark move is open to them."""
    return [u for u in state.off_table if u.player == player and not u.destroyed
            and (can_ingress(state, u) or can_disembark(state, u))]


def end_of_round(ctx: Context) -> None:
    """20.04: at the end of the third battle round every reserve unit that has never made an
    ingress move is destroyed, unless it is a repositioned unit; units embarked within such a
    transport go with it (those within a transport that has made one survive, R20.04-e)."""
    s = ctx.state
    doomed = [u.id for u in s.off_table if u.location == RESERVES and not u.destroyed
              and destroyed_for_not_arriving(
                  battle_round=s.round, has_made_ingress=u.flag("made_ingress"),
                  repositioned=u.flag("repositioned"), transport_made_ingress=False)]
    doomed += [u.id for u in s.off_table if u.location == EMBARKED and u.embarked_in in doomed]
    for u in s.off_table:
        if u.id in doomed:
            for m in u.alive:
                m.destroyed = True
            ctx.log("destroyed_in_reserves", unit=u.id, rule="R20.04-e")


def aircraft_return(ctx: Context, turn_player: str) -> None:
    """23.02: at the end of the opponent's turn, every AIRCRAFT unit of the player whose turn
    it is not, on the battlefield, is placed in strategic reserves."""
    s = ctx.state
    for u in [u for u in s.units if u.player != turn_player and not u.destroyed
              and is_aircraft(u)]:
        to_reserves(s, u)
        ctx.log("to_reserves", unit=u.id, rule="R23.02-b")


def emergency_disembark(ctx: Context, transport: UnitData, hull: ModelData) -> None:
    """18.05: before the destroyed TRANSPORT model ``hull`` is removed, each unit embarked
    within it makes a hazard roll per model and is set up wholly within 6" of it, as close
    as possible (``rules/placement.emergency_placement``); a model that cannot be set up is
    destroyed; the unit is battle-shocked and cannot declare a charge this turn (R18.05-b).
    The mortal wounds of failed hazard rolls are inflicted once the unit is set up."""
    s = ctx.state
    shape = geo.model_shape(hull)
    for u in passengers(s, transport.id):
        dice = [r.unmodified for r in ctx.roll(RollKind.HAZARD, len(u.alive), unit=u.id)]
        mw = sum(hazard_fails(r) for r in dice) * hazard_mortal_wounds(model_states(u))
        others = [geo.model_shape(m) for x in s.units if x.player == u.player
                  for m in x.alive if m is not hull]
        placed, lost = emergency_placement(
            [geo.model_shape(m) for m in u.alive], shape, battlefield(s), others,
            enemy_models(s, u.player))
        where = {p.name: (p.x, p.y, 0.0) for p in placed}
        for m in u.alive:
            if m.id in lost:
                m.destroyed = True
                m.wounds_lost = m.profile.W
        arrive(s, u, {m.id: where[m.id] for m in u.alive})
        u.flags["battle_shocked"] = True
        u.flags["emergency_disembark"] = True
        u.flags["set_up_this_turn"] = True
        ctx.log("emergency_disembark", unit=u.id, transport=transport.id,
                hazard_dice=list[JSON](dice), mortal_wounds=mw, lost=list[JSON](lost),
                models={m.id: [round(m.x, 4), round(m.y, 4)] for m in u.alive},
                rule="R18.05-a")
        if mw and u.alive:
            ctx.push(MortalWoundsFrame(u.id, mw, "emergency disembark"))
