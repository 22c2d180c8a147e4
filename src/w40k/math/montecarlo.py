"""Vectorised Monte Carlo of one unit's attacks on one target unit (numpy, seeded).

Trials run side by side in numpy arrays, in chunks. With ``fast=True`` (the default) one of two
table-driven walks runs (docs/math.md, "Simulation"):

- the chain walk (:func:`_chain_walk`) when the target's living models are alike: a trial's
  state is its position on one damage chain (:func:`~w40k.math.exact.alike_chain`);
- otherwise the state walk (:func:`~w40k.math.mc_states.state_walk`): a trial's state indexes a
  table of unit states, and each pool walks it along its start state's allocation chain.

The per-model path below (``fast=False``, or past the state walk's limit) draws the counts of
each stage from their exact per-die laws (hit and wound odds from :mod:`w40k.math.stages`, i.e.
from the rule primitives with re-rolls): hits and critical hits, wound rolls, wounds and
critical wounds. Save dice are drawn as counts per face block (faces judged alike by every
model, from :func:`~w40k.rules.primitives.save_inflicts_damage`) and resolved lowest first, one
save at a time, against each trial's current allocation group, recreated per pool from the
trial's own state (05.03-h). Damage is rolled per damaging attack, Feel No Pain per wound,
excess lost. [DEVASTATING WOUNDS] mortal wounds follow 06.02, one model per critical wound,
after the normal damage of the pool. Hazard rolls come after all pools, along the attacker's
06.02 chain. The agreement tests run this path on every other seed, as an independent check of
the walks (which share ``pool_outcomes`` and the chains with the exact computation).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from w40k.core.dice import DiceExpr
from w40k.math.chain import Chain, allocation_chain, mortal_chain
from w40k.math.distributions import AttackDistribution, Dist, GroupResult
from w40k.math.exact import alike, alike_chain
from w40k.math.mc_states import state_walk
from w40k.math.sampling import IntArray, binom_table
from w40k.math.sampling import binom as _binom
from w40k.math.sampling import roll as _roll
from w40k.math.setup import AttackSetup
from w40k.math.stages import (
    FACES,
    FloatArray,
    fnp_pass,
    hazard_fail_chance,
    hit_odds,
    inflicts_table,
    wound_odds,
)
from w40k.rules.attack_profile import PoolProfile
from w40k.rules.primitives import (
    ModelState,
    attack_toughness,
    hazard_mortal_wounds,
    make_groups,
    wound_threshold,
)

BoolArray = npt.NDArray[np.bool_]
"""A bool array."""

CHUNK = 1 << 18
"""Trials per vectorised chunk (bounds memory)."""


@dataclass(frozen=True, slots=True)
class _Unit:
    """Static per-model arrays of a unit."""

    W: IntArray
    T: IntArray
    Sv: IntArray
    InSv: tuple[int | None, ...]
    keep: FloatArray
    """P(a wound is lost) after Feel No Pain, per model."""
    character: BoolArray
    leader: BoolArray
    visible: BoolArray
    group: IntArray
    """Static group id: one per CHARACTER model, one per (W, Sv, InSv) among the others."""
    groups: int

    @staticmethod
    def of(models: Sequence[ModelState]) -> _Unit:
        ids: dict[tuple[object, ...], int] = {}
        gid: list[int] = []
        for i, m in enumerate(models):
            key: tuple[object, ...] = ("C", i) if m.is_character else (m.W, m.Sv, m.InSv)
            gid.append(ids.setdefault(key, len(ids)))
        return _Unit(
            W=np.array([m.W for m in models], dtype=np.int64),
            T=np.array([m.T for m in models], dtype=np.int64),
            Sv=np.array([m.Sv for m in models], dtype=np.int64),
            InSv=tuple(m.InSv for m in models),
            keep=np.array([1.0 - fnp_pass(m.fnp) for m in models]),
            character=np.array([m.is_character for m in models], dtype=np.bool_),
            leader=np.array([m.leader for m in models], dtype=np.bool_),
            visible=np.array([m.visible for m in models], dtype=np.bool_),
            group=np.array(gid, dtype=np.int64),
            groups=len(ids),
        )


def _argmin(key: IntArray) -> IntArray:
    out: IntArray = np.argmin(key, axis=1).astype(np.int64)
    return out


@dataclass(frozen=True, slots=True)
class _FastChain:
    """The first pool's damage chain in damaging attacks, for fixed damage without Feel No
    Pain: position h = damaging attacks taken so far (each model needs ceil(r / D))."""

    models: IntArray
    """Model indices in damage order."""
    start: IntArray
    """Their remaining wounds at the start."""
    need: IntArray
    """Damaging attacks to destroy each."""
    cum: IntArray
    """Cumulative ``need`` (len + 1)."""
    damage: int
    waste: FloatArray
    """Wasted damage by position (R05.04-f)."""

    @staticmethod
    def of(setup: AttackSetup, pool: PoolProfile) -> _FastChain:
        chain = allocation_chain(setup.target, setup.start, pool.precision)
        d = pool.damage.bonus
        start = np.array(chain.start, dtype=np.int64)
        need = -(-start // d)
        cum = np.concatenate([[0], np.cumsum(need)]).astype(np.int64)
        over = (need * d - start).astype(np.float64)
        killed = np.arange(int(cum[-1]) + 1)[:, None] >= cum[None, 1:]
        return _FastChain(np.array(chain.order, dtype=np.int64), start, need, cum, d, killed @ over)

    def stops(self, inflicts: BoolArray) -> IntArray:
        """stop[h]: the first position >= h whose model takes no damage from this block."""
        total = int(self.cum[-1])
        entry = np.repeat(np.arange(len(self.need)), self.need)
        ok = np.append(inflicts[self.models][entry], False)
        bad = np.nonzero(~ok)[0]
        out: IntArray = bad[np.searchsorted(bad, np.arange(total + 1))]
        return out

    def remaining(self, base: IntArray, pos: IntArray) -> IntArray:
        """Remaining wounds per trial and model at chain positions ``pos``."""
        rem = np.tile(base, (len(pos), 1))
        dealt = np.clip(pos[:, None] - self.cum[None, :-1], 0, self.need[None, :]) * self.damage
        rem[:, self.models] = np.maximum(self.start[None, :] - dealt, 0)
        return rem

    def position_table(self, base: IntArray) -> IntArray:
        """Remaining wounds per model at every position (rows)."""
        return self.remaining(base, np.arange(int(self.cum[-1]) + 1))


class _Chunk:
    """One chunk of trials."""

    def __init__(self, setup: AttackSetup, rng: np.random.Generator, n: int, fast: bool) -> None:
        self.s = setup
        self.rng = rng
        self.n = n
        self.fast = fast
        self.unit = _Unit.of(setup.target)
        self.start = np.array(setup.start, dtype=np.int64)
        self._rem: IntArray | None = None
        """Remaining wounds per trial and model; None while every trial is at the start or
        on the first pool's damage chain (``chain_pos``)."""
        self.chain: _FastChain | None = None
        self.chain_pos: IntArray | None = None
        self.waste = np.zeros(n)
        self.rows = np.arange(n)

    @property
    def rem(self) -> IntArray:
        """Remaining wounds per trial and model (materialised on first use)."""
        if self._rem is None:
            if self.chain is not None and self.chain_pos is not None:
                self._rem = self.chain.remaining(self.start, self.chain_pos)
            else:
                self._rem = np.tile(self.start, (self.n, 1))
        return self._rem

    @property
    def fresh(self) -> bool:
        """Every trial is still at the start state."""
        return self._rem is None and self.chain_pos is None

    # -- selection ---------------------------------------------------------------------------
    def _current(self, base: IntArray) -> IntArray:
        """05.04 Select Model: argmin of (group rank, wounded first, index) over living."""
        m = self.rem.shape[1]
        wounded = (self.rem > 0) & (self.rem < self.unit.W)
        key = base + np.where(wounded, 0, m) + np.where(self.rem > 0, 0, 1 << 40)
        return _argmin(key)

    def _order_base(self, precision: bool) -> IntArray:
        """05.03: groups and default order recreated from each trial's state; [PRECISION]."""
        u = self.unit
        m = self.rem.shape[1]
        alive = self.rem > 0
        wounded = alive & (self.rem < u.W)
        grank = np.full((self.n, u.groups), 1 << 30, dtype=np.int64)
        firsts = np.full((self.n, u.groups), m, dtype=np.int64)
        idx = np.arange(m)
        for g in range(u.groups):
            cols = np.nonzero(u.group == g)[0]
            a = alive[:, cols]
            has = a.any(axis=1)
            first = np.where(a, idx[cols][None, :], m).min(axis=1)
            hurt = wounded[:, cols].any(axis=1)
            char = bool(u.character[cols[0]])
            rank = (2 if char else 0) + np.where(hurt, 0, 1)
            grank[:, g] = np.where(has, rank * m + first, 1 << 30)
            firsts[:, g] = first
        if precision:
            char_groups = [
                g for g in range(u.groups) if bool(u.character[np.nonzero(u.group == g)[0][0]])
            ]
            if char_groups:
                vis = np.full((self.n, u.groups), False)
                for g in char_groups:
                    cols = np.nonzero(u.group == g)[0]
                    vis[:, g] = (alive[:, cols] & u.visible[cols][None, :]).any(axis=1)
                # The first CHARACTER group in 05.03 Create Groups order (by first living
                # model) with a visible model: the per-die engine's default.
                cand = np.where(vis, firsts, 1 << 31)
                best = np.argmin(cand, axis=1)
                ok = vis[self.rows, best]
                grank[self.rows[ok], best[ok]] = -1
        out: IntArray = grank[:, u.group] * (2 * m) + idx[None, :]
        return out

    def _mortal_current(self) -> IntArray:
        """06.02 Select Model: wounded non-CHARACTER, any non-CHARACTER, wounded CHARACTER,
        any CHARACTER (first listed)."""
        u = self.unit
        m = self.rem.shape[1]
        alive = self.rem > 0
        wounded = alive & (self.rem < u.W)
        tier = u.character[None, :].astype(np.int64) * 2 + np.where(wounded, 0, 1)
        key = tier * m + np.arange(m)[None, :] + np.where(alive, 0, 1 << 40)
        return _argmin(key)

    def _damage(self, rows: IntArray, model: IntArray, damage: DiceExpr) -> None:
        """05.04 Resolve Damage: roll D, Feel No Pain per wound (24.12), excess lost."""
        d = _roll(self.rng, damage, len(rows))
        lost = _binom(self.rng, d, self.unit.keep[model])
        r = self.rem[rows, model]
        self.rem[rows, model] = np.maximum(r - lost, 0)
        self.waste[rows] += np.maximum(lost - r, 0)

    # -- stages ------------------------------------------------------------------------------
    def _toughness(self) -> IntArray:
        """19.02: highest T of living bodyguard models, else of living leader models."""
        u = self.unit
        if self.fresh:
            alive0 = self.start > 0
            bg0 = u.T[alive0 & ~u.leader]
            t0 = int(bg0.max()) if len(bg0) else int(u.T[alive0 & u.leader].max())
            return np.full(self.n, t0, dtype=np.int64)
        alive = self.rem > 0
        bg = np.where(alive & ~u.leader, u.T, -1).max(axis=1)
        ld = np.where(alive & u.leader, u.T, -1).max(axis=1)
        out: IntArray = np.where(bg >= 0, bg, ld)
        return out

    def _attacks(self, k: int) -> IntArray:
        """04.03 Gather Attack Dice: A per weapon (a random A rolled per weapon, 02.04)."""
        total = np.zeros(self.n, dtype=np.int64)
        for attacks, count in self.s.gathered[k]:
            total += _roll(self.rng, attacks, self.n, count)
        return total

    def _wounds(self, k: int, pool: PoolProfile) -> tuple[IntArray, IntArray]:
        """Hit and wound rolls: (wounds needing saves, devastating critical wounds)."""
        rng = self.rng
        n = self.n
        attacks = self._attacks(k)
        hit = hit_odds(pool)
        crit = _binom(rng, attacks, hit.critical)
        rest = attacks - crit
        succ = _binom(rng, rest, hit.success / max(1e-300, 1.0 - hit.critical))
        lethal = pool.lethal and self.s.lethal_auto and not pool.torrent
        auto = crit if lethal else np.zeros(n, dtype=np.int64)
        rolls = succ + crit * (pool.sustained + (0 if lethal else 1))
        tough = self._toughness()
        pc = np.zeros(n)
        ps = np.zeros(n)
        for t in np.unique(tough):
            odds = wound_odds(pool, wound_threshold(pool.strength, int(t)))
            sel = tough == t
            pc[sel] = odds.critical
            ps[sel] = odds.success / max(1e-300, 1.0 - odds.critical)
        wc = _binom(rng, rolls, pc)
        ws = _binom(rng, rolls - wc, ps)
        if pool.devastating:
            return ws + auto, wc
        return ws + wc + auto, np.zeros(n, dtype=np.int64)

    def _blocks(self, pool: PoolProfile) -> list[tuple[int, int, BoolArray]]:
        """Consecutive save faces every model judges alike: (lowest, highest, inflicts)."""
        u = self.unit
        tables = [inflicts_table(pool.ap, int(u.Sv[i]), u.InSv[i]) for i in range(len(u.InSv))]
        cols = [np.array([t[f - 1] for t in tables], dtype=np.bool_) for f in FACES]
        blocks: list[tuple[int, int, BoolArray]] = []
        for f in FACES:
            if blocks and np.array_equal(blocks[-1][2], cols[f - 1]):
                blocks[-1] = (blocks[-1][0], f, blocks[-1][2])
            else:
                blocks.append((f, f, cols[f - 1]))
        return blocks

    def pool(self, k: int, pool: PoolProfile) -> None:
        """Resolve one pool for every trial."""
        blocks = self._blocks(pool)
        active = [i for i, b in enumerate(blocks) if b[2].any()]
        fixed = not pool.damage.is_random and not np.any(self.unit.keep < 1.0)
        fast = self.fast and self.fresh and fixed and pool.damage.bonus > 0
        simple = not pool.sustained and not pool.lethal and not pool.devastating
        if fast and simple and active == [0]:
            # Independent attacks, one save block that every model fails alike: the number
            # of damaging saves is Binomial(attacks, P(hit) P(wound) P(save in block)).
            hit = hit_odds(pool)
            wound = wound_odds(pool, self._threshold(pool))
            lo, hi, _ = blocks[0]
            p = (hit.success + hit.critical) * (wound.success + wound.critical) * hi / 6.0
            attacks = self._attacks(k)
            self._fast_saves(pool, blocks[:1], [_binom(self.rng, attacks, p)])
            return
        normal, dev = self._wounds(k, pool)
        counts: list[IntArray] = []
        left = normal
        for lo, hi, _ in blocks[: (active[-1] + 1) if active else 0]:
            # 05.04 lowest first: among k saves all >= lo, Binomial(k, |block| / (7 - lo)).
            c = _binom(self.rng, left, (hi - lo + 1) / (7 - lo))
            counts.append(c)
            left = left - c
        if fast:
            self._fast_saves(pool, blocks[: len(counts)], counts)
        else:
            self._saves(pool, blocks[: len(counts)], counts)
        if dev.any():
            self._mortals(pool, dev)

    def _threshold(self, pool: PoolProfile) -> int:
        """05.02 for a fresh chunk (19.02 Toughness from the start state)."""
        return wound_threshold(pool.strength, int(self._toughness()[0]))

    def _saves(
        self, pool: PoolProfile, blocks: list[tuple[int, int, BoolArray]], counts: list[IntArray]
    ) -> None:
        base = self._order_base(pool.precision)
        for (_, _, inflicts), c in zip(blocks, counts, strict=True):
            if not inflicts.any():
                continue
            going = c > 0
            for i in range(int(c.max(initial=0))):
                going &= (i < c) & (self.rem > 0).any(axis=1)
                if not going.any():
                    break
                cur = self._current(base)
                # 05.04 Check Save Roll against the current group; a failing save leaves the
                # state unchanged, so the rest of this block fails too.
                going &= inflicts[cur]
                rows = np.nonzero(going)[0]
                self._damage(rows, cur[rows], pool.damage)

    def _fast_saves(
        self, pool: PoolProfile, blocks: list[tuple[int, int, BoolArray]], counts: list[IntArray]
    ) -> None:
        chain = _FastChain.of(self.s, pool)
        pos = np.zeros(self.n, dtype=np.int64)
        for (_, _, inflicts), c in zip(blocks, counts, strict=True):
            stop = chain.stops(inflicts)
            pos = np.minimum(pos + c, stop[pos])
        self.chain = chain
        self.chain_pos = pos
        self.waste += chain.waste[pos]

    def _mortals(self, pool: PoolProfile, dev: IntArray) -> None:
        """24.10 after the normal damage (R06.02-e): each critical wound's D mortal wounds go
        to one model chosen by 06.02; the rest of that critical wound's are lost."""
        for i in range(int(dev.max(initial=0))):
            going = (i < dev) & (self.rem > 0).any(axis=1)
            if not going.any():
                break
            rows = np.nonzero(going)[0]
            cur = self._mortal_current()[rows]
            self._damage(rows, cur, pool.damage)


def _hazard(setup: AttackSetup, rng: np.random.Generator, n: int) -> tuple[IntArray, IntArray]:
    """24.15/06.03 after all attacks: attacker wounds lost and models destroyed per trial.

    Each failed roll is 1 mortal wound (3 if every model is MONSTER/VEHICLE), each 1 wound
    with its own Feel No Pain roll, carried from model to model (R06.02-b) along the 06.02
    order (:func:`~w40k.math.chain.mortal_chain`): a trial's state is its position on it."""
    rolls = setup.hazard_rolls
    start = setup.attacker_start
    if rolls == 0 or not any(start):
        return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    per_fail = hazard_mortal_wounds(setup.attacker)
    mw = binom_table(rng, np.full(n, rolls, dtype=np.int64), hazard_fail_chance()) * per_fail
    chain = mortal_chain(setup.attacker, start)
    entries = chain.entries()
    # The chance a mortal wound is lost by the model at each position (0 at the end).
    keep = np.array(
        [1.0 - fnp_pass(setup.attacker[chain.order[j]].fnp) for j, _ in entries] + [0.0]
    )
    end = chain.size - 1
    if bool((keep[:end] == 1.0).all()):
        pos = np.minimum(mw, end)  # no Feel No Pain: every mortal wound is lost
    elif bool((keep[:end] == keep[0]).all()):
        pos = np.minimum(binom_table(rng, mw, float(keep[0])), end)
    else:
        pos = np.zeros(n, dtype=np.int64)
        rows = np.nonzero(mw > 0)[0]
        i = 0
        while len(rows):
            at = pos[rows]
            at = at + (rng.random(len(rows)) < keep[at])
            pos[rows] = at
            i += 1
            rows = rows[(mw[rows] > i) & (at < end)]
    dead = np.searchsorted(np.cumsum(chain.start), np.arange(chain.size), side="right")
    return pos, dead[pos]


def _chain_walk(
    setup: AttackSetup, rng: np.random.Generator, n: int
) -> tuple[Chain, IntArray, FloatArray] | None:
    """Fast path for a target whose living models are alike (one allocation group, one save
    profile, one Toughness, one Feel No Pain): every trial's state is a position on one
    damage chain (:func:`~w40k.math.exact.alike_chain`), the damaging saves of a pool are
    Binomial(wounds, P(save fails)), and each damaging save and each devastating critical
    wound is one event on that chain: D rolled, Feel No Pain per wound, at most the current
    model's remaining wounds lost, the excess wasted (R05.04-f, R24.10-b). Returns the chain,
    the final positions and the damage wasted per trial; None where it does not apply."""
    models = setup.target
    start = setup.start
    alive = [i for i, r in enumerate(start) if r > 0]
    if not alive or not alike(models, alive) or len(make_groups(models)) != 1:
        return None
    chain = alike_chain(models, start)
    # Remaining wounds of the current model at each position (0 at the last: all destroyed).
    left = np.array([r for _, r in chain.entries()] + [0], dtype=np.int64)
    m0 = models[alive[0]]
    keep = 1.0 - fnp_pass(m0.fnp)
    threshold_t = attack_toughness(models)
    pos = np.zeros(n, dtype=np.int64)
    waste = np.zeros(n)
    for k, pool in enumerate(setup.pools):
        attacks = np.zeros(n, dtype=np.int64)
        for a, count in setup.gathered[k]:
            attacks += _roll(rng, a, n, count)
        hit = hit_odds(pool)
        odds = wound_odds(pool, wound_threshold(pool.strength, threshold_t))
        # 05.04: every position judges a save alike (one profile), so the order of the saves
        # does not matter: each wound is a damaging save with chance P(save fails).
        fails = sum(inflicts_table(pool.ap, m0.Sv, m0.InSv)) / 6.0
        if not (pool.sustained or pool.devastating or (pool.lethal and setup.lethal_auto)):
            # Independent attack dice, each ending in a damaging save with one chance.
            p = (hit.success + hit.critical) * (odds.success + odds.critical) * fails
            events = binom_table(rng, attacks, p)
            pos, waste = _walk(rng, pool.damage, keep, left, events, pos, waste)
            continue
        crit = binom_table(rng, attacks, hit.critical)
        succ = binom_table(rng, attacks - crit, hit.success / max(1e-300, 1.0 - hit.critical))
        lethal = pool.lethal and setup.lethal_auto and not pool.torrent
        rolls = succ + crit * (pool.sustained + (0 if lethal else 1))
        wc = binom_table(rng, rolls, odds.critical)
        ws = binom_table(rng, rolls - wc, odds.success / max(1e-300, 1.0 - odds.critical))
        auto = crit if lethal else 0
        normal, dev = (ws + auto, wc) if pool.devastating else (ws + wc + auto, 0)
        events = binom_table(rng, normal, fails) + dev
        pos, waste = _walk(rng, pool.damage, keep, left, events, pos, waste)
    return chain, pos, waste


def _walk(
    rng: np.random.Generator,
    damage: DiceExpr,
    keep: float,
    left: IntArray,
    events: IntArray,
    pos: IntArray,
    waste: FloatArray,
) -> tuple[IntArray, FloatArray]:
    """``events`` damaging events per trial along the chain from ``pos``: D rolled, Feel No
    Pain per wound (kept with chance ``keep``), at most ``left[pos]`` wounds lost (R05.04-f),
    nothing once every model is destroyed (R05.04-g)."""
    size = len(left)
    if not damage.is_random and keep == 1.0 and damage.bonus > 0:
        # Each event removes exactly D (capped): positions and waste after e events from
        # each position are tables; every event moves on, so size - 1 events reach the end.
        after = np.empty((size, size), dtype=np.int64)
        lost = np.zeros((size, size))
        after[:, 0] = np.arange(size)
        for e in range(1, size):
            prev = after[:, e - 1]
            r = left[prev]
            after[:, e] = prev + np.minimum(damage.bonus, r)
            lost[:, e] = lost[:, e - 1] + np.where(r > 0, np.maximum(damage.bonus - r, 0), 0)
        e_cap = np.minimum(events, size - 1)
        return after[pos, e_cap], waste + lost[pos, e_cap]
    rows = np.nonzero((events > 0) & (pos < size - 1))[0]
    e = 0
    while len(rows):
        if damage.is_random:
            d = _roll(rng, damage, len(rows))
            wounds = d if keep == 1.0 else binom_table(rng, d, keep)
        elif keep == 1.0:
            wounds = np.full(len(rows), damage.bonus, dtype=np.int64)
        else:
            wounds = binom_table(rng, np.full(len(rows), damage.bonus, dtype=np.int64), keep)
        at = pos[rows]
        r = left[at]
        at = at + np.minimum(wounds, r)
        pos[rows] = at
        waste[rows] += np.maximum(wounds - r, 0)
        e += 1
        rows = rows[(events[rows] > e) & (at < size - 1)]
    return pos, waste


def simulate(
    setup: AttackSetup, trials: int = 100_000, seed: int | None = 0, *, fast: bool = True
) -> AttackDistribution:
    """Monte Carlo estimate of the attack's distributions (standard errors included)."""
    if trials < 1:
        raise ValueError("trials must be positive")
    rng = np.random.default_rng(seed)
    start = setup.start
    groups = make_groups(setup.target)
    m_alive = sum(1 for r in start if r > 0)
    killed_h = np.zeros(len(start) + 1)
    wounds_h = np.zeros(sum(start) + 1)
    group_h = [np.zeros(len(g.members) + 1) for g in groups]
    akill_h = np.zeros(len(setup.attacker) + 1)
    awound_h = np.zeros(sum(setup.attacker_start) + 1)
    waste_sum = 0.0
    waste_sq = 0.0
    done = 0

    def _tally(start_arr: IntArray, rem: IntArray, weights: IntArray) -> None:
        """Add the states ``rem`` (rows), each seen ``weights`` times, to the histograms."""
        dead = (start_arr[None, :] > 0) & (rem == 0)
        killed_h[:] += np.bincount(dead.sum(axis=1), weights, minlength=len(killed_h))
        wl = start_arr.sum() - rem.sum(axis=1)
        wounds_h[:] += np.bincount(wl, weights, minlength=len(wounds_h))
        for gi, g in enumerate(groups):
            cnt = dead[:, list(g.members)].sum(axis=1)
            group_h[gi][:] += np.bincount(cnt, weights, minlength=len(group_h[gi]))

    while done < trials:
        n = min(CHUNK, trials - done)
        walked = _chain_walk(setup, rng, n) if fast else None
        if walked is not None:
            chain, pos, waste = walked
            start_arr = np.array(start, dtype=np.int64)
            weights = np.bincount(pos, minlength=chain.size)
            rem = np.array(chain.vectors(), dtype=np.int64)
            _tally(start_arr, rem, weights)
            waste_sum += float(waste.sum())
            waste_sq += float((waste**2).sum())
            aw, ak = _hazard(setup, rng, n)
            awound_h += np.bincount(aw, minlength=len(awound_h))
            akill_h += np.bincount(ak, minlength=len(akill_h))
            done += n
            continue
        table = state_walk(setup, n, rng) if fast and walked is None else None
        if table is not None:
            rows, sid, waste = table
            _tally(
                np.array(start, dtype=np.int64),
                np.array(rows, dtype=np.int64),
                np.bincount(sid, minlength=len(rows)),
            )
            waste_sum += float(waste.sum())
            waste_sq += float((waste**2).sum())
            aw, ak = _hazard(setup, rng, n)
            awound_h += np.bincount(aw, minlength=len(awound_h))
            akill_h += np.bincount(ak, minlength=len(akill_h))
            done += n
            continue
        ch = _Chunk(setup, rng, n, fast)
        for k, pool in enumerate(setup.pools):
            ch.pool(k, pool)
        if ch.chain is not None and ch.chain_pos is not None and ch._rem is None:
            # Still on the first pool's chain: histogram the positions, then map them.
            weights = np.bincount(ch.chain_pos, minlength=int(ch.chain.cum[-1]) + 1)
            rem = ch.chain.position_table(ch.start)
        else:
            weights = np.ones(n, dtype=np.int64)
            rem = ch.rem
        _tally(ch.start, rem, weights)
        waste_sum += float(ch.waste.sum())
        waste_sq += float((ch.waste**2).sum())
        aw, ak = _hazard(setup, rng, n)
        awound_h += np.bincount(aw, minlength=len(awound_h))
        akill_h += np.bincount(ak, minlength=len(akill_h))
        done += n
    killed = Dist.from_sequence(list(killed_h / trials))
    p_all = killed.p_at_least(m_alive) if m_alive else 1.0
    waste_mean = waste_sum / trials
    waste_var = max(0.0, waste_sq / trials - waste_mean**2)
    return AttackDistribution(
        method="simulation",
        reason=f"Monte Carlo, {trials} trials, seed {seed}",
        target_models=m_alive,
        models_destroyed=killed,
        wounds_lost=Dist.from_sequence(list(wounds_h / trials)),
        groups=tuple(
            GroupResult(
                g.label(setup.target),
                len(g.members),
                g.character,
                Dist.from_sequence(list(h / trials)),
            )
            for g, h in zip(groups, group_h, strict=True)
        ),
        expected_damage_wasted=waste_mean,
        attacker_models=sum(1 for r in setup.attacker_start if r > 0),
        attacker_wounds_lost=Dist.from_sequence(list(awound_h / trials)),
        attacker_models_destroyed=Dist.from_sequence(list(akill_h / trials)),
        trials=trials,
        seed=seed,
        stderr_mean_models_destroyed=(killed.variance / trials) ** 0.5,
        stderr_p_unit_destroyed=(p_all * (1 - p_all) / trials) ** 0.5,
        stderr_damage_wasted=(waste_var / trials) ** 0.5,
    )
