"""The greedy player's answers to reaction windows (stratagems): a few simple rules, else
decline.

- Command Re-roll: a charge roll that reaches no enemy while a re-roll could (one within
  12"); a hit, wound or save die showing 1 when the player has 3 CP or more.
- Insane Bravery: a unit with a model within range of an objective.
- Epic Challenge: an enemy CHARACTER is engaged with the unit.
- Fire Overwatch: at an enemy unit within 12" (likely to charge it); Heroic Intervention
  (Leap to Defend) towards an enemy unit that charged, within 7".
- Explosives, Crushing Impact, Smokescreen, Counteroffensive, and the two above: only when
  the player keeps 1 CP after paying.
- A mission's action (engine/mission_actions.py): a unit that has no enemy unit within its
  ranged weapons' range (nothing to shoot this phase), while completing it would score VP.
"""

from __future__ import annotations

from typing import cast

from w40k.agents.heuristic_eval import max_range, unit_gap
from w40k.engine import geo, mission_actions
from w40k.engine.game import Game
from w40k.engine.phases.charge import CHARGE_RANGE, ChargeUnitFrame, charge_targets
from w40k.engine.phases.melee_moves import units_within
from w40k.engine.requests import Request
from w40k.engine.serial import JSON
from w40k.rules.decisions import DECLINE

HEROIC_REACH = 7.0
"""The greedy player intervenes towards a charging enemy this close (a 2D6 roll of 7+ is
likely)."""
SPARE_CP = 1
"""CP the greedy player keeps after using a stratagem that is not a re-roll of a charge."""


def charge_worth_rerolling(game: Game, uid: str) -> bool:
    """The unit's charge roll reaches no enemy unit while a re-roll could (one within 12")."""
    u = game.state.unit(uid)
    roll = next((f.roll for f in reversed(game.state.frames)
                 if isinstance(f, ChargeUnitFrame) and f.unit == uid), None)
    if roll is None:
        return False
    return not charge_targets(game.ctx, u, roll) and bool(
        charge_targets(game.ctx, u, int(CHARGE_RANGE)))


def _wants(game: Game, player: str, name: str, answer: dict[str, JSON],
           facts: dict[str, JSON]) -> bool:
    s = game.state
    cp = s.player(player).cp
    uid = str(answer["unit"])
    if name == "Command Re-roll":
        kind = facts.get("kind")
        if kind == "charge":
            return charge_worth_rerolling(game, uid)
        return kind in ("hit", "wound", "save") and answer.get("face") == 1 and cp >= 3
    if name == "Insane Bravery":
        u = s.unit(uid)
        return any(geo.in_objective_range(game.ctx, m, o) for m in u.alive for o in s.objectives)
    if name in {a.name for a in mission_actions.actions(game.ctx)}:
        u = s.unit(uid)
        reach = max_range(u)
        return mission_actions.vp_if_completed(game.ctx, name, player) > 0 and not any(
            unit_gap(u, e) <= reach for e in s.units_of(s.opponent(player)) if e.alive)
    if name == "Epic Challenge":
        u = s.unit(uid)
        return any(e.has("CHARACTER") for e in geo.engaged_enemies(game.ctx, u))
    if name == "Fire Overwatch":
        # at a unit close enough to charge it next
        return cp >= 1 + SPARE_CP and units_within(s.unit(uid), s.unit(str(answer["enemy"])),
                                                   CHARGE_RANGE)
    if name == "Heroic Intervention":
        u = s.unit(uid)
        return answer.get("mode") == "leap_to_defend" and cp >= 1 + SPARE_CP and any(
            e.flag("charged") and units_within(u, e, HEROIC_REACH)
            for e in s.units_of(s.opponent(player)))
    cost = 2 if name == "Counteroffensive" else 1
    return cp >= cost + SPARE_CP


def choose_reaction(game: Game, request: Request) -> JSON:
    """The datasheet abilities' reactions first (agents/ability_reactions.py), then the first
    option the rules above want, else decline."""
    from w40k.agents.ability_reactions import ABILITY_REACTIONS, ability_choice

    wanted = ability_choice(game, request)
    if wanted is not None and wanted != DECLINE:
        return wanted
    facts = cast(dict[str, JSON], request.context.get("facts", {}))
    for option in request.options:
        if option == DECLINE:
            continue
        name, answer = cast(list[JSON], option)
        if name in ABILITY_REACTIONS:
            continue
        if _wants(game, request.player, str(name), cast(dict[str, JSON], answer), facts):
            return option
    return DECLINE
