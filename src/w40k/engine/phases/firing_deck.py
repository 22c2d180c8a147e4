"""Firing Deck X (24.14, R24.14-a): each time a TRANSPORT with this ability is selected to shoot
in its player's Shooting phase, with units embarked within it, its player selects up to X
embarked models (of units not yet selected to shoot this phase) and one ranged weapon of each
(not [ONE SHOT]); the transport has those weapons in addition to its own until it has resolved
its attacks, and until the end of the turn the units embarked within it are not eligible to
shoot (flag ``firing_deck``).

Request ``firing_deck`` (free form ``firing_deck``, asked by the ``shoot_unit`` frame before the
shooting type): ``[[model id, weapon name], ...]`` (``[]`` lends nothing). The lent weapons are
added to the transport's TRANSPORT model as ``"<weapon> (<model name>)"`` and taken back when
the ``shoot_unit`` frame ends (the position holds them meanwhile, so a save continues).
"""

from __future__ import annotations

import dataclasses
import random
from typing import cast

from w40k.core.abilities import FiringDeck, OneShot
from w40k.core.errors import IllegalChoice, MalformedChoice
from w40k.core.jsonval import JSON
from w40k.engine.context import Context
from w40k.engine.offtable import passengers
from w40k.engine.requests import K, Request, request
from w40k.engine.state import ModelData, UnitData


def deck_size(u: UnitData) -> int:
    """X of the unit's Firing Deck X (0 without one)."""
    return max((a.x for m in u.alive for a in m.profile.abilities if isinstance(a, FiringDeck)),
               default=0)


def deck_options(ctx: Context, t: UnitData) -> list[tuple[str, str]]:
    """(embarked model id, ranged weapon name) pairs that may be lent (R24.14-a)."""
    out: list[tuple[str, str]] = []
    for p in passengers(ctx.state, t.id):
        if p.flag("selected_to_shoot") or p.flag("firing_deck"):
            continue
        for m in p.alive:
            names = dict.fromkeys(w.name for w in m.weapons if not w.is_melee
                                  and not any(isinstance(a, OneShot) for a in w.abilities))
            out += [(m.id, n) for n in names]
    return out


def _hull(t: UnitData) -> ModelData:
    return next((m for m in t.alive if m.profile.transport is not None), t.alive[0])


def deck_request(ctx: Context, t: UnitData) -> Request | None:
    """The ``firing_deck`` request, or None when the rule does not apply now."""
    x = deck_size(t)
    opts = deck_options(ctx, t) if x else []
    if not opts:
        return None
    return request(t.player, K.FIRING_DECK, "R24.14-a",
                   f"{t.name}: Firing Deck {x}: select up to {x} embarked models and one "
                   "ranged weapon each", free_form="firing_deck",
                   context={"unit": t.id, "x": x,
                            "options": [[m, w] for m, w in opts]}, default=[])


def check_deck(ctx: Context, t: UnitData, answer: JSON) -> list[tuple[str, str]]:
    """The answer's pairs; MalformedChoice for a wrong shape, IllegalChoice (R24.14-a) for
    more than X, a model twice, or a model or weapon that may not be selected."""
    if not isinstance(answer, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, str) for v in p)
            for p in answer):
        raise MalformedChoice(f"firing_deck: expected [[model id, weapon name], ...], got "
                              f"{answer!r}")
    pairs = [(str(p[0]), str(p[1])) for p in cast(list[list[JSON]], answer)]
    x = deck_size(t)
    if len(pairs) > x:
        raise IllegalChoice(f"Firing Deck {x}: at most {x} models, got {len(pairs)}",
                            rule="R24.14-a")
    models = [m for m, _ in pairs]
    if len(set(models)) != len(models):
        raise IllegalChoice("Firing Deck: one weapon per selected model", rule="R24.14-a")
    legal = set(deck_options(ctx, t))
    for pair in pairs:
        if pair not in legal:
            raise IllegalChoice(f"Firing Deck: {pair[0]} / {pair[1]} cannot be selected (an "
                                "embarked model of a unit not selected to shoot this phase, "
                                "a ranged weapon, not [ONE SHOT])", rule="R24.14-a")
    return pairs


def lend(ctx: Context, t: UnitData, pairs: list[tuple[str, str]]) -> tuple[str, ...]:
    """Give the transport the selected weapons; the embarked units may not shoot this turn.
    Returns the lent weapons' names on the transport."""
    s = ctx.state
    by_id = {m.id: m for p in passengers(s, t.id) for m in p.alive}
    hull = _hull(t)
    names: list[str] = []
    for mid, wname in pairs:
        m = by_id[mid]
        w = next(x for x in m.weapons if x.name == wname)
        lent = dataclasses.replace(w, name=f"{w.name} ({m.name})")
        hull.weapons = (*hull.weapons, lent)
        names.append(lent.name)
    for p in passengers(s, t.id):
        p.flags["firing_deck"] = True  # R24.14-a: not eligible to shoot until end of turn
    ctx.log("firing_deck", unit=t.id, models=[[m, w] for m, w in pairs],
            weapons=list[JSON](names))
    return tuple(names)


def take_back(t: UnitData, names: tuple[str, ...]) -> None:
    """The transport has resolved its attacks: the lent weapons go (R24.14-a)."""
    if not names:
        return
    for m in t.models:
        if m.weapons and any(w.name in names for w in m.weapons):
            m.weapons = tuple(w for w in m.weapons if w.name not in names)


def propose_deck(ctx: Context, req: Request, rng: random.Random) -> JSON:
    """Up to X distinct models, a random weapon each (random players)."""
    x = int(cast(int, req.context["x"]))
    opts = cast(list[list[str]], req.context["options"])
    per: dict[str, list[str]] = {}
    for mid, w in opts:
        per.setdefault(mid, []).append(w)
    chosen = rng.sample(sorted(per), min(x, len(per)))
    return [[mid, rng.choice(per[mid])] for mid in chosen]
