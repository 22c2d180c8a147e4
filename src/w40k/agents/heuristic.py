"""The heuristic player (``--agents heuristic``): plays for objectives with exact odds.

- **Targets** by exact expected kills and damage from the math layer (``heuristic_attacks``,
  cached per weapon, target profile and modifiers); later units see earlier casualties, so
  fire is focused on wounded units; targets on objectives count more.
- **Moves** to hold, take and contest objectives, and to hunt or screen with the units left
  over (``heuristic_plan``); advances when it can neither shoot nor charge after a normal
  move and the goal is farther than its Move; falls back (Ordered Retreat) when the fight is
  lost and its guns are worth more than its melee.
- **Charges** when the exact probability that 2D6 reaches the target (R11.04-a) and the
  expected melee exchange favour it (``charge_choice``).
- **Attack sequence:** allocation to the cheapest groups first, Select Model to the wounded
  and least valuable model, [PRECISION] onto characters and [LETHAL HITS] by their defaults.
- **Stratagems and Firing Deck** (``heuristic_stratagems``): each stratagem option a reaction
  window offers is valued with the same exact maths (a re-roll of a failed charge, hit,
  wound or save die that matters; Fire Overwatch at a likely charger; Insane Bravery on an
  objective; Epic Challenge, Heroic Intervention, Smokescreen, Explosives, Crushing Impact,
  Counteroffensive) and the best is used when it beats what its CP is worth now (more as CP
  runs low); Firing Deck lends the embarked weapons that add the most expected damage.
- **Anything else** (other reactions, request kinds added later) gets a safe legal answer:
  the request's default when legal, else ``decline``, else the first option; free-form
  requests it does not know are answered by the engine's proposers
  (``w40k.engine.legal.sample``).

Deterministic for a given seed (its own ``random.Random``; no global randomness), and it
varies with the seed (near-ties and the proposers' draws). It reads the state and the
requests only; no die of the game is rolled (a fight declaration is checked by the engine's
read-only check).
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable

from w40k.agents import heuristic_deploy
from w40k.agents.heuristic_actions import action_choice
from w40k.agents.heuristic_attacks import (
    allocation_choice,
    cheapest_loss,
    fight_declaration,
    select_model_choice,
    shooting_declaration,
)
from w40k.agents.heuristic_eval import (
    ENGAGEMENT,
    Estimates,
    centre,
    max_range,
    move_of,
    oc_on,
    on_objective,
    p_charge,
    unit_gap,
    value_bound,
    value_of,
)
from w40k.agents.heuristic_moves import farther_move
from w40k.agents.heuristic_plan import melee_minded, plan
from w40k.agents.heuristic_stratagems import choose_stratagem, firing_deck_choice
from w40k.core.abilities import Assault
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.engine.game import Game
from w40k.engine.legal import sample
from w40k.engine.phases.fight_sequence import check_declaration
from w40k.engine.phases.set_up import disembark_placement
from w40k.engine.requests import K, Request
from w40k.engine.serial import JSON
from w40k.engine.state import GameState, UnitData
from w40k.rules.decisions import DECLINE

DECLINES = ("decline", "done", "pass", "fail", "skip", "cancel")
"""Answers that decline or end something."""
MIN_CHARGE_P = 0.2
"""Below this probability a charge is not declared, whatever it could gain."""
MIN_CHARGE_VALUE = 0.3
"""The least expected gain (probability x exchange) worth declaring a charge for."""


def safe_answer(game: Game, request: Request, rng: random.Random) -> JSON:
    """A legal answer to any request: the default when it is one of the options, else
    ``decline``, else the first option; free-form requests from the engine's proposer."""
    if request.options:
        if request.accepts(request.default):
            return request.default
        if request.accepts("decline"):
            return "decline"
        return request.options[0]
    try:
        return sample(game, request, rng)
    except KeyError:  # a free-form kind with no proposer (yet): its documented default
        default = request.context.get("default")
        return request.default if default is None else default


def charge_choice(state: GameState, u: UnitData, e: UnitData, est: Estimates | None = None
                  ) -> tuple[float, float]:
    """(probability, expected gain) of ``u`` charging ``e``: the exact chance that 2D6
    reaches it, times what the unit deals with the charge bonus less half of what it takes
    back, plus the value of an objective the target stands on; leaving an objective only
    this unit holds costs. ``est``: the player's estimates (default: a fresh view of
    ``state``)."""
    est = Estimates(state) if est is None else est
    p = p_charge(unit_gap(u, e))
    dealt = value_of(est.melee_outcome(u, e, charged=True), e)
    taken = value_of(est.melee_outcome(e, u), u)
    gain = dealt - 0.5 * taken
    for o in state.objectives:
        xy = (o.x, o.y)
        if on_objective(e, xy):
            gain += 1.0
        if on_objective(u, xy) and not on_objective(e, xy) and not any(
                on_objective(f, xy) for f in state.units_of(u.player) if f.id != u.id):
            gain -= 2.0
    return p, p * gain


def charge_bound(p: float, dealt: float, on_target: list[bool]) -> float:
    """An upper bound of :func:`charge_choice`'s expected gain, in the same float operations:
    ``p`` times ``dealt`` (at least what the unit deals) plus 1 per objective the target
    stands on (``on_target``, in the state's order). What is taken back is never negative and
    leaving an objective only subtracts, so the gain is at most this (each rounded step is
    monotone: a bound of the floats, not only of the exact values)."""
    gain = dealt
    for on in on_target:
        if on:
            gain += 1.0
    return p * gain


class HeuristicAgent:
    """Plays for objectives with exact expected damage and charge odds (module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int = 0, *, strict: bool = False) -> None:
        self.rng = random.Random(seed)
        """The agent's own RNG (near-ties, the proposers' draws)."""
        self.strict = strict
        """Raise its own errors instead of falling back to a safe answer (tests)."""
        self.estimates = Estimates()
        """Its estimates (agents/heuristic_eval.py): read from the state of the request it
        answers, kept while the units do not change; passed down to the helpers."""
        self._gave_up: set[tuple[int, str, str]] = set()
        """(round, turn player, unit) of the moves it cancelled (no placement found): the unit
        then remains stationary, so a move it cannot place is not asked for again and again."""
        self._handlers: dict[str, Callable[[Game, Request], JSON]] = {
            # before the battle (agents/heuristic_deploy.py)
            K.DECLARE_FORMATIONS: lambda g, r: heuristic_deploy.declare(g, r, self.estimates),
            K.DEPLOY: lambda g, r: heuristic_deploy.deploy(g, r, self.rng, self.estimates),
            K.SCOUT: lambda g, r: heuristic_deploy.scout(g, r, self.rng, self.estimates),
            K.FIRST_TURN: lambda g, r: heuristic_deploy.first_turn(g, r, self.estimates),
            K.SELECT_UNIT_TO_MOVE: self._select_move,
            K.MOVE_TYPE: self._move_type,
            K.TAKE_TO_SKIES: lambda g, r: False if r.accepts(False) else r.options[0],
            K.POSITIONS: self._positions,
            K.SET_UP: self._set_up,
            K.SELECT_UNIT_TO_SHOOT: self._select_shoot,
            K.SHOOTING_TYPE: self._shooting_type,
            K.DECLARE_SHOOTING: self._declare_shooting,
            K.SELECT_UNIT_TO_CHARGE: self._select_charge,
            K.CHARGE_TARGETS: self._charge_targets,
            K.SELECT_UNIT_TO_FIGHT: self._select_fight,
            K.FIGHT_TYPE: lambda g, r: "normal" if r.accepts("normal") else r.options[0],
            K.DECLARE_FIGHT: self._declare_fight,
            K.PILE_IN_TARGETS: self._melee_targets,
            K.CONSOLIDATE_TARGETS: self._melee_targets,
            K.CONSOLIDATE_OBJECTIVE: self._consolidate_objective,
            K.REACTION: self._reaction,
            K.FIRING_DECK: self._firing_deck,
            K.SELECT_UNIT_TO_PILE_IN: self._first_acting,
            K.SELECT_UNIT_TO_CONSOLIDATE: self._first_acting,
            K.ALLOCATION_ORDER: self._allocation,
            K.SELECT_MODEL: self._select_model,
            K.REMOVE_FOR_COHERENCY: self._remove_for_coherency,
        }

    # -- the boundary ---------------------------------------------------------------------
    def choose(self, game: Game, request: Request) -> JSON:
        """A legal answer to ``request``; never raises for a request it does not know."""
        # the estimates see the abilities in force in this state (heuristic_eval.adjusted)
        self.estimates.state = game.state
        handler = self._handlers.get(str(request.kind))
        if handler is None:
            return safe_answer(game, request, self.rng)
        try:
            answer = handler(game, request)
        except (KeyError, ValueError, TypeError, IndexError, AttributeError, ArithmeticError):
            if self.strict:
                raise
            return safe_answer(game, request, self.rng)
        if request.options and not request.accepts(answer):
            if self.strict:
                raise IllegalChoice(f"heuristic answered {answer!r} to {request.kind}",
                                    rule=request.rule)
            return safe_answer(game, request, self.rng)
        return answer

    def _reaction(self, game: Game, r: Request) -> JSON:
        """The datasheet abilities' reactions (agents/ability_reactions.py), then the
        stratagem worth its CP most (agents/heuristic_stratagems.py), then a mission action
        worth more than the unit's shooting (agents/heuristic_actions.py); else the safe
        answer (decline)."""
        from w40k.agents.ability_reactions import ability_choice

        wanted = ability_choice(game, r)
        if wanted is not None and wanted != DECLINE:
            return wanted
        strat = choose_stratagem(game, r, self.estimates)
        if strat is not None:
            return strat
        # a mission action (agents/heuristic_actions.py)
        act = action_choice(game, r, self.estimates)
        if act is not None:
            return act
        return safe_answer(game, r, self.rng) if wanted is None else wanted

    def _firing_deck(self, game: Game, r: Request) -> JSON:
        """24.14: the embarked weapons that add the most (agents/heuristic_stratagems.py)."""
        return firing_deck_choice(game, r)

    # -- movement -------------------------------------------------------------------------
    def _select_move(self, game: Game, r: Request) -> JSON:
        # Engaged units first (they decide to stay or fall back), then the unit farthest
        # from its goal (it has the most ground to cover and picks its path first).
        s = game.state
        goals = plan(s, r.player, random.Random(self.rng.random()),
                     only={str(o) for o in r.options}, est=self.estimates)
        enemies = s.units_of(s.opponent(r.player))

        units = {u.id: u for u in s.units_of(r.player)}

        def key(o: JSON) -> tuple[bool, float, str]:
            u = units[str(o)]
            engaged = any(unit_gap(u, e) <= ENGAGEMENT for e in enemies)
            g = goals.get(u.id)
            cx, cy = centre(u)
            dist = 0.0 if g is None else math.hypot(g.point[0] - cx, g.point[1] - cy)
            return (not engaged, -dist, str(o))
        known = [o for o in r.options if str(o) in units]
        return min(known, key=key) if known else safe_answer(game, r, self.rng)

    def _move_type(self, game: Game, r: Request) -> JSON:
        s = game.state
        u = s.any_unit(str(r.context["unit"]))
        opts = r.options
        if (s.round, s.turn_player, u.id) in self._gave_up:
            stay = [o for o in ("remain_stationary", "remain_in_reserves", "remain_embarked")
                    if o in opts]
            if stay:
                return stay[0]
        if "ingress" in opts:  # arrive at once: a reserve unit left out is destroyed (R20.04-e)
            return "ingress"
        if "disembark" in opts:
            # 03.02-b: ask only when the engine's set-up finds a place (no cancelled move)
            out = _wants_out(s, u) and disembark_placement(game.ctx, u) is not None
            return "disembark" if out else "remain_embarked"
        enemies = s.units_of(s.opponent(u.player))
        engaged = [e for e in enemies if unit_gap(u, e) <= ENGAGEMENT]
        if engaged:
            est = self.estimates
            if "fall_back_ordered" not in opts:
                return "remain_stationary"
            mine = sum(value_of(est.melee_outcome(u, e), e) for e in engaged)
            theirs = sum(value_of(est.melee_outcome(e, u), u) for e in engaged)
            # Each test only when the ones before it pass (estimates read nothing else:
            # the same answer as computing all of them).
            if not theirs > 1.5 * mine:
                return "remain_stationary"
            # whether its guns are worth more (max of the enemies' values > mine): the first
            # enemy unit they are worth more against settles it, and one whose whole value
            # (value_bound) is not more cannot (the same answer as the max)
            outgunned = any(value_bound(e) > mine and value_of(
                est.ranged_outcome(u, e, distance=12.0), e) > mine for e in enemies)
            held = outgunned and any(
                on_objective(u, (o.x, o.y)) and oc_on(u, (o.x, o.y)) > sum(
                    oc_on(e, (o.x, o.y)) for e in engaged) for o in s.objectives)
            if outgunned and not held:
                return "fall_back_ordered"
            return "remain_stationary"
        goal = plan(s, u.player, random.Random(self.rng.random()), only=(u.id,),
                    est=self.estimates).get(u.id)
        if goal is None or "normal" not in opts:
            return "remain_stationary" if "remain_stationary" in opts else opts[0]
        cx, cy = centre(u)
        dist = math.hypot(goal.point[0] - cx, goal.point[1] - cy)
        if goal.why == "hold" or dist < 0.5:
            return "remain_stationary" if "remain_stationary" in opts else opts[0]
        m = move_of(u)
        if "advance" not in opts or not dist > m + 0.5:
            return "normal"
        nearest = min((unit_gap(u, e) for e in enemies), default=math.inf)
        after = nearest - m
        shoots = max_range(u) > 0 and after <= max_range(u)
        assault_only = all(any(isinstance(a, Assault) for a in w.abilities)
                           for mm in u.alive for w in mm.weapons if not w.is_melee)
        if not (not shoots or assault_only):
            return "normal"
        # the melee estimate last, only when it decides (it reads nothing else)
        could_charge = after <= 12.0 and melee_minded(u, enemies, self.estimates)
        return "normal" if could_charge else "advance"

    def _positions(self, game: Game, r: Request) -> JSON:
        mt = str(r.context.get("move_type", ""))
        if mt in ("normal", "advance") and "toward" not in r.context:
            u = game.state.unit(str(r.context["unit"]))
            goal = plan(game.state, u.player, random.Random(self.rng.random()),
                        only=(u.id,), est=self.estimates).get(u.id)
            if goal is not None:
                ctx = dict(r.context)
                jx, jy = self.rng.uniform(-0.3, 0.3), self.rng.uniform(-0.3, 0.3)
                ctx["toward"] = [goal.point[0] + jx, goal.point[1] + jy]
                answer = sample(game, dataclasses.replace(r, context=ctx), self.rng)
                # a unit the straight move leaves short goes model by model (09.05)
                answer = farther_move(game, r, answer, (goal.point[0] + jx, goal.point[1] + jy))
                if answer not in ({}, "cancel"):
                    return answer
        decline = r.context.get("decline")
        answer = sample(game, r, self.rng)
        for _ in range(3):  # melee moves: another draw before giving the move up
            if decline is None or answer != decline:
                break
            answer = sample(game, r, self.rng)
        if answer == "cancel" and mt in ("normal", "advance", "fall_back", "desperate_escape"):
            s = game.state
            self._gave_up.add((s.round, s.turn_player, str(r.context["unit"])))
        return answer

    def _set_up(self, game: Game, r: Request) -> JSON:
        """The engine's proposal; a unit it cannot set up (``cancel``, R03.02-b) stays where
        it is for the rest of the turn instead of being asked for again."""
        answer = safe_answer(game, r, self.rng)
        if answer == "cancel":
            s = game.state
            self._gave_up.add((s.round, s.turn_player, str(r.context["unit"])))
        return answer

    # -- shooting -------------------------------------------------------------------------
    def _select_shoot(self, game: Game, r: Request) -> JSON:
        acting = [o for o in r.options if o not in DECLINES]
        return acting[0] if acting else r.options[0]

    def _shooting_type(self, game: Game, r: Request) -> JSON:
        for t in ("normal", "assault", "close_quarters"):
            if r.accepts(t):
                return t
        return r.options[0]

    def _declare_shooting(self, game: Game, r: Request) -> JSON:
        # Built like the engine's own proposer (a target each weapon may select on its own,
        # [PISTOL] weapons or the others per model, 24.07), so it needs no trial submission.
        return shooting_declaration(game.state, r.context)

    # -- charge ---------------------------------------------------------------------------
    def _select_charge(self, game: Game, r: Request) -> JSON:
        s = game.state
        est = self.estimates
        best: tuple[float, str] | None = None

        def may_win(bound: float) -> bool:  # a gain of at most ``bound`` may be chosen
            return bound >= MIN_CHARGE_VALUE and (best is None or bound > best[0])
        for o in r.options:
            if o in DECLINES:
                continue
            u = s.unit(str(o))
            for e in s.units_of(s.opponent(u.player)):
                d = unit_gap(u, e)
                if d > 12.0 or p_charge(d) < MIN_CHARGE_P:
                    continue  # out of reach, or too unlikely whatever the exchange
                # the exchange only when its bound may be chosen: with the target's whole
                # value dealt, then with what is dealt, nothing taken back (charge_bound)
                bonus = [on_objective(e, (ob.x, ob.y)) for ob in s.objectives]
                if not may_win(charge_bound(p_charge(d), value_bound(e), bonus)):
                    continue
                dealt = value_of(est.melee_outcome(u, e, charged=True), e)
                if not may_win(charge_bound(p_charge(d), dealt, bonus)):
                    continue
                p, ev = charge_choice(s, u, e, est)
                if p >= MIN_CHARGE_P and ev >= MIN_CHARGE_VALUE and (
                        best is None or ev > best[0]):
                    best = (ev, str(o))
        if best is not None:
            return best[1]
        return "done" if r.accepts("done") else r.options[-1]

    def _charge_targets(self, game: Game, r: Request) -> JSON:
        s = game.state
        u = s.unit(str(r.context["unit"]))
        singles = [o for o in r.options if isinstance(o, list) and len(o) == 1]
        if not singles:
            return next((o for o in r.options if o not in DECLINES), r.options[0])
        est = self.estimates
        return max(singles, key=lambda o: (charge_choice(s, u, s.unit(str(o[0])), est)[1] /
                                           max(p_charge(unit_gap(u, s.unit(str(o[0])))),
                                               1e-9), str(o)))

    # -- fight ----------------------------------------------------------------------------
    def _select_fight(self, game: Game, r: Request) -> JSON:
        s = game.state
        acting = [o for o in r.options if o not in DECLINES]
        if not acting:
            return r.options[0]

        def key(o: JSON) -> tuple[float, str]:
            u = s.unit(str(o))
            foes = [e for e in s.units_of(s.opponent(u.player)) if unit_gap(u, e) <= 5.0]
            v = max((value_of(self.estimates.melee_outcome(u, e, charged=u.flag("charged")), e)
                     for e in foes), default=0.0)
            return (-v, str(o))
        return min(acting, key=key)

    def _declare_fight(self, game: Game, r: Request) -> JSON:
        answer: JSON = fight_declaration(game.state, r.context)
        if not self._legal_fight(game, r, answer):
            default = r.context.get("default")
            return default if default is not None else sample(game, r, self.rng)
        return answer

    def _melee_targets(self, game: Game, r: Request) -> JSON:
        s = game.state
        u = s.unit(str(r.context["unit"]))
        singles = [o for o in r.options if isinstance(o, list) and len(o) == 1]
        if not singles:
            return next((o for o in r.options if o not in DECLINES), r.options[0])
        est = self.estimates
        return max(singles, key=lambda o: (value_of(est.melee_outcome(u, s.unit(str(o[0]))),
                                                    s.unit(str(o[0]))), str(o)))

    def _consolidate_objective(self, game: Game, r: Request) -> JSON:
        s = game.state
        u = s.unit(str(r.context["unit"]))
        cx, cy = centre(u)
        objs = {o.name: o for o in s.objectives}

        def key(o: JSON) -> tuple[bool, float, str]:
            ob = objs.get(str(o))
            if ob is None:
                return (True, math.inf, str(o))
            return (ob.controller == u.player, math.hypot(ob.x - cx, ob.y - cy), str(o))
        return min(r.options, key=key)

    def _first_acting(self, game: Game, r: Request) -> JSON:
        acting = [o for o in r.options if o not in DECLINES]
        return acting[0] if acting else r.options[0]

    # -- the attack sequence and removals ----------------------------------------------------
    def _allocation(self, game: Game, r: Request) -> JSON:
        target = r.context.get("target")
        return allocation_choice(game.state, r.options, r.groups,
                                 None if target is None else str(target))

    def _select_model(self, game: Game, r: Request) -> JSON:
        ids = [str(r.context[k]) for k in ("unit", "target", "attacker") if k in r.context]
        mine = [i for i in ids if _owner(game.state, i) == r.player]
        choice = select_model_choice(game.state, r.options, r.labels, mine)
        return safe_answer(game, r, self.rng) if choice is None else choice

    def _remove_for_coherency(self, game: Game, r: Request) -> JSON:
        # 03.03: the removal that rejoins the unit soonest, else the cheapest model.
        s = game.state
        models = {m.id: (u, m) for u in s.units_of(r.player) for m in u.alive}
        cands = [o for o in r.options if isinstance(o, str) and o in models]
        if not cands:
            return safe_answer(game, r, self.rng)
        unit = models[str(cands[0])][0]
        return cheapest_loss([models[str(o)][1] for o in cands], unit.alive).id

    # -- helpers ----------------------------------------------------------------------------
    @staticmethod
    def _legal_fight(game: Game, r: Request, answer: JSON) -> bool:
        """Whether the game accepts ``answer`` to the ``declare_fight`` request ``r``: the
        checks its submit makes that can refuse it (the request's own, then the fight
        frame's ``check_declaration``, which only reads the state), without a clone. The
        rest of that submit (the declaration kept on the frame, its event, the Targets
        Selected window) refuses nothing."""
        try:
            r.check(answer)
            check_declaration(game.ctx, game.state.unit(str(r.context["unit"])), answer)
        except (IllegalChoice, MalformedChoice):
            return False
        return True


DISEMBARK_REACH = 18.0
"""An embarked unit gets out once an enemy unit is this close to its transport (a move and a
shot or charge away), from battle round 3 whatever the distance, or on an objective."""


def _wants_out(state: GameState, u: UnitData) -> bool:
    """Whether the embarked unit ``u`` should disembark now (see :data:`DISEMBARK_REACH`)."""
    if u.embarked_in is None:
        return True
    t = state.unit(u.embarked_in)
    if state.round >= 3 or any(on_objective(t, (o.x, o.y)) for o in state.objectives):
        return True
    return any(unit_gap(t, e) <= DISEMBARK_REACH for e in state.units_of(state.opponent(u.player)))


def _owner(state: GameState, uid: str) -> str | None:
    try:
        return state.unit(uid).player
    except KeyError:
        return None
