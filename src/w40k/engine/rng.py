"""The seeded RNG's state as JSON (Python's random.Random, Mersenne Twister)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from w40k.engine.serial import JSON


def rng_to_json(rng: random.Random) -> list[JSON]:
    """``getstate()`` as a JSON list."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Sequence[JSON]) -> random.Random:
    """A generator in the state :func:`rng_to_json` wrote."""
    rng = random.Random()
    version, internal, gauss = data
    rng.setstate((cast(int, version), tuple(cast(list[int], internal)),
                  cast(float | None, gauss)))
    return rng
