"""A self-contained HTML replay page: the table drawn to scale with a step for every phase of
the battle, and the readable log. No network, no build step.

Each step shows the table as it stands at the end of one phase: units with their names and
remaining wounds (labels, and each model on hover), objectives in the colour of the side that
controls them, the trails of the models that moved, a line for each shot, fight and charge
(the attack's dice on hover and in the step's panel), the VP and CP after every turn, and the
log lines of that phase. Every string from a file reaches the page as JSON inside a
``<script type="application/json">`` block (with ``<``, ``>``, ``&``, U+2028 and U+2029
escaped) and is shown through ``textContent``: a unit named ``<script>`` is text.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping
from typing import cast

from w40k.engine.game import Game
from w40k.engine.serial import JSON
from w40k.engine.state import ModelData
from w40k.io.display import clean
from w40k.viz.log import BattleLog
from w40k.viz.replay_page import PAGE

_ACTS = {"attack", "charge_targets", "charge_failed", "charge_declined"}
"""Events drawn as a line on the table."""
_OPENERS = {"round_start", "turn_start", "battle_end"}
"""Events that close the phase under way."""


def _base(m: ModelData) -> list[JSON]:
    """``[rx, ry, rotation in degrees]`` of the model's base, in inches."""
    b = m.profile.base_mm
    if isinstance(b, tuple):
        return [round(b[0] / 50.8, 3), round(b[1] / 50.8, 3), round(math.degrees(m.facing), 1)]
    r = round((b if isinstance(b, int | float) else 40.0) / 50.8, 3)
    return [r, r, 0.0]


class ReplayRecorder:
    """Follows a game while it is played: prints nothing itself, but turns each new event
    into log lines (:class:`BattleLog`) and takes a step of the replay at the end of every
    phase."""

    def __init__(self, game: Game, position: Mapping[str, JSON] | None = None) -> None:
        s = game.state
        self.log = BattleLog(position if position is not None else game.save())
        for p in s.players:  # a position may start with VP and CP
            self.log.vp.setdefault(p.name, p.vp)
            self.log.cp.setdefault(p.name, p.cp)
        self.lines: list[str] = []
        self.steps: list[dict[str, JSON]] = []
        self.players = [p.name for p in s.players]
        # the units off the battlefield too (reserves, embarked): the page draws them when
        # they arrive
        every = (*s.units, *s.off_table)
        self.units: dict[str, JSON] = {u.id: {"name": self.log.names.unit(u.id),
                                              "player": u.player} for u in every}
        self.models: dict[str, JSON] = {m.id: {"name": self.log.names.model(m.id),
                                               "unit": u.id, "W": m.profile.W}
                                        for u in every for m in u.models}
        self.battlefield = s.battlefield
        self.terrain = s.terrain
        self.objectives: dict[str, JSON] = {o.name: o.controller for o in s.objectives}
        self._acts: list[JSON] = []
        self._from = 0
        self._seen = len(s.events)
        # The phase under way: a loaded game may start inside one (a new game has none yet).
        self._label: dict[str, JSON] | None = {
            "round": s.round, "player": s.turn_player, "phase": s.phase} if s.phase else None
        self._done = False
        self._step(game, final=False, label={"round": s.round, "player": s.turn_player,
                                              "phase": "start"})

    def feed(self, game: Game) -> list[str]:
        """The log lines of the events since the last call; a step at each phase's end."""
        new: list[str] = []
        for e in game.state.events[self._seen:]:
            kind = e.get("event")
            key = {k: e.get(k) for k in ("round", "player", "phase")}
            # A phase ends where the next round, turn or phase begins (the end-of-turn phase
            # has no phase_start event: a change of phase in any event tells).
            if self._label is not None and (kind in _OPENERS or (key["phase"]
                                                                 and key != self._label)):
                self._step(game, final=False, label=self._label)
                self._label = None
            if self._label is None and key["phase"]:
                self._label = key
            if kind == "objective_control":
                self.objectives[str(e.get("objective"))] = e.get("controller")
            lines = [clean(line) for line in self.log.lines(e)]
            if kind in _ACTS:
                self._acts.append(self._act(e, lines))
            self.lines.extend(lines)
            new.extend(lines)
            if kind == "battle_end":
                self._step(game, final=True, label={
                    "round": e.get("round"), "player": "", "phase": "battle over"})
        self._seen = len(game.state.events)
        return new

    def _act(self, e: Mapping[str, JSON], lines: list[str]) -> JSON:
        kind = e.get("event")
        text = "\n".join(line.strip() for line in lines)
        if kind == "attack":
            return {"kind": "fight" if e.get("melee") else "shoot", "from": e.get("attacker"),
                    "to": [e.get("target")], "text": text}
        targets = e.get("targets")
        return {"kind": "charge" if kind == "charge_targets" else "failed",
                "from": e.get("unit"), "to": targets if isinstance(targets, list) else [],
                "text": text}

    def _step(self, game: Game, *, final: bool, label: Mapping[str, JSON]) -> None:
        if self._done:
            return
        s = game.state
        self.steps.append({
            **label, "final": final,
            "vp": dict(self.log.vp), "cp": dict(self.log.cp),
            "objectives": [[o.name, o.x, o.y, self.objectives.get(o.name)]
                           for o in s.objectives],
            "models": [[m.id, round(m.x, 3), round(m.y, 3), *_base(m), m.remaining]
                       for u in s.units if not u.destroyed for m in u.alive],
            "acts": self._acts, "from": self._from, "lines": len(self.lines),
        })
        self._acts = []
        self._from = len(self.lines)
        self._done = final

    def finish(self, game: Game) -> None:
        """The last step, if the battle stopped without a ``battle_end`` event."""
        self.feed(game)
        if not self._done:
            self._step(game, final=True, label={**(self._label or {}), "phase": "stopped"})

    def page(self, title: str) -> str:
        """The HTML page."""
        return replay_page(title, self.battlefield, self.terrain, {
            "players": cast(JSON, self.players), "units": self.units, "models": self.models,
            "steps": cast(JSON, self.steps), "log": cast(JSON, self.lines)})


def replay_page(title: str, battlefield: Mapping[str, JSON], terrain: Mapping[str, JSON],
                data: Mapping[str, JSON]) -> str:
    """The page for ``data`` (players, units, models, steps, log: :class:`ReplayRecorder`)."""
    bw = float(cast(float, battlefield.get("width", 60)))
    bd = float(cast(float, battlefield.get("depth", 44)))
    body = json.dumps({"title": title, "width": bw, "depth": bd, "terrain": dict(terrain),
                       **data}, ensure_ascii=False, allow_nan=False)
    return (PAGE.replace("__TITLE__", html.escape(clean(title)))
            .replace("__WIDTH__", str(int(bw * 14))).replace("__HEIGHT__", str(int(bd * 14)))
            .replace("__VIEWBOX__", f"-1 -1 {bw + 2:g} {bd + 2:g}")
            .replace("__DATA__", script_json(body)))


def script_json(text: str) -> str:
    """JSON made safe inside ``<script>``: ``<``, ``>``, ``&``, U+2028 and U+2029 as ``\\u``
    escapes, so that ``</script>``, ``<!--`` and line separators in names cannot end or blank
    the script (JSON.parse reads the escapes back as the same characters)."""
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def replay_with_page(record: dict[str, JSON], source: str,
                     title: str | None) -> tuple[Game, list[int], str | None]:
    """Replay a game record from its seed and choices (``io.replay_check.replay_record``:
    the game, and the event-log marks) and, given a ``title``, its replay page."""
    from w40k.io.replay_check import replay_record

    setup = cast(dict[str, JSON], record["setup"])
    recorder: list[ReplayRecorder] = []

    def watch(game: Game) -> None:
        if not recorder:
            recorder.append(ReplayRecorder(game, setup))
        recorder[0].feed(game)

    game, marks = replay_record(record, source, watch if title is not None else None)
    if title is None:
        return game, marks, None
    recorder[0].finish(game)
    return game, marks, recorder[0].page(title)
