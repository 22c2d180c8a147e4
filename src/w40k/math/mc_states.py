"""Monte Carlo by state tables: every trial's unit state is an index into a table of the states
met so far, and every pool walks each trial along the damage chain of its own start state.

This is the simulation's fast path for any target (the alike-models chain walk in
:mod:`w40k.math.montecarlo` is a special case of it). It follows the same rules as the per-model
path and the exact computation:

- 05.03/05.04: at the start of each pool the allocation chain of every distinct state present is
  taken from the primitives (:func:`~w40k.math.chain.allocation_chain`: groups and the default
  order re-created, [PRECISION], the selected model kept until destroyed); 19.02 Toughness from
  that state.
- Hit and wound rolls are drawn as binomial counts from the per-die odds.
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

from collections.abc import Callable, Sequence

import numpy as np

from w40k.core.dice import DiceExpr
from w40k.math.chain import Chain, allocation_chain, mortal_chain
from w40k.math.setup import AttackSetup, models_at
from w40k.math.stages import FACES, FloatArray, fnp_pass, hit_odds, inflicts_table, wound_odds
from w40k.rules.primitives import ModelState, attack_toughness, wound_threshold

IntArray = np.ndarray
"""An int64 array (alias kept local: numpy typing of fancy indexing is loose)."""

MAX_TABLE_STATES = 5_000
"""Past this many distinct states the caller falls back to the per-model path."""

Roll = Callable[[DiceExpr, int, int], IntArray]
"""``roll(expr, n, times)``: per trial, the sum of ``times`` rolls of ``expr``."""
Binom = Callable[[IntArray, float], IntArray]
"""``binom(n, p)``: Binomial(n, p) counts per trial."""


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


def _lose(binom: Binom, wounds: IntArray, keep: FloatArray) -> IntArray:
    """24.12: wounds actually lost after one Feel No Pain roll per wound (``keep`` per trial:
    the chance a wound is lost)."""
    if bool((keep == 1.0).all()):
        return wounds
    out = wounds.copy()
    for kp in np.unique(keep).tolist():
        if kp == 1.0:
            continue
        sel = np.nonzero(keep == kp)[0]
        out[sel] = binom(wounds[sel], kp)
    return out


def _step(
    rows: IntArray,
    q: IntArray,
    waste: FloatArray,
    damage: DiceExpr,
    model: IntArray,
    left: IntArray,
    keep_m: FloatArray,
    roll: Roll,
    binom: Binom,
) -> IntArray:
    """One damaging event for the trials ``rows`` (05.04 Resolve Damage / 24.10): returns
    their new flat positions (also written to ``q``)."""
    at = q[rows]
    lost = _lose(binom, roll(damage, len(rows), 1), keep_m[model[at]])
    r = left[at]
    at = at + np.minimum(lost, r)
    q[rows] = at
    waste[rows] += np.maximum(lost - r, 0)
    return at


def state_walk(
    setup: AttackSetup, n: int, roll: Roll, binom: Binom
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
        # 04.03 / 05.01 / 05.02: attack dice, hits, wound rolls, wounds.
        attacks = np.zeros(n, dtype=np.int64)
        for a, count in setup.gathered[k]:
            attacks += roll(a, n, count)  # 02.04: a random A rolled per weapon
        hit = hit_odds(pool)
        crit = binom(attacks, hit.critical)
        succ = binom(attacks - crit, hit.success / max(1e-300, 1.0 - hit.critical))
        lethal = pool.lethal and setup.lethal_auto and not pool.torrent
        rolls = succ + crit * (pool.sustained + (0 if lethal else 1))
        thr = thr_of[sid]
        wc = np.zeros(n, dtype=np.int64)
        ws = np.zeros(n, dtype=np.int64)
        for t in np.unique(thr[left_at[q] > 0]).tolist():
            odds = wound_odds(pool, int(t))
            sel = np.nonzero(thr == t)[0]
            wc[sel] = binom(rolls[sel], odds.critical)
            ws[sel] = binom(rolls[sel] - wc[sel], odds.success / max(1e-300, 1.0 - odds.critical))
        auto = crit if lethal else 0
        if pool.devastating:
            normal, dev = ws + auto, wc
        else:
            normal, dev = ws + wc + auto, np.zeros(n, dtype=np.int64)
        # 05.03-05.04: saves lowest first, per block of faces every model judges alike.
        tables = [inflicts_table(pool.ap, m.Sv, m.InSv) for m in models]
        blocks: list[tuple[int, int, tuple[bool, ...]]] = []
        for f in FACES:
            col = tuple(t[f - 1] for t in tables)
            if blocks and blocks[-1][2] == col:
                blocks[-1] = (blocks[-1][0], f, col)
            else:
                blocks.append((f, f, col))
        active = [i for i, b in enumerate(blocks) if any(b[2])]
        remaining = normal
        for lo, hi, col in blocks[: (active[-1] + 1) if active else 0]:
            count = binom(remaining, (hi - lo + 1) / (7 - lo))
            remaining = remaining - count
            if not any(col):
                continue
            inflicts = np.array(col, dtype=np.bool_)
            rows = np.nonzero(count > 0)[0]
            e = 0
            while len(rows):
                at = q[rows]
                # A save the current model's group passes ends this block for the trial.
                rows = rows[(left_at[at] > 0) & inflicts[model_at[at]]]
                if not len(rows):
                    break
                _step(rows, q, waste, pool.damage, model_at, left_at, keep_m, roll, binom)
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
                _step(rows, mq, waste, pool.damage, mmodel, mleft, keep_m, roll, binom)
                e += 1
                rows = rows[dev[rows] > e]
            sid[hurt] = mstate[mq[hurt]]
        if len(states.rows) > MAX_TABLE_STATES:
            return None
    return states.rows, sid, waste
