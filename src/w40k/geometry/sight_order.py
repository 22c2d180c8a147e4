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

from collections import defaultdict

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
