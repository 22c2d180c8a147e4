"""Geometry benchmarks: prints medians and ratios (no asserts).

Run: .venv/bin/python benchmarks/bench_geometry.py [--no-jit]
Scenes are seeded (numpy Generator); 12 terrain features on a 60x44 table. With numba
installed (the ``fast`` extra) Visibility uses the compiled kernels; ``--no-jit`` measures the
numpy code on the same scenes.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from typing import Any

import numpy as np

from w40k.geometry import Visibility, kernel_cache, scene_from_dict
from w40k.geometry.los import TOUCH, Obstacles, Sight, _seg_dist, line_of_sight, relevant
from w40k.geometry.shapes import HALF_LINE, Circle, mm


def make_scene(
    rng: np.random.Generator, units_per_side: int, models_per_unit: int
) -> dict[str, Any]:
    terrain = []
    areas = []
    for i in range(12):
        cx, cy = rng.uniform(8, 52), rng.uniform(6, 38)
        w, d = rng.uniform(0.3, 4), rng.uniform(0.3, 4)
        cat = ["dense", "light", "exposed"][i % 3]
        terrain.append(
            {
                "name": f"F{i}",
                "category": cat,
                "area": f"A{i // 3}",
                "footprint": [[cx, cy], [cx + w, cy], [cx + w, cy + d], [cx, cy + d]],
                "height": float(rng.uniform(0.5, 6)),
            }
        )
    for a in range(4):
        fs = [f for f in terrain if f["area"] == f"A{a}"]
        xs = [p[0] for f in fs for p in f["footprint"]]
        ys = [p[1] for f in fs for p in f["footprint"]]
        areas.append(
            {
                "name": f"A{a}",
                "footprint": [
                    [min(xs), min(ys)],
                    [max(xs), min(ys)],
                    [max(xs), max(ys)],
                    [min(xs), max(ys)],
                ],
            }
        )
    units = []
    for side, x0 in (("A", 3.0), ("B", 45.0)):
        for u in range(units_per_side):
            ux, uy = x0 + rng.uniform(0, 10), rng.uniform(3, 40)
            models = [
                {"x": ux + 1.4 * (k % 5), "y": uy + 1.4 * (k // 5), "base_mm": 32, "height": 1.6}
                for k in range(models_per_unit)
            ]
            units.append(
                {"name": f"{side}{u}", "player": side, "keywords": ["VEHICLE"], "models": models}
            )
    return {
        "battlefield": {"width": 60, "depth": 44},
        "areas": areas,
        "terrain": terrain,
        "units": units,
    }


def sampled_sight(v: Visibility, ou: int, om: int, tu: int, tm: int, k: int = 16) -> bool:
    """Point sampling: k points on each base outline, top to top, same grown blockers."""
    o = v.footprints[(ou, om)]
    t = v.footprints[(tu, tm)]
    assert isinstance(o, Circle) and isinstance(t, Circle)
    ho = v.scene.units[ou].models[om].top
    ht = v.scene.units[tu].models[tm].top
    return sample_sees(o, ho, t, ht, v._obstacles_for(ou, om, tu, tm), k)


def sample_sees(o: Circle, ho: float, t: Circle, ht: float, obstacles: Obstacles, k: int) -> bool:
    """Some of the k x k segments between k points on each base outline clears every blocker
    (grown as in the exact method) that is taller than the lower top."""
    # the same obstacles as the exact method, culled to those near the two bases
    obs = relevant(o, t, obstacles)
    if len(obs.a) == 0:
        return True
    ang = np.linspace(0, 2 * math.pi, k, endpoint=False)
    po = np.stack([o.cx + o.r * np.cos(ang), o.cy + o.r * np.sin(ang)], axis=1)
    pt = np.stack([t.cx + t.r * np.cos(ang), t.cy + t.r * np.sin(ang)], axis=1)
    p = np.repeat(po, k, axis=0)
    q = np.tile(pt, (k, 1))
    d = _seg_dist(p[:, None, :], q[:, None, :], obs.a[None, :, :], obs.b[None, :, :])
    tall = obs.top[None, :] > min(ho, ht)
    blocked = ((d < obs.grow[None, :] - TOUCH) & tall).any(axis=1)
    return bool((~blocked).any())


def slit_sights(rng: np.random.Generator, n: int) -> tuple[int, int]:
    """Exact vs 16-point sampling on ``n`` scenes where two bases face each other across a
    wall pierced by one slit 1.1-3 mm wide at a random place along the wall: returns (pairs
    the exact method sees, of which sampling misses)."""
    seen = missed = 0
    for _ in range(n):
        o = Circle(0.0, float(rng.uniform(-0.5, 0.5)), mm(32) / 2)
        gap = float(rng.uniform(3.0, 10.0))
        t = Circle(gap, float(rng.uniform(-0.5, 0.5)), mm(32) / 2)
        xw = float(rng.uniform(1.0, gap - 1.0))
        width = mm(float(rng.uniform(1.1, 3.0)))
        yc = float(rng.uniform(-0.6, 0.6))
        lo, hi = yc - width / 2, yc + width / 2
        walls = [
            np.array([[xw, -6.0], [xw + 0.1, -6.0], [xw + 0.1, lo], [xw, lo]]),
            np.array([[xw, hi], [xw + 0.1, hi], [xw + 0.1, 6.0], [xw, 6.0]]),
        ]
        obs = Obstacles.build([(w, HALF_LINE, 10.0) for w in walls])
        if line_of_sight(o, 1.6, t, 1.6, obs).sight is Sight.CLEAR:
            seen += 1
            missed += not sample_sees(o, 1.6, t, 1.6, obs, 16)
    return seen, missed


def median_time(fn: Any, reps: int) -> float:
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-jit", action="store_true", help="measure the numpy code")
    # compiled kernels whenever numba is installed (not the size/cache policy of
    # Visibility(scene), which would pick numpy for the small scenes measured here)
    jit = False if ap.parse_args().no_jit else kernel_cache.NUMBA_INSTALLED
    rng = np.random.default_rng(2024)
    sc = scene_from_dict(make_scene(rng, 10, 10))

    def prepared() -> Visibility:
        vis = Visibility(sc, jit=jit)
        vis.warm()
        return vis

    t_prep = median_time(prepared, 5)
    v = prepared()
    print(
        f"compiled kernels: {'on' if v.jit else 'off'}; scene preparation (Visibility + warm, "
        f"12 features, 200 models, once per scene): median {t_prep * 1e3:.1f} ms"
    )
    # warm the compiled code (loaded from numba's disk cache, or compiled on a first run)
    Visibility(sc, jit=jit).unit_pair("A1", "B1")
    # --- two models, 12 features: median over many random pairs (each pair asked once)
    pairs = [
        (a, b, c, d) for a in range(10) for b in range(10) for c in range(10, 20) for d in range(10)
    ]
    idx = rng.choice(len(pairs), 400, replace=False)
    per = []
    by_kind: dict[str, list[float]] = {}
    for i in idx:
        ou, om, tu, tm = pairs[int(i)]
        t0 = time.perf_counter()
        res = v.raw_sight(ou, om, tu, tm)
        per.append(time.perf_counter() - t0)
        by_kind.setdefault(res.sight.value, []).append(per[-1])
    print(
        f"model-model LoS (12 features, 200 models): median {statistics.median(per) * 1e6:.1f} us, "
        f"p90 {np.percentile(per, 90) * 1e6:.1f} us  (target 10 us); "
        + ", ".join(
            f"{k} {len(x)}: median {statistics.median(x) * 1e6:.0f} us"
            for k, x in sorted(by_kind.items())
        )
    )
    per_vis = []
    for i in idx:
        ou, om, tu, tm = pairs[int(i)]
        t0 = time.perf_counter()
        v.model_visible((f"A{ou}", om), (f"B{tu - 10}", tm))
        per_vis.append(time.perf_counter() - t0)
    print(
        "model_visible (06.01 with 13.09 hidden and 24.24 Lone Operative): median "
        f"{statistics.median(per_vis) * 1e6:.1f} us, p90 {np.percentile(per_vis, 90) * 1e6:.1f} us"
    )
    # --- two models alone with the 12 features (no other models to block)
    per2 = []
    for _ in range(300):
        d = make_scene(rng, 1, 1)
        v2 = Visibility(scene_from_dict(d), jit=jit)
        t0 = time.perf_counter()
        v2.raw_sight(0, 0, 1, 0)
        per2.append(time.perf_counter() - t0)
    print(
        f"model-model LoS (12 features, 2 models, first call per scene): median "
        f"{statistics.median(per2) * 1e6:.1f} us, p90 {np.percentile(per2, 90) * 1e6:.1f} us"
    )

    # --- batched: every model pair of the 10x10 units (10 000 pairs), amortised per pair
    def batched() -> None:
        vb_ = Visibility(sc, jit=jit)
        vb_.prepare([(a, b) for a in range(10) for b in range(10, 20)])

    t_batch = median_time(batched, 3)
    print(
        f"batched raw sight, all 10 000 model pairs of 10x10 units (Visibility.prepare): "
        f"{t_batch * 1e3:.0f} ms, {t_batch / 10000 * 1e6:.1f} us/pair amortised"
    )

    # --- unit vs unit (10 vs 10) on a prepared scene, nothing cached for the pair
    per_unit = []
    for a in range(10):
        vu = prepared()
        t0 = time.perf_counter()
        vu.unit_pair(f"A{a}", f"B{a}")
        per_unit.append(time.perf_counter() - t0)
    print(
        "unit pair 10 vs 10 models (visible, fully visible, cover, ...; prepared scene): median "
        f"{statistics.median(per_unit) * 1e3:.2f} ms over 10 unit pairs (target 1 ms)"
    )
    # --- 20 units vs 20 units, ~200 models: visibility matrix
    big = scene_from_dict(make_scene(rng, 20, 5))
    upairs = [(f"A{a}", f"B{b}") for a in range(20) for b in range(20)]
    Visibility(big, jit=jit).unit_pair("A0", "B0")
    t0 = time.perf_counter()
    vb = Visibility(big, jit=jit)
    seers = vb.seeing_observers(upairs)
    t_matrix = time.perf_counter() - t0
    vis_count = sum(int(s.sum()) for s in seers)
    vis_units = sum(bool(s.any()) for s in seers)
    print(
        "visibility matrix 20x20 units (200 models, seeing_observers, scene preparation"
        f" included): {t_matrix * 1e3:.0f} ms, "
        f"{vis_count} (unit pair, observer model) seeing, {vis_units} of 400 visible"
        " (target 200 ms)"
    )
    t0 = time.perf_counter()
    vb = Visibility(big, jit=jit)
    vis_count = 0
    vb.prepare([(a, b) for a in range(20) for b in range(20, 40)])
    for a, b in upairs:
        vis_count += int(vb.sight_matrix(a, b).any(axis=1).sum())
    t_matrix = time.perf_counter() - t0
    print(
        "  same with sight_matrix (every model pair, scene preparation included): "
        f"{t_matrix * 1e3:.0f} ms, {vis_count} (unit pair, observer model) seeing"
    )
    t0 = time.perf_counter()
    vb2 = Visibility(big, jit=jit)
    reports = [vb2.unit_pair(f"A{a}", f"B{b}") for a in range(20) for b in range(20)]
    t_full = time.perf_counter() - t0
    print(
        f"full unit-pair reports 20x20 (every model pair, fully visible and cover): {t_full:.2f} s,"
        f" {sum(r.visible for r in reports)} of 400 visible"
    )
    # --- exact vs 16-point sampling on the same scenes
    exact_visible = missed = 0
    t_exact = t_sample = 0.0
    v = prepared()
    for i in idx:
        ou, om, tu, tm = pairs[int(i)]
        t1 = time.perf_counter()
        e = v.raw_sight(ou, om, tu, tm).sight is Sight.CLEAR
        t2 = time.perf_counter()
        s = sampled_sight(v, ou, om, tu, tm)
        t3 = time.perf_counter()
        t_exact += t2 - t1
        t_sample += t3 - t2
        exact_visible += e
        missed += e and not s
    print(
        f"exact vs 16-point sampling on 400 pairs: exact {t_exact / 400 * 1e6:.1f} us/pair, "
        f"sampling {t_sample / 400 * 1e6:.0f} us/pair (exact is {t_sample / t_exact:.0f}x "
        f"faster); exact finds {exact_visible} visible, sampling misses {missed}"
    )
    seen, missed = slit_sights(np.random.default_rng(7), 300)
    print(
        f"narrow slits (1.1-3 mm, 300 seeded scenes): exact sees {seen} pairs, "
        f"16-point sampling misses {missed} of them"
    )


if __name__ == "__main__":
    main()
