"""Visibility rules on a scene: 06.01, 13.08-13.11, 22.05, 24.24, 24.33.

:class:`Visibility` prepares a scene once (obstacle arrays, which areas hold which models)
and answers model and unit questions from that cache.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain

import numpy as np
import numpy.typing as npt

from w40k.geometry import kernel_layout, sight_build
from w40k.geometry.cover_far import FarPairs, edge_rows, far_pairs
from w40k.geometry.cover_near import blocker_sure
from w40k.geometry.los import Sight
from w40k.geometry.los_hull import _edge_boxes
from w40k.geometry.measure import ENGAGEMENT_HORIZONTAL, engaged
from w40k.geometry.row_distances import rows_distance_matrix
from w40k.geometry.scene import Scene, Unit
from w40k.geometry.shapes import EPS, FloatArray, Model
from w40k.geometry.sight_order import Tally, next_pair, one_observer_order
from w40k.geometry.sight_tables import SightTables
from w40k.geometry.terrain import PLUNGING_FIRE_HEIGHT

TOWERING_RANGE = 12.0
"""22.05: a TOWERING attacker gets Plunging Fire against targets within 12"."""
COVER_KEYWORDS = ("INFANTRY", "BEASTS", "SWARM")
"""13.08/13.09: keywords that take cover/hide within terrain areas."""


BLOCKED_REASON = "blocked by terrain/models (R06.01-a, R13.10-b, R13.11-a)"
"""Why a target model is not visible: no line of sight."""
PARTIAL_REASON = "only past blockers of intermediate height: convention PARTIAL_HEIGHT"
"""Why a target model is not visible: the PARTIAL_HEIGHT convention."""


_CLEAR, _CONVENTION = Sight.CLEAR, Sight.CONVENTION
"""The raw answers seen (the second only under ``convention_visible``), as module names."""

_NO_HINT = 1 << 30
"""The obstacle count of an open pair the batch never saw (:meth:`Visibility._search_open`:
searched after those it left open)."""


def _hidden_reason(unit: Unit) -> str:
    return f'hidden beyond {unit.detection_range:g}" detection range (R13.09-b)'


def _lone_reason(lone: float | None) -> str:
    return f'Lone Operative beyond {lone:g}" (R24.24-a)'


@dataclass(frozen=True)
class ModelSight:
    """Visibility of one model to one observing model."""

    visible: bool
    """06.01 + 13.09 + 13.10 + 24.24."""
    fully_visible: bool
    """06.01: nothing but the model itself blocks any part facing the observer."""
    terrain_cover: bool
    """13.08 (ii): not fully visible due to terrain features or obscuring areas."""
    sight: Sight
    """The raw line-of-sight answer (terrain, areas, other models)."""
    reason: str = ""
    """Why it is not visible (empty when visible)."""
    witness: tuple[tuple[float, float], tuple[float, float]] | None = None
    """A clear line, when there is one."""


@dataclass(frozen=True)
class PairReport:
    """One ordered unit pair as ``w40k los`` reports it."""

    observer: str
    """Observing unit."""
    target: str
    """Target unit."""
    visible: bool
    """Some observer model sees some target model."""
    fully_visible: bool
    """Some observer model sees every target model fully (06.01 unit fully visible)."""
    cover: bool
    """13.08/24.33: benefit of cover against the attacks of every observer model that sees
    the target; False when none sees it (the pair cannot be attacked)."""
    engaged: bool
    """03.04."""
    plunging_fire: bool
    """22.05 applies to at least one observer model that sees the target."""
    distance: float
    """Closest horizontal distance between the units' models."""
    in_range: bool | None
    """Target within the observer unit's ``range`` (None if no range is given)."""
    reason: str
    """Why the target is not visible (empty when visible)."""
    lines: tuple[tuple[tuple[float, float], tuple[float, float]], ...] = ()
    """Witness sight lines (one per seeing observer model)."""


class Visibility(SightTables):
    """Per-scene cache answering visibility questions (prepare once, ask thousands): the
    rules (06.01, 13.08-13.10, 22.05, 24.24, 24.33) read off the :class:`SightTables`."""

    # slots, as :class:`SightTables`' (its attributes are read at a fixed offset)
    __slots__ = ("_cover_of", "_edge_rows", "_far", "_no_cover_at", "_rows_staged",
                 "_unit_boxes")

    def __init__(
        self, scene: Scene, convention_visible: bool = False, jit: bool | None = None
    ) -> None:
        super().__init__(scene, convention_visible, jit)
        self._far: dict[tuple[int, int], FarPairs] = {}
        """:meth:`_terrain_far` per unit pair."""
        self._edge_rows: np.ndarray | None = None
        """The terrain edges' rows of :func:`cover_far.edge_rows` (made on first need)."""
        self._cover_of: dict[int, np.ndarray] = {}
        """:meth:`_cover_models` per unit."""
        self._no_cover_at: dict[tuple[int, int], int] = {}
        """Per unit pair, the target model that last answered "no cover" in
        :meth:`cover_against` (tried first for the next observer model: an order only)."""
        self._unit_boxes: dict[int, tuple[float, float, float, float]] = {}
        """:meth:`unit_box` per unit."""
        self._rows_staged: set[tuple[int, int, int]] = set()
        """(observer unit, target unit, observer model): rows staged on their own
        (:meth:`stage_rows`); a unit pair in ``_staged`` has every row staged."""

    def unit_box(self, u: int) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax): the box that holds every footprint of unit ``u`` (a
        function of the scene: kept per unit, as each shooting listing of the scene asks it
        for every enemy unit)."""
        hit = self._unit_boxes.get(u)
        if hit is None:
            # (the unit's footprints in order: kept with its models, ``sight_blocks``)
            hit = self._unit_boxes[u] = self._blocks[u].box()
        return hit

    def distances_to(self, ou: int, tus: list[int]) -> FloatArray:
        """``unit_distances(ou, tu)`` of each unit of ``tus`` side by side (columns in that
        order), the pairs not kept yet measured in one ``distance_matrix`` call and kept:
        the same floats (every entry is its own model pair's, whatever other models share
        the call: the matrix is built element by element), one call's cost instead of one
        per unit (a shooting listing measures every enemy unit within reach)."""
        units = self.scene.units
        todo = [tu for tu in dict.fromkeys(tus) if (ou, tu) not in self._dist]
        if len(todo) > 1:
            # ``distance_matrix`` of those models read off the kernel rows (the same floats,
            # :mod:`row_distances`): each unit's models are the consecutive rows from its
            # start, and its block holds their footprints in order (the tables' own)
            starts, blk = self._unit_start, self._blocks
            s0 = int(starts[ou])
            cols = [range(int(starts[tu]), int(starts[tu]) + len(units[tu].models))
                    for tu in todo]
            d = rows_distance_matrix(
                self._geo, self._round, slice(s0, s0 + len(units[ou].models)),
                np.fromiter(chain.from_iterable(cols), dtype=np.int64),
                blk[ou].footprints, [blk[tu].footprints for tu in todo])
            start = 0
            for tu in todo:
                end = start + len(units[tu].models)
                self._dist[(ou, tu)] = d[:, start:end].copy()
                start = end
            if todo == tus:
                return d
        blocks = [self.unit_distances(ou, tu) for tu in tus]
        out: FloatArray = (np.concatenate(blocks, axis=1) if blocks
                           else np.zeros((len(units[ou].models), 0)))
        return out

    def hidden(self, tu: int, tm: int) -> bool:
        """13.09: INFANTRY/BEASTS/SWARM within an area with a dense feature, and its unit made
        no ranged attacks this turn or the previous one."""
        unit = self.scene.units[tu]
        m = unit.models[tm]
        if unit.ranged_attacks_recently or not m.has(*COVER_KEYWORDS):
            return False
        return any(self.dense_area[a] for a in self.areas_of[(tu, tm)])

    def sight_matrix(self, observer: str, target: str) -> np.ndarray:
        """``out[om, tm]``: target model ``tm`` is visible to observer model ``om`` (the same
        answer as ``model_sight(...).visible``: raw sight, the PARTIAL_HEIGHT convention,
        13.09 hidden beyond detection range and 24.24 Lone Operative applied as masks)."""
        ou, tu = self.unit_index[observer], self.unit_index[target]
        raw = self.sight_results(observer, target)
        seen_values = self._seen_values()
        seen = np.array([[r.sight in seen_values for r in row] for row in raw], dtype=bool)
        seen = seen.reshape(len(raw), -1)
        out: np.ndarray = seen & self._rule_mask(ou, tu)
        return out

    def _seen_values(self) -> set[Sight]:
        """Raw sight answers that count as seen (CONVENTION per ``convention_visible``)."""
        return {Sight.CLEAR} | ({Sight.CONVENTION} if self.convention_visible else set())

    def _hidden_models(self, tu: int) -> np.ndarray:
        """``out[tm]``: :meth:`hidden` for every model of unit ``tu`` (kept per scene,
        read-only)."""
        hit = self._hidden_of.get(tu)
        if hit is None:
            unit = self.scene.units[tu]
            n = len(unit.models)
            # kept with the unit's models for this terrain (``sight_blocks``), while the unit
            # made no ranged attacks recently: the same function of keywords and regions
            blk, part = self._blocks[tu], self._part
            kept = None if unit.ranged_attacks_recently else blk.hides.get(id(part))
            if kept is not None and kept[0] is part:
                self._hidden_of[tu] = kept[1]
                return kept[1]
            hit = np.zeros(n, dtype=bool)
            tms = [tm for tm, m in enumerate(unit.models) if m.has(*COVER_KEYWORDS)]
            if tms and not unit.ranged_attacks_recently and any(self.dense_area):
                # :meth:`hidden` of those models off their area rows, in one call (each row
                # its own): within an area (its column, the areas first) with a dense feature
                gids = np.array([self.model_index[(tu, tm)] for tm in tms], dtype=np.int64)
                rows = self._area_rows(gids)[gids, :len(self.dense_area)]
                hit[tms] = (rows & np.array(self.dense_area, dtype=bool)).any(axis=1)
            hit.setflags(write=False)
            self._hidden_of[tu] = hit
            if not unit.ranged_attacks_recently:
                blk.hides[id(part)] = (part, hit)
        return hit

    def _stage_mask(self, ou: int, tu: int) -> np.ndarray:
        """The batched stage decides only the model pairs no rule hides (:meth:`_rule_mask`):
        the visibility questions never read the raw sight of the others (13.09, 24.24), and
        cover reads it only for target models outside every terrain area, which 13.09 never
        hides (a hidden model is within an area) and 24.24 hides from no model that sees
        its unit."""
        return self._rule_mask(ou, tu)

    def staged_size(self, ou: int, tu: int) -> int:
        """How many model pairs :meth:`stage` decides of the unit pair (those no rule hides)."""
        return int(np.count_nonzero(self._rule_mask(ou, tu)))

    def _rule_mask(self, ou: int, tu: int) -> np.ndarray:
        """``mask[om, tm]``: False where a rule hides target model ``tm`` from observer model
        ``om`` whatever the raw sight (13.09 hidden beyond detection range, 24.24 Lone
        Operative beyond its range). A function of the scene, kept per unit pair
        (read-only)."""
        hit = self._masks.get((ou, tu))
        if hit is not None:
            return hit
        units = self.scene.units
        mask = np.ones((len(units[ou].models), len(units[tu].models)), dtype=bool)
        hidden = self._hidden_models(tu)
        lone = units[tu].lone_operative
        # the distances only where a rule reads them (most unit pairs: none)
        if hidden.any():
            d = self.unit_distances(ou, tu)
            mask &= ~(hidden[None, :] & (d > units[tu].detection_range + EPS))
        if lone is not None:
            mask &= ~(self.unit_distances(ou, tu).min(axis=1) > lone + EPS)[:, None]
        mask.setflags(write=False)
        self._masks[(ou, tu)] = mask
        return mask

    def stage_rows(self, rows: dict[tuple[int, int], list[int]]) -> None:
        """:meth:`stage` of only these observer models' rows of each (observer, target) unit
        pair, in one batch: the rows a caller will read (a shooting listing reads those of
        the models with a weapon in range of the target), not the whole unit pair. Each
        model pair's answer is its own, whichever pairs share a batch (``stage_many``); the
        unit pair is not marked staged, so :meth:`stage` later decides its other rows."""
        pairs: list[tuple[int, int]] = []
        masks: list[np.ndarray | None] = []
        for (ou, tu), oms in rows.items():
            todo = [om for om in oms if (ou, tu, om) not in self._rows_staged]
            if (ou, tu) in self._staged or not todo:
                continue
            self._rows_staged.update((ou, tu, om) for om in todo)
            mask = self._rule_mask(ou, tu)
            if len(todo) == len(mask) and len(set(todo)) == len(todo):
                keep = mask  # every row (the batch only reads a mask: the kept one, read-only)
            else:
                keep = np.zeros_like(mask)
                keep[todo] = mask[todo]
            pairs.append((ou, tu))
            masks.append(keep)
        if pairs:
            self._batch_stage(pairs, masks)

    def seeing_observers(self, unit_pairs: list[tuple[str, str]]) -> list[np.ndarray]:
        """For each (observer, target) unit pair, ``out[om]``: observer model ``om`` sees some
        target model; the same answer as ``sight_matrix(observer, target).any(axis=1)`` (so
        ``out.any()`` is unit visibility, 06.01), computed with an early exit: the batch runs
        on every model pair, but the slow per-pair search runs only for the open pairs of
        observer models not yet known to see the target, and stops for that observer model at
        its first seen target model; pairs a rule hides (13.09, 24.24) are never searched.
        Open pairs it skips are not cached (a later :meth:`raw_sight` computes them)."""
        idx = [(self.unit_index[a], self.unit_index[b]) for a, b in unit_pairs]
        self._batch_stage(idx)
        seen_values = self._seen_values()
        cache = self._raw_cache
        units = self.scene.units
        out: list[np.ndarray] = []
        for ou, tu in idx:
            mask = self._rule_mask(ou, tu)
            nt = len(units[tu].models)
            row_seen = np.zeros(len(units[ou].models), dtype=bool)
            for om in range(len(row_seen)):
                later: list[tuple[int, int, int, int]] = []
                for tm in range(nt):
                    if not mask[om, tm]:
                        continue
                    k = (ou, om, tu, tm)
                    r = cache.get(k)
                    if r is None:
                        later.append(k)
                    elif r.sight in seen_values:
                        row_seen[om] = True
                        break
                if row_seen[om]:
                    continue
                for k in later:
                    r = self._exact_sight(*k)
                    cache[k] = r
                    if r.sight in seen_values:
                        row_seen[om] = True
                        break
            out.append(row_seen)
        return out

    def unit_sees(self, ou: int, tu: int) -> bool:
        """06.01 at unit level: some model of unit ``ou`` sees some model of unit ``tu`` (the
        same answer as ``any(visible(ou, om, tu, tm))`` over every model pair, and as
        ``sight_matrix(...).any()``). The pair's batch is staged first; a model pair already
        known to be seen answers at once, and the slow per-pair search runs only when no
        known answer shows the target, in model order, up to the first seen pair."""
        self.stage(ou, tu)
        mask = self._rule_mask(ou, tu)
        # 13.09 / 24.24: a masked pair is hidden whatever the sight
        return self._any_seen((ou, om, tu, tm) for om in range(mask.shape[0])
                              for tm in range(mask.shape[1]) if mask[om, tm])

    def model_sees(self, ou: int, om: int, tu: int) -> bool:
        """06.01: observer model ``om`` of unit ``ou`` sees some model of unit ``tu`` (the same
        answer as ``any(visible(ou, om, tu, tm))`` over the target models): the pair's batch
        is staged first (the model's row is enough, :meth:`stage_rows`), the known answers
        are read first, and the slow per-pair search runs only when none shows the target,
        in model order, up to the first seen model."""
        if (ou, tu, om) not in self._rows_staged:  # (the row alone: ``stage_rows``)
            self.stage(ou, tu)
        mask = self._rule_mask(ou, tu)[om]
        # 13.09 / 24.24: a masked pair is hidden whatever the sight
        return self._any_seen((ou, om, tu, tm) for tm in range(len(mask)) if mask[tm])

    def _any_seen(self, pairs: Iterable[tuple[int, int, int, int]]) -> bool:
        """Some model pair of ``pairs`` is visible: the known answers (kept visibility, raw
        sight) are read first, and the slow per-pair search runs only for the open pairs, in
        order, up to the first seen one."""
        # (membership of ``_seen_values()`` as identity tests: a Sight is an Enum, whose
        # members are singletons compared by identity; its ``__hash__`` is Python code)
        conv = self.convention_visible
        raw, seen_cache = self._raw_cache, self._seen_cache
        open_pairs: list[tuple[int, int, int, int]] = []
        for k in pairs:
            known = seen_cache.get(k)
            if known is not None:
                if known[0]:
                    return True
                continue
            r = raw.get(k)
            if r is None:
                open_pairs.append(k)
            elif (s := r.sight) is _CLEAR or (conv and s is _CONVENTION):
                return True
        return self._search_open(open_pairs)

    def _search_open(self, pairs: list[tuple[int, int, int, int]]) -> bool:
        """Some open pair of ``pairs`` is visible: searched one by one up to the first seen
        pair, the pairs with the fewest obstacles near their centre line first (the count
        the batch that left them open kept, ``SightTables._hint``: a pair with fewer is
        likelier seen, and a search among fewer costs less), then in the order of
        :func:`sight_order.next_pair` (the pairs whose observer and target models are least
        often known hidden first, then nearest first). Only the number of searches depends
        on the order: the answer is whether some pair is seen, and each pair's answer is
        its own (kept under its own key whenever it is searched)."""
        if len(pairs) < 2:
            return any(self.visible(*k) for k in pairs)
        ou, tu = pairs[0][0], pairs[0][2]
        if len({k[:3] for k in pairs}) == 1 and len({k[3] for k in pairs}) == len(pairs):
            # one observer model (``model_sees``): the same order, computed at once
            return any(self.visible(*k) for k in one_observer_order(
                pairs, self._hint, self._seen_cache, self._raw_cache, self.convention_visible,
                len(self.scene.units[ou].models), self.unit_distances(ou, tu), _NO_HINT))
        tally = self._known_tally({(k[0], k[2]) for k in pairs})
        dist = {k: float(self.unit_distances(k[0], k[2])[k[1], k[3]]) for k in pairs}
        # fewest obstacles first: the batch's count for the pairs it left open (``_hint``),
        # the other pairs (non-round bases, never batched) last
        hint = self._hint
        kept = {k: hint.get(k, _NO_HINT) for k in pairs}
        left = list(pairs)
        while left:
            fewest = min(kept[k] for k in left)
            k = next_pair([k for k in left if kept[k] == fewest], tally, dist)
            left.remove(k)
            if self.visible(*k):
                return True
            tally.hidden(k)
        return False

    def _known_tally(self, unit_pairs: set[tuple[int, int]]) -> Tally:
        """The known answers (kept visibility, raw sight) of every model pair of these unit
        pairs, counted per observer model and per target model."""
        conv = self.convention_visible  # (``_seen_values()`` as identity tests)
        raw, seen_cache = self._raw_cache, self._seen_cache
        units = self.scene.units
        tally = Tally()
        for ou, tu in unit_pairs:
            for om in range(len(units[ou].models)):
                for tm in range(len(units[tu].models)):
                    k = (ou, om, tu, tm)
                    known = seen_cache.get(k)
                    if known is not None:
                        tally.add(k, known[0])
                        continue
                    r = raw.get(k)
                    if r is not None:
                        tally.add(k, (s := r.sight) is _CLEAR or (conv and s is _CONVENTION))
        return tally

    def visible(self, ou: int, om: int, tu: int, tm: int) -> bool:
        """06.01 with 13.09 and 24.24: is target model ``tm`` visible to observer model
        ``om``? (``model_sight(...).visible`` without computing full visibility and cover; a
        pair a rule hides (:meth:`_rule_mask`) is not, whatever its raw sight.)"""
        if not self._rule_mask(ou, tu)[om, tm]:
            return False
        return self._seen(ou, om, tu, tm)[0]

    def _seen(self, ou: int, om: int, tu: int, tm: int) -> tuple[bool, str]:
        """Visible, and why not: raw sight (06.01, 13.10, 13.11) with the PARTIAL_HEIGHT
        convention, then 13.09 hidden beyond detection range and 24.24 Lone Operative."""
        key = (ou, om, tu, tm)
        cached = self._seen_cache.get(key)
        if cached is not None:
            return cached
        units = self.scene.units
        res = self.raw_sight(ou, om, tu, tm)
        reason = ""
        seen = res.sight is Sight.CLEAR or (
            res.sight is Sight.CONVENTION and self.convention_visible
        )
        if not seen:
            reason = BLOCKED_REASON if res.sight is Sight.BLOCKED else PARTIAL_REASON
        if (seen and self.hidden(tu, tm)
                and float(self.unit_distances(ou, tu)[om, tm]) > units[tu].detection_range + EPS):
            seen, reason = False, _hidden_reason(units[tu])
        # 24.24: measured from the observer to the Lone Operative unit (closest model); its
        # range (parsed off the unit's abilities) is read only for a pair still seen
        if seen:
            lone = units[tu].lone_operative
            if lone is not None and float(self.unit_distances(ou, tu)[om].min()) > lone + EPS:
                seen, reason = False, _lone_reason(lone)
        self._seen_cache[key] = (seen, reason)
        return seen, reason

    def model_sight(self, ou: int, om: int, tu: int, tm: int) -> ModelSight:
        """Everything about one target model as seen by one observer model."""
        key = (ou, om, tu, tm)
        if key in self._pair_cache:
            return self._pair_cache[key]
        res = self.raw_sight(ou, om, tu, tm)
        seen, reason = self._seen(ou, om, tu, tm)
        flags = self._hull_flags(ou, om, tu, tm)
        fully = seen and not flags & 1
        terrain_cover = bool(_terrain_cover(flags, res.sight is Sight.CLEAR))
        out = ModelSight(
            seen, fully, terrain_cover, res.sight, reason, res.witness if seen else None
        )
        self._pair_cache[key] = out
        return out

    def model_visible(self, observer: tuple[str, int], target: tuple[str, int]) -> bool:
        """Is model ``target`` (unit name, index) visible to model ``observer``?"""
        ou, tu = self.unit_index[observer[0]], self.unit_index[target[0]]
        return self.visible(ou, observer[1], tu, target[1])

    def _cover_models(self, tu: int) -> np.ndarray:
        """13.08 (i) per target model: INFANTRY/BEASTS/SWARM within a terrain area (a function
        of the scene: kept per unit, read-only)."""
        hit = self._cover_of.get(tu)
        if hit is None:
            models = self.scene.units[tu].models
            hit = np.array([m.has(*COVER_KEYWORDS) for m in models], dtype=bool)
            if hit.any():
                # bool(areas_of[(tu, tm)]): some terrain area's column of the model's
                # membership row is set (the areas are the first columns, the gap fillers
                # after them); a unit's models are consecutive global models, and every
                # row is its model's own whenever it is filled (sight_terrain.fill_area_rows):
                # the same answers as model by model, in one slice
                g0, n = self.model_index[(tu, 0)], len(models)
                rows = self._area_rows(np.arange(g0, g0 + n, dtype=np.int64))
                hit &= rows[g0:g0 + n, :len(self.scene.terrain.areas)].any(axis=1)
            hit.setflags(write=False)
            self._cover_of[tu] = hit
        return hit

    def cover_against(self, ou: int, om: int, tu: int) -> bool:
        """13.08 and 24.33: does unit ``tu`` have the benefit of cover against a ranged attack
        by model ``om`` of unit ``ou``?"""
        target = self.scene.units[tu]
        if target.stealth:
            return True
        # every model must have cover, so the order of the checks changes no answer: per
        # model the cheap ones (raw sight, the proof that no terrain is near), then for a
        # model seen CLEAR the terrain-only full visibility test, which answers it alone
        # (:meth:`_terrain_covers`); a model not seen CLEAR by its HULL_RAMP flags.
        # The models most likely to answer "no cover" cheaply come first: the one that
        # answered it for the unit's last observer model, then those seen CLEAR (known
        # already), then those whose sight is not known yet, then the others
        rest = [tm for tm, in_area in enumerate(self._cover_models(tu)) if not in_area]
        far = self._terrain_far(ou, tu)
        raw = self._raw_cache
        seen: list[int] = []
        open_: list[int] = []
        unseen: list[int] = []
        for tm in rest:
            r = raw.get((ou, om, tu, tm))
            if r is None:
                open_.append(tm)
            elif r.sight is not Sight.CLEAR:
                unseen.append(tm)
            elif far is not None and far[om, tm]:
                # R13.08-a: seen CLEAR with no terrain near the pair: no cover, nor for its unit
                return False
            else:
                seen.append(tm)
        order = seen + open_ + unseen
        last = self._no_cover_at.get((ou, tu))
        if last is not None and last in order and order[0] != last:
            order.remove(last)
            order.insert(0, last)
        for tm in order:
            key = (ou, om, tu, tm)
            cached = self._pair_cache.get(key)
            if cached is not None:
                covered = cached.terrain_cover
            elif (far is not None and key not in raw and not far[om, tm]
                  and self._terrain_covers(ou, om, tu, tm)):
                # R13.08-a: the terrain alone hides a facing point, so bit 2 is set whatever
                # the raw sight (the flags' terrain owners are the test's blockers): no
                # per-pair search for a model whose sight is not known yet
                covered = True
            elif self.raw_sight(ou, om, tu, tm).sight is not Sight.CLEAR:
                # R13.08-a: a terrain blocker proven without the pair hull is bit 2
                covered = (self._terrain_blocker(ou, om, tu, tm)
                           or bool(_terrain_cover(self._ramp_flags(ou, om, tu, tm), False)))
            elif far is not None and far[om, tm]:
                # no terrain near the pair (:mod:`cover_far`)
                covered = False
            elif key in self._refined:
                covered = bool(self._refined[key] & 2)
            elif self.jit and not self._ramp_flags(ou, om, tu, tm) & 2:
                # HULL_RAMP names no terrain (the compiled flags cost less than the test)
                covered = False
            else:
                # R13.08-a: the terrain-only test is bit 2 itself (:meth:`_terrain_covers`)
                covered = self._terrain_covers(ou, om, tu, tm)
            if not covered:
                self._no_cover_at[(ou, tu)] = tm
                return False
        return True

    def _terrain_covers(self, ou: int, om: int, tu: int, tm: int) -> bool:
        """:meth:`terrain_hides` (bit 2 of the refined flags, 13.08 (ii)) of a pair whose raw
        sight is CLEAR, as the terrain-only test's answer: not fully visible with the
        terrain features and obscuring areas alone. The same answer: that test starts with
        HULL_RAMP's blockers among the terrain (:func:`full_visibility._facing_base`), which
        are the terrain owners among the pair's blockers (an edge counts whatever the other
        edges are, :func:`los_hull.hull_blockers`), so it says fully visible where the flags
        have no bit 2; where they have it, the refinement gives bit 2 exactly when the
        terrain alone hides a facing point (a point hidden among the terrain is hidden
        among every obstacle, and is tested there too: the base sample and the cuts of a
        subset of the blockers' vertices). The flags themselves are not computed (they
        cost as much as the test's own blockers)."""
        return not self._terrain_test(ou, om, tu, tm)[0]

    def _terrain_blocker(self, ou: int, om: int, tu: int, tm: int) -> bool:
        """Bit 2 of :meth:`_ramp_flags` known set without the pair hull: the kept flags', or
        a terrain feature or obscuring area of the pair's obstacles proven one of HULL_RAMP's
        blockers by :func:`cover_near.blocker_sure` (an edge counts whatever the other edges
        are). False: not known."""
        cached = self._ramp.get((ou, om, tu, tm))
        if cached is not None:
            return bool(cached & 2)
        if self.jit:
            return False
        o, t = self.scene.units[ou].models[om], self.scene.units[tu].models[tm]
        return blocker_sure(self.footprints[(ou, om)], self.footprints[(tu, tm)], t.z, o.top,
                            self._terrain_of(self._obstacles_for(ou, om, tu, tm)))

    def _terrain_far(self, ou: int, tu: int) -> FarPairs | None:
        """``far[om, tm]``: no terrain feature, obscuring area or gap filler of the pair's
        obstacles (but the regions either model is within, 13.10) comes near the box and
        the strip of the two models' outlines, so HULL_RAMP's bit 2 is 0 for that pair
        (:func:`cover_far.terrain_far`, asked pair by pair: :class:`cover_far.FarPairs`;
        kept per unit pair). None with the compiled kernels, whose flags cost less than
        this test."""
        if self.jit:
            return None
        hit = self._far.get((ou, tu))
        if hit is None:
            rows = self._edge_rows
            if rows is None:
                ter = sight_build.terrain_obstacles(self._part.items)
                emin, emax = _edge_boxes(ter)
                rows = self._edge_rows = edge_rows(ter, emin, emax, self.owner_area[ter.owner])
            units, fps, index = self.scene.units, self.footprints, self.model_index
            no, nt = len(units[ou].models), len(units[tu].models)

            me = weakref.ref(self)  # the proof is kept here: no cycle back to the tables

            def regions() -> tuple[np.ndarray, np.ndarray]:
                go = [index[(ou, m)] for m in range(no)]
                gt = [index[(tu, m)] for m in range(nt)]
                tables = me()
                assert tables is not None, "a terrain proof read after its tables were freed"
                member = tables._area_rows(np.array(go + gt, dtype=np.int64))
                return member[go], member[gt]

            hit = self._far[(ou, tu)] = far_pairs(
                rows, [fps[(ou, m)] for m in range(no)], [fps[(tu, m)] for m in range(nt)],
                regions)
        return hit

    def unit_fully_visible(self, ou: int, om: int, tu: int) -> bool:
        """06.01 unit fully visible: every model of unit ``tu`` is fully visible to model
        ``om`` of unit ``ou`` (the target's own models never hide each other)."""
        self.stage(ou, tu)
        return all(not self._hull_flags(ou, om, tu, tm) & 1
                   for tm in range(len(self.scene.units[tu].models)))

    def _plunging_position(self, ou: int, om: int, tu: int) -> bool:
        """22.05 without the visibility condition: no AIRCRAFT, a target model on ground level,
        and the attacker on a section 3"+ high or TOWERING with the target within 12"."""
        units = self.scene.units
        o = units[ou].models[om]
        target = units[tu]
        if o.has("AIRCRAFT") or any(m.has("AIRCRAFT") for m in target.models):
            return False  # R22.05-c
        if not any(m.z <= EPS for m in target.models):
            return False
        if self.scene.terrain.section_height_under(o) >= PLUNGING_FIRE_HEIGHT - EPS:
            return True
        return (
            o.has("TOWERING")
            and float(self.unit_distances(ou, tu)[om].min()) <= TOWERING_RANGE + EPS
        )

    def plunging_fire(self, ou: int, om: int, tu: int) -> bool:
        """22.05: +1 BS when the target unit is visible and has a model on ground level, and the
        attacker stands on a section 3"+ high or is TOWERING with the target within 12"."""
        n = len(self.scene.units[tu].models)
        return self._plunging_position(ou, om, tu) and any(
            self.visible(ou, om, tu, tm) for tm in range(n)
        )

    def unit_pair(self, observer: str, target: str) -> PairReport:
        """The ``w40k los`` report for one ordered pair of units: the answers of
        :meth:`model_sight`, :meth:`cover_against` and :meth:`plunging_fire`, computed over
        the whole unit pair at once."""
        ou, tu = self.unit_index[observer], self.unit_index[target]
        units = self.scene.units
        ounit, tunit = units[ou], units[tu]
        dist = self.unit_distances(ou, tu)
        status, w, flags = self._pair_tables(ou, tu)
        raw_seen = status == kernel_layout.CLEAR
        if self.convention_visible:
            raw_seen |= status == kernel_layout.CONVENTION
        # 13.09: hidden models beyond detection range; 24.24: Lone Operative beyond its range
        hidden = self._hidden_models(tu)
        hid = raw_seen & hidden[None, :] & (dist > tunit.detection_range + EPS)
        seen = raw_seen & ~hid
        lone = tunit.lone_operative
        lone_hit = np.zeros_like(seen)
        if lone is not None:
            lone_hit = seen & (dist.min(axis=1) > lone + EPS)[:, None]
            seen &= ~lone_hit
        seers = [int(om) for om in np.nonzero(seen.any(axis=1))[0]]
        visible = bool(seers)
        fully = bool((seen & (flags & 1 == 0)).all(axis=1).any())
        terrain_cover = _terrain_cover(flags, status == kernel_layout.CLEAR)
        # 13.08 is about attacks: a unit no observer model sees cannot be attacked, so the
        # report gives no cover (nor Stealth's, 24.33) for a pair that is not visible.
        cover = visible and (
            tunit.stealth
            or bool((self._cover_models(tu)[None, :] | terrain_cover[seers]).all())
        )
        plunging = any(self._plunging_position(ou, om, tu) for om in seers)
        eng = bool((dist <= ENGAGEMENT_HORIZONTAL + EPS).any()) and any(
            engaged(a, b) for a in ounit.models for b in tunit.models
        )
        in_range = None
        if ounit.weapon_range is not None:
            in_range = bool((dist <= ounit.weapon_range + EPS).any())
        reason = ""
        if not visible:
            if lone_hit.any():
                reason = _lone_reason(lone)
            elif hid.any():
                reason = _hidden_reason(tunit)
            elif ((status == kernel_layout.CONVENTION) & ~raw_seen).any():
                reason = PARTIAL_REASON
            else:
                reason = BLOCKED_REASON
        lines = []
        for om in seers:
            cols = np.nonzero(seen[om] & (status[om] == kernel_layout.CLEAR))[0]
            if len(cols):
                x0, y0, x1, y1 = (float(c) for c in w[om, int(cols[0])])
                lines.append(((x0, y0), (x1, y1)))
        return PairReport(
            observer,
            target,
            visible,
            fully,
            cover,
            eng,
            plunging,
            float(dist.min()),
            in_range,
            reason,
            tuple(lines),
        )

    def all_pairs(self) -> list[PairReport]:
        """Every ordered pair of units of different players."""
        out: list[PairReport] = []
        ui = self.unit_index
        self.prepare(
            [
                (ui[a.name], ui[b.name])
                for a in self.scene.units
                for b in self.scene.units
                if a.player != b.player
            ]
        )
        for a in self.scene.units:
            for b in self.scene.units:
                if a.player != b.player:
                    out.append(self.unit_pair(a.name, b.name))
        return out


def _terrain_cover(flags: npt.ArrayLike, clear: npt.ArrayLike) -> np.ndarray:
    """13.08 (ii) from the :meth:`Visibility._hull_flags` bits and whether the raw sight is
    CLEAR (scalars or arrays): not fully visible *due to* terrain features or obscuring areas
    (bit 2). A model whose sight is not CLEAR gets it only when no other unit's model is among
    its blockers (flags 0: terrain alone can be in the way); third units' models hide a model
    (06.01) but never give it cover."""
    f = np.asarray(flags)
    out: np.ndarray = ((f & 2) != 0) | (~np.asarray(clear, dtype=bool) & (f == 0))
    return out


def unit_visible(vis: Visibility, observer: Unit, target: Unit) -> bool:
    """06.01: a unit is visible if one or more of its models is visible."""
    return vis.unit_pair(observer.name, target.name).visible


def ground_level(m: Model) -> bool:
    """On ground level (z = 0)."""
    return m.z <= EPS
