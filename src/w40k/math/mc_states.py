"""Monte Carlo by state tables: every trial's unit state is an index into a table of the states
met so far, and every pool walks each trial along the damage chain of its own start state.

This is the simulation's fast path for any target (the alike-models chain walk in
:mod:`w40k.math.montecarlo` is a special case of it). It follows the same rules as the per-model
path and the exact computation:

- 05.03/05.04: at the start of each pool the allocation chain of every distinct state present is
  taken from the primitives (:func:`~w40k.math.chain.allocation_chain`: groups and the default
  order re-created, [PRECISION], the selected model kept until destroyed); 19.02 Toughness from
  that state.
- Per pool, (wounds needing saves, devastating critical wounds) are drawn from their joint
  law (:func:`~w40k.math.stages.pool_outcomes`: attack dice, hit and wound rolls are
  independent dice with the per-die odds of the primitives), for the trial's wound roll.
- Saves are drawn as counts per face block (faces every model judges alike) and resolved lowest
  first: within a block each save hits the trial's current chain model; a save that model's
  group passes leaves the state unchanged, so the rest of that block passes too (R05.04-a,
  R05.04-h). Each damaging save: D rolled, Feel No Pain per wound, at most the model's remaining
  wounds lost, the excess wasted (R05.04-f); nothing once every model is destroyed (R05.04-g).
- [DEVASTATING WOUNDS] after the normal damage (R06.02-e): each critical wound's D mortal wounds
  on the model 06.02 selects (:func:`~w40k.math.chain.mortal_chain` of the state reached), at
  most that one model (R24.10-b), Feel No Pain per wound.

The per-trial work is array look-ups in flat tables (state, chain position, model, wounds left),
so a trial costs a few vector operations per event instead of a pass over every model.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from w40k.core.dice import DiceExpr
from w40k.math.chain import Chain, allocation_chain, mortal_chain
from w40k.math.sampling import IntArray, binom_table, roll, table_sample
from w40k.math.setup import AttackSetup, models_at
from w40k.math.stages import (
    FACES,
    FloatArray,
    binomial_matrix,
    fnp_pass,
    inflicts_table,
    pool_outcomes,
)
from w40k.rules.primitives import ModelState, attack_toughness, wound_threshold

MAX_TABLE_STATES = 5_000
"""Past this many distinct states the caller falls back to the per-model path."""



class _Flat:
    """Chains laid end to end: per flat position the state it stands for, the model the next
    event damages and that model's wounds left (0 at a chain's end: nothing more happens)."""

    def __init__(self, states: _States) -> None:
        self.states = states
        self.state: list[int] = []
        self.model: list[int] = []
        self.left: list[int] = []

    def add(self, chain: Chain | None, state: int) -> int:
        """Append ``chain`` (None: a destroyed unit, one end position); its first position."""
        first = len(self.state)
        if chain is None:
            self.state.append(state)
            self.model.append(0)
            self.left.append(0)
            return first
        entries = chain.entries()
        for pos, vec in enumerate(chain.vectors()):
            self.state.append(self.states.intern(vec))
            if pos < len(entries):
                j, r = entries[pos]
                self.model.append(chain.order[j])
                self.left.append(r)
            else:
                self.model.append(0)
                self.left.append(0)
        return first

    def arrays(self) -> tuple[IntArray, IntArray, IntArray]:
        return (
            np.array(self.state, dtype=np.int64),
            np.array(self.model, dtype=np.int64),
            np.array(self.left, dtype=np.int64),
        )


class _States:
    """The distinct unit states met (remaining wounds of every model), interned."""

    def __init__(self, start: tuple[int, ...]) -> None:
        self.rows: list[tuple[int, ...]] = [start]
        self.index: dict[tuple[int, ...], int] = {start: 0}

    def intern(self, vec: tuple[int, ...]) -> int:
        got = self.index.get(vec)
        if got is None:
            got = self.index[vec] = len(self.rows)
            self.rows.append(vec)
        return got


def _lose(rng: np.random.Generator, wounds: IntArray, keep: FloatArray) -> IntArray:
    """24.12: wounds actually lost after one Feel No Pain roll per wound (``keep`` per trial:
    the chance a wound is lost)."""
    if bool((keep == 1.0).all()):
        return wounds
    out = wounds.copy()
    for kp in np.unique(keep).tolist():
        if kp == 1.0:
            continue
        sel = np.nonzero(keep == kp)[0]
        out[sel] = binom_table(rng, wounds[sel], kp)
    return out


def _step(
    rows: IntArray,
    q: IntArray,
    waste: FloatArray,
    damage: DiceExpr,
    model: IntArray,
    left: IntArray,
    keep_m: FloatArray,
    rng: np.random.Generator,
) -> IntArray:
    """One damaging event for the trials ``rows`` (05.04 Resolve Damage / 24.10): returns
    their new flat positions (also written to ``q``)."""
    at = q[rows]
    lost = _lose(rng, roll(rng, damage, len(rows)), keep_m[model[at]])
    r = left[at]
    at = at + np.minimum(lost, r)
    q[rows] = at
    waste[rows] += np.maximum(lost - r, 0)
    return at


MAX_SPLIT_CELLS = 100_000
"""Largest joint table of (devastating, save dice per block) drawn in one step; past it the
block counts are drawn one block after another."""


def _split_table(
    joint: FloatArray, shares: list[float]
) -> tuple[FloatArray, IntArray, list[IntArray]] | None:
    """The joint law of (devastating critical wounds, save dice in each block) from ``joint``
    = J[n, c] and each block's share of the faces: per cell its probability, c and the counts
    per block (a multinomial split of n, block after block). None past MAX_SPLIT_CELLS."""
    n_left, crit = np.nonzero(joint > 0.0)
    prob = joint[n_left, crit]
    parts: list[IntArray] = []
    taken = 0.0
    for share in shares:
        p = min(1.0, share / (1.0 - taken)) if taken < 1.0 else 0.0
        taken += share
        reps = n_left + 1
        if int(reps.sum()) > MAX_SPLIT_CELLS:
            return None
        idx = np.repeat(np.arange(len(prob)), reps)
        b = np.arange(len(idx)) - np.repeat(np.cumsum(reps) - reps, reps)
        prob = prob[idx] * binomial_matrix(int(n_left.max()), p)[n_left[idx], b]
        keep = prob > 0.0
        prob = prob[keep]
        crit = crit[idx][keep]
        n_left = (n_left[idx] - b)[keep]
        parts = [part[idx][keep] for part in parts] + [b[keep]]
    return prob, crit, parts


def state_walk(
    setup: AttackSetup, n: int, rng: np.random.Generator
) -> tuple[list[tuple[int, ...]], IntArray, FloatArray] | None:
    """Simulate ``n`` trials: (the table of states, each trial's final state index, the damage
    each trial wasted); None past :data:`MAX_TABLE_STATES` (the caller falls back)."""
    models: Sequence[ModelState] = setup.target
    states = _States(setup.start)
    keep_m = np.array([1.0 - fnp_pass(m.fnp) for m in models])
    sid = np.zeros(n, dtype=np.int64)
    waste = np.zeros(n)
    for k, pool in enumerate(setup.pools):
        # 05.03: the chain of every start state present, and its wound roll (19.02).
        present = np.nonzero(np.bincount(sid, minlength=len(states.rows)))[0].tolist()
        flat = _Flat(states)
        offset = np.zeros(len(states.rows), dtype=np.int64)
        thr_of = np.zeros(len(states.rows), dtype=np.int64)
        for s in present:
            vec = states.rows[s]
            if not any(vec):
                offset[s] = flat.add(None, s)
                continue
            now = models_at(models, vec)
            offset[s] = flat.add(allocation_chain(models, vec, pool.precision, now), s)
            thr_of[s] = wound_threshold(pool.strength, attack_toughness(now))
        state_at, model_at, left_at = flat.arrays()
        q = offset[sid]
        # 05.03-05.04: saves lowest first, per block of faces every model judges alike.
        tables = [inflicts_table(pool.ap, m.Sv, m.InSv) for m in models]
        blocks: list[tuple[int, int, tuple[bool, ...]]] = []
        for f in FACES:
            col = tuple(t[f - 1] for t in tables)
            if blocks and blocks[-1][2] == col:
                blocks[-1] = (blocks[-1][0], f, col)
            else:
                blocks.append((f, f, col))
        # Faces are monotone per model (05.04), so no active block follows one that every
        # model passes: the blocks up to the last active one are all that can damage.
        used = [b for b in blocks if any(b[2])]
        # 04.03-05.04: per trial, the devastating critical wounds and the number of save
        # dice in each block, drawn together from their joint law for the trial's wound roll
        # (pool_outcomes: attack dice, hit and wound rolls are independent dice with the
        # per-die odds of the primitives; save dice fall in a block with chance |block| / 6).
        thr = thr_of[sid]
        dev = np.zeros(n, dtype=np.int64)
        counts = [np.zeros(n, dtype=np.int64) for _ in used]
        for t in np.unique(thr_of[present]).tolist():
            if t == 0:
                continue  # a destroyed unit: nothing to roll for
            joint = pool_outcomes(pool, setup.gathered[k], int(t), setup.lethal_auto)
            sel = np.nonzero(thr == t)[0] if len(present) > 1 else np.arange(n)
            zeros = np.zeros(len(sel), dtype=np.int64)
            split = _split_table(joint, [(hi - lo + 1) / 6.0 for lo, hi, _ in used])
            if split is not None:
                prob, crit, parts = split
                cell = table_sample(rng, prob.reshape(1, -1), zeros)
                dev[sel] = crit[cell]
                for c, part in zip(counts, parts, strict=True):
                    c[sel] = part[cell]
                continue
            cell = table_sample(rng, joint.reshape(1, -1), zeros)
            left, dev[sel] = np.divmod(cell, joint.shape[1])
            for c, (lo, hi, _) in zip(counts, used, strict=True):
                # 05.04 lowest first: among k saves all >= lo, Binomial(k, |block| / (7 - lo)).
                c[sel] = binom_table(rng, left, (hi - lo + 1) / (7 - lo))
                left = left - c[sel]
        for (_, _, col), count in zip(used, counts, strict=True):
            inflicts = np.array(col, dtype=np.bool_)
            rows = np.nonzero(count > 0)[0]
            e = 0
            while len(rows):
                at = q[rows]
                # A save the current model's group passes ends this block for the trial.
                rows = rows[(left_at[at] > 0) & inflicts[model_at[at]]]
                if not len(rows):
                    break
                _step(rows, q, waste, pool.damage, model_at, left_at, keep_m, rng)
                e += 1
                rows = rows[count[rows] > e]
        sid = state_at[q]
        # 24.10 / R06.02-e: devastating mortal wounds after the normal damage, by 06.02.
        hurt = np.nonzero(dev > 0)[0]
        if len(hurt):
            mflat = _Flat(states)
            moff = np.zeros(len(states.rows), dtype=np.int64)
            for s in np.unique(sid[hurt]).tolist():
                vec = states.rows[s]
                moff[s] = mflat.add(mortal_chain(models, vec) if any(vec) else None, s)
            mstate, mmodel, mleft = mflat.arrays()
            mq = np.zeros(n, dtype=np.int64)
            mq[hurt] = moff[sid[hurt]]
            rows = hurt
            e = 0
            while len(rows):
                rows = rows[mleft[mq[rows]] > 0]
                if not len(rows):
                    break
                _step(rows, mq, waste, pool.damage, mmodel, mleft, keep_m, rng)
                e += 1
                rows = rows[dev[rows] > e]
            sid[hurt] = mstate[mq[hurt]]
        if len(states.rows) > MAX_TABLE_STATES:
            return None
    return states.rows, sid, waste
