"""Win rates of a batch of games with confidence intervals (``w40k simulate``, docs/simulate.md).

A rate is a share of the games that ended (a game that stopped early counts in none); its
interval is the Wilson score interval, which stays inside [0, 1] and is sound for small
batches and for rates near 0 or 1, where the normal approximation is not. A mean's interval
is mean +- z standard errors.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from w40k.agents.play import GameOutcome
from w40k.engine.serial import JSON

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials; (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Rate:
    """A count among the ended games, its share and the share's 95 % interval."""

    count: int
    rate: float
    low: float
    high: float

    def to_json(self) -> dict[str, JSON]:
        return {"count": self.count, "rate": round(self.rate, 6),
                "ci95": [round(self.low, 6), round(self.high, 6)]}


@dataclass(frozen=True, slots=True)
class Mean:
    """A mean over the ended games with its 95 % interval (mean +- 1.96 standard errors)."""

    mean: float
    low: float
    high: float

    def to_json(self) -> dict[str, JSON]:
        return {"mean": round(self.mean, 6), "ci95": [round(self.low, 6), round(self.high, 6)]}


def _rate(k: int, n: int) -> Rate:
    low, high = wilson(k, n)
    return Rate(k, k / n if n else 0.0, low, high)


def _mean(xs: Sequence[float]) -> Mean:
    if not xs:
        return Mean(0.0, 0.0, 0.0)
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return Mean(m, m - Z95 * se, m + Z95 * se)


@dataclass(frozen=True, slots=True)
class Summary:
    """What a batch of games says about two armies (and their players)."""

    games: int
    """Games played."""
    ended: int
    """Games that reached the end of the battle (the rates' denominator)."""
    stopped: int
    """Games that stopped early (a player could not answer)."""
    players: tuple[str, ...]
    wins: tuple[Rate, ...]
    """Each player's wins, in the order of ``players``."""
    draws: Rate
    vp: tuple[Mean, ...]
    """Each player's victory points."""
    vp_margin: Mean
    """The first player's VP minus the second's (the order of ``players``)."""
    first_turn_wins: Rate
    """Wins of the player who took the first turn, among the ended games that had a winner."""
    decisions: float
    """Mean decisions a game."""
    cpu_s: float
    """Mean CPU seconds a game."""

    def to_json(self) -> dict[str, JSON]:
        return {"games": self.games, "ended": self.ended, "stopped": self.stopped,
                "players": list(self.players),
                "wins": {p: w.to_json() for p, w in zip(self.players, self.wins, strict=True)},
                "draws": self.draws.to_json(),
                "vp": {p: v.to_json() for p, v in zip(self.players, self.vp, strict=True)},
                "vp_margin": self.vp_margin.to_json(),
                "first_turn_wins": self.first_turn_wins.to_json(),
                "decisions_mean": round(self.decisions, 3), "cpu_s_mean": round(self.cpu_s, 4)}


def summarise(outcomes: Sequence[GameOutcome]) -> Summary:
    """The batch's win rates, draws and VP, with 95 % intervals. The outcomes must share
    their players (one batch); ValueError otherwise or when there are none."""
    if not outcomes:
        raise ValueError("no games to summarise")
    players = outcomes[0].players
    if any(o.players != players for o in outcomes):
        raise ValueError("the games have different players: not one batch")
    ended = [o for o in outcomes if o.stopped is None]
    n = len(ended)
    decided = [o for o in ended if o.winner is not None]
    return Summary(
        games=len(outcomes), ended=n, stopped=len(outcomes) - n, players=players,
        wins=tuple(_rate(sum(o.winner == p for o in ended), n) for p in players),
        draws=_rate(sum(o.winner is None for o in ended), n),
        vp=tuple(_mean([float(o.vp[i]) for o in ended]) for i in range(len(players))),
        vp_margin=_mean([float(o.vp[0] - o.vp[1]) for o in ended]),
        first_turn_wins=_rate(sum(o.winner == o.first for o in decided), len(decided)),
        decisions=statistics.fmean(o.decisions for o in outcomes),
        cpu_s=statistics.fmean(o.cpu_s for o in outcomes))
