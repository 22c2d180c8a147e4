"""The `w40k attack` scenario: JSON (or YAML) in, typed attack requests out, JSON out.

Keys follow DESIGN.md to the letter; extra keys are documented in docs/attack-scenario.md.
Every error names the file and the field path (``scenario.json: weapons[0].AP: ...``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from w40k.core.abilities import FeelNoPain, Stealth, parse_unit_ability
from w40k.core.dice import Modifier, RollKind
from w40k.core.errors import DataError
from w40k.core.jsonval import JSON
from w40k.core.profiles import WeaponProfile, parse_int, parse_target
from w40k.io import limits
from w40k.io.model_base import validate
from w40k.io.safe_read import read_input
from w40k.io.scenario_model import ScenarioModel
from w40k.rules.attack_profile import AttackContext, Reroll, Ruleset, WeaponEntry
from w40k.rules.attack_sequence import AttackRequest, AttackResult
from w40k.rules.decisions import DecisionKind, DecisionRequest, DefaultDecider
from w40k.rules.primitives import ModelState

DICE_KINDS = ("attacks", "hit", "wound", "save", "damage", "fnp", "hazard")
"""Scripted dice kinds a scenario may give (DESIGN.md)."""

_CONTEXT_BOOLS = (
    "half_range", "charged", "remained_stationary", "cover", "plunging_fire", "target_engaged",
    "attacker_engaged_with_target", "close_quarters_monster", "indirect",
    "target_visible_to_friendly", "own_shooting_phase", "single_target", "precision",
)


@dataclass(frozen=True)
class Target:
    """One target unit of a scenario."""

    name: str
    """The unit's name (for comparison tables)."""
    models: tuple[ModelState, ...]
    """Its models, one per model (counts expanded, ``Boy 1`` ... ``Boy 9``)."""


@dataclass(frozen=True)
class Scenario:
    """A parsed scenario: weapons, one or more targets, attacker, context, dice, decisions."""

    weapons: tuple[WeaponEntry, ...]
    """The attacking weapons, in resolution order."""
    targets: tuple[Target, ...]
    """The target unit(s); more than one gives a comparison."""
    attacker: tuple[ModelState, ...] = ()
    """The attacking models (for hazard rolls)."""
    context: AttackContext = field(default_factory=AttackContext)
    """The circumstances."""
    dice: Mapping[str, tuple[int, ...]] | None = None
    """Scripted dice per kind (referee mode), or None to roll with the seed."""
    allocation_order: tuple[str, ...] = ()
    """Model names giving the defender's allocation order (empty: the default)."""

    def request(self, target: Target) -> AttackRequest:
        """The attack request against one target."""
        return AttackRequest(self.weapons, target.models, self.attacker, self.context)


def _where(path: str, key: str | int) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else key)


def _obj(value: object, path: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise DataError(f"expected an object, got {value!r}", where=path)
    return cast(Mapping[str, object], value)


def _list(value: object, path: str) -> Sequence[object]:
    if not isinstance(value, list):
        raise DataError(f"expected a list, got {value!r}", where=path)
    return value


def _req(obj: Mapping[str, object], key: str, path: str) -> object:
    if key not in obj:
        raise DataError("missing", where=_where(path, key))
    return obj[key]


def _str(value: object, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"expected text, got {value!r}", where=path)
    return value.strip()


def _bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise DataError(f"expected true or false, got {value!r}", where=path)
    return value


def _strs(value: object, path: str) -> tuple[str, ...]:
    return tuple(_str(v, _where(path, i)) for i, v in enumerate(_list(value, path)))


def parse_weapon(raw: object, path: str) -> WeaponEntry:
    """One ``weapons[i]`` entry."""
    w = _obj(raw, path)
    name = _str(w.get("name", f"weapon {path}"), _where(path, "name"))
    count = parse_int(w.get("count", 1), _where(path, "count"), lo=1) if "count" in w else 1
    skill = w.get("skill", w.get("BS", w.get("WS")))
    if skill is None:
        raise DataError("missing (give skill, BS or WS)", where=_where(path, "skill"))
    try:
        weapon = WeaponProfile.build(
            name, range=_req(w, "range", path), A=_req(w, "A", path), skill=skill,
            S=_req(w, "S", path), AP=w.get("AP", 0), D=_req(w, "D", path),
            abilities=_strs(w.get("abilities", []), _where(path, "abilities")),
        )
    except DataError as exc:
        raise DataError(exc.detail, where=f"{path}: {exc.where}") from None
    half = w.get("half_range")
    return WeaponEntry(weapon, count, None if half is None else _bool(half, f"{path}.half_range"))


def parse_models(raw: object, path: str, *, attacker: bool = False) -> tuple[ModelState, ...]:
    """A ``{"models": [...]}`` unit: entries expanded to one ModelState per model."""
    unit = _obj(raw, path)
    entries = _list(_req(unit, "models", path), _where(path, "models"))
    if not entries:
        raise DataError("a unit needs at least one model", where=_where(path, "models"))
    out: list[ModelState] = []
    for i, e in enumerate(entries):
        p = f"{_where(path, 'models')}[{i}]"
        m = _obj(e, p)
        name = _str(m.get("name", "Model"), f"{p}.name")
        count = parse_int(m.get("count", 1), f"{p}.count", lo=1)
        W = parse_int(_req(m, "W", p), f"{p}.W", lo=1)
        if attacker:
            T, Sv, InSv = 4, 7, None
            if "T" in m:
                T = parse_int(m["T"], f"{p}.T", lo=1)
        else:
            T = parse_int(_req(m, "T", p), f"{p}.T", lo=1)
            Sv = parse_target(_req(m, "Sv", p), f"{p}.Sv", lo=2, hi=7)
            InSv = None if m.get("InSv") is None else parse_target(m["InSv"], f"{p}.InSv",
                                                                   lo=2, hi=6)
        # wounds_lost = W keeps a destroyed model in the list (it takes no attacks).
        lost = parse_int(m.get("wounds_lost", 0), f"{p}.wounds_lost", lo=0, hi=W)
        keywords = tuple(k.upper() for k in _strs(m.get("keywords", []), f"{p}.keywords"))
        fnp: int | None = None
        stealth = False
        for j, text in enumerate(_strs(m.get("abilities", []), f"{p}.abilities")):
            try:
                ability = parse_unit_ability(text)
            except DataError as exc:
                raise DataError(exc.detail, where=f"{p}.abilities[{j}]") from None
            if isinstance(ability, FeelNoPain):
                fnp = ability.threshold if fnp is None else min(fnp, ability.threshold)
            stealth = stealth or isinstance(ability, Stealth)  # 24.33
        leader = _bool(m.get("leader", False), f"{p}.leader")
        visible = _bool(m.get("visible", True), f"{p}.visible")
        for k in range(count):
            label = f"{name} {k + 1}" if count > 1 else name
            out.append(ModelState(label, W, T, Sv, InSv, lost, keywords, fnp, leader, visible,
                                  stealth))
    if not attacker and all(m.destroyed for m in out):
        raise DataError("every model is already destroyed (wounds_lost = W)",
                        where=_where(path, "models"))
    return tuple(out)


def parse_context(raw: object, path: str = "context") -> AttackContext:
    """The ``context`` object (unknown keys are refused, so a typo is not silently ignored)."""
    c = _obj(raw, path)
    known = {*_CONTEXT_BOOLS, "target_models_at_select", "hit_modifier", "wound_modifier",
             "reroll_hits", "reroll_wounds", "hit_modifier_cap"}
    for key in c:
        if key not in known:
            raise DataError(f"unknown context flag (known: {', '.join(sorted(known))})",
                            where=_where(path, key))
    defaults = AttackContext()

    def flag(key: str) -> bool:
        return _bool(c[key], _where(path, key)) if key in c else bool(getattr(defaults, key))

    def reroll(key: str) -> Reroll:
        if key not in c:
            return Reroll.NONE
        try:
            return Reroll(str(c[key]))
        except ValueError:
            raise DataError(f"expected none, ones or failed, got {c[key]!r}",
                            where=_where(path, key)) from None

    at_select = c.get("target_models_at_select")
    cap = c.get("hit_modifier_cap")
    return AttackContext(
        half_range=flag("half_range"),
        charged=flag("charged"),
        remained_stationary=flag("remained_stationary"),
        cover=flag("cover"),
        plunging_fire=flag("plunging_fire"),
        target_engaged=flag("target_engaged"),
        attacker_engaged_with_target=flag("attacker_engaged_with_target"),
        close_quarters_monster=flag("close_quarters_monster"),
        indirect=flag("indirect"),
        target_visible_to_friendly=flag("target_visible_to_friendly"),
        own_shooting_phase=flag("own_shooting_phase"),
        target_models_at_select=None if at_select is None else parse_int(
            at_select, _where(path, "target_models_at_select"), lo=0),
        single_target=flag("single_target"),
        hit_modifiers=_modifier(c, "hit_modifier", path),
        wound_modifiers=_modifier(c, "wound_modifier", path),
        reroll_hits=reroll("reroll_hits"),
        reroll_wounds=reroll("reroll_wounds"),
        precision=flag("precision"),
        ruleset=Ruleset(None if cap is None else parse_int(cap, _where(path, "hit_modifier_cap"),
                                                            lo=0)),
    )


def _modifier(c: Mapping[str, object], key: str, path: str) -> tuple[Modifier, ...]:
    if key not in c:
        return ()
    return (Modifier(f"scenario {key}", parse_int(c[key], _where(path, key))),)


def parse_dice(raw: object, path: str = "dice") -> dict[str, tuple[int, ...]]:
    """Scripted dice: ``{"hit": [6, 3, 1], ...}`` (D6 faces, per kind, in rolling order)."""
    d = _obj(raw, path)
    out: dict[str, tuple[int, ...]] = {}
    for kind, faces in d.items():
        if kind not in DICE_KINDS:
            raise DataError(f"unknown dice kind (known: {', '.join(DICE_KINDS)})",
                            where=_where(path, kind))
        vals = []
        for i, v in enumerate(_list(faces, _where(path, kind))):
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
                raise DataError(f"a D6 face is 1 to 6, got {v!r}",
                                where=f"{_where(path, kind)}[{i}]")
            vals.append(v)
        out[kind] = tuple(vals)
    return out


def parse_scenario(data: object, source: str = "scenario") -> Scenario:
    """Build a Scenario from parsed JSON; DataError names ``source`` and the field.

    The data is checked against :class:`~w40k.io.scenario_model.ScenarioModel` first (types,
    bounds, unknown keys), then built; the volley and each target are bounded
    (docs/input-limits.md)."""
    validate(ScenarioModel, data, source)
    try:
        s = _obj(data, "")
        weapons = tuple(parse_weapon(w, f"weapons[{i}]")
                        for i, w in enumerate(_list(_req(s, "weapons", ""), "weapons")))
        if not weapons:
            raise DataError("at least one weapon is needed", where="weapons")
        if "targets" in s:
            targets = []
            for i, t in enumerate(_list(s["targets"], "targets")):
                name = _str(_obj(t, f"targets[{i}]").get("name", f"Target {i + 1}"),
                            f"targets[{i}].name")
                targets.append(Target(name, parse_models(t, f"targets[{i}]")))
            if not targets:
                raise DataError("at least one target is needed", where="targets")
        else:
            t = _req(s, "target", "")
            name = _str(_obj(t, "target").get("name", "Target"), "target.name")
            targets = [Target(name, parse_models(t, "target"))]
        attacker = (parse_models(s["attacker"], "attacker", attacker=True)
                    if "attacker" in s else ())
        ctx = parse_context(s.get("context", {}))
        lethal = s.get("lethal_hits", "auto")
        if lethal not in ("auto", "roll"):
            raise DataError(f"expected auto or roll, got {lethal!r}", where="lethal_hits")
        ctx = dataclasses.replace(ctx, lethal_hits_auto=lethal == "auto")
        dice = parse_dice(s["dice"]) if "dice" in s else None
        order = _strs(s.get("allocation_order", []), "allocation_order")
        check_allocation_order(order, targets, "allocation_order")
        _check_bounds(weapons, targets)
        return Scenario(weapons, tuple(targets), attacker, ctx, dice, order)
    except DataError as exc:
        raise exc.at(source) from None


def check_allocation_order(names: Sequence[str], targets: Sequence[Target], where: str
                           ) -> None:
    """Refuse a model name that no target model has (a typo must not be ignored)."""
    for i, n in enumerate(names):
        if not any(_matches(m.name, n) for t in targets for m in t.models):
            known = sorted({m.name.rsplit(" ", 1)[0] if m.name.rsplit(" ", 1)[-1].isdigit()
                            else m.name for t in targets for m in t.models})
            raise DataError(f"no target model is called {n!r} (models: {', '.join(known)})",
                            where=f"{where}[{i}]")


def volley_attacks(weapons: Sequence[WeaponEntry]) -> int:
    """The most attacks a volley can make (each entry's count times its largest A)."""
    return sum(w.count * w.weapon.A.max for w in weapons)


def _check_bounds(weapons: Sequence[WeaponEntry], targets: Sequence[Target]) -> None:
    most = volley_attacks(weapons)
    if most > limits.MAX_ATTACKS_PER_VOLLEY:
        raise DataError(f"the weapons can make up to {most} attacks, over the limit of "
                        f"{limits.MAX_ATTACKS_PER_VOLLEY} per volley (docs/input-limits.md)",
                        where="weapons")
    for i, t in enumerate(targets):
        if len(t.models) > limits.MAX_MODELS_PER_UNIT:
            raise DataError(f"{len(t.models)} models, over the limit of "
                            f"{limits.MAX_MODELS_PER_UNIT} per unit (docs/input-limits.md)",
                            where=f"targets[{i}].models" if len(targets) > 1 else "target.models")


def _matches(model_name: str, wanted: str) -> bool:
    base = model_name.rsplit(" ", 1)[0] if model_name.rsplit(" ", 1)[-1].isdigit() else model_name
    return wanted.lower() in (model_name.lower(), base.lower())


def load_scenario(path: Path) -> Scenario:
    """Read a scenario file (JSON, or YAML by suffix) with the safe reader."""
    return parse_scenario(read_input(path, what="scenario"), str(path))


class OrderDecider:
    """The scenario's standing decision: the allocation order given by model names.

    Groups are ranked by the first name that matches one of their models; unnamed groups keep
    the order the target lists them, after the named ones. For the first pool the order is
    submitted as declared, so an illegal one is refused naming the rule; for later pools it is
    kept as far as 05.03 allows (R05.03-h: a newly wounded group must come first)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self.asked = 0

    def _rank(self, group: Sequence[str], index: int) -> int:
        hits = [i for i, n in enumerate(self.names) for m in group if _matches(m, n)]
        return min(hits) if hits else len(self.names) + index

    def decide(self, request: DecisionRequest) -> JSON:
        """The declared order (first pool) or the legal order closest to it."""
        if request.kind is not DecisionKind.ALLOCATION_ORDER or not self.names:
            return DefaultDecider().decide(request)
        self.asked += 1
        ranks = [self._rank(g, i) for i, g in enumerate(request.groups)]
        wanted: list[int] = sorted(range(len(ranks)), key=lambda i: ranks[i])
        if self.asked == 1 or list[JSON](wanted) in request.options:
            return list[JSON](wanted)
        return min(request.options,
                   key=lambda o: [ranks[i] for i in cast(list[int], o)])


# ---------------------------------------------------------------------------------------------
# Output


def model_rows(models: Sequence[ModelState]) -> list[dict[str, object]]:
    """``[{"name", "wounds_remaining", "destroyed"}]``."""
    return [{"name": m.name, "wounds_remaining": m.remaining, "destroyed": m.destroyed}
            for m in models]


def result_json(result: AttackResult, target: Target) -> dict[str, object]:
    """The DESIGN.md output keys for one resolved attack (plus per-pool detail and the
    account)."""
    before = {m.name: m for m in target.models}
    return {
        "target": target.name,
        "hits": result.hits,
        "critical_hits": result.critical_hits,
        "wounds": result.wounds,
        "critical_wounds": result.critical_wounds,
        "unsaved": result.unsaved,
        "mortal_wounds": result.mortal_wounds,
        "wounds_lost": result.wounds_lost,
        "models_destroyed": result.models_destroyed,
        "models": [
            {**row, "wounds_lost": before[str(row["name"])].remaining - int(str(
                row["wounds_remaining"]))}
            for row in model_rows(result.target)
        ],
        "attacker": {
            "hazard_rolls": list(result.hazard_rolls),
            "mortal_wounds": result.attacker_mortal_wounds,
            "wounds_lost": result.attacker_wounds_lost,
            "models_destroyed": result.attacker_models_destroyed,
            "models": model_rows(result.attacker),
        },
        "pools": [
            {"weapon": p.name, "attacks": p.attacks, "hits": p.hits,
             "critical_hits": p.critical_hits, "wounds": p.wounds,
             "critical_wounds": p.critical_wounds, "unsaved": p.unsaved,
             "mortal_wounds": p.mortal_wounds, "wounds_lost": p.wounds_lost,
             "models_destroyed": p.models_destroyed}
            for p in result.pools
        ],
        "events": [{"step": e.step, "rule": e.rule, "text": e.text} for e in result.events],
    }


def roll_kinds() -> tuple[str, ...]:
    """Every roll kind the engine knows (scripted dice use the first seven)."""
    return tuple(k.value for k in RollKind)
