"""The order in which :meth:`w40k.geometry.visibility.Visibility._any_seen` searches the open
model pairs of a unit-level question (06.01: is some model pair visible?).

The answer does not depend on the order (it is whether some pair is seen, and each pair's
answer is its own, kept under its own key whenever it is searched), only the number of
searches: the search stops at the first seen pair, and a pair that the search proves BLOCKED
costs more than a CLEAR one (it enumerates every candidate line). So the pairs likeliest to
be seen go first: sight is correlated between neighbouring models, so a pair whose observer
model or target model is known to see others (or known hidden from others: a wall in front
of it) moves up (down); the nearest pair first among equals, then model order.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping

import numpy as np

from w40k.geometry.los import Sight, SightResult

Pair = tuple[int, int, int, int]
"""(observer unit, observer model, target unit, target model)."""


class Tally:
    """Known answers counted per observer model and per target model: seen minus hidden."""

    def __init__(self) -> None:
        self.observer: defaultdict[tuple[int, int], int] = defaultdict(int)
        self.target: defaultdict[tuple[int, int], int] = defaultdict(int)

    def add(self, k: Pair, seen: bool) -> None:
        """One known answer of the model pair ``k``."""
        step = 1 if seen else -1
        self.observer[k[:2]] += step
        self.target[k[2:]] += step

    def hidden(self, k: Pair) -> None:
        """The model pair ``k`` was searched and is not seen."""
        self.add(k, False)

    def score(self, k: Pair) -> int:
        """Higher: likelier seen."""
        return self.observer.get(k[:2], 0) + self.target.get(k[2:], 0)


def next_pair(left: list[Pair], tally: Tally, dist: dict[Pair, float]) -> Pair:
    """The pair of ``left`` to search next: the highest :meth:`Tally.score`, then the
    nearest, then the first in ``left``'s order (model order)."""
    return min(left, key=lambda k: (-tally.score(k), dist[k]))


def one_observer_order(pairs: list[Pair], hint: Mapping[Pair, int],
                       seen_cache: Mapping[Pair, tuple[bool, str]],
                       raw: Mapping[Pair, SightResult], convention_visible: bool,
                       observers: int, dist: np.ndarray, no_hint: int) -> list[Pair]:
    """The order in which ``Visibility._search_open``'s loop takes ``pairs`` when they share
    one observer model and name each target model once (a model-level question,
    ``model_sees``), computed at once. The loop takes the fewest obstacles first (``hint``,
    ``no_hint`` for a pair the batch never saw), then :func:`next_pair`'s order: the highest
    :meth:`Tally.score`, then the nearest (``dist[om, tm]``), then the first in ``pairs``.
    A pair's score is its observer model's term plus its target model's: the first is the
    same for every pair left (a search that answers "not seen" lowers it for all of them
    alike), and the second changes only for the pair just searched, never taken again. So
    every step ranks the pairs left by the same keys (obstacles, -target term, distance),
    ties to the first: a stable sort by them. A pair whose obstacle count no other pair
    has is placed by that count alone, so the target term (the tally's, of the known
    answers of every observer model of the unit, ``observers`` of them) and the distance
    are read only for the pairs that tie on it."""
    ou, om, tu = pairs[0][:3]
    seen_get, raw_get = seen_cache.get, raw.get
    clear, conv = Sight.CLEAR, Sight.CONVENTION if convention_visible else None

    def target_term(tm: int) -> int:
        score = 0  # (``Visibility._known_tally``'s target sum: the kept answer, else the raw)
        for o in range(observers):
            known = seen_get((ou, o, tu, tm))
            if known is not None:
                score += 1 if known[0] else -1
            elif (r := raw_get((ou, o, tu, tm))) is not None:
                score += 1 if (s := r.sight) is clear or s is conv else -1
        return score

    kept = [hint.get(k, no_hint) for k in pairs]
    ties = Counter(kept)
    keys = [(n, -target_term(k[3]), float(dist[om, k[3]])) if ties[n] > 1 else (n, 0, 0.0)
            for k, n in zip(pairs, kept, strict=True)]
    return [pairs[i] for i in sorted(range(len(pairs)), key=keys.__getitem__)]
