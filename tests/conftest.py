"""Shared test setup: make ``tests/builders.py`` importable as ``builders`` from any test folder
(the repository uses no ``__init__.py`` in tests/)."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)


def pytest_sessionstart(session: object) -> None:
    """With numba installed, compile the line-of-sight kernels once, in the controlling
    process, before pytest-xdist starts its workers: they then load them from numba's disk
    cache instead of each compiling them at the same time."""
    if hasattr(getattr(session, "config", None), "workerinput"):
        return
    from w40k.geometry import los_kernel

    if los_kernel.AVAILABLE:
        warm_up_kernels()


def warm_up_kernels() -> None:
    """Every kernel entry point of ``Visibility`` on a tiny scene (two units, one wall)."""
    from w40k.geometry import Visibility, scene_from_dict

    models = [{"x": 2.0, "y": 5.0, "base_mm": 32, "height": 1.6}]
    scene = scene_from_dict(
        {
            "battlefield": {"width": 20, "depth": 10},
            "terrain": [
                {
                    "name": "W",
                    "category": "dense",
                    "footprint": [[9, 1], [10, 1], [10, 4], [9, 4]],
                    "height": 5,
                }
            ],
            "units": [
                {"name": "A", "player": "a", "models": models},
                {"name": "B", "player": "b", "models": [{**models[0], "x": 18.0}]},
            ],
        }
    )
    Visibility(scene).unit_pair("A", "B")
    v = Visibility(scene)
    v.model_sight(0, 0, 1, 0)
    v.prepare([(1, 0)])
