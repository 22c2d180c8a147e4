"""`w40k attack`: resolve one unit's attacks on a target unit.

Referee mode (scripted dice: the faces a player rolled at the table), a seeded roll, or with
``--exact`` / ``--sims N`` the distribution of the outcome. See docs/attack-scenario.md.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from w40k.cli.help import TidyCommand
from w40k.core.dice import ScriptedDice, SeededDice
from w40k.core.errors import DataError, DiceError, DiceExhausted, IllegalChoice, MalformedChoice
from w40k.io.display import plain
from w40k.io.examples import EXAMPLE_SCENARIO
from w40k.io.inline import parse_dice_text, parse_target_text, parse_weapon_text
from w40k.io.outputs import check_output_file
from w40k.io.scenario import (
    OrderDecider,
    Scenario,
    Target,
    check_allocation_order,
    load_scenario,
    parse_scenario,
    result_json,
    volley_attacks,
)
from w40k.io.work import check_sims
from w40k.rules.attack_sequence import AttackResult, resolve_attack

HELP = """Resolve one unit's attacks on a target unit (04-06, 19.02, 24).

Give a scenario file (--input, JSON or YAML) or inline profiles (--weapon, --target); with
neither, an embedded example runs. Referee mode: give the dice you rolled (in the scenario's
"dice" or with --dice hit=3,4,5,6,2 --dice wound=3,4,2,6 --dice save=2,4,5) and the engine
resolves everything else: pools, allocation, saves lowest first, damage, Feel No Pain, mortal
wounds. Dice are D6 faces (a D3 uses one face halved, rounding up), listed per kind in rolling
order; the dice of one step are rolled together and re-rolls come after the batch, taking the
next dice of their kind. Without dice, --seed rolls them.

Inline examples:
  w40k attack -w '10x Boltgun 24" A2 BS3+ S4 AP0 D1' -t '10x Boy T5 Sv5+ W1 INFANTRY'
  w40k attack -w '1x Power fist Melee A3 WS3+ S8 AP-2 D2' -t '5x Intercessor T4 Sv3+ W2' \\
      --dice hit=6,3,1 --dice wound=4,2 --dice save=1
"""


def _scenario(input_file: Path | None, weapons: list[str], targets: list[str],
              attacker: str | None, dice: list[str], flags: dict[str, bool],
              lethal: str | None, order: str | None) -> Scenario:
    if input_file is not None:
        if weapons or targets:
            raise DataError("give either --input or --weapon/--target, not both",
                            where="command line")
        scenario = load_scenario(input_file)
        raw: dict[str, object] = {}
    elif weapons or targets:
        if not weapons or not targets:
            raise DataError("inline mode needs at least one --weapon and one --target",
                            where="command line")
        raw = {"weapons": [parse_weapon_text(w, f"--weapon {i + 1}")
                           for i, w in enumerate(weapons)]}
        ts = [parse_target_text(t, f"--target {i + 1}") for i, t in enumerate(targets)]
        if len(ts) == 1:
            raw["target"] = ts[0]
        else:
            raw["targets"] = ts
        if attacker:
            raw["attacker"] = parse_target_text(attacker, "--attacker",
                                                defaults={"T": 4, "Sv": 7})
        scenario = parse_scenario(raw, "command line")
    else:
        scenario = parse_scenario(EXAMPLE_SCENARIO, "embedded example")
        raw = {}
    # Command-line flags and dice add to (or override) the scenario's.
    extra: dict[str, object] = {}
    ctx_over = {k: v for k, v in flags.items() if v}
    if ctx_over or dice or lethal or order:
        import dataclasses

        c = scenario.context
        ctx = dataclasses.replace(
            c,
            half_range=c.half_range or flags["half_range"],
            charged=c.charged or flags["charged"],
            remained_stationary=c.remained_stationary or flags["remained_stationary"],
            cover=c.cover or flags["cover"],
            plunging_fire=c.plunging_fire or flags["plunging_fire"],
            target_engaged=c.target_engaged or flags["target_engaged"],
            indirect=c.indirect or flags["indirect"],
        )
        if lethal:
            if lethal not in ("auto", "roll"):
                raise DataError(f"expected auto or roll, got {lethal!r}", where="--lethal-hits")
            ctx = dataclasses.replace(ctx, lethal_hits_auto=lethal == "auto")
        scripted = dict(scenario.dice or {})
        if dice:
            parsed = parse_scenario({"weapons": [{"range": 1, "A": 1, "skill": 3, "S": 1,
                                                  "D": 1}],
                                     "target": {"models": [{"T": 1, "Sv": 7, "W": 1}]},
                                     "dice": parse_dice_text(dice)}, "--dice").dice or {}
            scripted.update(parsed)
        names = tuple(n.strip() for n in order.split(",") if n.strip()) if order else ()
        check_allocation_order(names, scenario.targets, "--allocation-order")
        extra = {"context": ctx, "dice": scripted or None,
                 "allocation_order": names or scenario.allocation_order}
        scenario = dataclasses.replace(scenario, **extra)  # type: ignore[arg-type]
    del raw
    return scenario


def _resolve(scenario: Scenario, target: Target, seed: int
             ) -> tuple[AttackResult, dict[str, list[int]]]:
    """Resolve against one target; also the scripted dice the rules did not use."""
    if scenario.dice is None:
        return resolve_attack(scenario.request(target), SeededDice(seed),
                              OrderDecider(scenario.allocation_order)), {}
    source = ScriptedDice(scenario.dice)
    result = resolve_attack(scenario.request(target), source,
                            OrderDecider(scenario.allocation_order))
    return result, source.unused()


def _print_result(console: Console, result: AttackResult, target: Target) -> None:
    console.rule(f"[bold]Attack on {plain(target.name)}")
    step = ""
    for e in result.events:
        if e.step != step:
            step = e.step
        # soft_wrap: a long dice list stays on its line when piped (rich would cut it at 80)
        console.print(f"  [dim]{plain(e.rule):>7}[/dim]  {plain(e.text)}", highlight=False,
                      soft_wrap=True)
    table = Table(title="Summary", show_header=True)
    for col in ("weapon", "dice", "hits (crit)", "wounds (crit)", "unsaved", "MW", "lost",
                "dead"):
        table.add_column(col, justify="right" if col != "weapon" else "left")
    for p in result.pools:
        table.add_row(plain(p.name), str(p.attacks), f"{p.hits} ({p.critical_hits})",
                      f"{p.wounds} ({p.critical_wounds})", str(p.unsaved), str(p.mortal_wounds),
                      str(p.wounds_lost), str(p.models_destroyed))
    table.add_row("[bold]total", str(sum(p.attacks for p in result.pools)),
                  f"{result.hits} ({result.critical_hits})",
                  f"{result.wounds} ({result.critical_wounds})", str(result.unsaved),
                  str(result.mortal_wounds), str(result.wounds_lost),
                  str(result.models_destroyed))
    console.print(table)
    alive = [m for m in result.target if not m.destroyed]
    console.print(f"{plain(target.name)}: {len(alive)} of {len(result.target)} models left"
                  + (": " + ", ".join(f"{plain(m.name)} ({m.remaining}W)" for m in alive)
                     if alive else " (destroyed)"))
    if result.hazard_rolls:
        console.print(f"Hazard rolls {list(result.hazard_rolls)}: the attacker suffers "
                      f"{result.attacker_mortal_wounds} mortal wounds, loses "
                      f"{result.attacker_wounds_lost} wounds, "
                      f"{result.attacker_models_destroyed} models destroyed")


def register(app: typer.Typer) -> None:
    """Add the `attack` command to the app."""

    @app.command("attack", cls=TidyCommand, help=HELP)
    def attack(
        input_file: Annotated[Path | None, typer.Option(
            "--input", "-i", help="Scenario file (JSON, or YAML by suffix).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        exact: Annotated[bool, typer.Option(
            "--exact", help="The exact distribution of the outcome.")] = False,
        sims: Annotated[int | None, typer.Option(
            "--sims", help="Monte Carlo distribution from N simulated attacks.")] = None,
        seed: Annotated[int | None, typer.Option(
            "--seed", help="Seed for rolled dice (default: a fresh one, printed).")] = None,
        plot: Annotated[Path | None, typer.Option(
            "--plot", help="Write a chart (PNG or SVG by suffix) with --exact or --sims.")
        ] = None,
        weapon: Annotated[list[str] | None, typer.Option(
            "--weapon", "-w", metavar="<text>",
            help='Inline weapon: \'10x Boltgun 24" A2 BS3+ S4 AP0 D1 '
            "[RAPID FIRE 1]' (repeatable).")] = None,
        target: Annotated[list[str] | None, typer.Option(
            "--target", "-t", metavar="<text>",
            help="Inline target: '5x Intercessor T4 Sv3+ W2 INFANTRY; "
            "1x Captain T4 Sv3+ InSv4+ W5 CHARACTER leader' (repeat to compare targets).")
        ] = None,
        attacker: Annotated[str | None, typer.Option(
            "--attacker", help="Inline attacking models for hazard rolls: '5x Marine W2'.")
        ] = None,
        dice: Annotated[list[str] | None, typer.Option(
            "--dice", "-d", metavar="<kind=faces>",
            help="Referee mode: dice rolled, per kind: hit=6,3,1 "
            "(kinds: attacks hit wound save damage fnp hazard; repeatable).")] = None,
        half_range: Annotated[bool, typer.Option(
            "--half-range", help="Target within half range ([RAPID FIRE], [MELTA]).")] = False,
        charged: Annotated[bool, typer.Option(
            "--charged", help="The attacking unit made a charge move this turn ([LANCE]).")
        ] = False,
        stationary: Annotated[bool, typer.Option(
            "--stationary", help="Remained stationary ([HEAVY]).")] = False,
        cover: Annotated[bool, typer.Option("--cover", help="Target has benefit of cover.")
                         ] = False,
        plunging_fire: Annotated[bool, typer.Option(
            "--plunging-fire", help="Plunging fire: BS improved by 1 from high ground (22.05).")
        ] = False,
        target_engaged: Annotated[bool, typer.Option(
            "--target-engaged", help="Target is an engaged MONSTER/VEHICLE (17.03).")] = False,
        indirect: Annotated[bool, typer.Option("--indirect", help="Indirect shooting (10.07).")
                            ] = False,
        lethal_hits: Annotated[str | None, typer.Option(
            "--lethal-hits", help="auto (default) or roll.")] = None,
        allocation_order: Annotated[str | None, typer.Option(
            "--allocation-order", help="Defender's group order by model names: 'Gemina,Seraphim'.")
        ] = None,
    ) -> None:
        console = Console(stderr=False, highlight=False)
        flags = {"half_range": half_range, "charged": charged,
                 "remained_stationary": stationary, "cover": cover,
                 "plunging_fire": plunging_fire, "target_engaged": target_engaged,
                 "indirect": indirect}
        try:
            scenario = _scenario(input_file, weapon or [], target or [], attacker, dice or [],
                                 flags, lethal_hits, allocation_order)
            check_sims(sims, volley_attacks(scenario.weapons))
            if plot is not None and not (exact or sims):
                raise DataError("--plot needs --exact or --sims", where="--plot")
            if plot is not None:
                check_output_file(plot, "--plot")
            used_seed = seed if seed is not None else secrets.randbelow(2**31)
            if exact or sims:
                from w40k.cli.attack_distribution import run_distribution

                run_distribution(scenario, exact=exact, sims=sims, seed=used_seed, plot=plot,
                                 as_json=as_json, console=console)
                return
            outputs = []
            for t in scenario.targets:
                result, unused = _resolve(scenario, t, used_seed)
                outputs.append((t, result, unused))
        except (DataError, DiceError, IllegalChoice, MalformedChoice) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        except DiceExhausted as exc:
            typer.echo(f"error: referee mode: not enough '{exc.kind}' dice: the scenario gave "
                       f"{exc.used} and the rules need more. Roll them and add them to "
                       f"\"dice\": {{\"{exc.kind}\": [...]}}", err=True)
            raise typer.Exit(2) from None
        if as_json:
            docs = [{**result_json(r, t), **({"unused_dice": u} if u else {})}
                    for t, r, u in outputs]
            body: dict[str, object] = dict(docs[0]) if len(docs) == 1 else {"targets": docs}
            body["seed"] = None if scenario.dice is not None else used_seed
            print(json.dumps(body, indent=2))
            return
        for t, r, unused in outputs:
            _print_result(console, r, t)
            if unused:
                console.print(f"[yellow]warning:[/yellow] scripted dice not used by the rules: "
                              f"{plain(unused)}")
        if scenario.dice is None:
            console.print(f"[dim]dice rolled with seed {used_seed} (--seed {used_seed} "
                          "repeats them)[/dim]")
