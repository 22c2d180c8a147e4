"""The seventeenth pass's R11.04-d verdict handed from ``surely_refused_charge`` to the charge
check (``melee_moves._engagement_clear``): the check reading it gives the answer it gives
measuring again, and it is read only for the very moves, unit, targets and state measured."""

from __future__ import annotations

import math
import random

import pytest

from tests.engine.snapshot_helpers import greedy_snapshots
from w40k.engine.phases import charge_propose as cp
from w40k.engine.phases import melee_moves as mm_
from w40k.engine.serial import JSON


@pytest.mark.parametrize("seed", [1, 2])
def test_the_kept_engagement_verdict_gives_the_measured_check(seed: int) -> None:
    """Random charge answers (the chain proposer's, or each model toward a random
    enemy unit) at seeded greedy positions: where ``surely_refused_charge``
    says False, ``_check_move`` with its verdict kept equals ``_check_move`` with none kept
    (every violation listed, R11.04-b/c/d); a verdict is not read for other moves or targets."""
    rng = random.Random(seed)
    clear = legal = 0
    for game in greedy_snapshots(seed, every=30):
        units = [u for u in game.state.units if not u.destroyed]
        for u in units:
            enemies = [e for e in units if e.player != u.player]
            if not enemies:
                continue
            for _ in range(4):
                targets = rng.sample(enemies, min(len(enemies), rng.randint(1, 2)))
                t = targets[0].alive[0]
                c = rng.choice([0.05, 0.5, 0.9, 1.0])
                answer: dict[str, JSON] = {}
                chain = cp.propose_charge(game.ctx, u, targets, 12.0, rng, 0) \
                    if rng.random() < 0.5 else None
                for m in ([] if chain is not None else u.alive):
                    dx, dy = t.x - m.x, t.y - m.y
                    d = math.hypot(dx, dy) or 1.0
                    k = max(0.0, 1.0 - (rng.uniform(0.5, 2.5) if rng.random() < 0.7 else c) / d)
                    answer[m.id] = [[m.x + k * dx + rng.uniform(-0.3, 0.3),
                                     m.y + k * dy + rng.uniform(-0.3, 0.3)]]
                answer = chain if chain is not None else answer
                frame = mm_.MeleeMoveFrame(u.id, "charge", 12.0, tuple(e.id for e in targets))
                ctx = game.ctx
                if mm_.surely_refused_charge(ctx, u, answer, targets):
                    continue
                clear += 1
                moves = mm_.parse_positions(u, answer)
                kept = mm_._check_move(ctx, u, moves, frame)
                assert mm_._engagement_clear(ctx, u, moves, targets)
                mm_._CLEAR.clear()
                assert kept == mm_._check_move(ctx, u, moves, frame)
                legal += not kept
                mm_.surely_refused_charge(ctx, u, answer, targets)
                other = dict(answer)
                mid = next(iter(other))
                x, y = other[mid][0]  # type: ignore[index, misc]
                other[mid] = [[x + 1e-6, y]]
                assert not mm_._engagement_clear(ctx, u, mm_.parse_positions(u, other),
                                                 targets)
                assert not mm_._engagement_clear(ctx, u, moves, targets[:0])
    assert clear > 5 and legal > 0  # some checks reach the R11.04-d test
