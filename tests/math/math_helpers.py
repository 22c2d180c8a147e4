"""Builders and statistical checks for the math tests (exact vs simulation vs per-die engine)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence

from w40k.core.profiles import WeaponProfile
from w40k.math.distributions import Dist
from w40k.rules.attack_profile import AttackContext, Reroll, WeaponEntry
from w40k.rules.primitives import ModelState

Z_BOUND = 5.5
"""Per-outcome |z| bound: a false failure has chance ~4e-8 per comparison."""
CHI2_Z = 4.75
"""Normal quantile for the chi-square bound (false failure ~1e-6 per comparison)."""


def weapon(
    name: str = "gun",
    *,
    A: object = 1,
    skill: int = 3,
    S: int = 4,
    AP: int = 0,
    D: object = 1,
    abilities: Sequence[str] = (),
    melee: bool = False,
) -> WeaponProfile:
    """A weapon profile from datasheet values."""
    return WeaponProfile.build(
        name, range="Melee" if melee else 24, A=A, skill=skill, S=S, AP=AP, D=D, abilities=abilities
    )


def models(n: int, name: str = "m", **kw: object) -> tuple[ModelState, ...]:
    """``n`` identical models named ``name 1``, ``name 2``..."""
    return tuple(ModelState(f"{name} {i + 1}", **kw) for i in range(n))  # type: ignore[arg-type]


def chi2_bound(dof: int) -> float:
    """Wilson-Hilferty upper quantile of chi-square(dof) at the CHI2_Z level."""
    k = max(dof, 1)
    return k * (1 - 2 / (9 * k) + CHI2_Z * math.sqrt(2 / (9 * k))) ** 3


def poisson_tail(lam: float, k: int) -> float:
    """P(Poisson(lam) >= k)."""
    term = math.exp(-lam)
    below = 0.0
    for j in range(k):
        below += term
        term *= lam / (j + 1)
    return max(0.0, 1.0 - below)


def disagreements(label: str, exact: Dist, counts: Mapping[int, int], n: int) -> list[str]:
    """Why observed ``counts`` (n samples) are not draws from ``exact``; empty if they agree.

    Checks: an impossible outcome is never observed (and every observed one is possible);
    each outcome's frequency within Z_BOUND standard errors; a chi-square over bins with
    expected count >= 5 (the rest pooled) below the CHI2_Z quantile."""
    out: list[str] = []
    pmf = exact.pmf
    for k, c in counts.items():
        if c and (k >= len(pmf) or pmf[k] <= 1e-15):
            out.append(
                f"{label}: observed {c} x {k}, exact probability {pmf[k] if k < len(pmf) else 0}"
            )
    chi2 = 0.0
    dof = -1
    pooled_e = 0.0
    pooled_o = 0
    for k, p in enumerate(pmf):
        o = counts.get(k, 0)
        e = p * n
        if e >= 5 and p < 1:
            z = (o / n - p) / math.sqrt(p * (1 - p) / n)
            if abs(z) > Z_BOUND:
                out.append(f"{label}: P({k}) exact {p:.5f} observed {o / n:.5f} (z={z:.1f})")
        elif 0 < e < 5 and o > e and poisson_tail(e, o) < 1e-8:
            # Rare outcomes: the normal approximation fails; use the Poisson tail.
            out.append(f"{label}: P({k}) exact {p:.2e} observed {o} of {n}")
        if e >= 5:
            chi2 += (o - e) ** 2 / e
            dof += 1
        else:
            pooled_e += e
            pooled_o += o
    if pooled_e >= 5:
        chi2 += (pooled_o - pooled_e) ** 2 / pooled_e
        dof += 1
    if dof >= 1 and chi2 > chi2_bound(dof):
        out.append(f"{label}: chi-square {chi2:.1f} > {chi2_bound(dof):.1f} ({dof} dof)")
    return out


def dist_counts(d: Dist, n: int) -> Counter[int]:
    """Counts implied by a simulated distribution of ``n`` trials."""
    return Counter({k: round(p * n) for k, p in enumerate(d.pmf) if round(p * n)})


ABILITIES = (
    "SUSTAINED HITS 1",
    "SUSTAINED HITS 2",
    "LETHAL HITS",
    "DEVASTATING WOUNDS",
    "TORRENT",
    "TWIN-LINKED",
    "ANTI-INFANTRY 4+",
    "PRECISION",
    "HAZARDOUS",
    "MELTA 2",
    "RAPID FIRE 1",
    "BLAST",
    "IGNORES COVER",
    "HEAVY",
    "LANCE",
)


def random_case(
    rng: random.Random, *, max_pools: int = 3
) -> tuple[tuple[WeaponEntry, ...], tuple[ModelState, ...], tuple[ModelState, ...], AttackContext]:
    """A random but legal attack: 1-3 weapon pools, a target of 1-3 groups (maybe a CHARACTER
    leader, Feel No Pain, a wounded model), an attacker, and context flags."""
    entries = []
    for p in range(rng.randint(1, max_pools)):
        abil = rng.sample(ABILITIES, rng.choice((0, 0, 1, 2, 3)))
        entries.append(
            WeaponEntry(
                weapon(
                    f"w{p}",
                    A=rng.choice((1, 1, 2, 3, "D3", "D6")),
                    skill=rng.randint(2, 5),
                    S=rng.randint(3, 10),
                    AP=-rng.randint(0, 3),
                    D=rng.choice((1, 1, 2, 3, "D3", "D6", "D3+1")),
                    abilities=abil,
                ),
                count=rng.randint(1, 5),
            )
        )
    target: list[ModelState] = []
    kw = ("INFANTRY",) if rng.random() < 0.5 else ("VEHICLE",)
    for g in range(rng.randint(1, 2)):
        n = rng.randint(1, 5)
        W = rng.randint(1, 4)
        sv = rng.randint(2, 7)
        insv = rng.choice((None, None, 4, 5))
        fnp = rng.choice((None, None, None, 5, 6))
        t = rng.randint(3, 8)
        for i in range(n):
            target.append(
                ModelState(f"g{g} {i + 1}", W=W, T=t, Sv=sv, InSv=insv, fnp=fnp, keywords=kw)
            )
    if rng.random() < 0.3:
        target.append(
            ModelState(
                "Boss",
                W=rng.randint(3, 6),
                T=rng.randint(3, 6),
                Sv=rng.randint(2, 4),
                InSv=rng.choice((None, 4)),
                fnp=rng.choice((None, 5)),
                keywords=("CHARACTER", *kw),
                leader=True,
                visible=rng.random() < 0.8,
            )
        )
    if rng.random() < 0.3:
        i = rng.randrange(len(target))
        m = target[i]
        if m.W > 1:
            target[i] = m.losing(rng.randint(1, m.W - 1))
    attacker = models(
        rng.randint(1, 3),
        "a",
        W=rng.randint(1, 3),
        keywords=rng.choice((("INFANTRY",), ("VEHICLE",))),
    )
    ctx = AttackContext(
        half_range=rng.random() < 0.5,
        cover=rng.random() < 0.3,
        charged=rng.random() < 0.3,
        remained_stationary=rng.random() < 0.3,
        reroll_hits=rng.choice((Reroll.NONE, Reroll.NONE, Reroll.ONES, Reroll.FAILED)),
        reroll_wounds=rng.choice((Reroll.NONE, Reroll.NONE, Reroll.ONES)),
        lethal_hits_auto=rng.random() < 0.8,
    )
    return tuple(entries), tuple(target), attacker, ctx
