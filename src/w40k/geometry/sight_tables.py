"""Per-scene sight tables: the obstacles, which terrain areas hold each model, raw line of
sight for model pairs (numpy, batched, or the compiled kernels) and the full-visibility
flags (06.01, 13.08 (ii), 13.10, 13.11). :class:`w40k.geometry.visibility.Visibility`
reads the rules off these tables."""


from __future__ import annotations

import weakref
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from w40k.geometry import (
    kernel_layout,
    sight_blocks,
    sight_build,
    sight_known,
    sight_memo,
    sight_stage,
    sight_units,
    stage_rows,
)
from w40k.geometry.full_visibility import facing_test_points, hidden_facing_point
from w40k.geometry.kernel_cache import NUMBA_INSTALLED, use_kernels
from w40k.geometry.los import Obstacles, Sight, SightResult, line_of_sight
from w40k.geometry.los_batch import BLOCKED, CLEAR, UNDECIDED, batch_sight
from w40k.geometry.los_hull import hull_blockers
from w40k.geometry.row_distances import rows_distance_matrix
from w40k.geometry.scene import Scene
from w40k.geometry.shapes import FloatArray, Shape
from w40k.geometry.sight_terrain import (
    _KIND_CODE,
    Kind,
    _terrain_part,
    fill_area_rows,
    kind_arrays,
)

if TYPE_CHECKING:
    from w40k.geometry.visibility import ModelSight

class _AreasOf(dict[tuple[int, int], frozenset[int]]):
    """Lazy map (unit, model) -> indices of the terrain areas that hold the model (read from
    the membership matrix of :meth:`SightTables._area_rows`)."""

    def __init__(self, vis: SightTables) -> None:
        super().__init__()
        # a weak reference: the tables hold this map, so a strong one would be a cycle that
        # only the garbage collector frees (a game drops a Visibility at every scene change)
        self._vis = weakref.ref(vis)

    def __missing__(self, key: tuple[int, int]) -> frozenset[int]:
        vis = self._vis()
        assert vis is not None, "areas_of read after its tables were freed"
        n_areas = len(vis.scene.terrain.areas)
        # the terrain areas among the model's columns (areas first, then gap fillers)
        out = frozenset(c for c in vis._regions(vis.model_index[key]) if c < n_areas)
        self[key] = out
        return out


class SightTables:
    """A scene prepared for line-of-sight questions (obstacle arrays, area membership,
    kernel rows), with the raw sight and full-visibility answers cached per model pair."""

    # Slots: the tables hold more attributes (51 with :class:`Visibility`'s) than CPython
    # 3.11 keeps inline in an object's ``__dict__`` (30 names), so that dict was a real one
    # and every attribute read (~100k a k = 5 game) cost ~270 instructions more; a slot is
    # read at a fixed offset. ``__dict__`` stays for anything else set on the tables (tests
    # patch methods on an instance), ``__weakref__`` for the interventions' kept answer.
    __slots__ = (
        "__dict__", "__weakref__", "_blocks", "_dist", "_facts_cache", "_fp", "_geo",
        "_hidden_of", "_hint", "_in_area", "_in_area_known", "_is_model", "_kind_code",
        "_kscene", "_masks",
        "_memo_keys", "_obs_cache", "_others", "_pair_cache", "_part", "_ramp", "_raw_cache",
        "_refined", "_regions_of", "_relevant", "_round", "_seen_cache", "_staged",
        "_ter_cache", "_ter_tests", "_unit_start", "_unit_tokens", "_walled", "_walled_due",
        "areas_of",
        "convention_visible", "dense_area", "footprints", "gap_fillers", "jit", "kinds",
        "model_index", "model_owner", "models", "obstacles", "owner_area", "owner_unit",
        "scene", "unit_index",
    )

    def __init__(
        self, scene: Scene, convention_visible: bool = False, jit: bool | None = None
    ) -> None:
        """``convention_visible`` decides Sight.CONVENTION cases (default: not visible).
        ``jit``: use the compiled kernels (:mod:`los_kernel`) for every model pair (round
        bases, ovals, FRAME hulls); default (:func:`kernel_cache.use_kernels`): when numba is
        installed (the ``fast`` extra), ``W40K_JIT`` is not 0, the scene has at least
        ``JIT_MIN_MODELS`` models and the kernels are already compiled (else they are compiled
        in the background for next time). The answers are the same either way."""
        if jit and not NUMBA_INSTALLED:
            raise ValueError("Visibility(jit=True) needs numba: pip install 'w40k[fast]'")
        n_models = sum(len(u.models) for u in scene.units)
        self.jit = use_kernels(n_models) if jit is None else jit
        self.scene = scene
        self.convention_visible = convention_visible
        terrain = scene.terrain
        part = self._part = _terrain_part(terrain)
        n_items = len(part.items)
        self.gap_fillers = part.gap_fillers
        """R13.11-b: filled gaps between dense features; column ``A + i`` of the membership
        matrix (a model within one ignores it, as 13.10 ignores areas a model is within)."""
        self.models: list[tuple[int, int]] = []
        self.model_index: dict[tuple[int, int], int] = {}
        self.model_owner: dict[tuple[int, int], int] = {}
        self.footprints: dict[tuple[int, int], Shape] = {}
        owner_unit = list(part.owner_unit)
        # each unit's models' footprints, obstacle rows and kernel rows, kept per models
        # tuple and joined (:mod:`sight_blocks`: the same arrays as model by model)
        blocks = self._blocks = sight_blocks.unit_blocks([u.models for u in scene.units])
        self._unit_start = stage_rows.unit_starts([len(blk.models) for blk in blocks])
        for ui, blk in enumerate(blocks):
            g, n = len(self.models), len(blk.models)
            keys = [(ui, mi) for mi in range(n)]
            self.models += keys
            self.model_index.update(zip(keys, range(g, g + n), strict=True))
            self.model_owner.update(zip(keys, range(n_items + g, n_items + g + n), strict=True))
            self.footprints.update(zip(keys, blk.footprints, strict=True))
            owner_unit += [ui] * n
        # models block as columns from the ground to their top (COLUMN convention)
        self.obstacles = sight_blocks.join_obstacles(part.items, blocks)
        self.kinds = [*part.kinds, *([Kind.MODEL] * n_models)]
        self.owner_unit = np.asarray(owner_unit, dtype=np.int64)
        self.owner_area = np.asarray([*part.owner_area, *([-1] * n_models)], dtype=np.int64)
        self.unit_index = {u.name: i for i, u in enumerate(scene.units)}
        self.areas_of: dict[tuple[int, int], frozenset[int]] = _AreasOf(self)
        """Terrain areas holding each model, computed on first use (most are never asked)."""
        self.dense_area = list(part.dense_area)
        self._dist: dict[tuple[int, int], FloatArray] = {}
        self._pair_cache: dict[tuple[int, int, int, int], ModelSight] = {}
        self._seen_cache: dict[tuple[int, int, int, int], tuple[bool, str]] = {}
        self._obs_cache: dict[tuple[int, int, frozenset[int]], Obstacles] = {}
        self._raw_cache: dict[tuple[int, int, int, int], SightResult] = {}
        """Raw sight answers known in this scene (the batched path and the searches), kept
        under both orders of the pair (:meth:`_keep_raw`)."""
        self._in_area = np.zeros(
            (len(self.models), len(terrain.areas) + len(self.gap_fillers)), dtype=bool
        )
        self._in_area_known = np.zeros(len(self.models), dtype=bool)
        # per model the kernels' footprint row (cx, cy, r, top, level, shape, ...) and the
        # polygon table of FRAME hulls (kernel_layout.shape_rows)
        self._geo, self._fp = sight_blocks.join_rows(blocks)
        self._round = self._geo[:, 5] == kernel_layout.ROUND
        self._kscene: kernel_layout.KernelScene | None = None
        self._facts_cache: dict[tuple[int, int], tuple[np.ndarray, FloatArray, np.ndarray]] = {}
        self._refined: dict[tuple[int, int, int, int], int] = {}
        self._ramp: dict[tuple[int, int, int, int], int] = {}
        self._is_model, self._kind_code = kind_arrays(part.kinds, n_models)
        self._staged: set[tuple[int, int]] = set()
        self._hint: dict[tuple[int, int, int, int], int] = {}  # (Visibility._search_open)
        self._relevant: dict[tuple[int, int, int, int], np.ndarray] = {}  # (_search_sight)
        self._ter_cache: dict[int, tuple[Obstacles, Obstacles]] = {}
        self._ter_tests: dict[tuple[int, int, int, int], tuple[bool, FloatArray | None]] = {}
        self._memo_keys: dict[tuple[int, int, int, int], tuple[object, ...]] = {}
        self._unit_tokens: list[int] = []
        """:meth:`_others_token`'s terrain token, then one token per unit."""
        self._others: dict[tuple[int, int], tuple[int, ...]] = {}
        self._walled: dict[tuple[int, int], bool] = {}
        self._walled_due: set[tuple[int, int]] = set()
        self._regions_of: dict[int, frozenset[int]] = {}
        """Per global model index, the columns of :meth:`_area_rows` that hold it (areas,
        then gap fillers)."""
        self._masks: dict[tuple[int, int], np.ndarray] = {}
        """``Visibility._rule_mask`` per unit pair."""
        self._hidden_of: dict[int, np.ndarray] = {}
        """``Visibility._hidden_models`` per unit."""

    def _obstacles_for(self, ou: int, om: int, tu: int, tm: int) -> Obstacles:
        """06.01: ignore the two units' own models; 13.10: ignore areas either model is in
        (and R13.11-b gap fillers either model is in)."""
        og, tg = self.model_index[(ou, om)], self.model_index[(tu, tm)]
        ex_areas = self._regions(og) | self._regions(tg)
        key = (min(ou, tu), max(ou, tu), ex_areas)
        cached = self._obs_cache.get(key)
        if cached is not None:
            return cached
        keep_owner = (self.owner_unit != ou) & (self.owner_unit != tu)
        if ex_areas:
            keep_owner &= ~np.isin(self.owner_area, np.fromiter(ex_areas, dtype=np.int64))
        obs = self.obstacles
        out = obs.subset(keep_owner[obs.owner], keep_owner[obs.vert_owner])
        self._obs_cache[key] = out
        return out

    def _regions(self, g: int) -> frozenset[int]:
        """The columns of :meth:`_area_rows` (terrain areas, then R13.11-b gap fillers) that
        hold global model ``g`` (kept per model: a pair's are the union of its two models')."""
        hit = self._regions_of.get(g)
        if hit is None:
            rows = self._area_rows_of(g, g)
            hit = self._regions_of[g] = frozenset(int(c) for c in np.nonzero(rows[g])[0])
        return hit

    def _memo_key(self, ou: int, om: int, tu: int, tm: int) -> tuple[object, ...]:
        """What a pair's sight answers depend on (:mod:`sight_memo`): both footprints, their
        levels and tops, the pair's obstacles and the path (kernels or numpy)."""
        key = (ou, om, tu, tm)
        hit = self._memo_keys.get(key)
        if hit is None:
            o, t = self.scene.units[ou].models[om], self.scene.units[tu].models[tm]
            og, tg = self.model_index[(ou, om)], self.model_index[(tu, tm)]
            hit = self._memo_keys[key] = (
                self.jit, self.footprints[(ou, om)], o.z, o.top, self.footprints[(tu, tm)],
                t.z, t.top, self._others_token(ou, tu), self._regions(og) | self._regions(tg),
            )
        return hit

    def _others_token(self, ou: int, tu: int) -> tuple[int, ...]:
        """What the obstacles of every model pair of units ``ou`` and ``tu`` are made of,
        before the areas a pair ignores (:meth:`_obstacles_for` leaves out the two units'
        models and the regions either model is within, and keeps the rest in order): the
        terrain's token, then each other unit's (:func:`sight_memo.token`: equal tokens, equal
        content). With the pair's ignored regions it names the pair's obstacles exactly, as
        :func:`sight_memo.digest` of the arrays would, without building and hashing them."""
        key = (ou, tu) if ou <= tu else (tu, ou)
        hit = self._others.get(key)
        if hit is None:
            if not self._unit_tokens:
                part = self._part
                # the terrain's items (their arrays and kinds) and which region owns each
                terrain = sight_build.terrain_obstacles(part.items)
                codes = np.array([_KIND_CODE[k] for k in part.kinds], dtype=np.int64)
                self._unit_tokens.append(sight_memo.token(
                    (sight_memo.digest(terrain, codes), part.owner_area)))
                # a model's obstacle is its footprint as a column up to its top (each unit's
                # token kept with its models, ``sight_blocks``)
                self._unit_tokens += [blk.token() for blk in self._blocks]
            toks = self._unit_tokens
            hit = self._others[key] = (toks[0], *(x for u, x in enumerate(toks[1:])
                                                  if u not in key))
        return hit

    def unit_distances(self, ou: int, tu: int) -> FloatArray:
        """Horizontal distances between every model of two units (cached)."""
        key = (ou, tu)
        if key not in self._dist:
            # ``distance_matrix``'s floats off the kernel rows (:mod:`row_distances`)
            blk, so, st = self._blocks, int(self._unit_start[ou]), int(self._unit_start[tu])
            self._dist[key] = rows_distance_matrix(
                self._geo, self._round, slice(so, so + len(blk[ou].models)),
                slice(st, st + len(blk[tu].models)), blk[ou].footprints, [blk[tu].footprints])
        return self._dist[key]

    def _area_rows(self, gids: np.ndarray) -> np.ndarray:
        """The model x region membership matrix (``TerrainArea.holds``: any part of the
        footprint within the area; columns: the terrain areas, then the R13.11-b gap
        fillers), filled for these global model indices (and for every other model whose row
        is not filled yet); round bases at once."""
        if self._in_area_known[gids].all():
            return self._in_area  # most calls: every row already filled
        return fill_area_rows(self)

    def warm(self) -> None:
        """Build the scene-level tables now rather than on first use: which terrain areas hold
        every model and, with the compiled kernels, the obstacles in their layout."""
        self._area_rows(np.arange(len(self.models), dtype=np.int64))
        if self.jit:
            self._kernel_scene()

    def _area_rows_of(self, og: int, tg: int) -> np.ndarray:
        """The model x area matrix with these two models' rows filled."""
        known = self._in_area_known
        if not (known[og] and known[tg]):
            self._area_rows(np.array([og, tg], dtype=np.int64))
        return self._in_area

    def prepare(self, unit_pairs: list[tuple[int, int]]) -> None:
        """Compute the raw sight of every model pair of these (observer, target) unit pairs
        at once: with the compiled kernels, every pair in one call; otherwise the batched
        decisive tests (:func:`batch_sight`) for pairs of round bases, then the per-pair
        exact search for the pairs they leave open and for other shapes.
        Answers are exactly those of :meth:`raw_sight` computed pair by pair."""
        for k in self._batch_stage(unit_pairs):
            self._keep_raw(k, self._exact_sight(*k))

    def _stage_mask(self, ou: int, tu: int) -> np.ndarray | None:
        """``mask[om, tm]``: the model pairs of a unit pair that :meth:`stage` decides; None:
        every pair. :class:`~w40k.geometry.visibility.Visibility` leaves out the pairs a rule
        hides whatever the sight (13.09, 24.24), whose raw sight its visibility questions
        never read."""
        return None

    def stage(self, ou: int, tu: int) -> None:
        """Decide at once (once per unit pair) the raw sight of the unit pair's model pairs
        (those :meth:`_stage_mask` keeps) that the batched tests decide
        (:meth:`_batch_stage`); the pairs they leave open are searched when asked. The same
        sight codes as :meth:`raw_sight` pair by pair (a CLEAR pair's witness line may be
        another clear line)."""
        if (ou, tu) not in self._staged:
            self._staged.add((ou, tu))
            self._batch_stage([(ou, tu)], [self._stage_mask(ou, tu)])

    def stage_many(self, unit_pairs: list[tuple[int, int]]) -> None:
        """:meth:`stage` for several unit pairs in one batch (each model pair's answer is its
        own, whichever pairs share a batch: only the per-call cost is shared)."""
        todo = [p for p in dict.fromkeys(unit_pairs) if p not in self._staged]
        self._staged.update(todo)
        if todo:
            self._batch_stage(todo, [self._stage_mask(*p) for p in todo])

    def _batch_stage(self, unit_pairs: list[tuple[int, int]],
                     masks: list[np.ndarray | None] | None = None,
                     spared: list[tuple[int, int, int, int]] | None = None,
                     ) -> list[tuple[int, int, int, int]]:
        """The batched stage of :meth:`prepare` only: caches the raw sight of every model pair
        of these unit pairs (``masks``: of each unit pair, only the model pairs its mask
        keeps; None: all) that it decides (the compiled kernels: all of them; otherwise
        :func:`batch_sight` on round bases) and returns the uncached pairs left open
        (undecided round-base pairs, then other shapes; of the first, the obstacles the
        batch kept go to ``_hint``). Each pair is computed in its canonical order
        (:meth:`_keep_raw`), and so returned. ``spared``, when given: the pairs
        ``batch_sight`` spares (``SPARED``: a pair of the same unit pair, either order, is
        CLEAR) are appended to it, neither kept nor returned (a later stage decides them)."""
        units = self.scene.units
        raw = self._raw_cache
        todo = sight_stage.wanted_pairs(units, raw, unit_pairs, masks)
        if not todo:
            return []
        if self.jit:
            # the compiled kernels decide every pair (same answers and witnesses)
            codes, w, _ = self._kernel_batch(
                np.array([self.model_index[k[:2]] for k in todo], dtype=np.int64),
                np.array([self.model_index[k[2:]] for k in todo], dtype=np.int64),
                np.array([k[0] for k in todo], dtype=np.int64),
                np.array([k[2] for k in todo], dtype=np.int64),
                False,
            )
            for k, st, wr in zip(todo, codes.tolist(), w, strict=True):
                self._keep_raw(k, kernel_layout.sight_result(st, wr))
            return []
        keys, og_all, tg_all = stage_rows.pair_arrays(todo, self._unit_start)
        both = self._round[og_all] & self._round[tg_all]
        both_l = both.tolist()
        rows = [k for k, r in zip(todo, both_l, strict=True) if r]
        status = np.zeros(len(rows), dtype=np.int8)
        kept = np.zeros(len(rows), dtype=np.int64)  # the obstacles each pair keeps (_hint)
        pn = qn = np.zeros((len(rows), 2))
        relevant: list[np.ndarray] = []
        if rows:
            og, tg = og_all[both], tg_all[both]
            # the footprint rows (centre, radius, top: the footprints' and models' own floats;
            # rows by ``take``, the columns views of them)
            go, gt = self._geo.take(og, axis=0), self._geo.take(tg, axis=0)
            oc, tc, ro, rt = go[:, :2], gt[:, :2], go[:, 2], gt[:, 2]
            top_o, top_t = go[:, 3], gt[:, 3]
            ou_a, tu_a = keys[both, 0], keys[both, 2]
            owner_unit, owner_area = self.owner_unit, self.owner_area
            has_areas = bool((owner_area >= 0).any())
            in_area = self._area_rows(np.concatenate([og, tg])) if has_areas else None
            allowed = stage_rows.allowed_fn(owner_unit, owner_area, ou_a, tu_a, og, tg,
                                            in_area)

            groups = None
            if spared is not None:
                ids: dict[tuple[int, int], int] = {}
                groups = np.array([ids.setdefault((k[0], k[2]), len(ids)) for k in rows],
                                  dtype=np.int64)
            status, pn, qn = batch_sight(oc, ro, top_o, tc, rt, top_t, self.obstacles, allowed,
                                         kept, relevant, groups)
        left: list[tuple[int, int, int, int]] = []
        # (Python floats and ints off the arrays at once, only of the pairs that read them:
        # the CLEAR pairs' witnesses, the open pairs' counts; the same values as float() of
        # each element)
        # (:meth:`_keep_raw` written out: the answer under the pair's canonical key, the
        # answer turned round under the other; a BLOCKED answer is its own turn)
        clear = status == CLEAR
        wit = iter(np.concatenate([pn[clear], qn[clear]], axis=1).tolist())
        hint, counts = self._hint, iter(kept[status == UNDECIDED].tolist())
        for k, st in zip(rows, status.tolist(), strict=True):
            if st == CLEAR:
                px, py, qx, qy = next(wit)
                pw, qw = (px, py), (qx, qy)
                raw[k] = SightResult(_CLEAR_SIGHT, (pw, qw))
                raw[(k[2], k[3], k[0], k[1])] = SightResult(_CLEAR_SIGHT, (qw, pw))
            elif st == BLOCKED:
                raw[k] = raw[(k[2], k[3], k[0], k[1])] = _BLOCKED
            elif st == UNDECIDED:
                left.append(k)
                hint[k] = hint[(k[2], k[3], k[0], k[1])] = next(counts)
            elif spared is not None:  # (SPARED: only when asked for)
                spared.append(k)
        if left and relevant:  # the open pairs' relevant obstacles (batch order: their own)
            self._relevant.update(zip(left, relevant[0][status == UNDECIDED], strict=True))
        # the other shapes' pairs, in order: none is kept yet (not before, by ``wanted_pairs``;
        # nor by the loop above, which keeps the round pairs' keys, both orders of two round
        # models), and every round pair is kept, open or spared
        left += [k for k, r in zip(todo, both_l, strict=True) if not r]
        return left

    def sight_results(self, observer: str, target: str) -> list[list[SightResult]]:
        """Raw sight of every (observer model, target model) pair (batched)."""
        ou, tu = self.unit_index[observer], self.unit_index[target]
        self.prepare([(ou, tu)])
        units = self.scene.units
        return [
            [self._raw_cache[(ou, om, tu, tm)] for tm in range(len(units[tu].models))]
            for om in range(len(units[ou].models))
        ]

    def _kernel_scene(self) -> kernel_layout.KernelScene:
        """The obstacle arrays in the kernel's layout (built on first use)."""
        if self._kscene is None:
            kinds = np.array([_KIND_CODE[k] for k in self.kinds], dtype=np.int64)
            self._kscene = kernel_layout.KernelScene.build(
                self.obstacles, self.owner_unit, self.owner_area, kinds
            )
        return self._kscene

    def _kernel_rows(
        self, ogs: np.ndarray, tgs: np.ndarray, ous: np.ndarray, tus: np.ndarray
    ) -> tuple[FloatArray, np.ndarray, np.ndarray]:
        """Kernel inputs for model pairs (global indices): pair rows
        (:func:`kernel_layout.pair_row`), units, and the areas to ignore (13.10: either
        model's)."""
        geo = self._geo
        pairs = np.ascontiguousarray(
            np.concatenate([geo[ogs, :4], geo[tgs, :5], geo[ogs, 5:], geo[tgs, 5:]], axis=1)
        )
        units = np.stack([ous, tus], axis=1).astype(np.int64)
        if self._in_area.shape[1]:
            in_area = self._area_rows(np.concatenate([ogs, tgs]))
            ex = in_area[ogs] | in_area[tgs]
        else:
            ex = np.zeros((len(ogs), 1), dtype=bool)
        return pairs, units, ex

    def _kernel_batch(
        self,
        ogs: np.ndarray,
        tgs: np.ndarray,
        ous: np.ndarray,
        tus: np.ndarray,
        want_hull: bool,
    ) -> tuple[np.ndarray, FloatArray, np.ndarray]:
        """Sight status, witness (P, 4) and full-visibility flags of model pairs from the
        compiled kernels."""
        ks = self._kernel_scene()
        pairs, units, ex = self._kernel_rows(ogs, tgs, ous, tus)
        n = len(pairs)
        status = np.zeros(n, dtype=np.int64)
        witness = np.zeros((n, 4))
        flags = np.zeros(n, dtype=np.int64)
        _compiled().pairs_batch(
            pairs,
            units,
            ex,
            want_hull,
            ks.edges,
            ks.verts,
            ks.ostart,
            ks.vstart,
            ks.oinfo,
            self._fp,
            kernel_layout.OUTLINE_COS,
            kernel_layout.OUTLINE_SIN,
            kernel_layout.OUTLINE_SCALE,
            status,
            witness,
            flags,
        )
        return status, witness, flags

    def raw_sight(self, ou: int, om: int, tu: int, tm: int) -> SightResult:
        """Line of sight only (terrain features, obscuring areas, other units' models)."""
        cached = self._raw_cache.get((ou, om, tu, tm))
        if cached is not None:
            return cached
        return self._exact_sight(ou, om, tu, tm)

    def _exact_sight(self, ou: int, om: int, tu: int, tm: int) -> SightResult:
        """The per-pair exact search (:func:`line_of_sight`, or its compiled twin), kept
        across scenes (:mod:`sight_memo`), in the pair's canonical order (:meth:`_keep_raw`)."""
        if tu < ou:
            return self._exact_sight(tu, tm, ou, om).turned()
        if self._walled_apart(ou, tu):
            return _BLOCKED
        key = ("raw", self._memo_key(ou, om, tu, tm))
        hit = sight_memo.get(key)
        out = hit if isinstance(hit, SightResult) else sight_memo.put(
            key, self._search_sight(ou, om, tu, tm))
        if out.sight is Sight.BLOCKED:
            self._walled_due.add((ou, tu))
        self._keep_raw((ou, om, tu, tm), out)
        return out

    def _keep_raw(self, k: tuple[int, int, int, int], r: SightResult) -> None:
        """Keep the raw sight of pair ``k``, computed in its canonical order (the observer's
        unit first in the scene), under both orders. 06.01 is symmetric: a line joins some
        part of each model, and the exact search treats the two alike (the line's height
        joins the two tops; the areas either model is within and the two units' models are
        left out), so it gives one answer both ways (``tests/geometry/test_sight_symmetric``);
        the other order takes the witness line turned round. Overwatch at the end of a
        Movement phase asks the pairs the next Shooting phase's listing asks the other way."""
        self._raw_cache[k] = r
        self._raw_cache[(k[2], k[3], k[0], k[1])] = r.turned()

    def _walled_apart(self, ou: int, tu: int) -> bool:
        """One wall separates the two units (:mod:`sight_units`): every model pair's raw
        sight is BLOCKED (the per-pair search's answer). Tried once per unit pair, and only
        after a search of one of its pairs answered BLOCKED (a unit pair with a pair not
        BLOCKED is not walled apart, and most unit pairs need one search at most)."""
        key = (ou, tu)
        hit = self._walled.get(key)
        if hit is None:
            if key not in self._walled_due:
                return False
            # (a kept answer not BLOCKED refutes the proof: :mod:`sight_known`)
            n = len(self.scene.units[ou].models), len(self.scene.units[tu].models)
            hit = self._walled[key] = (not sight_known.some_unblocked(
                self._raw_cache, ou, n[0], tu, n[1]) and self._walled_search(ou, tu))
        return hit

    def _walled_search(self, ou: int, tu: int) -> bool:
        units = self.scene.units
        # 06.01: not the two units' own models. Areas and gap fillers need no care (13.10,
        # R13.11-b): a separating one is farther than its reach + 1e-6 from every footprint,
        # so it holds no model of either unit and every pair keeps it
        keep = (self.owner_unit != ou) & (self.owner_unit != tu)
        index, geo = self.model_index, self._geo
        fps = [[self.footprints[(u, m)] for m in range(len(units[u].models))] for u in (ou, tu)]
        centres = [geo[[index[(u, m)] for m in range(len(units[u].models))], :2]
                   for u in (ou, tu)]
        highest = max(m.top for u in (ou, tu) for m in units[u].models)
        return sight_units.units_apart(fps, centres, highest, self.obstacles, keep)

    def _search_sight(self, ou: int, om: int, tu: int, tm: int) -> SightResult:
        og, tg = self.model_index[(ou, om)], self.model_index[(tu, tm)]
        if self.jit:
            ks, in_area = self._kernel_scene(), self._area_rows_of(og, tg)
            w = np.empty(4)
            status = _compiled().sight_models(self._geo, og, tg, ou, tu, in_area, ks.edges,
                                              ks.verts, ks.ostart, ks.vstart, ks.oinfo,
                                              self._fp, w)
            return kernel_layout.sight_result(int(status), w)
        o = self.scene.units[ou].models[om]
        t = self.scene.units[tu].models[tm]
        # a pair the batch left open: its relevant obstacles by owner (``_relevant``, of those
        # :meth:`_obstacles_for` keeps), cut from the scene's: the same edges, in order; its
        # centre line is known not clear among them (``batch_sight`` evaluates it as
        # ``los._line_clear`` does), so the search does not evaluate it again
        owners = self._relevant.get((ou, om, tu, tm))
        return line_of_sight(self.footprints[(ou, om)], o.top, self.footprints[(tu, tm)], t.top,
                             self._obstacles_for(ou, om, tu, tm) if owners is None
                             else self.obstacles, owners, centre_blocked=owners is not None)

    def _hull_flags(self, ou: int, om: int, tu: int, tm: int) -> int:
        """06.01 fully visible: bit 1 if the target model is not fully visible, bit 2 if it is
        not fully visible due to terrain features or obscuring areas (13.08 (ii)). The
        HULL_RAMP flags (:meth:`_ramp_flags`), refined point by point
        (:meth:`_refine_flags`) for a visible target."""
        flags = self._ramp_flags(ou, om, tu, tm)
        if flags & 1 and self.raw_sight(ou, om, tu, tm).sight is Sight.CLEAR:
            flags = self._refine_flags(ou, om, tu, tm, flags)
        return flags

    def _refine_flags(self, ou: int, om: int, tu: int, tm: int, flags: int) -> int:
        """The exact answer (:func:`fully_visible`) for a pair whose HULL_RAMP flags say some
        obstacle may stop the target being fully visible: 0 when it is fully visible; bit 2
        only when the target is not fully visible with the terrain alone (third units' models
        hide, but never give cover: R13.08-a reading)."""
        key = (ou, om, tu, tm)
        cached = self._refined.get(key)
        if cached is not None:
            return cached
        mkey = ("refine", self.convention_visible, flags & 2, self._memo_key(ou, om, tu, tm))
        hit = sight_memo.get(mkey)
        if isinstance(hit, int):
            self._refined[key] = hit
            return hit
        out = self._refined[key] = sight_memo.put(mkey, self._refine_search(ou, om, tu, tm, flags))
        return out

    def _refine_search(self, ou: int, om: int, tu: int, tm: int, flags: int) -> int:
        o, t = self.scene.units[ou].models[om], self.scene.units[tu].models[tm]
        fo, ft = self.footprints[(ou, om)], self.footprints[(tu, tm)]
        obs = self._obstacles_for(ou, om, tu, tm)
        ter = self._terrain_of(obs)
        cv = self.convention_visible
        out = 0
        if self.jit:
            pts = facing_test_points(fo, o.top, ft, t.z, obs)
            fully = pts is None or self._kernel_points_seen(ou, om, tu, tm, pts, t.z)
        else:
            # a point the terrain alone hides is tried first (the same answer, found sooner)
            hint = self._terrain_test(ou, om, tu, tm)[1] if flags & 2 and ter is not obs else None
            fully = hidden_facing_point(fo, o.top, ft, t.z, obs, cv, hint)[0]
        if not fully:
            out = 1
            if flags & 2 and (ter is obs or not self._terrain_test(ou, om, tu, tm)[0]):
                out |= 2
        return out

    def _terrain_of(self, obs: Obstacles) -> Obstacles:
        """The terrain features and obscuring areas among a pair's obstacles (``obs`` itself
        when there is no model among them)."""
        hit = self._ter_cache.get(id(obs))
        if hit is not None and hit[0] is obs:
            return hit[1]
        is_model = self._is_model
        ter = obs.subset(~is_model[obs.owner], ~is_model[obs.vert_owner])
        out = obs if len(ter.a) == len(obs.a) else ter
        self._ter_cache[id(obs)] = (obs, out)
        return out

    def _terrain_test(
        self, ou: int, om: int, tu: int, tm: int
    ) -> tuple[bool, FloatArray | None]:
        """06.01 fully visible with the terrain features and obscuring areas alone (third
        units' models left out): the answer and a hidden facing point when it is no (kept per
        pair and across scenes, :mod:`sight_memo`)."""
        key = (ou, om, tu, tm)
        hit = self._ter_tests.get(key)
        if hit is not None:
            return hit
        o, t = self.scene.units[ou].models[om], self.scene.units[tu].models[tm]
        fo, ft = self.footprints[(ou, om)], self.footprints[(tu, tm)]
        cv = self.convention_visible
        # the pair's terrain features and areas: the terrain's items but the regions either
        # model is within (the terrain's token and those regions name them)
        og, tg = self.model_index[(ou, om)], self.model_index[(tu, tm)]
        mkey = ("terrain", cv, fo, o.top, ft, t.z, self._others_token(ou, tu)[0],
                self._regions(og) | self._regions(tg))
        memo = sight_memo.get(mkey)
        if isinstance(memo, tuple):
            out: tuple[bool, FloatArray | None] = memo
        else:
            ter = self._terrain_of(self._obstacles_for(ou, om, tu, tm))
            out = sight_memo.put(mkey, hidden_facing_point(fo, o.top, ft, t.z, ter, cv))
        self._ter_tests[key] = out
        return out

    def terrain_hides(self, ou: int, om: int, tu: int, tm: int) -> bool:
        """Bit 2 of :meth:`_hull_flags` (13.08 (ii): not fully visible due to terrain features
        or obscuring areas) for a pair whose raw sight is CLEAR, computing the full-visibility
        refinement only when the terrain alone does not already answer it: a target model
        fully visible with the terrain alone has no bit 2 whatever third units' models hide."""
        flags = self._ramp_flags(ou, om, tu, tm)
        if not flags & 2:
            return False
        cached = self._refined.get((ou, om, tu, tm))
        if cached is not None:
            return bool(cached & 2)
        if self._terrain_alone_shows(ou, om, tu, tm):
            return False
        return bool(self._refine_flags(ou, om, tu, tm, flags) & 2)

    def _terrain_alone_shows(self, ou: int, om: int, tu: int, tm: int) -> bool:
        """Some model among the pair's obstacles, and the target fully visible with the
        terrain alone (then :meth:`terrain_hides` is False)."""
        obs = self._obstacles_for(ou, om, tu, tm)
        return self._terrain_of(obs) is not obs and self._terrain_test(ou, om, tu, tm)[0]

    def _kernel_points_seen(
        self, ou: int, om: int, tu: int, tm: int, pts: FloatArray, level: float
    ) -> bool:
        """:func:`points_seen` by the compiled kernels: each point a round target of radius
        0 at height ``level``, with the pair's units and areas left out."""
        og, tg = self.model_index[(ou, om)], self.model_index[(tu, tm)]
        ks = self._kernel_scene()
        n = len(pts)
        trow = np.zeros((n, kernel_layout.GEO_W))
        trow[:, :2] = pts
        trow[:, 3] = trow[:, 4] = level
        trow[:, 5] = kernel_layout.ROUND
        geo_o = np.repeat(self._geo[og][None, :], n, axis=0)
        pairs = np.ascontiguousarray(
            np.concatenate([geo_o[:, :4], trow[:, :5], geo_o[:, 5:], trow[:, 5:]], axis=1)
        )
        units = np.tile(np.array([[ou, tu]], dtype=np.int64), (n, 1))
        if self._in_area.shape[1]:
            rows = self._area_rows_of(og, tg)
            ex = np.repeat((rows[og] | rows[tg])[None, :], n, axis=0)
        else:
            ex = np.zeros((n, 1), dtype=bool)
        status = np.zeros(n, dtype=np.int64)
        witness = np.zeros((n, 4))
        flags = np.zeros(n, dtype=np.int64)
        _compiled().pairs_batch(
            pairs, units, ex, False, ks.edges, ks.verts, ks.ostart, ks.vstart, ks.oinfo,
            self._fp, kernel_layout.OUTLINE_COS, kernel_layout.OUTLINE_SIN,
            kernel_layout.OUTLINE_SCALE, status, witness, flags,
        )
        seen = status == kernel_layout.CLEAR
        if self.convention_visible:
            seen |= status == kernel_layout.CONVENTION
        return bool(seen.all())

    def _ramp_flags(self, ou: int, om: int, tu: int, tm: int) -> int:
        """HULL_RAMP (:func:`hull_blockers`): bit 1 if some obstacle may stop the target model
        from being fully visible, bit 2 if a terrain feature or an obscuring area is one
        (kept per model pair)."""
        key = (ou, om, tu, tm)
        cached = self._ramp.get(key)
        if cached is None:
            mkey = ("ramp", self._memo_key(ou, om, tu, tm))
            hit = sight_memo.get(mkey)
            if not isinstance(hit, int):
                hit = sight_memo.put(mkey, self._ramp_flags_of(ou, om, tu, tm))
            cached = self._ramp[key] = hit
        return cached

    def _ramp_flags_of(self, ou: int, om: int, tu: int, tm: int) -> int:
        og, tg = self.model_index[(ou, om)], self.model_index[(tu, tm)]
        if self.jit:
            ks, in_area = self._kernel_scene(), self._area_rows_of(og, tg)
            return int(
                _compiled().hull_models(
                    self._geo,
                    og,
                    tg,
                    ou,
                    tu,
                    in_area,
                    ks.edges,
                    ks.ostart,
                    ks.oinfo,
                    self._fp,
                    kernel_layout.OUTLINE_COS,
                    kernel_layout.OUTLINE_SIN,
                    kernel_layout.OUTLINE_SCALE,
                )
            )
        o, t = self.scene.units[ou].models[om], self.scene.units[tu].models[tm]
        owners = hull_blockers(
            self.footprints[(ou, om)],
            self.footprints[(tu, tm)],
            t.z,
            o.top,
            self._obstacles_for(ou, om, tu, tm),
        )
        kinds = {self.kinds[int(k)] for k in owners}
        return (1 if kinds else 0) | (2 if kinds & {Kind.FEATURE, Kind.AREA} else 0)

    def _raw_rows(self, ou: int, tu: int) -> tuple[np.ndarray, FloatArray]:
        """The kept raw sight of every model pair of two units, flattened: the codes and the
        witness rows (x0, y0, x1, y1; NaN without one)."""
        units = self.scene.units
        keys = [(ou, om, tu, tm) for om in range(len(units[ou].models))
                for tm in range(len(units[tu].models))]
        status = np.zeros(len(keys), dtype=np.int64)
        w = np.full((len(keys), 4), np.nan)
        for i, k in enumerate(keys):
            r = self._raw_cache[k]
            status[i] = kernel_layout.CODE_OF[r.sight]
            if r.witness is not None:
                w[i] = (*r.witness[0], *r.witness[1])
        return status, w

    def _pair_tables(self, ou: int, tu: int) -> tuple[np.ndarray, FloatArray, np.ndarray]:
        """For every (observer model, target model) of two units: the raw sight code
        (``kernel_layout.CLEAR`` ...), the witness row (x0, y0, x1, y1; NaN without one) and the
        :meth:`_hull_flags`; the compiled kernels in one call."""
        key = (ou, tu)
        cached = self._facts_cache.get(key)
        if cached is not None:
            return cached
        units = self.scene.units
        no, nt = len(units[ou].models), len(units[tu].models)
        ogs = np.array([self.model_index[(ou, om)] for om in range(no)], dtype=np.int64)
        tgs = np.array([self.model_index[(tu, tm)] for tm in range(nt)], dtype=np.int64)
        if self.jit:
            status, w, flags = self._kernel_batch(
                np.repeat(ogs, nt),
                np.tile(tgs, no),
                np.full(no * nt, ou, dtype=np.int64),
                np.full(no * nt, tu, dtype=np.int64),
                True,
            )
            w[status != kernel_layout.CLEAR] = np.nan
            for k in np.nonzero((flags & 1 != 0) & (status == kernel_layout.CLEAR))[0].tolist():
                flags[k] = self._refine_flags(ou, k // nt, tu, k % nt, int(flags[k]))
            if tu < ou:  # the raw answers computed in the pair's canonical order (_keep_raw)
                self._batch_stage([key])
                status, w = self._raw_rows(ou, tu)
        else:
            self.prepare([key])
            status, w = self._raw_rows(ou, tu)
            flags = np.array([self._hull_flags(ou, om, tu, tm) for om in range(no)
                              for tm in range(nt)], dtype=np.int64)
        out = (status.reshape(no, nt), w.reshape(no, nt, 4), flags.reshape(no, nt))
        self._facts_cache[key] = out
        return out


def _compiled() -> ModuleType:
    """The compiled kernels' module, imported (with numba) only when first used."""
    from w40k.geometry import los_kernel

    return los_kernel


_BLOCKED = SightResult(Sight.BLOCKED)
_CLEAR_SIGHT = Sight.CLEAR
"""(The member itself, read as a module name: ``Sight.CLEAR`` goes through the enum
metaclass's attribute hook, some 400 instructions a read.)"""
