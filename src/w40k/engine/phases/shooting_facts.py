"""Geometry facts for the Shooting phase: which shooting types a unit may use (10.04-10.07),
and per (model, weapon, target) visibility (06.01), range and half range (04.02), cover
(13.08, 24.33) and plunging fire (22.05) for the unit that shoots.

Visibility costs milliseconds per model pair, so facts are computed only for the unit that
shoots, lazily, and one :class:`Visibility` is kept while the scene is unchanged (a run, the
answer to it and the resolution that follows share it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from w40k.core import kept
from w40k.core.abilities import Assault, CloseQuarters, IndirectFire, WeaponAbility
from w40k.core.keywords import canonical_keyword
from w40k.core.profiles import WeaponProfile
from w40k.engine import geo
from w40k.engine.context import Context
from w40k.engine.state import ModelData, UnitData
from w40k.engine.stratagems.effects import smokescreen_units
from w40k.geometry import Scene
from w40k.geometry.shapes import EPS
from w40k.geometry.visibility import Visibility
from w40k.rules.select import AttackingModel, AttackKind, TargetUnit, WeaponFacts

_VIS_CACHE: list[tuple[object, Visibility]] = kept.slot()


def visibility(ctx: Context, observer: str | None = None) -> Visibility:
    """A Visibility of the battlefield now (reused while the scene is unchanged). With
    ``observer`` (a player), for questions whose targets are only that player's enemies:
    the kept Visibility is also reused when the scene differs from its scene only in the
    13.09 / 24.24 flags of that player's own units (:func:`blind_to`), which such a
    question never reads; it stays kept under its own scene."""
    sc: Scene = geo.scene(ctx)
    key = (id(sc.terrain), sc.units)
    if _VIS_CACHE:
        kept_key, kept = _VIS_CACHE[0]
        if kept_key == key or (observer is not None and blind_to(kept.scene, sc, observer)):
            return kept
    vis = Visibility(sc)
    _VIS_CACHE[:] = [(key, vis)]
    return vis


def blind_to(old: Scene, new: Scene, player: str) -> bool:
    """Every question whose target units are not ``player``'s has the same answer in the
    two scenes: the same terrain and units in the same order, with the same models (so the
    same footprints, obstacles and distances), and a unit that differs otherwise is one of
    ``player``'s and differs only in ``ranged_attacks_recently`` (13.09 hidden) and
    ``attached`` (24.24 Lone Operative). A Visibility reads a unit's flags, abilities and
    detection range only for the unit seen (hidden, Lone Operative, Stealth: the target
    ``tu`` of each question), never for the observer's or a third unit's (06.01: their
    models block as their footprints)."""
    if old.terrain is not new.terrain or old.battlefield != new.battlefield \
            or len(old.units) != len(new.units):
        return False
    for a, b in zip(old.units, new.units, strict=True):
        if a is b:
            continue
        if a.name != b.name or a.models != b.models:
            return False
        if a == b:
            continue
        if (b.player != player or a.player != player or a.abilities != b.abilities
                or a.weapon_range != b.weapon_range
                or a.detection_range != b.detection_range):
            return False
    return True


def has(weapon: WeaponProfile, family: type[WeaponAbility]) -> bool:
    """Whether a weapon has an ability family."""
    return any(isinstance(a, family) for a in weapon.abilities)


def ranged_weapons(u: UnitData) -> list[WeaponProfile]:
    """Every ranged weapon of the unit's living models (02.04: a range, not 'Melee';
    ``is_melee`` read off the field, as every shoot loop asks it of every unit)."""
    return [w for m in u.alive for w in m.weapons if w.range is not None]


_MONSTER, _VEHICLE = canonical_keyword("MONSTER"), canonical_keyword("VEHICLE")
"""The two keys :func:`monster_or_vehicle` reads (a pure function of a constant string:
made once, not twice a call; a listing asks it of every attacking model and enemy unit)."""


def monster_or_vehicle(keys: frozenset[str]) -> bool:
    """MONSTER or VEHICLE (canonical keyword keys)."""
    return _MONSTER in keys or _VEHICLE in keys


def shooting_types(ctx: Context, u: UnitData) -> list[AttackKind]:
    """10.04-10.07: the shooting types the unit is eligible to make now (none after falling
    back, 09.07). A unit with no ranged weapons is still eligible for normal shooting (RF-1)."""
    if u.destroyed or u.flag("fell_back") or u.flag("desperate_escape"):
        return []
    engaged = geo.is_engaged(ctx, u)
    advanced = u.flag("advanced")
    weapons = ranged_weapons(u)
    out: list[AttackKind] = []
    if not engaged and not advanced:
        out.append(AttackKind.NORMAL)
    if not engaged and advanced and any(has(w, Assault) for w in weapons):
        out.append(AttackKind.ASSAULT)
    if engaged and not advanced and (any(has(w, CloseQuarters) for w in weapons)
                                     or monster_or_vehicle(u.keys)):
        out.append(AttackKind.CLOSE_QUARTERS)
    if not engaged and not advanced and any(has(w, IndirectFire) for w in weapons):
        out.append(AttackKind.INDIRECT)
    return out


def has_shooting_type(ctx: Context, u: UnitData) -> bool:
    """``bool(shooting_types(ctx, u))``, without listing them: an unengaged unit that has not
    advanced is eligible for normal shooting (10.04) whatever its weapons, so its weapons are
    not scanned (the shoot loop asks this of every unit after each unit shoots)."""
    if u.destroyed or u.flag("fell_back") or u.flag("desperate_escape"):
        return False
    engaged = geo.is_engaged(ctx, u)
    advanced = u.flag("advanced")
    if not engaged and not advanced:
        return True  # 10.04 normal shooting (and 10.07 [INDIRECT FIRE] needs the same)
    if not engaged:  # advanced: 10.05 assault shooting
        return any(has(w, Assault) for w in ranged_weapons(u))
    if advanced:  # engaged and advanced: no shooting type
        return False
    return (any(has(w, CloseQuarters) for w in ranged_weapons(u))  # 10.06
            or monster_or_vehicle(u.keys))


def heavy_condition(ctx: Context, u: UnitData) -> bool:
    """24.16: unengaged, not set up this turn, no model moved more than 3"."""
    return (not geo.is_engaged(ctx, u) and not u.flag("set_up_this_turn")
            and u.max_move <= 3.0 + EPS)


_RANGE_FACTS = {(r, h, lo): WeaponFacts(visible=True, in_range=r, half_range=h,
                                        lone_operative_beyond=lo)
                for r in (False, True) for h in (False, True) for lo in (False, True)}
"""``range_facts``' answers by (in range, half range, Lone Operative beyond): frozen, shared."""

Box = tuple[float, float, float, float]
"""(xmin, ymin, xmax, ymax)."""


@dataclass
class ShooterFacts:
    """Lazy facts about one shooting unit against the enemy units (one Visibility)."""

    ctx: Context
    unit: UnitData
    vis: Visibility = field(init=False)
    enemies: list[UnitData] = field(init=False)
    ou: int = field(init=False)
    om: dict[str, int] = field(init=False)
    _visible: dict[tuple[str, str], bool] = field(default_factory=dict)
    _engaged: dict[str, bool] = field(default_factory=dict)
    _distance: dict[str, list[float]] = field(default_factory=dict)
    _range: dict[tuple[float, str], list[WeaponFacts]] = field(default_factory=dict)
    _lone: dict[str, float | None] = field(default_factory=dict)
    _targets: tuple[TargetUnit, ...] | None = None
    _smokeless: dict[frozenset[str], Visibility] = field(default_factory=dict)

    def __post_init__(self) -> None:
        s = self.ctx.state
        # its questions target only the unit's enemies (06.01 of its models, 13.08 cover,
        # 22.05, 10.07's friendly sight of an enemy)
        self.vis = visibility(self.ctx, self.unit.player)
        self.enemies = s.units_of(s.opponent(self.unit.player))
        self.ou = self.vis.unit_index[self.unit.id]
        self.om = {m.id: i for i, m in enumerate(self.unit.alive)}

    def tu(self, target: str) -> int:
        """Scene index of a unit."""
        return self.vis.unit_index[target]

    def distance(self, model: str, target: str) -> float:
        """Closest horizontal distance from one model to the target unit (kept per target
        for every model at once: a listing asks it per model and weapon)."""
        row = self._distance.get(target)
        if row is None:
            # the row minima of the unit pair's distances: the same floats as each row's min
            row = self._distance[target] = self.vis.unit_distances(
                self.ou, self.tu(target)).min(axis=1).tolist()
        return row[self.om[model]]

    def measure(self, targets: list[str]) -> None:
        """Keep :meth:`distance`'s rows of these target units, measured together: one
        :meth:`Visibility.distances_to` call for the unit pairs (the same floats) and one
        minimum per segment of its columns (``minimum.reduceat``: each row's minimum over
        that unit's columns, the same float as the unit's own ``min(axis=1)``)."""
        todo = [t for t in dict.fromkeys(targets) if t not in self._distance]
        if len(todo) < 2:
            return
        tus = [self.tu(t) for t in todo]
        sizes = [len(self.vis.scene.units[tu].models) for tu in tus]
        if min(sizes) == 0:  # (reduceat needs no empty segment)
            return
        d = self.vis.distances_to(self.ou, tus)
        starts = np.cumsum([0, *sizes[:-1]])
        rows = np.minimum.reduceat(d, starts, axis=1).T.tolist()
        for t, row in zip(todo, rows, strict=True):
            self._distance[t] = row

    def beyond(self, target: str, reach: float) -> bool:
        """Every model of the target is farther than ``reach`` (04.02: a weapon's range,
        +EPS) from every model of this unit, proven by the boxes that hold each unit's
        footprints (:func:`box_gap`, with a 1e-6 margin over the rounding):
        ``range_facts`` would find no weapon of at most that range in range of it."""
        vis = self.vis
        return box_gap(vis.unit_box(self.ou), vis.unit_box(self.tu(target))) > reach + EPS + 1e-6

    def visible(self, model: str, target: str) -> bool:
        """06.01: some model of the target is visible to this model (hidden and Lone
        Operative included)."""
        key = (model, target)
        hit = self._visible.get(key)
        if hit is None:
            # the known answers first, the slow search only if none shows the target
            hit = self.vis.model_sees(self.ou, self.om[model], self.tu(target))
            self._visible[key] = hit
        return hit

    def stage_targets(self, rows: dict[str, list[str]]) -> None:
        """Stage in one batch (``Visibility.stage_rows``: the same answers, one call's cost)
        the sight of these target units from these models (target -> model ids), i.e. every
        (model, target) whose visibility a listing asks."""
        om = self.om
        self.vis.stage_rows({(self.ou, self.tu(t)): [om[m] for m in ms]
                             for t, ms in rows.items()})

    def unit_visible(self, target: str) -> bool:
        """06.01: some model of the target is visible to some model of this unit (the same
        answer as ``any(visible(m.id, target) for m in unit.alive)``, the known pairs first:
        ``Visibility.unit_sees``)."""
        if any(self._visible.get((m, target)) for m in self.om):
            return True
        return self.vis.unit_sees(self.ou, self.tu(target))

    def weapon_facts(self, model: str, weapon: WeaponProfile, target: str,
                     *, always_visibility: bool = True) -> WeaponFacts:
        """Facts for one (model, weapon, target); visibility is skipped out of range unless
        ``always_visibility`` (a listing does not need it there)."""
        f = self.range_facts(model, weapon, target)
        if (f.in_range or always_visibility) and self.visible(model, target):
            return f
        return WeaponFacts(visible=False, in_range=f.in_range, half_range=f.half_range,
                           lone_operative_beyond=f.lone_operative_beyond)

    def range_facts(self, model: str, weapon: WeaponProfile, target: str) -> WeaponFacts:
        """Range, half range (04.02) and Lone Operative reach (24.24) for one (model, weapon,
        target), without the sight search: ``visible`` is True, the most permissive answer
        (visibility only ever adds the R06.01-f violation), so a target refused with these
        facts is refused whatever the sight. Kept per (weapon range, target) for every model
        at once (:meth:`_range_row`: a listing asks it of each model carrying that range)."""
        assert weapon.range is not None
        key = (weapon.range, target)
        row = self._range.get(key)
        if row is None:
            row = self._range[key] = self._range_row(weapon.range, target)
        return row[self.om[model]]

    def _range_row(self, reach: float, target: str) -> list[WeaponFacts]:
        """:meth:`range_facts` of every model of the unit (by model index) for a weapon of
        range ``reach``: each a function of that model's :meth:`distance` to the target, the
        range and the target's Lone Operative range alone, with the same floats and tests as
        one model's (``d <= range + EPS``, ``d <= range / 2 + EPS``, ``d > lone + EPS``)."""
        ds = self._distance.get(target)
        if ds is None:  # (:meth:`distance`'s row: the row minima of the unit pair's distances)
            ds = self._distance[target] = self.vis.unit_distances(
                self.ou, self.tu(target)).min(axis=1).tolist()
        # 24.24: measured from the attacking model to the Lone Operative unit's closest model
        if target not in self._lone:  # (a parsed property: kept per target)
            self._lone[target] = self.vis.scene.units[self.tu(target)].lone_operative
        lone = self._lone[target]
        full, half, facts = reach + EPS, reach / 2.0 + EPS, _RANGE_FACTS
        if lone is None:
            return [facts[(d <= full, d <= half, False)] for d in ds]
        beyond = lone + EPS
        return [facts[(d <= full, d <= half, d > beyond)] for d in ds]

    def engaged_with_unit(self, target: UnitData) -> bool:
        """03.04: the target is engaged with the shooting unit."""
        hit = self._engaged.get(target.id)
        if hit is None:
            hit = geo.units_engaged(self.unit, target)
            self._engaged[target.id] = hit
        return hit

    def target_units(self) -> tuple[TargetUnit, ...]:
        """Unit-level facts about every enemy unit."""
        if self._targets is None:
            self._targets = tuple(
                TargetUnit(e.id, engaged=geo.is_engaged(self.ctx, e),
                           engaged_with_attacker=self.engaged_with_unit(e),
                           monster_or_vehicle=monster_or_vehicle(e.keys))
                for e in self.enemies)
        return self._targets

    def cover(self, model: str, target: str) -> bool:
        """13.08 / 24.33 against this model's ranged attacks (reads the model's row only)."""
        self.vis.stage_rows({(self.ou, self.tu(target)): [self.om[model]]})
        return self.vis.cover_against(self.ou, self.om[model], self.tu(target))

    def smoke_cover(self, model: str, target: str) -> bool:
        """15.10 Smokescreen, second part: the target is not fully visible to this model
        because of the models of its player's smokescreened SMOKE units, i.e. it would be
        fully visible were those models not there (docs/rulings.md R15.10-a). Computed only
        while a Smokescreen is in force this phase (the SMOKE unit itself: ``effects.
        smokescreened``)."""
        player = self.vis.scene.units[self.tu(target)].player  # (the scene's unit: no scan)
        smoke = frozenset(s for s in smokescreen_units(self.ctx, player)
                          if s != target and s in self.vis.unit_index)
        if not smoke:
            return False
        om, tu = self.om[model], self.tu(target)
        if self.vis.unit_fully_visible(self.ou, om, tu):
            return False
        clear = self._smokeless.get(smoke)
        if clear is None:
            sc = self.vis.scene
            clear = self._smokeless[smoke] = Visibility(Scene(
                sc.battlefield, sc.terrain, tuple(u for u in sc.units if u.name not in smoke)))
        return clear.unit_fully_visible(clear.unit_index[self.unit.id], om,
                                        clear.unit_index[target])

    def plunging_fire(self, model: str, target: str) -> bool:
        """22.05 for this model's ranged attacks (reads the model's row only)."""
        self.vis.stage_rows({(self.ou, self.tu(target)): [self.om[model]]})
        return self.vis.plunging_fire(self.ou, self.om[model], self.tu(target))

    def visible_to_friendly(self, target: str) -> bool:
        """10.07: the target is visible to one or more friendly units."""
        tu = self.tu(target)
        n = len(self.vis.scene.units[tu].models)
        for f in self.ctx.state.units_of(self.unit.player):
            fu = self.vis.unit_index[f.id]
            self.vis.stage(fu, tu)
            for om in range(len(f.alive)):
                if any(self.vis.visible(fu, om, tu, tm) for tm in range(n)):
                    return True
        return False


_KEPT: list[ShooterFacts] = kept.slot()
"""The last :func:`shooter_facts` answer."""


def shooter_facts(ctx: Context, u: UnitData) -> ShooterFacts:
    """``ShooterFacts(ctx, u)``, or the last one made here while it is for the same unit, in
    the same context and state, with the same Visibility and enemy units: every fact it
    keeps is a function of the scene (sight, distances, range, engagement) and of the
    units' keywords, so it holds until the scene changes (a listing and the declaration
    that answers it share one)."""
    if _KEPT:
        kept = _KEPT[0]
        if (kept.unit is u and kept.ctx is ctx and kept.vis is visibility(ctx, u.player)
                and _same(kept.enemies, ctx.state.units_of(ctx.state.opponent(u.player)))):
            return kept
    out = ShooterFacts(ctx, u)
    _KEPT[:] = [out]
    return out


def _same(a: list[UnitData], b: list[UnitData]) -> bool:
    """The same unit objects in the same order."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def box_gap(a: Box, b: Box) -> float:
    """The distance between two boxes: no horizontal distance between a point of one and a
    point of the other is less (so no distance between the models they hold)."""
    dx = max(0.0, a[0] - b[2], b[0] - a[2])
    dy = max(0.0, a[1] - b[3], b[1] - a[3])
    return math.hypot(dx, dy)


def attacking_models(u: UnitData) -> tuple[AttackingModel, ...]:
    """The unit's living models as Select Weapons sees them (named by model id)."""
    return tuple(AttackingModel(m.id, m.weapons, monster_or_vehicle(m.keys)) for m in u.alive)


def one_shots(u: UnitData) -> frozenset[tuple[str, str]]:
    """24.26: (model id, weapon name) of [ONE SHOT] weapons already used."""
    return frozenset((m.id, w) for m in u.alive for w in m.one_shots_used)


def model_by_id(u: UnitData, mid: str) -> ModelData | None:
    """A living model of the unit by id."""
    return next((m for m in u.alive if m.id == mid), None)
