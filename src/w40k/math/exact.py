"""Exact distributions of one unit's attacks on one target unit (float64 dynamic programming).

Method (docs/math.md has the full account):

1. The state between pools is the remaining wounds of every target model. For each pool and
   each state, :func:`~w40k.math.stages.pool_outcomes` gives the joint law of ``n`` wounds
   needing saves and ``c`` [DEVASTATING WOUNDS] critical wounds (hit and wound rolls, every
   ability via the pool profile, Toughness per 19.02 from that state).
2. Saves are rolled together (R05.03-f) and resolved lowest first (R05.04-a) against the
   current group (R05.04-h). Faces are processed in blocks of consecutive faces that every
   chain position judges alike (:func:`~w40k.math.stages.inflicts_table`); given ``k`` saves
   not yet processed, all at least the block's lowest face, the number in the block is
   Binomial(k, |block| / (7 - lowest)). Each damaging save moves the damage chain
   (:mod:`w40k.math.chain`) by one event: D rolled, Feel No Pain per wound, excess lost.
3. Then the devastating mortal wounds (06.02 order, one model per critical wound, after all the
   normal damage of the pool, R06.02-e, R24.10-b).
4. Hazard rolls on the attacker after all pools (24.15, 06.03), independent of the target.

Everything is exact up to float64 rounding (errors ~1e-15). Where the number of states or the
work would exceed :data:`MAX_STATES` / :data:`MAX_WORK`, :class:`TooLarge` is raised so that
the caller falls back to simulation and says so (never a silent approximation).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass
from math import comb
from operator import attrgetter

import numpy as np

from w40k.core.dice import DiceExpr
from w40k.math.chain import Chain, allocation_chain, mortal_chain, transitions
from w40k.math.distributions import AttackDistribution, Dist, GroupResult
from w40k.math.exact_tables import (
    POWERS_KEPT_BYTES,
    UNIT_TABLE_LIMIT,
    SavePlan,
    State,
    dead_at,
    diagonal_coef,
    diagonals,
    groups_of,
    grown,
    kept_joint,
    kept_transitions,
    unit_tables,
)
from w40k.math.setup import AttackSetup, models_at
from w40k.math.stages import (
    FACES,
    FloatArray,
    attack_count_pmf,
    binomial_matrix,
    fnp_pass,
    hazard_fail_chance,
    hit_odds,
    inflicts_table,
    loss_pmf,
    pool_outcomes,
    wound_odds,
)
from w40k.rules.attack_profile import PoolProfile
from w40k.rules.primitives import (
    AllocationGroup,
    ModelState,
    attack_toughness,
    hazard_mortal_wounds,
    wound_threshold,
)

MAX_STATES = 20_000
"""Most distinct unit states (remaining wounds of every model) held between pools."""
MAX_WORK = 3_000_000_000
"""Most multiply-adds the save dynamic programme may take in all (numpy does them in batched
matrix products: about 1.5e9 a second here, so about 2 s at worst)."""


class TooLarge(Exception):
    """The exact computation would exceed the documented limits (the message says which)."""


@dataclass
class _Mass:
    """Probability of a state and the probability-weighted damage wasted on the way to it."""

    p: float = 0.0
    waste: float = 0.0


def _add(acc: dict[State, _Mass], state: State, p: float, waste: float) -> None:
    m = acc.get(state)
    if m is None:
        acc[state] = _Mass(p, waste)
    else:
        m.p += p
        m.waste += waste




class _Engine:
    """Caches for one exact computation; what depends only on the target's models is shared
    with the other computations on the same unit (:func:`_unit`, :func:`_joint`); the API
    caches whole results."""

    def __init__(self, setup: AttackSetup) -> None:
        self.setup = setup
        self.models = setup.target
        self.work = 0
        self._unit = unit_tables(setup.target)
        self._facts = self._unit.facts
        self._joint: dict[tuple[int, int], FloatArray] = {}
        # Mortal-wound chains met so far: a state on a chain continues along its suffix.
        self._mortal_at: dict[State, tuple[int, int]] = {}
        self._mortal: list[tuple[Chain, list[State]]] = []
        self._trans: dict[
            tuple[tuple[int, ...], tuple[int, ...], DiceExpr], tuple[FloatArray, FloatArray]
        ] = {}

    def facts(self, state: State, precision: bool) -> tuple[Chain, int, list[State]]:
        """The allocation chain from ``state`` (:func:`~w40k.math.chain.allocation_chain`),
        the Toughness the attacks use there (19.02) and the chain's vectors: they depend only
        on the models and ``state``, so they are kept for the unit (:func:`_unit_facts`) and
        shared by every pool and every attack on it. The vectors are read, never changed."""
        key = (state, precision)
        got = self._facts.get(key)
        if got is None:
            now = models_at(self.models, state)
            chain = allocation_chain(self.models, state, precision, now)
            if len(self._facts) >= UNIT_TABLE_LIMIT:
                self._facts.clear()
            got = self._facts[key] = (chain, attack_toughness(now), chain.vectors())
        return got

    def transitions(self, chain: Chain, damage: DiceExpr) -> tuple[FloatArray, FloatArray]:
        """:func:`~w40k.math.chain.transitions` of ``chain`` (depends only on its models, their
        wounds at its start and the damage), reused across states."""
        key = (chain.order, chain.start, damage)
        got = self._trans.get(key)
        if got is None:
            got = self._trans[key] = kept_transitions(
                self._unit, ("chain", damage), self.losses(chain, damage), chain,
                transitions,
            )
        return got

    def joint(self, k: int, pool: PoolProfile, thr: int) -> FloatArray:
        """J[n, c] for pool ``k`` needing ``thr`` to wound."""
        key = (k, thr)
        if key not in self._joint:
            self._joint[key] = kept_joint(
                pool_outcomes, pool, self.setup.gathered[k], thr, self.setup.lethal_auto
            )
        return self._joint[key]

    def losses(self, chain: Chain, damage: DiceExpr) -> list[FloatArray]:
        """Loss pmf of a damaging event on each chain model (its own Feel No Pain)."""
        return [loss_pmf(damage, self.models[i].fnp) for i in chain.order]

    def pool(
        self,
        k: int,
        pool: PoolProfile,
        chain: Chain,
        thr: int,
        init: tuple[FloatArray, FloatArray],
        out: dict[State, _Mass],
    ) -> None:
        """Resolve pool ``k`` from the states on ``chain`` with masses ``init`` (probability,
        probability-weighted waste per position): add the masses of the states after it to
        ``out``. Every
        state on the chain must have ``chain`` (from its position on) as its own allocation
        chain and need ``thr`` to wound; the computation is linear in ``init``."""
        joint = self.joint(k, pool, thr)
        prob, waste = self._saves(pool, chain, joint, init)  # shape (C, positions)
        if prob.shape[0] == 1 or (not prob[1:].any() and not waste[1:].any()):
            for vec, pv, wv in zip(
                chain.vectors(), prob[0].tolist(), waste[0].tolist(), strict=True
            ):
                if pv or wv:
                    _add(out, vec, pv, wv)
            return
        self._mortals(pool, chain, prob, waste, out)

    def _plan_key(self, pool: PoolProfile, chain: Chain) -> tuple[object, ...]:
        """What :meth:`_save_plan` depends on besides the unit's models (the function in use
        is part of it: a test's mutant is never answered from the real one's entries)."""
        return (transitions, chain.order, chain.start, pool.damage, pool.ap)

    def _save_plan(self, pool: PoolProfile, chain: Chain) -> SavePlan:
        """The face blocks and step matrices of :meth:`_saves` for ``pool`` on ``chain``,
        kept for the unit (they do not depend on the pool's dice or the starting masses)."""
        key = self._plan_key(pool, chain)
        got = self._unit.saves.get(key)
        if got is not None:
            return got
        size = chain.size
        t, w = self.transitions(chain, pool.damage)
        # 05.04 Check Save Roll against the current group: the chain model's own Sv/InSv
        # (a group shares them, 05.03). Chain entry j covers start[j] positions in a row
        # (chain.entries()), then the last position (all destroyed) takes no damage.
        chain_models = [self.models[i] for i in chain.order]
        tables = [inflicts_table(pool.ap, m.Sv, m.InSv) for m in chain_models]
        masks: list[tuple[bool, ...]] = []
        for f in FACES:
            row: list[bool] = []
            for j, r0 in enumerate(chain.start):
                row += (tables[j][f - 1],) * r0
            row.append(False)
            masks.append(tuple(row))
        # Blocks of consecutive faces judged alike at every position.
        blocks: list[tuple[int, int]] = []
        for f in FACES:
            if blocks and masks[blocks[-1][0] - 1] == masks[f - 1]:
                blocks[-1] = (blocks[-1][0], f)
            else:
                blocks.append((f, f))
        active = [b for b in blocks if any(masks[b[0] - 1])]
        last = blocks.index(active[-1]) if active else -1
        eye = np.eye(size)
        steps: list[FloatArray] = []
        if last <= 0:
            mask = np.array(masks[blocks[0][0] - 1])
            steps = [np.where(mask[:, None], t, eye), w * mask[:, None]]
        else:
            for lo, _ in blocks[: last + 1]:
                mask = np.array(masks[lo - 1])
                step = np.zeros((2 * size, 2 * size))
                step[:size, :size] = np.where(mask[:, None], t, eye)
                step[:size, size:] = w * mask[:, None]
                step[size:, size:] = step[:size, :size]
                steps.append(step)
        for a in steps:
            a.flags.writeable = False
        got = SavePlan(blocks, last, steps, [None] * len(steps))
        if len(self._unit.saves) >= UNIT_TABLE_LIMIT:
            self._unit.saves.clear()
        self._unit.saves[key] = got
        return got

    def _saves(
        self,
        pool: PoolProfile,
        chain: Chain,
        joint: FloatArray,
        init: tuple[FloatArray, FloatArray],
    ) -> tuple[FloatArray, FloatArray]:
        """05.03-05.04 for every (n, c): the law of (c, chain position) after normal damage,
        and the matching expected-waste mass."""
        kmax = joint.shape[0] - 1
        ccount = joint.shape[1]
        size = chain.size
        plan = self._save_plan(pool, chain)
        blocks, last = plan.blocks, plan.last
        # Multiply-adds of the DP below: per block, sum over m of C x (K + 1 - m) x size^2.
        self.work += ccount * (kmax + 1) * (kmax + 2) // 2 * size * size * max(1, last)
        if self.work > MAX_WORK:
            raise TooLarge(
                f"the save computation needs more than {MAX_WORK:.0e} operations "
                f"({kmax} saves, {size} damage positions)"
            )
        if last <= 0:
            # One block decides every save (the usual case): Binomial(n, p) damaging saves,
            # applied one after another from the starting positions. The rows depend only on
            # the plan and the starting masses: kept per unit (other weapons, same chain).
            lo, hi = blocks[0]
            tb, wb = plan.steps
            rkey = (*self._plan_key(pool, chain), init[0].tobytes(), init[1].tobytes())
            kept = self._unit.runs.get(rkey)
            if kept is None or kept[0].shape[0] <= kmax:
                r = np.empty((kmax + 1, size))
                rw = np.empty((kmax + 1, size))
                if kept is None:
                    r[0], rw[0] = init
                    done = 1
                else:
                    done = kept[0].shape[0]
                    r[:done] = kept[0]
                    rw[:done] = kept[1]
                for j in range(done, kmax + 1):
                    rw[j] = rw[j - 1] @ tb + r[j - 1] @ wb
                    r[j] = r[j - 1] @ tb
                r.flags.writeable = False
                rw.flags.writeable = False
                if len(self._unit.runs) >= UNIT_TABLE_LIMIT:
                    self._unit.runs.clear()
                self._unit.runs[rkey] = (r, rw)
            else:
                r, rw = kept
            if r.shape[0] > kmax + 1:
                r = r[: kmax + 1]
                rw = rw[: kmax + 1]
            bm = binomial_matrix(kmax, (hi - lo + 1) / (7 - lo) if last == 0 else 0.0)
            return joint.T @ (bm @ r), joint.T @ (bm @ rw)
        # x = [probability | waste] per (c, saves left, position); one damaging save maps x to
        # x @ [[tb, wb], [0, tb]]. Given k saves left, m of them damaging in the block
        # (Binomial(k, |block| / (7 - lo))), k - m are left for the blocks above:
        # new[c, k - m] += B[k, m] x[c, k] @ M^m, done for every (k, m) at once.
        kk, mm, _ = diagonals(kmax)
        x = np.zeros((ccount, kmax + 1, 2 * size))
        x[:, :, :size] = joint.T[:, :, None] * init[0]
        x[:, :, size:] = joint.T[:, :, None] * init[1]
        for b, (lo, hi) in enumerate(blocks[: last + 1]):
            # M^0..M^K: kept with the plan (other weapons and states on the same chain) when
            # small; larger ones are computed for this call only (the same products either way)
            powers = plan.powers[b]
            if powers is None or powers.shape[0] <= kmax:
                powers = grown(powers, np.eye(2 * size), plan.steps[b], kmax)
                if powers.nbytes <= POWERS_KEPT_BYTES:
                    plan.powers[b] = powers
            coef = diagonal_coef(kmax, (hi - lo + 1) / (7 - lo))  # [j, m] = B[j + m, m]
            # [c, k, m] = x[c, k] @ M^m, one product per m: the same sums as one product with
            # every power side by side, in products small enough that BLAS does not start
            # threads for them (which cost far more CPU than the sums here).
            flat = x.reshape(-1, 2 * size)
            z = np.empty((flat.shape[0], kmax + 1, 2 * size))
            for m in range(kmax + 1):
                z[:, m, :] = flat @ powers[m]
            z = z.reshape(ccount, kmax + 1, kmax + 1, 2 * size)
            x = np.einsum("cjmt,jm->cjt", z[:, kk, mm, :], coef)
        out = x.sum(axis=1)
        return out[:, :size], out[:, size:]

    def _mortals(
        self,
        pool: PoolProfile,
        chain: Chain,
        prob: FloatArray,
        waste: FloatArray,
        out: dict[State, _Mass],
    ) -> None:
        """24.10: each devastating critical wound's D mortal wounds, one at a time by 06.02,
        damage at most one model (excess lost), after all normal damage (R06.02-e).

        The states after normal damage are joined into one state space along their 06.02
        mortal-wound chains (a state met on two chains has the same continuation, because
        each chain takes the primitives' first candidate), and Horner's scheme sums the laws
        after c = 0..C-1 critical wounds."""
        index: dict[State, int] = {}
        states: list[State] = []
        rows: list[tuple[list[int], list[int], FloatArray, FloatArray]] = []
        vectors = chain.vectors()
        live = (prob != 0.0).any(axis=0) | (waste != 0.0).any(axis=0)
        for pos, vec in enumerate(vectors):
            if not live[pos] or vec in index:
                continue
            if vec not in self._mortal_at:
                mc = mortal_chain(self.models, vec)
                ci = len(self._mortal)
                mvecs = mc.vectors()
                self._mortal.append((mc, mvecs))
                for q, v in enumerate(mvecs):
                    self._mortal_at.setdefault(v, (ci, q))
            ci, q0 = self._mortal_at[vec]
            mc, mvecs = self._mortal[ci]
            t, w = self.transitions(mc, pool.damage)
            ids: list[int] = []
            new: list[int] = []
            for q, v in enumerate(mvecs[q0:], start=q0):
                got = index.get(v)
                if got is None:
                    got = index[v] = len(states)
                    states.append(v)
                    new.append(q - q0)
                ids.append(got)
            if new:
                rows.append((ids, new, t[q0:, q0:], w[q0:, q0:]))
        n = len(states)
        u = np.zeros((n, n))
        uw = np.zeros((n, n))
        # Each state's row is written once: from the chain on which it was first met.
        for ids, new, t, w in rows:
            cells = (np.array([ids[q] for q in new])[:, None], np.array(ids)[None, :])
            u[cells] = t[new]
            uw[cells] = w[new]
        at = [(pos, index[vec]) for pos, vec in enumerate(vectors) if vec in index]
        src = [pos for pos, _ in at]
        dst = [i for _, i in at]
        cols = np.zeros((prob.shape[0], n))
        wcols = np.zeros((prob.shape[0], n))
        cols[:, dst] = prob[:, src]
        wcols[:, dst] = waste[:, src]
        r = cols[-1].copy()
        rw = wcols[-1].copy()
        for c in range(prob.shape[0] - 2, -1, -1):
            rw = rw @ u + r @ uw + wcols[c]
            r = r @ u + cols[c]
        for v, pv, wv in zip(states, r.tolist(), rw.tolist(), strict=True):
            if pv or wv:
                _add(out, v, pv, wv)


def _hazard(setup: AttackSetup) -> tuple[Dist, Dist]:
    """24.15/06.03: after all attacks, one hazard roll per [HAZARDOUS] weapon; each failure is
    1 mortal wound (3 if every model is MONSTER/VEHICLE), allocated by 06.02 with Feel No Pain
    (RX-d). Returns (wounds lost, models destroyed) of the attacker."""
    rolls = setup.hazard_rolls
    start = setup.attacker_start
    if rolls == 0 or not any(start):
        return Dist((1.0,)), Dist((1.0,))
    per_fail = hazard_mortal_wounds(setup.attacker)
    fails = binomial_matrix(rolls, hazard_fail_chance())[rolls]
    chain = mortal_chain(setup.attacker, start)
    if all(fnp_pass(setup.attacker[i].fnp) == 0.0 for i in chain.order):
        # No Feel No Pain: each failure's mortal wounds are all lost, carried from model to
        # model (R06.02-b) until the unit is destroyed.
        law = np.zeros(chain.size)
        for nf, p in enumerate(fails.tolist()):
            law[min(nf * per_fail, chain.size - 1)] += p
        return _hazard_dists(chain, law)
    # Each mortal wound is 1 wound (06.02) with its own Feel No Pain roll.
    one = DiceExpr.fixed(1)
    t, _ = transitions(chain, [loss_pmf(one, setup.attacker[i].fnp) for i in chain.order])
    r = np.zeros(chain.size)
    r[0] = 1.0
    law = np.zeros(chain.size)
    step = 0
    for nf, p in enumerate(fails):
        while step < nf * per_fail:
            r = r @ t
            step += 1
        law += p * r
    return _hazard_dists(chain, law)


def _hazard_dists(chain: Chain, law: FloatArray) -> tuple[Dist, Dist]:
    """(wounds lost, models destroyed) of the attacker from the law of its 06.02 position."""
    # The chain covers every living model: position = wounds lost; a model is destroyed once
    # the position passes its last wound.
    dead = dead_at(chain.start)
    return (
        Dist.from_sequence(law.tolist()),
        Dist.from_sequence(np.bincount(dead, weights=law).tolist()),
    )




def single_group_kills(
    setup: AttackSetup,
) -> tuple[list[float], int, AllocationGroup] | None:
    """Fast path: the law of models destroyed, the damage each damaging attack wastes and the
    one allocation group, when the general computation has a closed form; None otherwise.

    It applies to one pool without [SUSTAINED HITS], automatic [LETHAL HITS] or [DEVASTATING
    WOUNDS], with fixed damage (at least 1), into a unit whose living models form one
    allocation group (05.03), each with 1 wound left and no Feel No Pain. Then every attack die
    independently ends in a damaging save with one chance ``p`` (hit, wound, failed save: the
    per-die odds of the primitives), every damaging save destroys the current model (wasting
    D - 1, R05.04-f) and the number destroyed is min(damaging saves, models), where the number
    of damaging saves is Binomial(attacks, p) mixed over the number of attack dice."""
    if len(setup.pools) != 1:
        return None
    pool = setup.pools[0]
    damage = pool.damage
    if (
        pool.sustained
        or pool.devastating
        or (pool.lethal and setup.lethal_auto and not pool.torrent)
        or damage.is_random
        or damage.bonus < 1
    ):
        return None
    models = setup.target
    if any(m.remaining != 1 for m in models):
        return None
    if any(fnp_pass(f) != 0.0 for f in {m.fnp for m in models}):
        return None
    groups = groups_of(models)
    if len(groups) != 1 or len(groups[0].members) != len(models):
        return None
    m0 = models[0]
    hit = hit_odds(pool)
    wound = wound_odds(pool, wound_threshold(pool.strength, attack_toughness(models)))
    fails_save = sum(inflicts_table(pool.ap, m0.Sv, m0.InSv)) / 6.0
    p = (hit.success + hit.critical) * (wound.success + wound.critical) * fails_save
    q = 1.0 - p
    size = len(models)
    kills = [0.0] * (size + 1)
    counts = attack_count_pmf(setup.gathered[0]).tolist()
    # The same limit as the general path, counted in terms of the sum below.
    work = sum(a + 1 for a, pa in enumerate(counts) if pa != 0.0)
    if work > MAX_WORK:
        raise TooLarge(f"the fast path needs more than {MAX_WORK:.0e} operations")
    for a, pa in enumerate(counts):
        if pa == 0.0:
            continue
        for j in range(a + 1):
            kills[min(j, size)] += pa * comb(a, j) * p**j * q ** (a - j)
    return kills, damage.bonus - 1, groups[0]


_SAME_FIELDS = tuple(
    f.name for f in dataclasses.fields(ModelState) if f.name not in ("name", "wounds_lost")
)
"""The fields of a model that the primitives may read to tell two models apart: all but its
name and wounds lost (a field added later is compared too)."""


_same = attrgetter(*_SAME_FIELDS)


def alike(models: tuple[ModelState, ...], alive: list[int]) -> bool:
    """Whether the living models are the same model but for name and wounds lost."""
    key = _same(models[alive[0]])
    return all(_same(models[i]) == key for i in alive[1:])


def alike_chain(models: tuple[ModelState, ...], start: tuple[int, ...]) -> Chain:
    """The damage chain of a unit whose living models are alike (:func:`alike`): the wounded
    models first, then the others, each in the listed order. Both 05.04 Select Model (one
    group: a model that has lost wounds if possible, R05.04-b) and 06.02 (a wounded
    non-CHARACTER first, else any; all alike share the CHARACTER keyword or not) give this
    order, taking the first candidate as the primitives do; tests/math/test_fast_paths.py
    checks it against :func:`allocation_chain` and :func:`mortal_chain`."""
    wounded = [i for i, m in enumerate(models) if 0 < start[i] < m.W]
    fresh = [i for i, m in enumerate(models) if start[i] > 0 and start[i] >= m.W]
    order = (*wounded, *fresh)
    return Chain(order, tuple(start[i] for i in order), start)


def single_chain(setup: AttackSetup) -> AttackDistribution | None:
    """Fast path: the exact distribution when every living target model is alike
    (:func:`alike`: one allocation group), None otherwise.

    Then one chain carries the whole attack: the allocation chain of every state met is the
    rest of the chain from the start (:func:`alike_chain`), the 06.02 mortal-wound chain is the
    same sequence, every chain position judges a save alike, and Toughness does not change
    (19.02). So per pool the damaging saves are Binomial(n, P(save fails)), and each
    devastating critical wound is one more damaging event on the same chain (24.10: D mortal
    wounds, each with Feel No Pain, at most one model). With E events in all (damaging saves
    plus devastating critical wounds), the position law is ``v T^E`` for the chain's one-event
    matrix ``T``: the same numbers the general path multiplies, without the states, runs and
    the joined mortal-wound state space. Its operations count against ``MAX_WORK`` as the
    general path's would, and the state count against ``MAX_STATES``."""
    models = setup.target
    start = setup.start
    alive = [i for i, r in enumerate(start) if r > 0]
    if not alive or not alike(models, alive):
        return None
    groups = groups_of(models)
    if len(groups) != 1:
        return None
    chain = alike_chain(models, start)
    unit = unit_tables(models)
    m0 = models[alive[0]]
    thr_of_models = attack_toughness(models)
    size = chain.size
    # x = [probability | waste] per chain position; one event maps x to x @ [[T, W], [0, T]].
    x = np.zeros(2 * size)
    x[0] = 1.0
    work = 0
    for k, pool in enumerate(setup.pools):
        # [PRECISION] (24.28) only reorders groups: with one group the chain is the same.
        joint = kept_joint(
            pool_outcomes, pool, setup.gathered[k], wound_threshold(pool.strength, thr_of_models),
            setup.lethal_auto,
        )
        kmax = joint.shape[0] - 1
        ccount = joint.shape[1]
        # The general path's count for the same pool (one face block, one run).
        work += ccount * (kmax + 1) * (kmax + 2) // 2 * size * size
        if work > MAX_WORK:
            raise TooLarge(
                f"the save computation needs more than {MAX_WORK:.0e} operations "
                f"({kmax} saves, {size} damage positions)"
            )
        # 05.04: every position is a model of the one group, judged by its Sv/InSv.
        fails = sum(inflicts_table(pool.ap, m0.Sv, m0.InSv)) / 6.0
        q = joint.T @ binomial_matrix(kmax, fails)  # [c, m]: c devastating, m damaging saves
        # E = c + m events: the anti-diagonal sums of q.
        if ccount == 1:
            events = q[0]  # the one anti-diagonal per m (bincount would add each to 0.0)
        else:
            c_idx = np.arange(ccount)[:, None]
            m_idx = np.arange(kmax + 1)[None, :]
            events = np.bincount((c_idx + m_idx).ravel(), weights=q.ravel())
        loss = loss_pmf(pool.damage, m0.fnp)
        if k == 0 and len(loss) > 1 and loss[-1] == 1.0:
            # First pool, fixed damage D >= 1 and no Feel No Pain: from the start every event
            # removes exactly min(D, wounds left) along one path (R05.04-f: the rest wasted).
            dmg = len(loss) - 1
            left = [r for _, r in chain.entries()] + [0]
            path = [0]
            wasted = [0.0]
            for _ in range(min(len(events), size) - 1):
                r = left[path[-1]]  # 0 at the end: nothing more happens (R05.04-g)
                path.append(path[-1] + min(dmg, r))
                wasted.append(wasted[-1] + (max(dmg - r, 0) if r else 0))
            last = len(path) - 1
            mass = events[: last + 1].copy()
            mass[last] += events[last + 1 :].sum()  # every later event finds the unit destroyed
            x = np.concatenate(
                [
                    np.bincount(path, weights=mass, minlength=size),
                    np.bincount(path, weights=mass * np.array(wasted), minlength=size),
                ]
            )
        else:
            skey = (transitions, chain.order, chain.start, pool.damage, m0.fnp)
            step = unit.steps.get(skey)
            if step is None:
                t, w = kept_transitions(
                    unit, ("alike", pool.damage, m0.fnp), [loss] * len(chain.order), chain,
                    transitions,
                )
                step = np.zeros((2 * size, 2 * size))
                step[:size, :size] = t
                step[:size, size:] = w
                step[size:, size:] = t
                step.flags.writeable = False
                if len(unit.steps) >= UNIT_TABLE_LIMIT:
                    unit.steps.clear()
                unit.steps[skey] = step
            # With no event losing 0 wounds, every event moves on at least one position, so after
            # size - 1 events all the mass has reached the last (absorbing, R05.04-g) position.
            moves = loss[0] == 0.0
            last = len(events) - 1
            if moves:
                last = min(last, size - 1)
            # The rows x T^e depend only on the step and x: kept per unit (other weapons
            # with the same damage, the same rows; a longer run continues a shorter one).
            rkey = ("alike", *skey, x.tobytes())
            kept = unit.runs.get(rkey)
            rows = grown(None if kept is None else kept[0], x, step, last)
            if kept is None or rows is not kept[0]:
                if len(unit.runs) >= UNIT_TABLE_LIMIT:
                    unit.runs.clear()
                unit.runs[rkey] = (rows, rows)
            if rows.shape[0] > last + 1:
                rows = rows[: last + 1]
            x = events[: last + 1] @ rows + events[last + 1 :].sum() * rows[last]
        if np.count_nonzero(x[:size] + x[size:]) > MAX_STATES:
            raise TooLarge(
                f"more than {MAX_STATES} distinct unit states after pool {k + 1} ({pool.name})"
            )
    prob = x[:size]
    dead = dead_at(chain.start)  # models destroyed per position
    killed = Dist.from_sequence(np.bincount(dead, weights=prob, minlength=len(alive)).tolist())
    hz_wounds, hz_dead = _hazard(setup)
    g = groups[0]
    return AttackDistribution(
        method="exact",
        reason="computed exactly (float64)",
        target_models=len(alive),
        models_destroyed=killed,
        wounds_lost=Dist.from_sequence(prob.tolist()),
        groups=(GroupResult(g.label(models), len(g.members), g.character, killed),),
        expected_damage_wasted=float(x[size:].sum()),
        attacker_models=sum(1 for r in setup.attacker_start if r > 0),
        attacker_wounds_lost=hz_wounds,
        attacker_models_destroyed=hz_dead,
    )


def exact_distribution(setup: AttackSetup, *, fast: bool = True) -> AttackDistribution:
    """The exact distribution of the attack (raises :class:`TooLarge` past the limits).

    ``fast=False`` skips the closed-form fast path (:func:`single_group_kills`) and resolves
    every state alone instead of together with the states on its allocation chain (for
    tests)."""
    if fast and (got := single_group_kills(setup)) is not None:
        kills, waste_each, group = got
        dist = Dist.from_sequence(kills)
        hz_wounds, hz_dead = _hazard(setup)
        return AttackDistribution(
            method="exact",
            reason="computed exactly (float64)",
            target_models=len(setup.target),
            models_destroyed=dist,
            wounds_lost=dist,
            groups=(
                GroupResult(group.label(setup.target), len(group.members), group.character, dist),
            ),
            expected_damage_wasted=waste_each * dist.mean,
            attacker_models=sum(1 for r in setup.attacker_start if r > 0),
            attacker_wounds_lost=hz_wounds,
            attacker_models_destroyed=hz_dead,
        )
    if fast and (whole := single_chain(setup)) is not None:
        return whole
    engine = _Engine(setup)
    start = setup.start
    states: dict[State, _Mass] = {start: _Mass(1.0, 0.0)}
    for k, pool in enumerate(setup.pools):
        nxt: dict[State, _Mass] = {}
        # States on one allocation chain are resolved together (the computation is linear in
        # the starting masses): a state joins the chain of an earlier state when it lies on it,
        # its own allocation chain is that chain's rest and it needs the same wound roll.
        runs: list[tuple[Chain, list[State], int, FloatArray, FloatArray]] = []
        on_run: dict[State, tuple[int, int]] = {}
        for state, mass in sorted(states.items(), key=lambda sm: -sum(sm[0])):
            if not any(state):
                _add(nxt, state, mass.p, mass.waste)
                continue
            chain, toughness, vectors = engine.facts(state, pool.precision)
            thr = wound_threshold(pool.strength, toughness)
            at = on_run.get(state) if fast else None
            if at is not None:
                ri, pos = at
                run = runs[ri]
                if run[2] == thr and run[1][pos:] == vectors:
                    run[3][pos] += mass.p
                    run[4][pos] += mass.waste
                    continue
            ri = len(runs)
            runs.append((chain, vectors, thr, np.zeros(chain.size), np.zeros(chain.size)))
            runs[ri][3][0] = mass.p
            runs[ri][4][0] = mass.waste
            for pos, vec in enumerate(vectors):
                on_run.setdefault(vec, (ri, pos))
        for chain, _, thr, init_p, init_w in runs:
            engine.pool(k, pool, chain, thr, (init_p, init_w), nxt)
        states = nxt
        if len(states) > MAX_STATES:
            raise TooLarge(
                f"more than {MAX_STATES} distinct unit states after pool {k + 1} ({pool.name})"
            )
    return summarise(setup, states, "exact", "computed exactly (float64)")


def summarise(
    setup: AttackSetup, states: dict[State, _Mass], method: str, reason: str
) -> AttackDistribution:
    """Distributions of models destroyed / wounds lost (overall and per group) from the law of
    the final states."""
    start = setup.start
    groups = groups_of(setup.target)
    killed: dict[int, float] = defaultdict(float)
    wounds: dict[int, float] = defaultdict(float)
    per_group: list[dict[int, float]] = [defaultdict(float) for _ in groups]
    waste = 0.0
    total = sum(start)
    members = [(pg, g.members) for pg, g in zip(per_group, groups, strict=True)]
    # The same sums in the same order, with less per-state overhead.
    for state, mass in states.items():
        p = mass.p
        dead = [a > 0 and b == 0 for a, b in zip(start, state, strict=True)]
        killed[dead.count(True)] += p
        wounds[total - sum(state)] += p
        for pg, mem in members:
            pg[[dead[i] for i in mem].count(True)] += p
        waste += mass.waste
    hz_wounds, hz_dead = _hazard(setup)
    return AttackDistribution(
        method="exact" if method == "exact" else "simulation",
        reason=reason,
        target_models=sum(1 for r in start if r > 0),
        models_destroyed=Dist.from_mapping(killed),
        wounds_lost=Dist.from_mapping(wounds),
        groups=tuple(
            GroupResult(g.label(setup.target), len(g.members), g.character, Dist.from_mapping(pg))
            for g, pg in zip(groups, per_group, strict=True)
        ),
        expected_damage_wasted=waste,
        attacker_models=sum(1 for r in setup.attacker_start if r > 0),
        attacker_wounds_lost=hz_wounds,
        attacker_models_destroyed=hz_dead,
    )
