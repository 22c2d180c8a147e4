"""The bad-input campaign as tables: every case names the command, the hostile file or option,
the exit code, and the text the error must contain (the field path, the file, the option)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from tests.inputs.input_harness import Case, edited, edited_data
from w40k.io.battle_setup import default_position

Edit = Callable[[Any], object]


def _set(path: str, value: object) -> Edit:
    """An edit setting ``a.b[0].c`` to ``value``."""

    def edit(data: Any) -> None:
        parts = path.replace("]", "").replace("[", ".").split(".")
        node = data
        for p in parts[:-1]:
            node = node[int(p)] if p.isdigit() else node[p]
        last = parts[-1]
        if last.isdigit():
            node[int(last)] = value
        else:
            node[last] = value

    return edit


def _drop(path: str) -> Edit:
    def edit(data: Any) -> None:
        parts = path.replace("]", "").replace("[", ".").split(".")
        node = data
        for p in parts[:-1]:
            node = node[int(p)] if p.isdigit() else node[p]
        del node[parts[-1]]

    return edit


# -- file-level hostility, for every format ---------------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000
DEEP70 = '{"weapons": ' + "[" * 70 + "]" * 70 + "}"
BIG_INT = '{"weapons": [{"A": ' + "9" * 5000 + "}]}"
BILLION_LAUGHS = "\n".join(
    ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]" for i in range(8)]
)
HOSTILE_FILES: list[tuple[str, str, bytes | str, str]] = [
    ("not-utf8", "x.json", b'{"name": "\xff\xfe\xfa"}', "not UTF-8"),
    ("utf16-bom", "x.json", "\ufeff{}".encode("utf-16"), "UTF-16"),
    ("latin1", "x.json", '{"a": "café"}'.encode("latin-1"), "not UTF-8"),
    ("deep-100000", "x.json", DEEP, "nested deeper"),
    ("deep-70", "x.json", DEEP70, "nested deeper"),
    ("int-5000-digits", "x.json", BIG_INT, "digits"),
    ("nan", "x.json", '{"a": NaN}', "a: expected a finite number"),
    ("infinity", "x.json", '{"a": -Infinity}', "a: expected a finite number"),
    ("float-overflow", "x.json", '{"a": 1e999}', "too large"),
    ("duplicate-key", "x.json", '{"a": 1, "a": 2}', "appears twice"),
    ("truncated", "x.json", '{"a": [1, 2', "not valid JSON"),
    ("empty", "x.json", "", "not valid JSON"),
    ("yaml-billion-laughs", "x.yaml", BILLION_LAUGHS, "aliases"),
    ("yaml-nan", "x.yaml", "a: .nan\n", "finite"),
    ("yaml-date", "x.yaml", "a: 2024-01-01\n", "date"),
    ("yaml-python-tag", "x.yaml", "a: !!python/object/apply:os.system [echo hi]\n", "YAML"),
    ("yaml-big-int", "x.yaml", "a: " + "9" * 5000 + "\n", "x.yaml"),
    ("yaml-tabs", "x.yaml", "a:\n\t- 1\n", "not valid YAML"),
    ("too-large", "x.json", '{"a": "' + "x" * (9 * 1024 * 1024) + '"}', "larger than the limit"),
]


def _file_cases() -> list[Case]:
    commands = {
        "attack": ["attack", "--input", "{tmp}/F"],
        "los": ["los", "--input", "{tmp}/F"],
        "battle-from": ["battle", "--from", "{tmp}/F", "--out", "{tmp}/out"],
        "mission": ["battle", "--mission", "{tmp}/F", "--out", "{tmp}/out"],
        "replay": ["replay", "{tmp}/F"],
        "army": ["battle", "--red", "{tmp}/F", "--out", "{tmp}/out"],
    }
    out = []
    for cmd, args in commands.items():
        for cid, name, content, text in HOSTILE_FILES:
            if name.endswith(".yaml") and cmd in ("los", "replay", "battle-from"):
                continue  # JSON-only formats read .yaml as YAML too; covered by the others
            if cid == "too-large" and cmd not in ("attack", "army"):
                continue  # one size case per reader family is enough (9 MiB each)
            out.append(Case(f"{cmd}-{cid}", [a.replace("F", name) for a in args],
                            {name: content}, names=(text, name), outputs=("out/record.json",)))
    return out


# -- attack scenarios -------------------------------------------------------------------------

SCENARIO_EDITS: list[tuple[str, Edit, str]] = [
    ("unknown-top-key", _set("colour", "red"), "colour: unknown key"),
    ("typo-did-you-mean", _set("contxt", {}), "did you mean 'context'"),
    ("weapons-missing", _drop("weapons"), "weapons: missing"),
    ("weapons-empty", _set("weapons", []), "weapons"),
    ("weapons-not-list", _set("weapons", {"a": 1}), "weapons"),
    ("ap-positive", _set("weapons[0].AP", 5), "weapons[0].AP"),
    ("ap-text", _set("weapons[0].AP", "minus one"), "weapons[0].AP"),
    ("a-bad-dice", _set("weapons[0].A", "D7"), "weapons[0].A"),
    ("a-billion", _set("weapons[0].A", 10**9), "weapons[0].A"),
    ("a-huge-text", _set("weapons[0].A", "9" * 50), "weapons[0].A"),
    ("a-many-dice", _set("weapons[0].A", "99D6"), "weapons[0].A"),
    ("count-million", _set("weapons[0].count", 10**6), "weapons[0].count"),
    ("count-zero", _set("weapons[0].count", 0), "weapons[0].count"),
    ("count-float", _set("weapons[0].count", 1.5), "weapons[0].count"),
    ("count-bool", _set("weapons[0].count", True), "weapons[0].count"),
    ("volley-over-limit", lambda d: (_set("weapons[1].count", 100)(d),
                                     _set("weapons[1].A", "50")(d)), "per volley"),
    ("skill-missing", _drop("weapons[0].skill"), "weapons[0]"),
    ("skill-seven", _set("weapons[0].skill", 7), "weapons[0].skill"),
    ("s-zero", _set("weapons[0].S", 0), "weapons[0].S"),
    ("s-huge", _set("weapons[0].S", 10**12), "weapons[0].S"),
    ("d-negative", _set("weapons[0].D", -1), "weapons[0].D"),
    ("range-negative", _set("weapons[0].range", -3), "weapons[0].range"),
    ("range-text", _set("weapons[0].range", "far"), "weapons[0].range"),
    ("ability-unknown", _set("weapons[0].abilities", ["EXPLODING KITTENS"]), "weapons[0]"),
    ("ability-not-text", _set("weapons[0].abilities", [3]), "weapons[0].abilities[0]"),
    ("name-empty", _set("weapons[0].name", ""), "weapons[0].name"),
    ("name-escape", _set("weapons[0].name", "Gun\x1b[2J"), "weapons[0].name"),
    ("name-huge", _set("weapons[0].name", "x" * 10_000), "weapons[0].name"),
    ("target-missing", _drop("target"), "target"),
    ("target-models-empty", _set("target.models", []), "target.models"),
    ("model-t-zero", _set("target.models[0].T", 0), "target.models[0].T"),
    ("model-w-text", _set("target.models[0].W", "two"), "target.models[0].W"),
    ("model-sv-nine", _set("target.models[0].Sv", 9), "target.models[0].Sv"),
    ("model-count-huge", _set("target.models[1].count", 10**6), "target.models[1].count"),
    ("model-wounds-lost-over", _set("target.models[0].wounds_lost", 50), "wounds_lost"),
    ("model-keyword-number", _set("target.models[0].keywords", [1]), "keywords[0]"),
    ("target-too-many-models", _set("target.models[1].count", 99), "target.models"),
    ("context-unknown", _set("context", {"cover": True, "covr": True}), "context.covr"),
    ("context-not-bool", _set("context", {"cover": "yes"}), "context.cover"),
    ("context-modifier-big", _set("context", {"hit_modifier": 100}), "context.hit_modifier"),
    ("context-reroll-bad", _set("context", {"reroll_hits": "all"}), "context.reroll_hits"),
    ("dice-kind-unknown", _set("dice", {"luck": [1]}), "dice"),
    ("dice-face-seven", _set("dice", {"hit": [7]}), "dice.hit[0]"),
    ("dice-not-list", _set("dice", {"hit": 6}), "dice.hit"),
    ("lethal-bad", _set("lethal_hits", "maybe"), "lethal_hits"),
    ("allocation-unknown", _set("allocation_order", ["Nobody"]), "allocation_order[0]"),
    ("both-target-and-targets", _set("targets", [{"models": [{"T": 4, "Sv": 3, "W": 1}]}]),
     "target"),
    ("top-is-list", lambda d: d.clear(), "weapons: missing"),
]


def _scenario_cases() -> list[Case]:
    return [Case(f"scenario-{cid}", ["attack", "--input", "{tmp}/s.json", "--json"],
                 {"s.json": edited("attack.json", edit)}, names=("s.json", text))
            for cid, edit, text in SCENARIO_EDITS]


# -- scenes -----------------------------------------------------------------------------------

SCENE_EDITS: list[tuple[str, Edit, str]] = [
    ("battlefield-missing", _drop("battlefield"), "battlefield: missing"),
    ("width-zero", _set("battlefield.width", 0), "battlefield.width"),
    ("width-huge", _set("battlefield.width", 1e9), "battlefield.width"),
    ("unknown-key", _set("lighting", "dim"), "lighting: unknown key"),
    ("terrain-category", _set("terrain[0].category", "rubble"), "terrain[0].category"),
    ("terrain-self-intersecting", _set("terrain[0].footprint", [[0, 0], [4, 4], [0, 4], [4, 0]]),
     "terrain[0].footprint"),
    ("terrain-zero-area", _set("terrain[0].footprint", [[0, 0], [1, 1], [2, 2]]),
     "terrain[0].footprint"),
    ("terrain-two-points", _set("terrain[0].footprint", [[0, 0], [1, 1]]), "terrain[0].footprint"),
    ("terrain-height-negative", _set("terrain[0].height", -1), "terrain[0].height"),
    ("area-unknown", _set("terrain[0].area", "Atlantis"), "terrain[0].area"),
    ("unit-models-empty", _set("units[0].models", []), "units[0].models"),
    ("model-x-missing", _drop("units[0].models[0].x"), "units[0].models[0].x"),
    ("model-x-text", _set("units[0].models[0].x", "left"), "units[0].models[0].x"),
    ("model-off-table", _set("units[0].models[0].x", 100), "units[0].models[0]"),
    ("model-base-text", _set("units[0].models[0].base_mm", "abc"), "units[0].models[0].base_mm"),
    ("model-base-three", _set("units[0].models[0].base_mm", [1, 2, 3]), "base_mm"),
    ("unit-duplicate-name", _set("units[1].name", "Intercessors"), "units[1].name"),
    ("unit-markup-name", _set("units[0].name", "[/]\x1b]8;;http://x\x1b\\"), "units[0].name"),
    ("unit-player-missing", _drop("units[0].player"), "units[0].player"),
    ("keywords-not-list", _set("units[1].keywords", "INFANTRY"), "units[1].keywords"),
]


def _scene_cases() -> list[Case]:
    return [Case(f"scene-{cid}", ["los", "--input", "{tmp}/scene.json", "--svg",
                                  "{tmp}/t.svg"],
                 {"scene.json": edited("scene.json", edit)}, names=("scene.json", text),
                 outputs=("t.svg",))
            for cid, edit, text in SCENE_EDITS]


# -- positions --------------------------------------------------------------------------------


def _position() -> Any:
    return json.loads(json.dumps(default_position()))


def _same_id(d: Any) -> None:
    d["units"][1]["models"][0]["id"] = d["units"][0]["models"][0]["id"]


def _overlap(d: Any) -> None:
    m = d["units"][0]["models"]
    m[1]["x"], m[1]["y"] = m[0]["x"], m[0]["y"]


POSITION_EDITS: list[tuple[str, Edit, str]] = [
    ("player-key", _drop("units[0].player"), "units[0].player"),
    ("unknown-player", _set("units[0].player", "green"), "units[0].player"),
    ("three-players", lambda d: d["players"].append({"name": "green"}), "players"),
    ("one-player", lambda d: d["players"].pop(), "players"),
    ("same-player-twice", _set("players[1].name", "red"), "players[1].name"),
    ("duplicate-unit-id", _set("units[1].id", "red.intercessors"), "units[1].id"),
    ("duplicate-model-id", _same_id, "units[1].models[0].id"),
    ("model-off-table", _set("units[0].models[0].x", 100), "units[0].models[0]"),
    ("model-negative", _set("units[0].models[0].y", -5), "units[0].models[0]"),
    ("model-nan", _set("units[0].models[0].x", float("nan")), "units[0].models[0].x"),
    ("bases-overlap", _overlap, "overlaps"),
    ("wounds-lost-over-w", _set("units[0].models[0].wounds_lost", 2), "wounds_lost"),
    ("wounds-lost-negative", _set("units[0].models[0].wounds_lost", -1), "wounds_lost"),
    ("unknown-phase", _set("phase", "lunch"), "phase"),
    ("unknown-flag", _set("units[0].flags", {"sleepy": True}), "units[0].flags.sleepy"),
    ("unknown-frame", _set("frames", [{"kind": "teleport", "data": {}}]), "frames[0].kind"),
    ("frame-data-list", _set("frames", [{"kind": "battle", "data": []}]), "frames[0].data"),
    # typed frames (engine/frames.py): the kind's frame class reads the data
    ("frame-step-unknown", _set("frames", [{"kind": "round", "data": {"step": "sideways"}}]),
     "frames[0].data.step"),
    ("frame-data-unknown-key", _set("frames", [{"kind": "battle", "data": {"speed": 3}}]),
     "frames[0].data.speed"),
    ("frame-data-missing-key", _set("frames", [{"kind": "turn", "data": {"step": 1}}]),
     "frames[0].data.player"),
    ("frame-data-wrong-type", _set("frames", [{"kind": "battle", "data": {}},
                                              {"kind": "window", "data": {
                                                  "window": "after_roll", "facts": {},
                                                  "players": "red"}}]),
     "frames[1].data.players"),
    ("empty-unit", _set("units[0].models", []), "units[0].models"),
    ("unit-unknown-key", _set("units[0].colour", "red"), "units[0].colour"),
    ("top-unknown-key", _set("weather", "rain"), "weather: unknown key"),
    ("format-wrong", _set("format", "chess/1"), "format"),
    ("objective-nan", _set("objectives[0].x", float("nan")), "objectives[0].x"),
    ("objective-off-table", _set("objectives[0].x", 500), "objectives[0]"),
    ("objective-controller", _set("objectives[0].controller", "green"),
     "objectives[0].controller"),
    ("terrain-self-intersecting",
     _set("terrain.terrain[0].footprint", [[0, 0], [4, 4], [0, 4], [4, 0]]),
     "terrain.terrain[0].footprint"),
    ("terrain-zero-area", _set("terrain.terrain[0].footprint", [[0, 0], [1, 1], [2, 2]]),
     "terrain.terrain[0].footprint"),
    ("terrain-unknown-area", _set("terrain.terrain[0].area", "nowhere"),
     "terrain.terrain[0].area"),
    ("cp-negative", _set("players[0].cp", -3), "players[0].cp"),
    ("cp-huge", _set("players[0].cp", 10**12), "players[0].cp"),
    ("round-huge", _set("round", 10**9), "round"),
    ("turn-player-unknown", _set("turn_player", "green"), "turn_player"),
    ("mission-rounds-text", _set("mission.rounds", "five"), "mission.rounds"),
    ("mission-rounds-zero", _set("mission.rounds", 0), "mission.rounds"),
    ("mission-rounds-billion", _set("mission.rounds", 10**9), "mission.rounds"),
    ("mission-negative-vp", _set("mission.vp_per_objective", -5), "mission.vp_per_objective"),
    ("profile-t-zero", _set("units[0].models[0].profile.T", 0), "profile.T"),
    ("profile-unknown-key", _set("units[0].models[0].profile.Toughness", 4),
     "profile.Toughness: unknown key"),
    ("weapon-a-billion", _set("units[0].models[0].weapons[0].A", "1000000000"), "weapons[0].A"),
    ("too-many-models", lambda d: d["units"][0]["models"].extend(
        [dict(d["units"][0]["models"][0], id=f"x{i}") for i in range(400)]), "units[0].models"),
    ("top-is-list", lambda d: d.clear(), "battlefield: missing"),
]


def _position_cases() -> list[Case]:
    return [Case(f"position-{cid}", ["battle", "--from", "{tmp}/p.json", "--out", "{tmp}/out"],
                 {"p.json": edited_data(_position, edit)}, names=("p.json", text),
                 outputs=("out/record.json", "out/replay.html"))
            for cid, edit, text in POSITION_EDITS]


# -- missions ---------------------------------------------------------------------------------

MISSION = {"name": "m", "rounds": 5, "scoring_from_round": 2, "vp_per_objective": 5, "vp_cap": 15}
MISSION_EDITS: list[tuple[str, Edit, str]] = [
    ("rounds-text", _set("rounds", "five"), "rounds"),
    ("rounds-zero", _set("rounds", 0), "rounds"),
    ("rounds-billion", _set("rounds", 10**9), "rounds"),
    ("vp-negative", _set("vp_per_objective", -1), "vp_per_objective"),
    ("cap-float", _set("vp_cap", 1.5), "vp_cap"),
    ("unknown-key", _set("deployment", "dawn"), "deployment: unknown key"),
    ("scoring-after-end", _set("scoring_from_round", 7), "scoring_from_round"),
    ("name-number", _set("name", 7), "name"),
    ("layout-unknown", _set("layout", "nowhere"), "layout"),
    ("first-turn-number", _set("first_turn", 7), "first_turn"),
    ("zone-300-points", _set("deployment_zones", [{"player": "red",
                                                   "polygon": [[0, 0]] * 300}] * 2),
     "deployment_zones[0].polygon"),
    ("secondaries-21", _set("secondaries", [{"name": "s", "condition": "more_objectives",
                                             "vp": 1}] * 21), "secondaries"),
    ("rule-vp-billion", _set("primary", {"name": "p", "rules": [
        {"name": "r", "condition": "each_objective", "vp": 10**9}]}), "primary.rules[0].vp"),
    ("not-object", lambda d: d.clear(), "name"),
]


def _mission_cases() -> list[Case]:
    out = [Case(f"mission-{cid}", ["battle", "--mission", "{tmp}/m.json", "--out", "{tmp}/out"],
                {"m.json": edited_data(lambda: copy.deepcopy(MISSION), edit)},
                names=("m.json", text), outputs=("out/record.json",))
           for cid, edit, text in MISSION_EDITS[:-1]]
    out.append(Case("mission-list", ["battle", "--mission", "{tmp}/m.json"],
                    {"m.json": "[1, 2]"}, names=("m.json", "mission object")))
    out.append(Case("mission-unknown-name", ["battle", "--mission", "nowhere"], {},
                    names=("--mission",)))
    return out


# -- armies -----------------------------------------------------------------------------------

ARMY = """datasheets:
  - name: Grunts
    faction_keywords: [TESTERS]
    keywords: [INFANTRY]
    models:
      - {name: Grunt, M: 6, T: 4, Sv: 4+, W: 1, Ld: 7+, OC: 1, base_mm: 32}
    weapons:
      - {name: Rifle, range: 24, A: 1, BS: 4+, S: 4, AP: 0, D: 1}
    composition:
      - {model: Grunt, min: 5, max: 10, wargear: [rifle]}
army:
  name: Test army
  faction: TESTERS
  units:
    - {datasheet: Grunts, count: 5}
"""
ARMY_CASES: list[tuple[str, str, str]] = [
    ("unit-400-models", ARMY.replace("count: 5}", "count: 400}"), "count"),
    ("count-text", ARMY.replace("count: 5}", "count: five}"), "count"),
    ("t-zero", ARMY.replace("T: 4,", "T: 0,"), "models[0].T"),
    ("unknown-key", ARMY.replace("keywords: [INFANTRY]", "keywords: [INFANTRY]\n    colour: red"),
     "colour"),
    ("bs-and-ws", ARMY.replace("BS: 4+,", "BS: 4+, WS: 3+,"), "weapons[0]"),
    ("a-billion", ARMY.replace("A: 1,", "A: 1000000000,"), "weapons[0].A"),
    ("anchor-bomb", ARMY + "\nx: &a [1, 1]\ny: [*a, *a]\n", "aliases"),
    ("unknown-datasheet", ARMY.replace("{datasheet: Grunts", "{datasheet: Gruntz"), "Gruntz"),
    ("name-escape", ARMY.replace("name: Test army", 'name: "Test\\e[2J"'), "army.name"),
    ("no-army", ARMY.split("army:")[0], "army"),
]


def _army_cases() -> list[Case]:
    return [Case(f"army-{cid}", ["battle", "--red", "{tmp}/a.yaml", "--out", "{tmp}/out"],
                 {"a.yaml": text}, names=("a.yaml", name), outputs=("out/record.json",))
            for cid, text, name in ARMY_CASES]


# -- command-line options ---------------------------------------------------------------------

W = ["-w", '1x Gun 24" A2 BS3+ S4 AP0 D1', "-t", "5x Boy T5 Sv5+ W1"]
OPTION_CASES = [
    Case("sims-zero", ["attack", "--sims", "0"], names=("--sims",)),
    Case("sims-huge", ["attack", "--sims", "1000000000000"], names=("--sims",)),
    Case("sims-dice-budget", ["attack", "-w", '50x Gun 24" A20 BS3+ S4 AP0 D1', "-t",
                              "5x Boy T5 Sv5+ W1", "--sims", "4000000"], names=("--sims",)),
    Case("sims-not-number", ["attack", "--sims", "many"], names=("--sims",)),
    Case("plot-missing-dir", ["attack", "--exact", "--plot", "{tmp}/no/such/p.png"],
         names=("--plot",)),
    Case("plot-onto-dir", ["attack", "--exact", "--plot", "{tmp}"], names=("--plot",)),
    Case("plot-without-exact", ["attack", "--plot", "{tmp}/p.png"], names=("--plot",),
         outputs=("p.png",)),
    Case("svg-missing-dir", ["los", "--input", "examples/scene.json", "--svg",
                             "{tmp}/no/t.svg"], names=("--svg",)),
    Case("out-onto-file", ["battle", "--out", "{tmp}/f.txt"], {"f.txt": "keep"},
         names=("--out",), outputs=("f.txt",)),
    Case("agents-three", ["battle", "--agents", "random,random,random"], names=("--agents",)),
    Case("agents-unknown", ["battle", "--agents", "random,genius"], names=("--agents",)),
    Case("from-and-red", ["battle", "--from", "{tmp}/p.json", "--red", "boyz"],
         {"p.json": _position}, names=("--from",)),
    Case("allocation-order-nobody", ["attack", *W, "--allocation-order", "Nobody"],
         names=("--allocation-order",)),
    Case("lethal-hits-bad", ["attack", *W, "--lethal-hits", "sometimes"],
         names=("--lethal-hits",)),
    Case("dice-no-equals", ["attack", *W, "--dice", "hit"], names=("--dice",)),
    Case("dice-kind-unknown", ["attack", *W, "--dice", "luck=1"], names=("--dice",)),
    Case("dice-face-big", ["attack", *W, "--dice", "hit=9" * 1], names=("--dice",)),
    Case("dice-face-digits", ["attack", *W, "--dice", "hit=" + "9" * 5000], names=("--dice",)),
    Case("inline-count-million", ["attack", "-w", '1000000x Gun 24" A2 BS3+ S4 AP0 D1', "-t",
                                  "5x Boy T5 Sv5+ W1"], names=("--weapon 1",)),
    Case("inline-a-billion", ["attack", "-w", '1x Gun 24" A1000000000 BS3+ S4 AP0 D1', "-t",
                              "5x Boy T5 Sv5+ W1", "--exact"], names=("--weapon 1",)),
    Case("inline-5000-digits", ["attack", "-w", "9" * 5000 + 'x Gun 24" A2 BS3+ S4 AP0 D1',
                                "-t", "5x Boy T5 Sv5+ W1"], names=("--weapon 1",)),
    Case("inline-target-million", ["attack", "-w", '1x Gun 24" A2 BS3+ S4 AP0 D1', "-t",
                                   "1000000x Boy T5 Sv5+ W1"], names=("--target 1",)),
    Case("inline-no-t", ["attack", "-w", '1x Gun 24" A2 BS3+ S4 AP0 D1', "-t", "5x Boy W1"],
         names=("--target 1",)),
    Case("markup-name-printed-as-text", ["attack", "--input", "{tmp}/s.json", "--seed", "1"],
         {"s.json": edited("attack.json", _set("target.name", "[bold red]x[/][link=http://e]y"))},
         code=0, names=("[bold red]x[/][link=http://e]y",)),
    Case("markup-name-exact", ["attack", "--input", "{tmp}/s.json", "--exact"],
         {"s.json": edited("attack.json", lambda d: (d.pop("allocation_order", None), _set(
             "target.models[1].name", "[/]G")(d)))},
         code=0, names=("[/]G",)),
    Case("input-missing", ["attack", "--input", "{tmp}/none.json"], names=("none.json",)),
    Case("input-is-dir", ["attack", "--input", "{tmp}"], names=("folder",)),
    Case("los-missing", ["los", "--input", "{tmp}/none.json"], names=("none.json",)),
    Case("replay-missing", ["replay", "{tmp}/none.json"], names=("none.json",)),
    Case("army-missing-name", ["battle", "--red", "nosucharmy"], names=("nosucharmy",)),
]


def all_cases() -> list[Case]:
    """Every case of the campaign."""
    return (_file_cases() + _scenario_cases() + _scene_cases() + _position_cases()
            + _mission_cases() + _army_cases() + OPTION_CASES)


RecordEdit = tuple[str, Callable[[dict[str, Any]], object], int, str]
RECORD_EDITS: list[RecordEdit] = [
    ("event-edited", lambda r: r["events"][5].__setitem__("round", 99), 3, "events[5]"),
    ("event-removed", lambda r: r["events"].pop(), 3, "events["),
    ("choice-garbage", lambda r: r["choices"].__setitem__(3, "garbage"), 2, "choices[3]"),
    ("choice-extra", lambda r: r["choices"].append(None), 2, "choices["),
    ("seed-text", lambda r: r.__setitem__("seed", "one"), 2, "seed"),
    ("seed-missing", lambda r: r.pop("seed"), 2, "seed"),
    ("format-wrong", lambda r: r.__setitem__("format", "pgn"), 2, "format"),
    ("mission-edited", lambda r: r["mission"].__setitem__("rounds", 3), 2, "mission"),
    ("setup-broken", lambda r: r["setup"]["units"][0].pop("player"), 2,
     "setup: units[0].player"),
    ("setup-three-players", lambda r: r["setup"]["players"].append({"name": "x"}), 2,
     "setup: players"),
    ("unknown-key", lambda r: r.__setitem__("comment", "hi"), 2, "comment"),
    ("events-not-list", lambda r: r.__setitem__("events", {}), 2, "events"),
    ("choices-not-list", lambda r: r.__setitem__("choices", 3), 2, "choices"),
]
