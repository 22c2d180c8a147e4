"""Per-die probabilities derived from the rule primitives, never re-implemented.

Every judgement of a die here comes from calling :mod:`w40k.rules.primitives` on the faces
1..6 (DESIGN.md: one source of truth per rule). Probabilities are float64.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

from w40k.core.dice import DiceExpr
from w40k.math.setup import Gathered
from w40k.rules.attack_profile import PoolProfile, Reroll
from w40k.rules.primitives import (
    Outcome,
    fnp_prevents,
    hazard_fails,
    hit_outcome,
    save_inflicts_damage,
    wound_outcome,
)

FloatArray = npt.NDArray[np.float64]
"""A float64 array."""

FACES = (1, 2, 3, 4, 5, 6)
"""The faces of a D6."""

_LOG_FACT = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, 4097)))])
"""log(n!) for n <= 4096 (binomial coefficients as floats)."""


@dataclass(frozen=True, slots=True)
class DieOdds:
    """The chance of each outcome of one hit or wound roll, after any re-roll."""

    fail: float
    """P(FAIL)."""
    success: float
    """P(SUCCESS), not critical."""
    critical: float
    """P(CRITICAL)."""


def _rerolled(face: int, outcome: Outcome, policy: Reroll) -> bool:
    """Whether a die showing ``face`` is re-rolled under ``policy`` (002: before modifiers,
    at most once; FAILED re-rolls the dice whose outcome is a failure)."""
    if policy is Reroll.ONES:
        return face == 1
    if policy is Reroll.FAILED:
        return outcome is Outcome.FAIL
    return False


def die_odds(outcome_of: Callable[[int], Outcome], policy: Reroll) -> DieOdds:
    """Outcome probabilities of one D6 judged by ``outcome_of`` (a primitive), with a
    re-roll: a re-rolled die takes a fresh face and is never re-rolled again (X002-h)."""
    table = [outcome_of(f) for f in FACES]
    counts = [0, 0, 0]
    for o in table:
        counts[o] += 1
    once = [c / 6.0 for c in counts]
    probs = [0.0, 0.0, 0.0]
    for f, o in zip(FACES, table, strict=True):
        if policy is not Reroll.NONE and _rerolled(f, o, policy):
            for o2 in Outcome:
                probs[o2] += once[o2] / 6.0
        else:
            probs[o] += 1.0 / 6.0
    return DieOdds(probs[Outcome.FAIL], probs[Outcome.SUCCESS], probs[Outcome.CRITICAL])


def hit_odds(pool: PoolProfile) -> DieOdds:
    """05.01 for one attack die of ``pool`` ([TORRENT]: always a non-critical hit, 24.37)."""
    if pool.torrent:
        return DieOdds(0.0, 1.0, 0.0)
    return _hit_odds(pool.hit_modifier, pool.skill, pool.hit_fail_up_to, pool.reroll_hits)


@lru_cache(maxsize=1024)
def _hit_odds(modifier: int, skill: int, fail_up_to: int, reroll: Reroll) -> DieOdds:
    # A pure table of its (hashable) arguments; cleared by clear_caches().
    return die_odds(lambda f: hit_outcome(f, modifier, skill, fail_up_to=fail_up_to), reroll)


def wound_odds(pool: PoolProfile, threshold: int) -> DieOdds:
    """05.02 for one wound roll of ``pool`` needing ``threshold`` ([ANTI], 24.03)."""
    return _wound_odds(pool.wound_modifier, threshold, pool.wound_crit_from, pool.reroll_wounds)


@lru_cache(maxsize=1024)
def _wound_odds(modifier: int, threshold: int, crit_from: int, reroll: Reroll) -> DieOdds:
    return die_odds(lambda f: wound_outcome(f, modifier, threshold, crit_from=crit_from), reroll)


@lru_cache(maxsize=1024)
def inflicts_table(ap: int, sv: int, insv: int | None) -> tuple[bool, ...]:
    """05.04 Check Save Roll for faces 1..6 against one group (True: inflicts damage)."""
    return tuple(save_inflicts_damage(f, ap, sv, insv) for f in FACES)


def fnp_pass(threshold: int | None) -> float:
    """24.12: the chance one Feel No Pain roll prevents the wound."""
    return sum(1 for f in FACES if fnp_prevents(f, threshold)) / 6.0


def hazard_fail_chance() -> float:
    """06.03: the chance one hazard roll fails."""
    return sum(1 for f in FACES if hazard_fails(f)) / 6.0


def dice_pmf(expr: DiceExpr) -> FloatArray:
    """The distribution of a dice expression as an array indexed by value."""
    dist = expr.distribution()
    out = np.zeros(max(dist) + 1)
    for v, p in dist.items():
        out[v] = float(p)
    return out


@lru_cache(maxsize=512)
def _loss_pmf_cached(count: int, sides: int, bonus: int, fnp: int | None) -> tuple[float, ...]:
    damage = dice_pmf(DiceExpr(count, sides, bonus))
    keep = 1.0 - fnp_pass(fnp)
    out = np.zeros(len(damage))
    for d, pd in enumerate(damage):
        if pd == 0.0:
            continue
        for lost in range(d + 1):
            out[lost] += pd * comb(d, lost) * keep**lost * (1.0 - keep) ** (d - lost)
    return tuple(float(x) for x in out)


def loss_pmf(damage: DiceExpr, fnp: int | None) -> FloatArray:
    """Wounds one damaging event would remove: D rolled (01.05), then one Feel No Pain roll per
    wound (24.12, R24.12-a). Index = wounds lost before the model's remaining wounds cap it.
    Read-only (shared)."""
    return _loss_array(damage.count, damage.sides, damage.bonus, fnp)


@lru_cache(maxsize=512)
def _loss_array(count: int, sides: int, bonus: int, fnp: int | None) -> FloatArray:
    out = np.array(_loss_pmf_cached(count, sides, bonus, fnp))
    out.flags.writeable = False
    return out


def binomial_matrix(kmax: int, p: float) -> FloatArray:
    """``B[k, m]`` = P(Binomial(k, p) = m) for 0 <= m <= k <= kmax. Read-only (shared)."""
    return _binomial_matrix(kmax, p)


@lru_cache(maxsize=2048)
def _binomial_matrix(kmax: int, p: float) -> FloatArray:
    k = np.arange(kmax + 1)[:, None]
    m = np.arange(kmax + 1)[None, :]
    ok = m <= k
    rest = np.where(ok, k - m, 0)
    coef = np.exp(_LOG_FACT[k] - _LOG_FACT[m] - _LOG_FACT[rest])
    powers = np.arange(kmax + 1, dtype=np.float64)
    out: FloatArray = np.where(ok, coef * (p**powers)[m] * ((1.0 - p) ** powers)[rest], 0.0)
    out.flags.writeable = False
    return out


def clear_stage_caches() -> None:
    """Forget the per-die tables cached here (pure functions of their arguments)."""
    for cached in (
        _hit_odds,
        _wound_odds,
        inflicts_table,
        _loss_pmf_cached,
        _loss_array,
        _binomial_matrix,
    ):
        cached.cache_clear()


def attack_outcomes(pool: PoolProfile, threshold: int, lethal_auto: bool) -> FloatArray:
    """The joint distribution ``J[n, c]`` produced by ONE attack die of ``pool``: ``n`` wounds
    needing a save and ``c`` [DEVASTATING WOUNDS] critical wounds.

    05.01 then 05.02: a critical hit scores [SUSTAINED HITS X] extra hits (24.36), which are not
    critical hits (R24.23-b); with [LETHAL HITS] taken automatically the critical hit itself
    wounds without a roll and that wound is never critical (24.23). A critical wound of a
    [DEVASTATING WOUNDS] weapon ends the sequence and causes mortal wounds (24.10)."""
    hit = hit_odds(pool)
    wound = wound_odds(pool, threshold)
    dev_crit = wound.critical if pool.devastating else 0.0
    normal = wound.success + (0.0 if pool.devastating else wound.critical)
    one_roll = np.array([[wound.fail, dev_crit], [normal, 0.0]])
    size = 2 + pool.sustained
    out = np.zeros((size + 1, size + 1))

    def rolls(k: int, base_n: int) -> FloatArray:
        acc = np.zeros((size + 1, size + 1))
        acc[base_n, 0] = 1.0
        for _ in range(k):
            acc = convolve2(acc, one_roll)[: size + 1, : size + 1]
        return acc

    out[0, 0] += hit.fail
    out += hit.success * rolls(1, 0)
    lethal = pool.lethal and lethal_auto and not pool.torrent
    if lethal:
        out += hit.critical * rolls(pool.sustained, 1)
    else:
        out += hit.critical * rolls(1 + pool.sustained, 0)
    return trim(out)


def trim(a: FloatArray) -> FloatArray:
    """``a`` without trailing all-zero rows and columns (keeps at least 1x1)."""
    rows = np.nonzero(a.any(axis=1))[0]
    cols = np.nonzero(a.any(axis=0))[0]
    r = int(rows[-1]) + 1 if len(rows) else 1
    c = int(cols[-1]) + 1 if len(cols) else 1
    return a[:r, :c].copy()


def convolve2(a: FloatArray, b: FloatArray) -> FloatArray:
    """The distribution of the sum of two independent 2-D count vectors."""
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    rows, cols = np.nonzero(b)
    for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
        out[i : i + a.shape[0], j : j + a.shape[1]] += b[i, j] * a
    return out


def attack_count_pmf(gathered: Gathered) -> FloatArray:
    """The number of attack dice of a pool: A per weapon (rolled per weapon when random,
    02.04) summed over the weapons gathered."""
    out = np.zeros(sum(a.bonus * n for a, n in gathered if not a.is_random) + 1)
    out[-1] = 1.0
    for attacks, n in gathered:
        if attacks.is_random:
            one = dice_pmf(attacks)
            for _ in range(n):
                out = np.convolve(out, one)
    return out


def trinomial(nmax: int, pa: float, pb: float, counts: FloatArray) -> FloatArray:
    """``T[a, b]`` = P(a results of kind A and b of kind B) in n independent trials, each A
    with chance ``pa``, B with ``pb`` (neither otherwise), n drawn from the pmf ``counts``."""
    if nmax >= len(_LOG_FACT):
        raise ValueError(f"more than {len(_LOG_FACT) - 1} dice in one step")
    pc = max(0.0, 1.0 - pa - pb)
    a = np.arange(nmax + 1)
    lf = _LOG_FACT
    powers = a.astype(np.float64)
    pow_a = pa**powers
    pow_b = pb**powers
    pow_c = pc**powers
    aa = a[:, None]
    bb = a[None, :]
    mix = np.zeros((nmax + 1, nmax + 1))
    for n, p in enumerate(counts):
        if p == 0.0:
            continue
        rest = n - aa - bb
        ok = rest >= 0
        rr = np.where(ok, rest, 0)
        coef = np.exp(lf[n] - lf[aa] - lf[bb] - lf[rr])
        mix += np.where(ok, p * coef * pow_a[aa] * pow_b[bb] * pow_c[rr], 0.0)
    return mix


def pool_outcomes(
    pool: PoolProfile, gathered: Gathered, threshold: int, lethal_auto: bool
) -> FloatArray:
    """The joint distribution ``J[n, c]`` of wounds needing saves and devastating critical
    wounds of a whole pool (05: each step's dice are rolled together; the dice are
    independent, so the counts are multinomial).

    Attack dice: A per weapon (rolled per weapon when random, 02.04) summed over the weapons.
    Hit rolls give (s hits, k critical hits); a critical hit scores [SUSTAINED HITS X] extra
    hits (24.36), and with [LETHAL HITS] taken automatically it wounds without a roll (24.23),
    so there are ``s + (1 + X) k`` wound rolls (or ``s + X k`` and ``k`` automatic wounds, never
    critical). Wound rolls give normal wounds and critical wounds; a [DEVASTATING WOUNDS]
    critical wound needs no save and causes mortal wounds instead (24.10)."""
    hit = hit_odds(pool)
    wound = wound_odds(pool, threshold)
    counts = attack_count_pmf(gathered)
    nmax = len(counts) - 1
    psk = trinomial(nmax, hit.success, hit.critical, counts)  # [s, k]
    lethal = pool.lethal and lethal_auto and not pool.torrent
    per_crit = pool.sustained + (0 if lethal else 1)
    rmax = nmax * max(1, per_crit)
    dev = wound.critical if pool.devastating else 0.0
    normal = wound.success + (0.0 if pool.devastating else wound.critical)
    s_idx = np.arange(nmax + 1)[:, None]
    k_idx = np.arange(nmax + 1)[None, :]
    rolls = np.broadcast_to(s_idx + per_crit * k_idx, psk.shape)
    autos = nmax if lethal else 0
    # Successful wound rolls ~ Binomial(rolls, normal + dev); each is devastating with
    # chance dev / (normal + dev).
    succ = binomial_matrix(rmax, normal + dev)
    split = binomial_matrix(rmax, dev / (normal + dev) if dev > 0.0 else 0.0)
    w_idx = np.arange(rmax + 1)[:, None]
    j_idx = np.arange(rmax + 1)[None, :]
    ok = j_idx <= w_idx
    out = np.zeros((rmax + autos + 1, rmax + 1))
    for k in range(autos + 1):
        col = psk[:, k] if lethal else psk.ravel()
        r = rolls[:, k] if lethal else rolls.ravel()
        pr = np.bincount(r, weights=col, minlength=rmax + 1)[: rmax + 1]
        pw = pr @ succ  # [w] successful wound rolls
        joint = pw[:, None] * split  # [w, j]: j devastating among w
        normal_idx = np.where(ok, w_idx - j_idx, 0)
        np.add.at(out, (k + normal_idx[ok], np.broadcast_to(j_idx, ok.shape)[ok]), joint[ok])
    return trim(out)
