"""Compile the line-of-sight kernels into numba's cache: ``python -m w40k.geometry.kernel_warm``.

Started in the background by :func:`w40k.geometry.kernel_cache.compile_in_background` (or by
hand, e.g. once after ``pip install 'w40k[fast]'`` or in CI with a cached
``NUMBA_CACHE_DIR``). Runs every kernel entry point of ``Visibility`` on a tiny scene (two
units, one wall; round bases, an oval and a FRAME hull), then writes the ready marker.
"""

from __future__ import annotations

from w40k.geometry.kernel_cache import NUMBA_INSTALLED, mark_ready


def warm_up() -> None:
    """Every kernel entry point of ``Visibility`` on a tiny scene, compiled (or loaded)."""
    from w40k.geometry.scene import scene_from_dict
    from w40k.geometry.visibility import Visibility

    base = {"x": 2.0, "y": 5.0, "base_mm": 32, "height": 1.6}
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
                {"name": "A", "player": "a", "models": [base, {**base, "y": 8.0,
                                                               "base_mm": [60, 35]}]},
                {"name": "B", "player": "b", "models": [{**base, "x": 18.0}]},
            ],
        }
    )
    Visibility(scene, jit=True).unit_pair("A", "B")
    v = Visibility(scene, jit=True)
    v.model_sight(0, 0, 1, 0)
    v.prepare([(1, 0)])


def main() -> None:
    """Compile, then mark the cache ready."""
    if not NUMBA_INSTALLED:
        return
    warm_up()
    mark_ready()


if __name__ == "__main__":
    main()
