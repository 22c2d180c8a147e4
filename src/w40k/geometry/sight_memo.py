"""Sight answers kept across scenes: raw line of sight, HULL_RAMP flags and the full-visibility
refinement of one model pair are pure functions of the two footprints, their heights and the
pair's obstacles, so :class:`w40k.geometry.sight_tables.SightTables` keeps them here keyed by
those values and finds them again in the next scene (a casualty, a move elsewhere or a new
phase builds a new scene, but most pairs see the same obstacles).

The obstacles are keyed by a digest of their arrays with the obstacle indices renumbered in
order (0, 1, ...): the same obstacles in another scene have other indices (a removed model
shifts them) but the same digest. The searches use the indices only to group edges and
vertices by obstacle, in order, and to read each obstacle's convexity and kind, which the
digest includes. Nothing here is saved; the table is emptied when it grows past
:data:`LIMIT` entries.
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Hashable
from typing import TypeVar

import numpy as np

from w40k.core import kept
from w40k.geometry.los_obstacles import Obstacles, unique_ids

LIMIT = 65536
"""Entries before the table is emptied."""

T = TypeVar("T")

_ANSWERS: dict[Hashable, object] = kept.table()
_DIGESTS: dict[int, tuple[weakref.ref[Obstacles], bytes]] = kept.table()
"""Digests by the obstacles' identity, held weakly: an entry goes with its obstacles (a
strong reference kept every scene's obstacles alive, 7-9 MB by the end of a 1000-point game)."""


def _drop(key: int, ref: weakref.ref[Obstacles]) -> None:
    # the entry of a dead object only: its id may already key a newer object's entry
    hit = _DIGESTS.get(key)
    if hit is not None and hit[0] is ref:
        del _DIGESTS[key]


def digest(obs: Obstacles, kind_codes: np.ndarray) -> bytes:
    """The obstacles' content with their indices renumbered in order; ``kind_codes`` is the
    scene's kind per obstacle index (what the obstacle is: feature, area, model)."""
    hit = _DIGESTS.get(id(obs))
    if hit is not None and hit[0]() is obs:
        return hit[1]
    owners = unique_ids(np.concatenate([obs.owner, obs.vert_owner]))
    h = hashlib.blake2b(digest_size=20)
    parts = (
        obs.a, obs.b, obs.grow, obs.top, np.searchsorted(owners, obs.owner),
        obs.verts, obs.vert_grow, obs.vert_top, np.searchsorted(owners, obs.vert_owner),
        kind_codes[owners],
        obs.convex[owners] if obs.convex is not None else np.zeros(0, dtype=np.int8),
    )
    for p in parts:
        arr = np.ascontiguousarray(p)
        h.update(repr((arr.dtype.str, arr.shape)).encode())
        h.update(arr.tobytes())
    out = h.digest()
    if len(_DIGESTS) >= LIMIT:
        _DIGESTS.clear()
    key = id(obs)
    _DIGESTS[key] = (weakref.ref(obs, lambda r: _drop(key, r)), out)
    return out


_TOKENS: dict[Hashable, int] = kept.table()
_NEXT_TOKEN = [0]


def token(content: Hashable) -> int:
    """A small int for ``content``: the same for equal content while kept, and never given
    to other content (a new token follows every token given before, even after the table
    is emptied), so a key holding tokens matches only keys of equal content."""
    hit = _TOKENS.get(content)
    if hit is None:
        if len(_TOKENS) >= LIMIT:
            _TOKENS.clear()
        hit = _TOKENS[content] = _NEXT_TOKEN[0]
        _NEXT_TOKEN[0] += 1
    return hit


def get(key: Hashable) -> object | None:
    """The kept answer for ``key`` (None when there is none)."""
    return _ANSWERS.get(key)


def put(key: Hashable, value: T) -> T:
    """Keep ``value`` for ``key`` and return it."""
    if len(_ANSWERS) >= LIMIT:
        _ANSWERS.clear()
    _ANSWERS[key] = value
    return value


def forget() -> None:
    """Empty the tables (tests compare kept and fresh answers)."""
    _ANSWERS.clear()
    _DIGESTS.clear()
    _TOKENS.clear()
