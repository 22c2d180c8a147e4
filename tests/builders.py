"""Compact builders and domain asserts for the attack-sequence rule tests (STYLE.md, "Tests").

    weapon('2x Boltgun 24" A2 BS3+ S4 AP0 D1 [RAPID FIRE 1]')  -> WeaponEntry
    models("5x Intercessor T4 Sv3+ W2; 1x Captain T4 Sv3+ InSv4+ W5 CHARACTER leader")
    attack(weapons, target, dice={"hit": [6, 3, 1], ...}, charged=True, decider=...)

Dice are scripted D6 faces per kind; by default ``attack`` also checks that every scripted die
was used, so a test states exactly which dice the rules roll.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from w40k.core.dice import ScriptedDice
from w40k.core.profiles import WeaponProfile
from w40k.io.inline import parse_target_text, parse_weapon_text
from w40k.io.scenario import parse_models, parse_weapon
from w40k.rules.attack_profile import AttackContext, WeaponEntry
from w40k.rules.attack_sequence import AttackRequest, AttackResult, resolve_attack
from w40k.rules.decisions import DecisionKind, DecisionRequest
from w40k.rules.primitives import ModelState


def profile(spec: str) -> WeaponProfile:
    """A weapon profile from ``'Boltgun 24" A2 BS3+ S4 AP0 D1 [RAPID FIRE 1]'``."""
    return weapon(spec).weapon


def weapon(spec: str, *, half_range: bool | None = None) -> WeaponEntry:
    """``'[Nx] name range A.. BS/WS..+ S.. AP.. D.. [abilities]'`` -> a WeaponEntry, parsed by
    the command line's own parser (docs/attack-scenario.md, inline profiles); the range
    defaults to 24"."""
    entry = parse_weapon(parse_weapon_text(spec, "spec", default_range=24), "spec")
    return replace(entry, half_range=half_range)


def models(spec: str) -> tuple[ModelState, ...]:
    """``'5x Intercessor T4 Sv3+ W2 InSv5+ FNP5+ lost=1 INFANTRY CHARACTER leader hidden; ...'``.

    Several entries are separated by ``;``. Models of an entry of more than one are numbered
    (``Intercessor 1`` ...), as the command line names them. ``Sv-`` means no save (7); T
    defaults to 4 and Sv to none, for attacking models."""
    return parse_models(parse_target_text(spec, "spec", defaults={"T": 4, "Sv": 7}), "spec")


@dataclass
class Decisions:
    """A decider answering per kind (a value or a function of the request), else the default;
    it records every request it was asked."""

    answers: Mapping[DecisionKind, object | Callable[[DecisionRequest], object]] = field(
        default_factory=dict)
    asked: list[DecisionRequest] = field(default_factory=list)

    def decide(self, request: DecisionRequest) -> object:
        """The scripted answer, else the request's default."""
        self.asked.append(request)
        if request.kind not in self.answers:
            return request.default
        answer = self.answers[request.kind]
        return answer(request) if callable(answer) else answer

    def kinds(self) -> list[DecisionKind]:
        """The kinds asked, in order."""
        return [r.kind for r in self.asked]


class RecordingDice:
    """Scripted dice that log the kind of every die drawn, in drawing order."""

    def __init__(self, script: Mapping[str, Iterable[int]]) -> None:
        self.inner = ScriptedDice(script)
        self.log: list[str] = []

    def d6(self, kind: str) -> int:
        """The next scripted face, logged."""
        self.log.append(str(kind))
        return self.inner.d6(kind)


WeaponsArg = str | WeaponEntry | Sequence[str | WeaponEntry]


def _entries(weapons: WeaponsArg) -> tuple[WeaponEntry, ...]:
    if isinstance(weapons, str | WeaponEntry):
        weapons = [weapons]
    return tuple(weapon(w) if isinstance(w, str) else w for w in weapons)


def attack(
    weapons: WeaponsArg,
    target: str | Sequence[ModelState],
    dice: Mapping[str, Iterable[int]] | None = None,
    *,
    attacker: str | Sequence[ModelState] = (),
    context: AttackContext | None = None,
    decider: object | None = None,
    exact_dice: bool = True,
    source: RecordingDice | None = None,
    **flags: object,
) -> AttackResult:
    """Resolve ``weapons`` against ``target`` with scripted ``dice``.

    ``flags`` are AttackContext fields (``charged=True``, ``cover=True`` ...). With
    ``exact_dice`` (the default), every scripted die must have been used."""
    ctx = replace(context or AttackContext(), **flags)  # type: ignore[arg-type]
    tgt = models(target) if isinstance(target, str) else tuple(target)
    att = models(attacker) if isinstance(attacker, str) else tuple(attacker)
    src = source or RecordingDice(dice or {})
    result = resolve_attack(AttackRequest(_entries(weapons), tgt, att, ctx), src,
                            decider)  # type: ignore[arg-type]
    if exact_dice:
        unused = src.inner.unused()
        assert not unused, f"scripted dice not used by the rules: {unused}"
    return result


# ---------------------------------------------------------------------------------------------
# Domain asserts


def model_after(result: AttackResult, name: str, *, attacker: bool = False) -> ModelState:
    """The named target (or attacker) model after the attack."""
    pool = result.attacker if attacker else result.target
    for m in pool:
        if m.name == name:
            return m
    raise AssertionError(f"no model {name!r} in {[m.name for m in pool]}")


def assert_wounds_lost(result: AttackResult, expected: Mapping[str, int], *,
                       attacker: bool = False) -> None:
    """Each named model has lost exactly this many wounds in total (wounds_lost after)."""
    got = {n: model_after(result, n, attacker=attacker).wounds_lost for n in expected}
    assert got == dict(expected), f"wounds lost {got}, expected {dict(expected)}"


def assert_destroyed(result: AttackResult, *names: str, attacker: bool = False) -> None:
    """Exactly these models of the target (or attacker) are destroyed."""
    pool = result.attacker if attacker else result.target
    dead = sorted(m.name for m in pool if m.destroyed)
    assert dead == sorted(names), f"destroyed {dead}, expected {sorted(names)}"


def counts(result: AttackResult) -> dict[str, int]:
    """The per-step counts of the result (the `--json` keys)."""
    return {k: int(getattr(result, k)) for k in (
        "hits", "critical_hits", "wounds", "critical_wounds", "unsaved", "mortal_wounds",
        "wounds_lost", "models_destroyed")}


def assert_counts(result: AttackResult, **expected: int) -> None:
    """The named per-step counts equal the expected values."""
    got = {k: v for k, v in counts(result).items() if k in expected}
    assert got == expected, f"counts {got}, expected {expected}"
