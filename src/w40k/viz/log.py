"""The readable battle log `w40k battle` prints, built from the event log only.

Events are the contract (docs/battle.md): this module reads nothing but the events and the
starting position's names. Units and models appear by their names ("Boy 3 of Boyz"), never by
internal ids; numbers are written out with their plurals ("1 wound", "2 hits"); an event kind
it does not know (stratagems and missions add some) gets a generic readable line, never a
crash and never a Python repr.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property

from w40k.engine.serial import JSON


def plural(n: object, word: str, many: str | None = None) -> str:
    """``1 wound``, ``2 wounds``; ``many`` for irregular plurals."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _s(value: object) -> str:
    """A scalar as text: enums by value, whole floats without ``.0``."""
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, float):
        return f"{value:g}"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _faces(value: object, sep: str = " ") -> str:
    """A list of dice faces as text ("5 3 4", or "5 + 3" with ``sep``); a scalar as :func:`_s`."""
    return sep.join(map(_s, value)) if isinstance(value, list) else _s(value)


@dataclass(frozen=True)
class Names:
    """Unit and model names by id, from a position (a record's ``setup``)."""

    units: Mapping[str, str] = field(default_factory=dict)
    """Unit id -> the name shown (its own name; with the side when two units share it)."""
    models: Mapping[str, str] = field(default_factory=dict)
    """Model id -> "Boy 3 of Boyz"."""
    sides: Mapping[str, str] = field(default_factory=dict)
    """Unit id -> its player."""

    @staticmethod
    def from_position(position: Mapping[str, JSON] | None) -> Names:
        """The names of every unit and model in ``position`` (missing fields are skipped)."""
        raw = position.get("units") if position else None
        units = [u for u in raw if isinstance(u, dict)] if isinstance(raw, list) else []
        own = {str(u.get("id")): str(u.get("name") or u.get("id")) for u in units}
        sides = {str(u.get("id")): str(u.get("player", "")) for u in units}
        taken: dict[str, int] = {}
        for name in own.values():
            taken[name] = taken.get(name, 0) + 1
        shown = {}
        for uid, name in own.items():
            shown[uid] = f"{name} ({sides[uid]})" if taken[name] > 1 and sides[uid] else name
        if len(set(shown.values())) < len(shown):  # same name on the same side: the id decides
            shown = {uid: (f"{n} [{uid}]" if list(shown.values()).count(n) > 1 else n)
                     for uid, n in shown.items()}
        models: dict[str, str] = {}
        for u in units:
            uid = str(u.get("id"))
            ms = u.get("models")
            for m in ms if isinstance(ms, list) else []:
                if isinstance(m, dict) and m.get("id") is not None:
                    name = str(m.get("name") or m["id"])
                    # a one-model unit named as its model: "Dreadnought", not "Dreadnought
                    # of Dreadnought"
                    models[str(m["id"])] = shown[uid] if name == own[uid] \
                        else f"{name} of {shown[uid]}"
        return Names(shown, models, sides)

    def unit(self, uid: object) -> str:
        """A unit's name (its id when unknown)."""
        return self.units.get(str(uid), _s(uid))

    def model(self, mid: object) -> str:
        """A model's name with its unit's (its id when unknown)."""
        return self.models.get(str(mid), _s(mid))

    def side(self, uid: object) -> str:
        """The player of a unit ("" when unknown)."""
        return self.sides.get(str(uid), "")

    def text(self, text: object) -> str:
        """``text`` with every unit or model id in it replaced by its name."""
        s = _s(text)
        if not self.units or not s:
            return s
        return self._ids.sub(lambda m: self.models.get(m[0]) or self.units[m[0]], s)

    @cached_property
    def _ids(self) -> re.Pattern[str]:
        """Any known id, longest first, not inside a longer word or id."""
        ids = sorted({*self.units, *self.models}, key=len, reverse=True)
        return re.compile(r"(?<![\w.\-])(?:" + "|".join(map(re.escape, ids))
                          + r")(?![\w\-]|\.\w)")


def _value(v: JSON | object, names: Names) -> str:
    """Any event value as readable text: lists joined, mappings as ``key value`` pairs."""
    if isinstance(v, dict):
        return ", ".join(f"{names.text(k)} {_value(x, names)}" for k, x in v.items())
    if isinstance(v, list | tuple):
        return ", ".join(_value(x, names) for x in v) if v else "none"
    if isinstance(v, str):
        return names.text(v)
    return _s(v)


_PHASES = {"end_of_turn": "end of turn"}
_MOVES = {"remain_stationary": "remains stationary", "normal": "normal move",
          "advance": "advance", "fall_back": "fall back",
          "fall_back_desperate": "fall back (desperate escape)",
          "fall_back_ordered": "fall back (Ordered Retreat)",
          "remain_embarked": "stays embarked", "remain_in_reserves": "stays in reserves"}
_STAYS = frozenset({"remain_stationary", "remain_embarked", "remain_in_reserves"})
"""Move types in which no model moves: no distance is given."""
_DICE_ORDER = ("attacks", "hit", "wound", "save", "damage", "fnp", "hazard")
_SILENT = frozenset({
    "phase_start", "round_end", "selected_to_shoot", "shooting_type", "shooting_end",
    "fight_step_end", "fight_type", "declare_fight", "fought", "consolidation_mode",
    "pile_in_declined", "consolidate_declined", "attack_step", "allocation_policy", "removed",
    "advance_roll", "declare_charge",
})
"""Events too fine for the readable log, or folded into another line (they stay in the
record): an advance roll is told with the move, a charge declaration with its roll."""
_ENDING = {"Waaagh! active": "Waaagh!"}
"""Effects named in ``ability_ends`` by their state key: the ability's own name."""


class BattleLog:
    """Turns events into log lines, one event at a time, and writes the final summary."""

    def __init__(self, position: Mapping[str, JSON] | None = None) -> None:
        self.names = Names.from_position(position)
        raw = position.get("players") if position else None
        players = [p for p in raw if isinstance(p, dict)] if isinstance(raw, list) else []
        self.players: list[str] = [str(p.get("name")) for p in players]
        # a position may start with VP and CP (`w40k battle --from`)
        self.vp: dict[str, int] = {str(p.get("name")): v if isinstance(v := p.get("vp"), int)
                                   else 0 for p in players}
        self.cp: dict[str, int] = {str(p.get("name")): c for p in players
                                   if isinstance(c := p.get("cp"), int)}
        self.vp_by_round: dict[str, dict[int, int]] = {}
        self.lost: dict[str, list[str]] = {}
        self.turning: list[str] = []
        self.rounds = 0
        self._dice: dict[str, list[int]] = {}
        self._rerolled = 0
        self._advance: dict[str, int] = {}
        self._charge: dict[str, JSON] = {}
        self._disembark: dict[str, tuple[str, str]] = {}
        self._reaction: tuple[str, str] | None = None
        self._applied: set[str] = set()
        self.deep_strike = _deep_strikers(position)
        self._leader: str | None = None
        self._first_model = self._first_unit = False
        self._deadliest: tuple[int, str] = (0, "")

    # -- one event ---------------------------------------------------------------------------
    def lines(self, e: Mapping[str, JSON]) -> list[str]:
        """The lines for one event (none for the events too fine to print)."""
        kind = _s(e.get("event"))
        if isinstance(e.get("cp"), dict):  # any event that reports everyone's CP
            self.cp = {str(k): int(v) for k, v in e["cp"].items()  # type: ignore[union-attr]
                       if isinstance(v, int)}
        if kind == "roll":
            self._roll(e)
            return []
        if kind != "reaction":
            last, self._reaction = self._reaction, None
            if kind == "ability_used" and last == (_s(e.get("player")), _s(e.get("ability"))):
                return []  # told by the reaction line just before it
        handler = getattr(self, "_on_" + kind, None) if kind.isidentifier() else None
        if handler is not None:
            out = handler(e)
            return [out] if isinstance(out, str) else list(out or [])
        if kind in _SILENT:
            return []
        rest = {k: v for k, v in e.items() if k not in ("event", "round", "player", "phase")}
        body = "; ".join(f"{k.replace('_', ' ')} {_value(v, self.names)}"
                         for k, v in rest.items())
        return [self._head(e) + kind.replace("_", " ") + (f": {body}" if body else "")]

    def _head(self, e: Mapping[str, JSON]) -> str:
        ph = _s(e.get("phase") or "")
        # before the battle no player has the turn: a unit's event shows the unit's side
        who = e.get("player") or self.names.sides.get(str(e.get("unit"))) \
            or e.get("scorer") or "-"
        return f"R{_s(e.get('round'))} {_s(who):<5} " \
               f"{_PHASES.get(ph, ph):<11} "

    def _u(self, e: Mapping[str, JSON], key: str = "unit") -> str:
        return self.names.unit(e.get(key))

    def _roll(self, e: Mapping[str, JSON]) -> None:
        faces = e.get("faces")
        kind = _s(e.get("kind"))
        if kind in _DICE_ORDER and isinstance(faces, list):
            self._dice.setdefault(kind, []).extend(int(f) for f in faces
                                                   if isinstance(f, int))
            rerolled = e.get("rerolled")
            self._rerolled += len(rerolled) if isinstance(rerolled, list) else 0

    # -- rounds and turns --------------------------------------------------------------------
    def _on_round_start(self, e: Mapping[str, JSON]) -> str:
        self.rounds = max(self.rounds, int(e.get("round") or 0))  # type: ignore[arg-type]
        return f"=== Battle round {_s(e.get('round'))} ==="

    def _on_turn_start(self, e: Mapping[str, JSON]) -> str:
        return f"--- {_s(e.get('player'))}'s turn ---"

    def _standing(self, what: dict[str, int]) -> str:
        keys = self.players + [k for k in what if k not in self.players]
        return ", ".join(f"{k} {what.get(k, 0)}" for k in keys)

    def _on_turn_end(self, e: Mapping[str, JSON]) -> str:
        cp = f"; CP {self._standing(self.cp)}" if self.cp else ""
        return f"{self._head(e)}VP {self._standing(self.vp)}{cp}"

    def _on_gain_cp(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}each player gains 1 CP: CP {self._standing(self.cp)}"

    def _on_battle_shock_roll(self, e: Mapping[str, JSON]) -> str:
        dice = e.get("dice")
        rolled = _faces(dice, " + ")
        why = f" ({_s(e['cause'])})" if e.get("cause") else ""
        verdict = "passed" if e.get("passed") else "failed: battle-shocked"
        return f"{self._head(e)}{self._u(e)}: battle-shock test{why}, rolled {rolled}: {verdict}"

    # -- movement ----------------------------------------------------------------------------
    def _on_advance_roll(self, e: Mapping[str, JSON]) -> None:
        self._advance[str(e.get("unit"))] = int(e.get("roll") or 0)  # type: ignore[arg-type]

    def _on_move(self, e: Mapping[str, JSON]) -> str:
        unit, mt = self._u(e), _s(e.get("move_type"))
        if e.get("destroyed"):
            return f"{self._head(e)}{unit}: destroyed before it could move"
        what = _MOVES.get(mt, mt.replace("_", " "))
        roll = self._advance.pop(str(e.get("unit")), None)
        if mt == "advance" and roll is not None:
            what += f" (advance roll {roll})"
        if e.get("take_to_skies"):
            what += " taking to the skies"
        models = e.get("models")
        far = max((float(v[3]) for v in models.values()
                   if isinstance(v, list) and len(v) > 3 and isinstance(v[3], int | float)),
                  default=0.0) if isinstance(models, dict) else 0.0
        if mt not in _STAYS:
            what += f", farthest model moved {far:.1f}\"" if far else ", no model moved"
        return f"{self._head(e)}{unit}: {what}"

    def _on_move_cancelled(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}{self._u(e)}: move cancelled"

    # -- reserves and transports ------------------------------------------------------------
    def _on_disembark_mode(self, e: Mapping[str, JSON]) -> None:
        # told with the set-up (or its cancellation) that follows
        self._disembark[str(e.get("unit"))] = (self._u(e, "transport"), _s(e.get("mode")))

    def _on_set_up(self, e: Mapping[str, JSON]) -> str:
        uid, models = str(e.get("unit")), e.get("models")
        n = plural(len(models) if isinstance(models, dict) else 0, "model")
        if e.get("kind") == "disembark":
            transport, mode = self._disembark.pop(uid, ("its transport", _s(e.get("mode"))))
            return (f"{self._head(e)}{self._u(e)} disembarks from {transport} ({mode} "
                    f"disembark): {n} set up")
        how = "by Deep Strike" if uid in self.deep_strike else "from Strategic Reserves"
        return f"{self._head(e)}{self._u(e)} arrives {how}: {n} set up"

    def _on_set_up_cancelled(self, e: Mapping[str, JSON]) -> str:
        if e.get("kind") == "disembark":
            transport, mode = self._disembark.pop(str(e.get("unit")), ("its transport", ""))
            what = f"{mode} disembark".strip()
            return f"{self._head(e)}{self._u(e)}: {what} from {transport} cancelled (R03.02-b)"
        return f"{self._head(e)}{self._u(e)}: arrival from reserves cancelled (R03.02-b)"

    def _on_to_reserves(self, e: Mapping[str, JSON]) -> str:
        why = f" ({_s(e['rule'])})" if e.get("rule") else ""
        return f"{self._head(e)}{self._u(e)} goes into Strategic Reserves{why}"

    def _on_embark(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}{self._u(e)} embarks in {self._u(e, 'transport')}"

    # -- the pre-battle sequence -------------------------------------------------------------
    def _on_first_turn(self, e: Mapping[str, JSON]) -> str:
        by = _s(e.get("decided_by"))
        how = {"": "", "mission": " (the mission's choice)",
               "roll-off-choice": " (the roll-off's winner chose)"}.get(by, f" (decided by {by})")
        return f"{_s(e.get('first'))} takes the first turn{how}"

    def _on_pre_battle(self, e: Mapping[str, JSON]) -> str:
        step = _s(e.get("step")).replace("_", " ").replace("pre battle", "pre-battle")
        return f"=== Pre-battle: {step} ==="

    def _on_pre_battle_end(self, e: Mapping[str, JSON]) -> str:
        return "=== The battle begins ==="

    def _on_battle_formations(self, e: Mapping[str, JSON]) -> str:
        res = e.get("reserves")
        emb = e.get("embarked")
        parts = [f"in strategic reserves: {_value(res, self.names)}"]
        if isinstance(emb, dict) and emb:
            parts.append("embarked: " + ", ".join(
                f"{self.names.unit(u)} in {self.names.unit(t)}" for u, t in emb.items()))
        return f"{self._head(e)}{_s(e.get('player'))} declares " + "; ".join(parts)

    def _on_deploy(self, e: Mapping[str, JSON]) -> str:
        how = " (Infiltrators)" if e.get("infiltrators") else ""
        return f"{self._head(e)}{self._u(e)} is deployed{how}"

    def _on_scout(self, e: Mapping[str, JSON]) -> str:
        what = "scout move" if e.get("kind") == "scout_move" else "set up from reserves"
        return f"{self._head(e)}{self._u(e)}: Scouts {_s(e.get('distance'))}\", {what}"

    # -- shooting and fighting ---------------------------------------------------------------
    def _on_declare_shooting(self, e: Mapping[str, JSON]) -> str:
        shots = e.get("shots")
        targets = list(dict.fromkeys(self.names.unit(t[2]) for t in shots
                                     if isinstance(t, list) and len(t) > 2)
                       ) if isinstance(shots, list) else []
        self._dice, self._rerolled = {}, 0
        self._applied = set()
        if not targets:
            return f"{self._head(e)}{self._u(e)}: no target to shoot"
        return f"{self._head(e)}{self._u(e)}: shooting at {', '.join(targets)}"

    def _on_select_to_fight(self, e: Mapping[str, JSON]) -> str:
        self._dice, self._rerolled = {}, 0
        self._applied = set()
        first = " (Fights First)" if e.get("step") == "ff" else ""
        return f"{self._head(e)}{self._u(e)}: fighting{first}"

    def _on_fight_no_targets(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}{self._u(e)}: no enemy in reach to fight"

    def _on_fight_pass(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}{_s(e.get('by'))} has no unit left to fight"

    def _on_attack(self, e: Mapping[str, JSON]) -> list[str]:
        verb = "fighting" if e.get("melee") else "shooting"
        hits, wounds, unsaved = e.get("hits", 0), e.get("wounds", 0), e.get("unsaved", 0)
        lost, dead = e.get("wounds_lost", 0), e.get("models_destroyed", 0)
        result = (f"{plural(hits, 'hit')}, {plural(wounds, 'wound')}, {unsaved} unsaved: "
                  f"{plural(lost, 'wound')} lost, {plural(dead, 'model')} destroyed")
        hazard = e.get("hazard_wounds_lost")
        if hazard:
            result += f"; hazards: {plural(hazard, 'wound')} lost"
        dice = "; ".join(f"{k} {' '.join(map(str, self._dice[k]))}"
                         for k in _DICE_ORDER if self._dice.get(k))
        if self._rerolled:
            dice += f" ({plural(self._rerolled, 'die', 'dice')} re-rolled)"
        self._dice, self._rerolled = {}, 0
        target = self._u(e, "target")
        if isinstance(dead, int) and dead > self._deadliest[0]:
            self._deadliest = (dead, f"round {_s(e.get('round'))}: {self._u(e, 'attacker')} "
                                     f"{verb} {target}, {plural(dead, 'model')} destroyed")
        out = [f"{self._head(e)}{self._u(e, 'attacker')} {verb} {target}: {result}"]
        if dice:
            out.append(f"{' ' * len(self._head(e))}  dice: {dice}")
        return out

    def _on_destroyed(self, e: Mapping[str, JSON]) -> str:
        cause = self.names.text(e.get("cause")) if e.get("cause") else ""
        model = self.names.model(e.get("model"))
        if not self._first_model:
            self._first_model = True
            self.turning.append(f"round {_s(e.get('round'))}: first blood, {model} destroyed"
                                + (f" ({cause})" if cause else ""))
        return f"{self._head(e)}  {model} is destroyed" + (f" ({cause})" if cause else "")

    def _on_unit_destroyed(self, e: Mapping[str, JSON]) -> str:
        unit = self._u(e)
        side = self.names.side(e.get("unit")) or "?"
        self.lost.setdefault(side, []).append(unit)
        if not self._first_unit:
            self._first_unit = True
            self.turning.append(f"round {_s(e.get('round'))}: the first unit destroyed, "
                                f"{unit} ({side})")
        return f"{self._head(e)}  unit destroyed: {unit} ({side})"

    def _on_mortal_wound(self, e: Mapping[str, JSON]) -> str:
        left = e.get("wounds_remaining")
        return (f"{self._head(e)}  {self.names.model(e.get('model'))} suffers a mortal wound"
                f" ({self.names.text(e.get('cause'))}): {plural(left, 'wound')} left")

    def _on_mortal_wounds_lost(self, e: Mapping[str, JSON]) -> str:
        return (f"{self._head(e)}  {self._u(e)}: {plural(e.get('amount'), 'mortal wound')} "
                "lost")

    def _on_feel_no_pain(self, e: Mapping[str, JSON]) -> str:
        verdict = "the wound is prevented" if e.get("prevented") else "the wound is lost"
        return (f"{self._head(e)}  {self.names.model(e.get('model'))} Feel No Pain "
                f"{_s(e.get('threshold'))}+: rolled {_s(e.get('roll'))}, {verdict}")

    def _on_hazard_rolls(self, e: Mapping[str, JSON]) -> str:
        dice = e.get("dice")
        rolled = _faces(dice)
        why = f" ({_s(e['cause'])})" if e.get("cause") else ""
        return (f"{self._head(e)}{self._u(e)}: hazard rolls{why}: {rolled}; "
                f"{_s(e.get('failed'))} failed, {plural(e.get('mortal_wounds'), 'mortal wound')}")

    def _on_deadly_demise_roll(self, e: Mapping[str, JSON]) -> str:
        verdict = f"it explodes (D{_s(e.get('x'))} mortal wounds nearby)" \
            if e.get("roll") == 6 else "no explosion"
        return (f"{self._head(e)}  {self.names.model(e.get('model'))} Deadly Demise: rolled "
                f"{_s(e.get('roll'))}, {verdict}")

    # -- charges -----------------------------------------------------------------------------
    def _on_charge_roll(self, e: Mapping[str, JSON]) -> str:
        self._charge[str(e.get("unit"))] = e.get("roll")
        dice = e.get("dice")
        rolled = " + ".join(map(_s, dice)) if isinstance(dice, list) else ""
        return (f"{self._head(e)}{self._u(e)}: charge declared, 2D6 = {rolled} = "
                f"{_s(e.get('roll'))}\"")

    def _on_charge_targets(self, e: Mapping[str, JSON]) -> str:
        return (f"{self._head(e)}{self._u(e)}: charge targets "
                f"{_value(e.get('targets'), self.names)}")

    def _on_charge_move(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}{self._u(e)}: charge move made"

    def _on_charge_failed(self, e: Mapping[str, JSON]) -> str:
        roll = self._charge.pop(str(e.get("unit")), None)
        why = _s(e.get("reason") or "no reason given")
        if why == "no charge target within the roll" and roll is not None:
            why = f"no enemy unit within reach of the {_s(roll)}\" roll"
        return f"{self._head(e)}{self._u(e)}: charge failed, {why}"

    def _on_charge_declined(self, e: Mapping[str, JSON]) -> str:
        roll = self._charge.pop(str(e.get("unit")), None)
        made = f" (rolled {_s(roll)}\")" if roll is not None else ""
        return (f"{self._head(e)}{self._u(e)}: charge failed{made}, its player declined the "
                "charge move")

    def _on_pile_in_move(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}{self._u(e)}: pile-in move"

    def _on_consolidate_move(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}{self._u(e)}: consolidation move"

    def _on_reaction(self, e: Mapping[str, JSON]) -> str:
        self._reaction = (_s(e.get("by")), _s(e.get("rule")))
        ans = e.get("answer")
        if isinstance(ans, dict) and "unit" in ans:
            answer = f" on {self.names.unit(ans['unit'])}"
            rest = [self._answer_part(k, v) for k, v in ans.items() if k != "unit"]
            answer += f" ({', '.join(rest)})" if rest else ""
        else:
            answer = f": {_value(ans, self.names)}" if ans not in (None, True) else ""
        return f"{self._head(e)}{_s(e.get('by'))} uses {self.names.text(e.get('rule'))}{answer}"

    def _answer_part(self, key: str, v: JSON) -> str:
        """One field of a reaction's answer, in words ("at Nobz", "die 2", "rolled a 3")."""
        if key == "enemy":
            return f"at {self.names.unit(v)}"
        if key == "model":
            return f"by {self.names.model(v)}"
        if key == "die" and isinstance(v, int):
            return f"die {v + 1}"
        if key == "face":
            return f"rolled {_s(v)}"
        return f"{key.replace('_', ' ')} {_value(v, self.names).replace('_', ' ')}"

    def _on_explosives(self, e: Mapping[str, JSON]) -> str:
        return (f"{self._head(e)}  {self.names.model(e.get('model'))} throws explosives at "
                f"{self._u(e, 'enemy')}: dice {_faces(e.get('dice'))}; "
                f"{plural(e.get('mortal_wounds', 0), 'mortal wound')} (each 4+)")

    def _on_crushing_impact(self, e: Mapping[str, JSON]) -> str:
        mw = e.get("mortal_wounds")
        parts = [f"{self.names.unit(k)} {plural(v, 'mortal wound')}"
                 for k, v in mw.items()] if isinstance(mw, dict) else []
        return (f"{self._head(e)}  {self._u(e)} crashes into {self._u(e, 'enemy')}: dice "
                f"{_faces(e.get('dice'))}; {', '.join(parts)} (5+ for the enemy, 1s for itself)")

    # -- stratagems --------------------------------------------------------------------------
    def _on_stratagem(self, e: Mapping[str, JSON]) -> str:
        by, cost, left = _s(e.get("by")), e.get("cp"), e.get("cp_left")
        if isinstance(left, int):  # the CP standing follows what was spent
            self.cp[by] = left
        return (f"{self._head(e)}  {by} spends {plural(cost, 'CP', 'CP')} on "
                f"{_s(e.get('name'))}: {plural(left, 'CP', 'CP')} left")

    def _on_command_reroll(self, e: Mapping[str, JSON]) -> str:
        kind = _s(e.get("kind")).replace("_", " ")
        return (f"{self._head(e)}  {self._u(e)}: {kind} roll re-rolled, "
                f"{_faces(e.get('old'), ' + ')} into {_faces(e.get('new'), ' + ')}")

    def _on_action_started(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}{self._u(e)} starts the action {_s(e.get('action'))}"

    def _on_action_completed(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}{self._u(e)} completes the action {_s(e.get('action'))}"

    def _on_action_failed(self, e: Mapping[str, JSON]) -> str:
        return (f"{self._head(e)}{self._u(e)}: the action {_s(e.get('action'))} fails "
                f"({_s(e.get('reason'))})")

    def _on_fire_overwatch(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}{self._u(e)} fires overwatch at {self._u(e, 'enemy')}"

    def _on_rapid_ingress(self, e: Mapping[str, JSON]) -> str:
        return f"{self._head(e)}{self._u(e)}: Rapid Ingress"

    def _on_emergency_disembark(self, e: Mapping[str, JSON]) -> str:
        lost = e.get("lost")
        dead = f", {plural(len(lost), 'model')} lost" if isinstance(lost, list) and lost \
            else ""
        return (f"{self._head(e)}  {self._u(e)} makes an emergency disembark from "
                f"{self._u(e, 'transport')}: "
                f"{plural(e.get('mortal_wounds', 0), 'mortal wound')}{dead}")

    def _on_destroyed_in_reserves(self, e: Mapping[str, JSON]) -> str:
        side = self.names.side(e.get("unit")) or "?"
        self.lost.setdefault(side, []).append(self._u(e))
        return f"{self._head(e)}  {self._u(e)} is destroyed in reserves (R20.04-e)"

    def _on_objective_secured(self, e: Mapping[str, JSON]) -> str:
        units = e.get("units")
        by = f" by {_value(units, self.names)}" if isinstance(units, list) and units else ""
        return (f"{self._head(e)}objective {_s(e.get('objective'))}: secured for "
                f"{_s(e.get('player'))}{by}")

    # -- datasheet abilities -----------------------------------------------------------------
    def _on_ability_used(self, e: Mapping[str, JSON]) -> str:
        on = f" on {self._u(e)}" if e.get("unit") else ""
        old, new = e.get("old"), e.get("new")
        again = ""
        if isinstance(old, list) and isinstance(new, list):
            again = f": re-rolled {_faces(old, ' + ')} into {_faces(new, ' + ')}"
        return f"{self._head(e)}{_s(e.get('player'))} uses {_s(e.get('ability'))}{on}{again}"

    def _on_ability_ends(self, e: Mapping[str, JSON]) -> str:
        name = _s(e.get("ability"))
        return f"{self._head(e)}{_s(e.get('player'))}'s {_ENDING.get(name, name)} ends"

    def _on_ability(self, e: Mapping[str, JSON]) -> str | None:
        names = e.get("abilities")
        what = ", ".join(map(_s, names)) if isinstance(names, list) else _s(names)
        line = f"{self._u(e)}: {what} against {self._u(e, 'target')}"
        if line in self._applied:  # once per shooting or fighting unit (one per attack)
            return None
        self._applied.add(line)
        return self._head(e) + line

    # -- objectives and score ----------------------------------------------------------------
    def _on_objective_control(self, e: Mapping[str, JSON]) -> str:
        levels = e.get("levels")
        oc = f" (OC {_value(levels, self.names)})" if isinstance(levels, dict) else ""
        who = e.get("controller")
        tied = isinstance(levels, dict) and len(set(levels.values())) == 1 and any(
            levels.values())
        state = f"controlled by {_s(who)}" if who else ("contested" if tied
                                                       else "not controlled")
        return f"{self._head(e)}objective {_s(e.get('objective'))}: {state}{oc}"

    def _on_score(self, e: Mapping[str, JSON]) -> str:
        # a mission's score names its ``scorer``: at the end of a battle round there is no
        # turn player
        who, vp = _s(e.get("scorer") or e.get("player")), e.get("vp", 0)
        if isinstance(vp, int):
            rnd = int(e.get("round") or 0)  # type: ignore[arg-type]
            by = self.vp_by_round.setdefault(who, {})
            by[rnd] = by.get(rnd, 0) + vp
        total = e.get("total")
        self.vp[who] = int(total) if isinstance(total, int) else self.vp.get(who, 0) + int(
            vp if isinstance(vp, int) else 0)
        now = self._lead()
        if now is not None and now != self._leader:  # a new leader (a tie changes nothing)
            self.turning.append(f"round {_s(e.get('round'))}: {now} takes the lead, VP "
                                f"{self._standing(self.vp)}")
            self._leader = now
        held = e.get("objectives") or e.get("units")
        why = f" for {_value(held, self.names)}" if isinstance(held, list) and held else ""
        rule = f" ({_s(e['rule'])})" if e.get("kind") == "secondary" and e.get("rule") else ""
        return f"{self._head(e)}{who} scores {plural(vp, 'VP', 'VP')}{rule}{why}; total " \
               f"{_s(total)}"

    def _lead(self) -> str | None:
        if not self.vp:
            return None
        best = max(self.vp.values())
        leaders = [k for k, v in self.vp.items() if v == best]
        return leaders[0] if len(leaders) == 1 and best > 0 else None

    def _on_battle_end(self, e: Mapping[str, JSON]) -> list[str]:
        vp = e.get("vp")
        if isinstance(vp, dict):
            self.vp = {str(k): int(v) for k, v in vp.items() if isinstance(v, int)}
        w = e.get("winner")
        result = f"{_s(w)} wins" if w else "a draw"
        return [f"=== Battle over: {result}; VP {self._standing(self.vp)} ===",
                *self.summary(None if w is None else str(w))]

    # -- the summary -------------------------------------------------------------------------
    def summary(self, winner: str | None) -> list[str]:
        """The final summary: winner, VP by round, units lost per side, turning points."""
        players = self.players + [p for p in self.vp if p not in self.players]
        rounds = range(1, self.rounds + 1)
        out = ["Summary", f"  winner: {winner or 'none (a draw)'}", "  VP by round:"]
        head = " ".join(f"R{r:<3}" for r in rounds)
        out.append(f"    {'':<8} {head} total")
        for p in players:
            by = self.vp_by_round.get(p, {})
            cells = " ".join(f"{by.get(r, 0):<4}" for r in rounds)
            out.append(f"    {p:<8} {cells} {self.vp.get(p, 0)}")
        out.append("  units lost:")
        for p in players + [s for s in self.lost if s not in players]:
            units = self.lost.get(p, [])
            out.append(f"    {p}: {len(units)}" + (f" ({', '.join(units)})" if units else ""))
        points = list(self.turning)
        if self._deadliest[0] > 1:
            points.append(f"deadliest attack, {self._deadliest[1]}")
        out.append("  turning points:" + ("" if points else " none"))
        out.extend(f"    {t}" for t in points)
        return out


def _deep_strikers(position: Mapping[str, JSON] | None) -> frozenset[str]:
    """The ids of the units whose every model has Deep Strike (24.09) in ``position``."""
    raw = position.get("units") if position else None
    out = set()
    for u in raw if isinstance(raw, list) else []:
        models = u.get("models") if isinstance(u, dict) else None
        if isinstance(u, dict) and isinstance(models, list) and models and all(
                isinstance(m, dict) and isinstance(p := m.get("profile"), dict)
                and isinstance(a := p.get("abilities"), list) and "Deep Strike" in a
                for m in models):
            out.add(str(u.get("id")))
    return frozenset(out)


def log_lines(events: Iterable[Mapping[str, JSON]],
              position: Mapping[str, JSON] | None = None) -> list[str]:
    """The whole readable log of ``events`` (a record's ``events``, its ``setup`` as
    ``position`` for the names)."""
    log = BattleLog(position)
    return [line for e in events for line in log.lines(e)]
