"""JSON forms of profiles (datasheet strings in, datasheet strings out); the weapon form is
``core.profiles``' canonical one, re-exported here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from w40k.core.jsonval import JSON as JSON
from w40k.core.profiles import ModelProfile
from w40k.core.profiles import weapon_from_json as weapon_from_json
from w40k.core.profiles import weapon_to_json as weapon_to_json


def profile_to_json(p: ModelProfile) -> dict[str, JSON]:
    """A model profile as a datasheet writes it."""
    base: JSON = list(p.base_mm) if isinstance(p.base_mm, tuple) else p.base_mm
    out: dict[str, JSON] = {
        "name": p.name, "M": "-" if p.M is None else p.M, "T": p.T, "Sv": p.Sv, "W": p.W,
        "Ld": p.Ld, "OC": "-" if p.OC is None else p.OC, "InSv": p.InSv, "base_mm": base,
        "height": p.height, "keywords": list(p.keywords),
        "abilities": [str(a) for a in p.abilities]}
    if p.transport is not None:
        out["transport"] = p.transport.to_json()  # only TRANSPORT models carry the key
    return out


def profile_from_json(d: Mapping[str, JSON]) -> ModelProfile:
    """The inverse of :func:`profile_to_json` (validated)."""
    return ModelProfile.build(
        str(d["name"]), T=d["T"], Sv=d["Sv"], W=d["W"], M=d.get("M", 6), Ld=d.get("Ld", 7),
        OC=d.get("OC", 1), InSv=d.get("InSv"), base_mm=d.get("base_mm", 32.0),
        height=d.get("height", 1.5), keywords=[str(k) for k in cast(list[JSON],
                                                                      d.get("keywords", []))],
        abilities=[str(a) for a in cast(list[JSON], d.get("abilities", []))],
        transport=d.get("transport"))


def in_order(obj: Mapping[str, JSON], order: Sequence[str]) -> list[tuple[str, JSON]]:
    """The items of a JSON object in the order of ``order`` (keys it does not list last,
    sorted). A game never depends on the order of an object's keys: a save re-serialised
    with sorted keys (``jq -S``, a database) means the same game."""
    rank = {k: i for i, k in enumerate(order)}
    return sorted(obj.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0]))
