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
IntArray = npt.NDArray[np.int64]
"""An int64 array."""

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
    if expr.bonus >= 0 and expr.sides > 0:
        # Faces 1..sides equally likely (a D3 is a halved D6: 1/3 each, 01.05), summed by
        # convolution and shifted by the bonus (as DiceExpr.distribution, in floats).
        one = np.zeros(expr.sides + 1)
        one[1:] = 1.0 / expr.sides
        out = np.zeros(expr.bonus + 1)
        out[expr.bonus] = 1.0
        for _ in range(expr.count):
            out = np.convolve(out, one)
        return out
    dist = expr.distribution()
    out = np.zeros(max(dist) + 1)
    for v, p in dist.items():
        out[v] = float(p)
    return out


@lru_cache(maxsize=512)
def _loss_pmf_cached(count: int, sides: int, bonus: int, fnp: int | None) -> tuple[float, ...]:
    keep = 1.0 - fnp_pass(fnp)
    if count == 0 and keep == 1.0:
        # Fixed damage and no Feel No Pain: the event removes exactly D wounds.
        return (0.0,) * bonus + (1.0,)
    damage = dice_pmf(DiceExpr(count, sides, bonus))
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
    _, m, rest = _grid(kmax)
    powers = np.arange(kmax + 1, dtype=np.float64)
    out: FloatArray = _comb(kmax) * (p**powers)[m] * ((1.0 - p) ** powers)[rest]
    out.flags.writeable = False
    return out


_COMB_TABLE = 128
"""Binomial coefficients up to this n are kept in one constant table (built on first use)."""


@lru_cache(maxsize=1)
def _comb_table() -> FloatArray:
    # A constant of the process (like _LOG_FACT), not a per-question table: never cleared.
    k = np.arange(_COMB_TABLE + 1)[:, None]
    m = np.arange(_COMB_TABLE + 1)[None, :]
    ok = m <= k
    rest = np.where(ok, k - m, 0)
    out: FloatArray = np.where(ok, np.exp(_LOG_FACT[k] - _LOG_FACT[m] - _LOG_FACT[rest]), 0.0)
    out.flags.writeable = False
    return out


def _comb(kmax: int) -> FloatArray:
    """``C[k, m]`` = binomial(k, m) as a float (0 for m > k), for 0 <= k, m <= kmax."""
    if kmax <= _COMB_TABLE:
        return _comb_table()[: kmax + 1, : kmax + 1]
    k, m, rest = _grid(kmax)
    out: FloatArray = np.where(m <= k, np.exp(_LOG_FACT[k] - _LOG_FACT[m] - _LOG_FACT[rest]), 0.0)
    return out


@lru_cache(maxsize=256)
def _grid(kmax: int) -> tuple[IntArray, IntArray, IntArray]:
    """Index grids ``k`` (column), ``m`` (row) and ``max(k - m, 0)`` up to kmax. Read-only."""
    k = np.arange(kmax + 1)[:, None]
    m = np.arange(kmax + 1)[None, :]
    rest = np.maximum(k - m, 0)
    for a in (k, m, rest):
        a.flags.writeable = False
    return k, m, rest


def clear_stage_caches() -> None:
    """Forget the per-die tables cached here (pure functions of their arguments)."""
    for cached in (
        _hit_odds,
        _wound_odds,
        inflicts_table,
        _loss_pmf_cached,
        _loss_array,
        _binomial_matrix,
        _grid,
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
    lethal = pool.lethal and lethal_auto and not pool.torrent
    per_crit = pool.sustained + (0 if lethal else 1)
    dev = wound.critical if pool.devastating else 0.0
    normal = wound.success + (0.0 if pool.devastating else wound.critical)
    if not lethal:
        # Each attack die makes 0 (miss), 1 (hit) or 1 + X (critical hit) wound rolls, and
        # each wound roll succeeds with chance normal + dev, independently: one die's
        # successes have the pmf die @ Binomial, and the pool's are its n-fold sum (polynomial
        # powers by convolution) mixed over the number of dice.
        die = np.zeros(per_crit + 1)
        die[0] = hit.fail
        die[1] += hit.success
        die[per_crit] += hit.critical
        succ = die @ binomial_matrix(per_crit, normal + dev)
        return _split_successes(_mix_powers(succ, counts), normal, dev)
    rmax = nmax * max(1, per_crit)
    psk = trinomial(nmax, hit.success, hit.critical, counts)  # [s, k]
    s_idx = np.arange(nmax + 1)[:, None]
    k_idx = np.arange(nmax + 1)[None, :]
    rolls = np.broadcast_to(s_idx + per_crit * k_idx, psk.shape)
    succ = binomial_matrix(rmax, normal + dev)
    out = np.zeros((rmax + nmax + 1, rmax + 1))
    for k in range(nmax + 1):
        # 24.23: k critical hits wound automatically (never critical wounds).
        pr = np.bincount(rolls[:, k], weights=psk[:, k], minlength=rmax + 1)[: rmax + 1]
        part = _split_successes(pr @ succ, normal, dev)
        out[k : k + part.shape[0], : part.shape[1]] += part
    return trim(out)


def _mix_powers(die: FloatArray, counts: FloatArray) -> FloatArray:
    """The pmf of the sum of ``n`` independent copies of ``die``, ``n`` drawn from ``counts``."""
    nmax = len(counts) - 1
    if counts[nmax] == 1.0:
        # A fixed number of dice: die^n by repeated squaring.
        out = np.ones(1)
        power = die
        n = nmax
        while n:
            if n & 1:
                out = np.convolve(out, power)
            n >>= 1
            if n:
                power = np.convolve(power, power)
        return out
    acc = np.zeros(nmax * (len(die) - 1) + 1)
    cur = np.ones(1)
    for n, pn in enumerate(counts.tolist()):
        if pn:
            acc[: len(cur)] += pn * cur
        if n < nmax:
            cur = np.convolve(cur, die)
    return acc


def _split_successes(successes: FloatArray, normal: float, dev: float) -> FloatArray:
    """``J[n, c]`` from the pmf of the number of successful wound rolls: each success is,
    independently, a [DEVASTATING WOUNDS] critical wound with chance r = dev / (normal + dev)
    (24.10), else a normal wound: J[n, c] = P(n + c successes) C(n + c, c) r^c (1 - r)^n."""
    if dev == 0.0:
        return trim(successes[:, None])
    nz = np.flatnonzero(successes)
    wmax = int(nz[-1]) if len(nz) else 0
    r = dev / (normal + dev)
    n_idx, c_idx, _ = _grid(wmax)
    total = n_idx + c_idx
    padded = np.zeros(2 * wmax + 1)
    padded[: wmax + 1] = successes[: wmax + 1]
    powers = np.arange(wmax + 1, dtype=np.float64)
    out: FloatArray = (
        padded[total]
        * _comb(2 * wmax)[total, c_idx]
        * ((1.0 - r) ** powers)[:, None]
        * (r**powers)[None, :]
    )
    return trim(out) if normal == 0.0 else out
