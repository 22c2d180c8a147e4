"""What the engine applies of a roster's abilities, and what it keeps as text only.

An ability is applied when it is a core ability the engine types (``Deep Strike``, ``Leader``,
``Scouts 6"``, ``Feel No Pain 5+``) or an unconditional invulnerable save (which sets
``InSv``). Everything else (faction and datasheet abilities, enhancements, conditional saves,
weapon keywords the engine does not know, the other profiles of a multi-profile weapon) is kept
as text and listed in the unit's ``not_applied``: never dropped, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import replace

from w40k.engine.ability_catalog import entry
from w40k.io.army_model import name_key
from w40k.io.rosters import values as v
from w40k.io.rosters.model import RosterAbility, RosterModel

_LINK = re.compile(r"^(attached to|led by|supported by|leading)\s*:?\s*(.+)$", re.IGNORECASE)


def merge_insv(model: RosterModel, save: int, *, conditional: bool, label: str) -> RosterModel:
    """The model with an invulnerable save: the best unconditional one sets ``InSv``; a
    conditional one ("against ranged attacks only") stays text (an ability named ``label``)."""
    if conditional:
        return replace(model, abilities=(*model.abilities, RosterAbility(label, "")))
    best = save if model.InSv is None else min(model.InSv, save)
    return replace(model, InSv=best)


def _classify(a: RosterAbility) -> tuple[RosterAbility, int | None]:
    """The ability with ``applied`` filled in, and an invulnerable save it gives."""
    if v.is_invulnerable(a.name):
        save, conditional = v.invulnerable(a.name, a.text)
        if save is not None and not conditional:
            return replace(a, applied=f"InSv {save}+"), save
        return a, None
    fnp, conditional = v.feel_no_pain(a.name, a.text)
    if fnp is not None:
        return (a if conditional else replace(a, applied=f"Feel No Pain {fnp}+")), None
    core = v.core_ability(a.name)
    return (a if core is None else replace(a, applied=core)), None


def interpret(models: list[RosterModel], notes: list[str]
              ) -> tuple[list[RosterModel], list[str], list[tuple[str, str]]]:
    """Models with their abilities classified and ``InSv`` set; the unit's ``not_applied``;
    and the attachments written as abilities (40k.app: ``Attached to: <unit>``)."""
    out: list[RosterModel] = []
    not_applied: list[str] = []
    links: list[tuple[str, str]] = []
    for m in models:
        kept: list[RosterAbility] = []
        model = m
        for a in m.abilities:
            link = _LINK.match(a.name)
            if link:
                kind = link.group(1).lower()
                target = v.clean(link.group(2))
                if kind in {"attached to", "leading"}:
                    links.append(("leader", target))
                elif kind == "led by":
                    links.append(("led_by", target))
                elif kind == "supported by":
                    links.append(("supported_by", target))
                continue
            a2, save = _classify(a)
            if save is not None:
                model = merge_insv(model, save, conditional=False, label=a.name)
            kept.append(a2)
        model = replace(model, abilities=tuple(kept))
        for a in model.abilities:
            if a.applied is None and entry(a.name) is None:  # the catalog's are applied
                not_applied.append(a.name)
        groups: dict[str, str] = {}
        for w in model.weapons:
            for k in w.abilities:
                if not v.weapon_ability_known(k):
                    not_applied.append(k)
            # One profile per attack (02.04): the engine has no profile choice yet, so it
            # fires the first profile of a multi-profile weapon; the others are text.
            if w.group and name_key(w.group) != name_key(w.name):
                first = groups.setdefault(name_key(w.group), w.name)
                if first != w.name:
                    not_applied.append(f"{w.name} (other profile of {w.group})")
        out.append(model)
    del notes
    return out, list(dict.fromkeys(not_applied)), links
