"""Seeded random obstacles for the sight tests that compare a fast path with the exact one."""

from __future__ import annotations

import numpy as np

from w40k.geometry.los import Obstacles


def random_obstacles(rng: np.random.Generator, n: int) -> Obstacles:
    """``n`` obstacles in a 24" square: model bases (points grown by a radius) and walls or
    obscuring areas (rectangles), with tops from low walls to infinite."""
    items = []
    for _ in range(n):
        x, y = rng.uniform(-2, 22, size=2)
        top = float(rng.choice([0.5, 1.5, 2.5, 6.0, np.inf]))
        if rng.random() < 0.5:  # a model base: a point grown by its radius
            items.append((np.array([[x, y]]), float(rng.uniform(0.5, 1.3)), top))
        else:  # a wall or an area
            w, h = rng.uniform(0.2, 4, size=2)
            poly = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
            items.append((poly, 1e-6 if np.isinf(top) else 0.02, top))
    return Obstacles.build(items)
