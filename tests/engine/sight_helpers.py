"""The arguments ``SightTables._batch_stage`` gives ``batch_sight`` for a list of model pairs
(the tests of the batch's counts and relevance call it as the engine does)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from w40k.geometry import Visibility

Key = tuple[int, int, int, int]
"""(observer unit, observer model, target unit, target model)."""


def batch_args(v: Visibility, pairs: Sequence[Key]) -> tuple[
        tuple[object, ...], Callable[[np.ndarray, np.ndarray], np.ndarray]]:
    """``batch_sight``'s positional arguments for ``pairs`` and its ``allowed`` test: an
    obstacle owner counts unless it is one of the pair's two units or an area either model
    is within (13.10)."""
    og = np.array([v.model_index[k[:2]] for k in pairs])
    tg = np.array([v.model_index[k[2:]] for k in pairs])
    geo = v._geo
    args = (geo[og, :2], geo[og, 2], geo[og, 3], geo[tg, :2], geo[tg, 2], geo[tg, 3],
            v.obstacles)
    ou_a = np.array([k[0] for k in pairs])
    tu_a = np.array([k[2] for k in pairs])
    in_area = v._area_rows(np.concatenate([og, tg]))

    def allowed(pi: np.ndarray, own: np.ndarray) -> np.ndarray:
        ua = v.owner_unit[own]
        ok: np.ndarray = (ua != ou_a[pi]) & (ua != tu_a[pi])
        ar = v.owner_area[own]
        arc = np.maximum(ar, 0)
        ok &= ~((ar >= 0) & (in_area[og[pi], arc] | in_area[tg[pi], arc]))
        return ok

    return args, allowed
