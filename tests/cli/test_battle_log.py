"""The readable battle log (`w40k battle`), built from hand-made event lists and from one whole
battle: names instead of ids, no Python reprs, plurals, dice with each attack, why a charge
failed, the end-of-turn score and the final summary."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from w40k.cli.main import app
from w40k.engine.serial import JSON
from w40k.viz.log import BattleLog, Names, log_lines, plural

SETUP: dict[str, JSON] = {
    "players": [{"name": "red"}, {"name": "blue"}],
    "units": [
        {"id": "red.int", "name": "Intercessors", "player": "red",
         "models": [{"id": "red.int.1", "name": "Intercessor Sergeant"},
                    {"id": "red.int.2", "name": "Intercessor 1"}]},
        {"id": "blue.boyz", "name": "Boyz", "player": "blue",
         "models": [{"id": "blue.boyz.1", "name": "Boss Nob"},
                    {"id": "blue.boyz.4", "name": "Boy 3"}]},
    ],
}


def ev(event: str, rnd: int = 1, player: str = "red", phase: str = "shooting",
       **data: JSON) -> dict[str, JSON]:
    return {"event": event, "round": rnd, "player": player, "phase": phase, **data}


def _no_repr(lines: list[str]) -> None:
    text = "\n".join(lines)
    for bad in ("{'", "['", "(['", "None", "<RollKind", "red.int", "blue.boyz"):
        assert bad not in text, (bad, text)


def test_plurals_are_right() -> None:
    assert plural(1, "wound") == "1 wound"
    assert plural(0, "wound") == "0 wounds"
    assert plural(2, "die", "dice") == "2 dice"


def test_models_appear_by_name_with_their_unit_never_by_id() -> None:
    names = Names.from_position(SETUP)
    assert names.model("blue.boyz.4") == "Boy 3 of Boyz"
    assert names.unit("red.int") == "Intercessors"
    assert names.text("attack by red.int on blue.boyz.1") == \
        "attack by Intercessors on Boss Nob of Boyz"
    # an id that is only the start of another word is left alone
    assert names.text("red.intx") == "red.intx"


def test_two_units_with_one_name_are_told_apart_by_side() -> None:
    setup: dict[str, JSON] = {"units": [
        {"id": "a", "name": "Boyz", "player": "red", "models": []},
        {"id": "b", "name": "Boyz", "player": "blue", "models": []}]}
    names = Names.from_position(setup)
    assert names.unit("a") == "Boyz (red)" and names.unit("b") == "Boyz (blue)"


def test_an_attack_line_gives_the_counts_with_plurals_and_the_dice_of_each_kind() -> None:
    events = [
        ev("declare_shooting", unit="red.int", type="normal",
           shots=[["red.int.1", "Bolt rifle", "blue.boyz"]]),
        ev("roll", kind="hit", unit="red.int", faces=[2, 5, 1, 3, 1, 4], rerolled=[]),
        ev("roll", kind="wound", unit="red.int", faces=[4, 4, 6], rerolled=[]),
        ev("roll", kind="save", unit="blue.boyz", faces=[4], rerolled=[]),
        ev("attack_step", attacker="red.int", target="blue.boyz", step="hit", rule="05.01",
           text="hit rolls"),
        ev("attack", attacker="red.int", target="blue.boyz", melee=False, hits=3, wounds=1,
           unsaved=1, wounds_lost=1, models_destroyed=1, hazard_wounds_lost=0),
        ev("destroyed", unit="blue.boyz", model="blue.boyz.4", cause="attack by red.int",
           triggers=True),
    ]
    lines = log_lines(events, SETUP)
    _no_repr(lines)
    assert lines[0].endswith("Intercessors: shooting at Boyz")
    assert lines[1].endswith("Intercessors shooting Boyz: 3 hits, 1 wound, 1 unsaved: "
                             "1 wound lost, 1 model destroyed")
    assert lines[2].strip() == "dice: hit 2 5 1 3 1 4; wound 4 4 6; save 4"
    assert lines[3].endswith("Boy 3 of Boyz is destroyed (attack by Intercessors)")


def test_the_dice_of_one_attack_are_not_carried_into_the_next() -> None:
    events = [
        ev("roll", kind="hit", unit="red.int", faces=[1, 1], rerolled=[]),
        ev("attack", attacker="red.int", target="blue.boyz", melee=False, hits=0, wounds=0,
           unsaved=0, wounds_lost=0, models_destroyed=0),
        ev("roll", kind="hit", unit="red.int", faces=[6], rerolled=[]),
        ev("attack", attacker="red.int", target="blue.boyz", melee=True, hits=1, wounds=0,
           unsaved=0, wounds_lost=0, models_destroyed=0),
    ]
    lines = log_lines(events, SETUP)
    assert lines[1].strip() == "dice: hit 1 1"
    assert "fighting Boyz: 1 hit, 0 wounds" in lines[2]
    assert lines[3].strip() == "dice: hit 6"


def test_an_advance_gives_the_roll_and_the_distance_moved_not_an_allowance() -> None:
    events = [ev("roll", phase="movement", kind="advance", unit="red.int", faces=[3],
                 rerolled=[]),
              ev("advance_roll", phase="movement", unit="red.int", roll=3),
              ev("move", phase="movement", unit="red.int", move_type="advance",
                 models={"red.int.1": [1.0, 2.0, 0.0, 3.3], "red.int.2": [1, 2, 0, 2.0]})]
    lines = log_lines(events, SETUP)
    assert len(lines) == 1
    assert lines[0].endswith('Intercessors: advance (advance roll 3), farthest model moved 3.3"')
    assert "up to" not in lines[0]


def test_each_failed_charge_says_why() -> None:
    events = [
        ev("declare_charge", phase="charge", unit="blue.boyz"),
        ev("charge_roll", phase="charge", unit="blue.boyz", dice=[1, 2], roll=3),
        ev("charge_failed", phase="charge", unit="blue.boyz",
           reason="no charge target within the roll"),
        ev("charge_roll", phase="charge", unit="red.int", dice=[4, 5], roll=9),
        ev("charge_targets", phase="charge", unit="red.int", targets=["blue.boyz"]),
        ev("charge_declined", phase="charge", unit="red.int"),
    ]
    lines = log_lines(events, SETUP)
    _no_repr(lines)
    assert lines[0].endswith('Boyz: charge declared, 2D6 = 1 + 2 = 3"')
    assert lines[1].endswith('Boyz: charge failed, no enemy unit within reach of the 3" roll')
    assert lines[3].endswith("Intercessors: charge targets Boyz")
    assert lines[4].endswith('Intercessors: charge failed (rolled 9"), its player declined '
                             "the charge move")


def test_objectives_and_scores_read_without_python_reprs() -> None:
    events = [
        ev("gain_cp", phase="command", cp={"red": 1, "blue": 1}),
        ev("objective_control", phase="movement", objective="red home", controller="red",
           levels={"red": 4, "blue": 0}),
        ev("objective_control", phase="movement", objective="centre", controller=None,
           levels={"red": 0, "blue": 0}),
        ev("objective_control", phase="movement", objective="west", controller=None,
           levels={"red": 3, "blue": 3}),
        ev("score", rnd=2, phase="end_of_turn", vp=5, objectives=["red home"], total=5),
        ev("turn_end", rnd=2, phase="end_of_turn"),
    ]
    lines = log_lines(events, SETUP)
    _no_repr(lines)
    assert lines[0].endswith("each player gains 1 CP: CP red 1, blue 1")
    assert lines[1].endswith("objective red home: controlled by red (OC red 4, blue 0)")
    assert lines[2].endswith("objective centre: not controlled (OC red 0, blue 0)")
    assert lines[3].endswith("objective west: contested (OC red 3, blue 3)")
    assert lines[4].endswith("red scores 5 VP for red home; total 5")
    assert lines[5].endswith("VP red 5, blue 0; CP red 1, blue 1")


def test_an_unknown_event_kind_gets_a_readable_line_never_a_crash() -> None:
    # stratagems and missions add event kinds: they must read as text
    lines = log_lines([ev("stratagem_used", phase="command", unit="red.int", name="Go!",
                          cost=1, targets=["blue.boyz.1"], detail={"cp": 2, "ok": True},
                          extra=None)], SETUP)
    assert lines == ["R1 red   command     stratagem used: unit Intercessors; name Go!; cost 1; "
                     "targets Boss Nob of Boyz; detail cp 2, ok yes; extra none"]


def test_the_summary_gives_winner_vp_by_round_units_lost_and_turning_points() -> None:
    events = [
        ev("round_start", rnd=1, player="", phase=""),
        ev("score", rnd=1, phase="end_of_turn", vp=5, objectives=[], total=5),
        ev("round_start", rnd=2, player="", phase=""),
        ev("attack", rnd=2, player="blue", attacker="blue.boyz", target="red.int",
           melee=True, hits=4, wounds=3, unsaved=2, wounds_lost=4, models_destroyed=2),
        ev("destroyed", rnd=2, player="blue", unit="red.int", model="red.int.1",
           cause="attack by blue.boyz"),
        ev("destroyed", rnd=2, player="blue", unit="red.int", model="red.int.2",
           cause="attack by blue.boyz"),
        ev("unit_destroyed", rnd=2, player="blue", unit="red.int"),
        ev("score", rnd=2, player="blue", phase="end_of_turn", vp=10, objectives=[],
           total=10),
        ev("battle_end", rnd=2, player="", phase="", vp={"red": 5, "blue": 10},
           winner="blue"),
    ]
    lines = log_lines(events, SETUP)
    _no_repr(lines)
    text = "\n".join(lines)
    assert "=== Battle over: blue wins; VP red 5, blue 10 ===" in text
    assert "  winner: blue" in text
    assert re.search(r"red +5 +0 +5\n", text) and re.search(r"blue +0 +10 +10\n", text)
    assert "    red: 1 (Intercessors)" in text and "    blue: 0" in text
    assert "round 1: red takes the lead" in text
    assert "round 2: blue takes the lead" in text
    assert "first blood, Intercessor Sergeant of Intercessors destroyed" in text
    assert "the first unit destroyed, Intercessors (red)" in text
    assert "deadliest attack, round 2: Boyz fighting Intercessors, 2 models destroyed" in text


def test_a_draw_says_so() -> None:
    log = BattleLog(SETUP)
    lines = log.lines(ev("battle_end", player="", phase="", vp={"red": 0, "blue": 0},
                         winner=None))
    assert lines[0] == "=== Battle over: a draw; VP red 0, blue 0 ==="
    assert "  winner: none (a draw)" in lines


SMALL = ["--mission", "take-and-hold", "--red", "space_marines", "--blue", "boyz",
         "--auto-deploy"]
"""A small battle (7 models against 10) on the take-and-hold mission: quick to play."""


def test_a_whole_battle_prints_names_headers_dice_and_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["battle", *SMALL, "--agents", "greedy,greedy",
                                      "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    record = json.loads((out / "record.json").read_text())
    ids = {str(u["id"]) for u in record["setup"]["units"]}
    ids |= {str(m["id"]) for u in record["setup"]["units"] for m in u["models"]}
    for line in lines[:-1]:  # the last line names the output files
        assert not any(re.search(rf"(?<![\w.-]){re.escape(i)}(?![\w-])", line) for i in ids), \
            line
    _no_repr(lines[:-1])
    assert lines[0] == "red takes the first turn (the mission's choice)", lines[0]
    assert lines[1] == "=== Battle round 1 ==="
    assert "--- red's turn ---" in lines
    assert any("dice: hit" in line for line in lines)
    assert any(" of " in line and "is destroyed" in line for line in lines)
    assert any(re.search(r"end of turn +VP red \d+, blue \d+; CP red \d+, blue \d+", line)
               for line in lines)
    assert "Summary" in lines and "  turning points:" in lines
    assert re.match(r"\d+ decisions; VP red \d+, blue \d+; record: ", lines[-1])
    # the log is built from the record's events alone: the same lines again
    from w40k.viz.log import log_lines as again

    assert again(record["events"], record["setup"]) == lines[:-1]


def test_replay_prints_the_same_log_and_writes_the_same_page_as_the_battle(
        tmp_path: Path) -> None:
    out = tmp_path / "out"
    battle = CliRunner().invoke(app, ["battle", *SMALL, "--agents", "greedy,random",
                                      "--seed", "2", "--out", str(out)])
    assert battle.exit_code == 0, battle.output
    page = tmp_path / "again.html"
    res = CliRunner().invoke(app, ["replay", str(out / "record.json"), "--log", "--html",
                                   str(page)])
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[:-1] == battle.stdout.splitlines()[:-1]
    assert res.stdout.splitlines()[-1].endswith("event log identical")

    def data(path: Path) -> dict[str, JSON]:
        text = path.read_text(encoding="utf-8")
        found = re.search(r'<script id="data" type="application/json">(.*?)</script>', text,
                          re.S)
        assert found is not None
        body: dict[str, JSON] = json.loads(found[1])
        body.pop("title")
        return body

    assert data(page) == data(out / "replay.html")


def test_a_position_that_starts_with_vp_and_cp_is_counted_from_there() -> None:
    setup = {**SETUP, "players": [{"name": "red", "vp": 10, "cp": 3},
                                  {"name": "blue", "vp": 5, "cp": 1}]}
    lines = log_lines([ev("score", rnd=3, phase="end_of_turn", vp=5, objectives=[], total=15),
                       ev("turn_end", rnd=3, phase="end_of_turn")], setup)
    assert lines[-1].endswith("VP red 15, blue 5; CP red 3, blue 1")


def test_the_pre_battle_sequence_reads_as_steps_with_unit_names() -> None:
    log = BattleLog(SETUP)
    lines = [ln for e in (
        ev("pre_battle", 0, "", "", step="declare_battle_formations", order=["red", "blue"]),
        ev("battle_formations", 0, "red", "", reserves=["red.int"], embarked={}),
        ev("pre_battle", 0, "", "", step="deployment"),
        ev("deploy", 0, "", "", unit="blue.boyz", infiltrators=True, models={}),
        ev("scout", 0, "", "", unit="blue.boyz", kind="scout_move", distance=6.0, models={}),
        ev("pre_battle_end", 0, "", "")) for ln in log.lines(e)]
    _no_repr(lines)
    text = "\n".join(lines)
    assert "=== Pre-battle: declare battle formations ===" in text
    assert "red declares in strategic reserves: Intercessors" in text
    assert "Boyz is deployed (Infiltrators)" in text
    assert "Boyz: Scouts 6\", scout move" in text
    assert "=== The battle begins ===" in text


# -- the 1000-point battle's lines (issue 13 "What a player sees") ---------------------------
REAL: dict[str, JSON] = {
    "players": [{"name": "red"}, {"name": "blue"}],
    "units": [
        {"id": "red.dread", "name": "Dreadnought", "player": "red",
         "models": [{"id": "red.dread.1", "name": "Dreadnought", "profile": {"abilities": []}}]},
        {"id": "red.rhino", "name": "Rhino", "player": "red",
         "models": [{"id": "red.rhino.1", "name": "Rhino"}]},
        {"id": "red.squad", "name": "Second squad", "player": "red",
         "models": [{"id": "red.squad.1", "name": "Intercessor"},
                    {"id": "red.squad.2", "name": "Intercessor"}]},
        {"id": "red.jet", "name": "Stormtalon Gunship", "player": "red",
         "models": [{"id": "red.jet.1", "name": "Stormtalon Gunship",
                     "profile": {"abilities": []}}]},
        {"id": "blue.storm", "name": "Stormboyz", "player": "blue",
         "models": [{"id": f"blue.storm.{i}", "name": f"Stormboy {i}",
                     "profile": {"abilities": ["Deep Strike"]}} for i in (1, 2)]},
        {"id": "blue.kommandos", "name": "Kommandos", "player": "blue",
         "models": [{"id": "blue.kommandos.1", "name": "Kommando 1"}]},
    ],
}


def test_a_one_model_unit_named_as_its_model_is_not_named_twice() -> None:
    names = Names.from_position(REAL)
    assert names.model("red.dread.1") == "Dreadnought"
    assert names.model("blue.storm.2") == "Stormboy 2 of Stormboyz"
    lines = log_lines([ev("deadly_demise_roll", phase="fight", unit="red.dread",
                          model="red.dread.1", roll=1, x=3)], REAL)
    assert lines[0].endswith("  Dreadnought Deadly Demise: rolled 1, no explosion")


def test_a_score_at_the_end_of_a_battle_round_names_its_scorer_and_its_secondary() -> None:
    # The mission's end-of-round scoring has no turn player: the event's ``scorer`` scores
    # (before, the line read " scores 2 VP" and the VP line gained a nameless " 6").
    events = [
        ev("round_start", rnd=2, player="", phase=""),
        ev("score", rnd=2, player="", phase="", vp=2, rule="Hold the centre", kind="secondary",
           scorer="red", objectives=["centre"], total=2),
        ev("score", rnd=2, player="red", phase="end_of_turn", vp=3,
           rule="Behind enemy lines", kind="secondary", scorer="red", units=["red.jet"],
           total=5),
        ev("score", rnd=2, player="blue", phase="command", vp=4, rule="hold", kind="primary",
           scorer="blue", objectives=["blue home"], total=4),
        ev("turn_end", rnd=2, player="blue", phase="end_of_turn"),
        ev("battle_end", rnd=2, player="", phase="", vp={"red": 5, "blue": 4}, winner="red"),
    ]
    lines = log_lines(events, REAL)
    _no_repr(lines)
    assert lines[1] == "R2 red   " + " " * 12 + "red scores 2 VP (Hold the centre) for centre; " \
                       "total 2"
    assert lines[2].endswith("red scores 3 VP (Behind enemy lines) for Stormtalon Gunship; "
                             "total 5")
    assert lines[3].endswith("blue scores 4 VP for blue home; total 4")
    assert lines[4].endswith("VP red 5, blue 4")
    text = "\n".join(lines)
    assert re.search(r"\n    red +0 +5 +5\n", text), text
    assert "round 2:  takes the lead" not in text
    assert "round 2: red takes the lead, VP red 2, blue 0" in text


def test_the_first_turn_reads_as_a_sentence() -> None:
    lines = log_lines([ev("first_turn", rnd=0, player="", phase="", first="blue",
                          decided_by="roll-off")], REAL)
    assert lines == ["blue takes the first turn (decided by roll-off)"]


def test_abilities_read_as_sentences_and_a_used_ability_is_told_once() -> None:
    events = [
        ev("ability_ends", player="red", phase="", ability="Oath of Moment"),
        ev("ability_ends", player="blue", phase="", ability="Waaagh! active"),
        ev("reaction", phase="command", window="command_abilities", rule="Oath of Moment",
           answer={"unit": "blue.kommandos"}, by="red"),
        ev("ability_used", phase="command", ability="Oath of Moment", unit="blue.kommandos"),
        ev("ability", phase="shooting", abilities=["Oath of Moment"], unit="red.rhino",
           target="blue.storm"),
        ev("ability_used", player="blue", phase="charge", ability="'Ere We Go",
           unit="blue.storm", old=[1, 2], new=[5, 6]),
    ]
    lines = log_lines(events, REAL)
    _no_repr(lines)
    assert lines == [
        "R1 red   " + " " * 12 + "red's Oath of Moment ends",
        "R1 blue  " + " " * 12 + "blue's Waaagh! ends",
        "R1 red   command     red uses Oath of Moment on Kommandos",
        "R1 red   shooting    Rhino: Oath of Moment against Stormboyz",
        "R1 blue  charge      blue uses 'Ere We Go on Stormboyz: re-rolled 1 + 2 into 5 + 6",
    ]


def test_reserves_deep_strike_and_transport_lines_are_readable() -> None:
    models = {"blue.storm.1": [35.48, 20.12, 0.0], "blue.storm.2": [37.24, 20.12, 0.0]}
    events = [
        ev("move", phase="movement", unit="red.squad", move_type="remain_embarked"),
        ev("set_up", player="blue", phase="movement", unit="blue.storm", kind="ingress",
           mode=None, models=models),
        ev("set_up", phase="movement", unit="red.jet", kind="ingress", mode=None,
           models={"red.jet.1": [9.0, 41.0, 0.0]}),
        ev("disembark_mode", phase="movement", unit="red.squad", transport="red.rhino",
           mode="rapid"),
        ev("set_up_cancelled", phase="movement", unit="red.squad", kind="disembark"),
        ev("disembark_mode", phase="movement", unit="red.squad", transport="red.rhino",
           mode="combat"),
        ev("set_up", phase="movement", unit="red.squad", kind="disembark", mode="combat",
           models={"red.squad.1": [1.0, 2.0, 0.0], "red.squad.2": [2.0, 2.0, 0.0]}),
        ev("to_reserves", player="blue", phase="end_of_turn", unit="red.jet",
           rule="R23.02-b"),
        ev("move", phase="movement", unit="blue.kommandos", move_type="fall_back_ordered",
           models={"blue.kommandos.1": [1.0, 1.0, 0.0, 6.0]}),
    ]
    lines = log_lines(events, REAL)
    _no_repr(lines)
    assert [line[21:] for line in lines] == [
        "Second squad: stays embarked",
        "Stormboyz arrives by Deep Strike: 2 models set up",
        "Stormtalon Gunship arrives from Strategic Reserves: 1 model set up",
        "Second squad: rapid disembark from Rhino cancelled (R03.02-b)",
        "Second squad disembarks from Rhino (combat disembark): 2 models set up",
        "Stormtalon Gunship goes into Strategic Reserves (R23.02-b)",
        'Kommandos: fall back (Ordered Retreat), farthest model moved 6.0"',
    ]
    assert not any(re.search(r"\d+\.\d+, \d", line) for line in lines)  # no coordinates


def test_an_ability_applied_to_each_attack_of_a_unit_is_told_once_per_activation() -> None:
    applied = ev("ability", phase="shooting", abilities=["Tactical Precision"],
                 unit="red.squad", target="blue.storm")
    shots = ev("declare_shooting", phase="shooting", unit="red.squad", type="normal",
               shots=[["red.squad.1", "Bolt rifle", "blue.storm"]])
    lines = log_lines([shots, applied, applied, shots, applied], REAL)
    assert [line[21:] for line in lines] == [
        "Second squad: shooting at Stormboyz", "Second squad: Tactical Precision against "
        "Stormboyz", "Second squad: shooting at Stormboyz", "Second squad: Tactical Precision "
        "against Stormboyz"]


def test_the_replay_page_knows_the_units_that_start_off_the_battlefield() -> None:
    # The page draws a model only when it knows its name and unit: units in reserves or
    # embarked at the start (Deep Strike, the Rhino's squad) were never drawn after arriving.
    from w40k.engine.game import Game
    from w40k.io.battle_setup import real_battle_position
    from w40k.io.position_model import validate_position
    from w40k.viz.replay import ReplayRecorder

    pos = validate_position(real_battle_position(), "real battle")
    game = Game.new(pos, 1)
    recorder = ReplayRecorder(game, pos)
    off = game.state.off_table
    assert off
    assert all(u.id in recorder.units for u in off)
    assert all(m.id in recorder.models for u in off for m in u.models)
    assert recorder.models["red.terminator-squad.1"] == {
        "name": "Terminator 1 of Terminator Squad", "unit": "red.terminator-squad", "W": 3}


def test_stratagems_and_rerolls_read_as_sentences_and_the_cp_spent_is_counted() -> None:
    # The CP line at the end of the turn followed gain_cp only: a stratagem's cost was never
    # taken off (docs/battle.md: an event that spends CP carries what is left).
    events = [
        ev("gain_cp", phase="command", cp={"red": 3, "blue": 2}),
        ev("reaction", phase="movement", window="after_roll", rule="Command Re-roll",
           answer={"unit": "red.squad"}, by="red"),
        ev("stratagem", phase="movement", name="Command Re-roll", by="red", unit="red.squad",
           answer={"unit": "red.squad"}, cp=1, cp_left=2, rule="15.02"),
        ev("command_reroll", phase="movement", kind="advance", unit="red.squad", old=1, new=5),
        ev("command_reroll", phase="charge", kind="charge", unit="red.squad", old=[1, 2],
           new=[4, 5]),
        ev("fire_overwatch", player="blue", phase="movement", unit="red.dread",
           enemy="blue.storm"),
        ev("rapid_ingress", player="blue", phase="movement", unit="red.jet"),
        ev("objective_secured", phase="command", objective="centre", player="red",
           units=["red.squad"]),
        ev("emergency_disembark", player="blue", phase="shooting", unit="red.squad",
           transport="red.rhino", hazard_dice=[1, 4], mortal_wounds=1, lost=["red.squad.1"],
           models={"red.squad.2": [1.0, 2.0]}, rule="R18.05-a"),
        ev("destroyed_in_reserves", rnd=3, player="", phase="", unit="blue.storm",
           rule="R20.04-e"),
        ev("turn_end", phase="end_of_turn"),
    ]
    lines = log_lines(events, REAL)
    _no_repr(lines)
    assert [line[21:] for line in lines[1:]] == [
        "red uses Command Re-roll on Second squad",
        "  red spends 1 CP on Command Re-roll: 2 CP left",
        "  Second squad: advance roll re-rolled, 1 into 5",
        "  Second squad: charge roll re-rolled, 1 + 2 into 4 + 5",
        "Dreadnought fires overwatch at Stormboyz",
        "Stormtalon Gunship: Rapid Ingress",
        "objective centre: secured for red by Second squad",
        "  Second squad makes an emergency disembark from Rhino: 1 mortal wound, 1 model lost",
        "  Stormboyz is destroyed in reserves (R20.04-e)",
        "VP red 0, blue 0; CP red 2, blue 2",
    ]
    summary = BattleLog(REAL)
    for e in events:
        summary.lines(e)
    assert summary.lost == {"blue": ["Stormboyz"]}


def test_a_mission_action_reads_as_sentences() -> None:
    # R16.01-a/c/d: an action started, completed, or failed is told in words, by unit name
    events = [
        ev("action_started", phase="shooting", action="Raise a beacon", unit="blue.kommandos"),
        ev("action_completed", phase="end_of_turn", action="Raise a beacon", unit="blue.kommandos",
           reason="completes"),
        ev("action_failed", phase="movement", action="Raise a beacon", unit="red.squad",
           reason="moved"),
    ]
    lines = log_lines(events, REAL)
    _no_repr(lines)
    assert [line[21:] for line in lines] == [
        "Kommandos starts the action Raise a beacon",
        "Kommandos completes the action Raise a beacon",
        "Second squad: the action Raise a beacon fails (moved)",
    ]


def test_the_mission_s_first_turn_and_pre_battle_units_read_with_their_side() -> None:
    # before the battle no player has the turn: a deploy line shows the unit's side
    lines = log_lines([ev("first_turn", rnd=0, player="", phase="", first="red",
                          decided_by="mission"),
                       ev("pre_battle", rnd=0, player="", phase="",
                          step="resolve_pre_battle_abilities"),
                       ev("deploy", rnd=0, player="", phase="", unit="blue.boyz",
                          infiltrators=False, models={}),
                       ev("score", rnd=5, player="", phase="", vp=2, rule="Hold the centre",
                          kind="secondary", scorer="red", objectives=["centre"], total=7)],
                      SETUP)
    assert lines[0] == "red takes the first turn (the mission's choice)"
    assert lines[1] == "=== Pre-battle: resolve pre-battle abilities ==="
    assert lines[2].startswith("R0 blue ") and lines[2].endswith("Boyz is deployed")
    # the end of the battle's scoring: the scorer's side
    assert lines[3].startswith("R5 red ") and "red scores 2 VP (Hold the centre)" in lines[3]


def test_explosives_crushing_impact_and_stratagem_answers_read_as_sentences() -> None:
    # issue 13: no generic "explosives: unit ...; dice ..." or "die 0, face 3" lines
    events = [
        ev("reaction", player="red", phase="shooting", by="red", rule="Explosives",
           answer={"unit": "red.squad", "model": "red.squad.1", "enemy": "blue.kommandos"}),
        ev("explosives", player="red", phase="shooting", unit="red.squad",
           model="red.squad.1", enemy="blue.kommandos", dice=[4, 3, 1, 4, 5, 6],
           mortal_wounds=4),
        ev("reaction", player="blue", phase="fight", by="red", rule="Command Re-roll",
           answer={"unit": "red.dread", "die": 0, "face": 3}),
        ev("crushing_impact", player="red", phase="charge", unit="red.dread",
           model="red.dread.1", enemy="blue.kommandos", dice=[1, 5, 6, 2],
           mortal_wounds={"red.dread": 1, "blue.kommandos": 2}),
    ]
    lines = [line[21:] for line in log_lines(events, REAL)]
    _no_repr(lines)
    assert lines == [
        "red uses Explosives on Second squad (by Intercessor of Second squad, at Kommandos)",
        "  Intercessor of Second squad throws explosives at Kommandos: dice 4 3 1 4 5 6; "
        "4 mortal wounds (each 4+)",
        "red uses Command Re-roll on Dreadnought (die 1, rolled 3)",
        "  Dreadnought crashes into Kommandos: dice 1 5 6 2; Dreadnought 1 mortal wound, "
        "Kommandos 2 mortal wounds (5+ for the enemy, 1s for itself)",
    ]
