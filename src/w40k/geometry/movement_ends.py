"""The normal move proposer's translation test (``propose_moves.translation_refused``) on the
ends' rows: :func:`w40k.geometry.movement.ends_refused` of a unit's models moved by one vector,
without making the moved models where nothing measures them.

A round base moved by (dx, dy) is a round base of the same radius centred at (x + dx, y + dy)
(``Model.base``: ``Circle(x, y, mm(base) / 2)``; the shape's kind depends on the base, hull,
keywords and facing only, which a move keeps), so its box, centre and reach
(``hypot(0, 0) + r``: ``r`` itself) are floats of the row (x + dx, y + dy, r). The model is
made (``start.moved``, as the proposer made it) only for a pair the discs' test keeps or an
end whose box meets a terrain outline (or that stands above ground level): the tests that read
the whole model. The same tests on the same floats: the same answer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from w40k.geometry.battlefield import MARGIN
from w40k.geometry.measure import ENGAGEMENT_HORIZONTAL, engaged, overlaps
from w40k.geometry.movement import ending_violations, ends_refused, scene_others
from w40k.geometry.outlines import outlines
from w40k.geometry.scene import Scene
from w40k.geometry.shapes import EPS, Circle, Model


def translated_refused(scene: Scene, unit: str, player: str, starts: Sequence[Model],
                       dx: float, dy: float, unengaged: bool, take_to_skies: bool = False
                       ) -> bool:
    """``ends_refused(scene, unit, player, [s.moved(s.x + dx, s.y + dy) for s in starts],
    unengaged, take_to_skies)``: True when ``validate_move`` surely refuses the move (a base
    over the battlefield edge, R03.01-f; on a model of another unit, R03.01-c; engaged with
    an enemy model where ``unengaged``, R09.05-a / R09.07-e; ``ending_violations``, R03.01-i,
    R13.06-e/f/g). Round bases are tested on their rows (module docstring); a unit with
    another shape is moved and tested as before. The answer is an "or" of tests without side
    effects, so their order does not change it."""
    fps = [s.footprint() for s in starts]
    if not all(type(f) is Circle for f in fps):
        return ends_refused(scene, unit, player, [s.moved(s.x + dx, s.y + dy) for s in starts],
                            unengaged, take_to_skies)
    xs = [s.x + dx for s in starts]
    ys = [s.y + dy for s in starts]
    rs = [cast(Circle, f).r for f in fps]
    bf = scene.battlefield
    hi_x, hi_y = bf.width + EPS, bf.depth + EPS
    for x, y, r in zip(xs, ys, rs, strict=True):
        # ``Circle.bbox`` of the end's footprint: (x - r, y - r, x + r, y + r)
        if x - r < -EPS or y - r < -EPS or x + r > hi_x or y + r > hi_y:
            return True  # R03.01-f
    made: dict[int, Model] = {}

    def end(i: int) -> Model:
        m = made.get(i)
        if m is None:
            m = made[i] = starts[i].moved(xs[i], ys[i])
        return m

    others, discs = scene_others(scene, unit, player)
    if starts and len(discs.models):
        # ``ends_refused``'s matrix: the same floats (the ends' x, y and reach)
        px = discs.xs[None, :] - np.array(xs, dtype=np.float64)[:, None]
        py = discs.ys[None, :] - np.array(ys, dtype=np.float64)[:, None]
        gap = np.sqrt(px * px + py * py) - discs.rs[None, :] \
            - np.array(rs, dtype=np.float64)[:, None]
        touch = 0.0 + MARGIN
        near = (ENGAGEMENT_HORIZONTAL + EPS if unengaged else 0.0) + MARGIN
        rows, cols = np.nonzero(gap <= near)
        for i, j, g in zip(rows.tolist(), cols.tolist(), gap[rows, cols].tolist(),
                           strict=True):
            friendly, o = others[j]
            if g <= touch and overlaps(end(i), o):
                return True  # R03.01-c
            if unengaged and not friendly and engaged(end(i), o):
                return True  # R09.05-a, R09.07-e
    outs = outlines(scene.terrain)
    for i, (x, y, r) in enumerate(zip(xs, ys, rs, strict=True)):
        # ``ending_violations`` finds nothing for a base at ground level whose box meets no
        # outline's box (its loop skips every feature; the upper-surface test needs z > EPS)
        x0, y0, x1, y1 = x - r, y - r, x + r, y + r
        if starts[i].z <= EPS and all(x1 < o.x0 or x0 > o.x1 or y1 < o.y0 or y0 > o.y1
                                      for o in outs):
            continue
        if ending_violations(scene.terrain, end(i), take_to_skies):
            return True  # R03.01-i, R13.06-e/f/g
    return False
