"""One readable line per game event (the log `w40k battle` prints)."""

from __future__ import annotations

from w40k.engine.serial import JSON


def _where(e: dict[str, JSON]) -> str:
    r, p, ph = e.get("round"), e.get("player"), e.get("phase")
    return f"R{r} {p or '-':<5} {ph or '':<11}"


_SILENT = frozenset({
    "phase_start", "turn_end", "round_end", "selected_to_shoot", "shooting_type",
    "shooting_end", "fight_step_end", "fight_type", "declare_fight", "fought",
    "consolidation_mode", "pile_in_declined", "consolidate_declined",
})
"""Events too fine for the readable log (they stay in the record)."""


def describe(e: dict[str, JSON]) -> str | None:
    """A line for an event, or None for events too fine to print (attack steps)."""
    kind = e.get("event")
    if kind == "attack_step":
        return None
    head = _where(e)
    if kind == "round_start":
        return f"== Battle round {e.get('round')} =="
    if kind == "turn_start":
        return f"-- {e.get('player')}'s turn --"
    if kind in _SILENT:
        return None
    unit = e.get("unit")
    if kind == "move":
        models = e.get("models")
        far = max((float(v[3]) for v in models.values()
                   if isinstance(v, list) and len(v) > 3 and isinstance(v[3], int | float)),
                  default=0.0) if isinstance(models, dict) else 0.0
        mt = str(e.get("move_type", "")).replace("_", " ")
        return f"{head} {unit}: {mt}" + (f", up to {far:.1f}\"" if far else "")
    if kind == "advance_roll":
        return f"{head} {unit} advance roll {e.get('roll')}"
    if kind == "declare_shooting":
        shots = e.get("shots")
        targets = sorted({str(t[2]) for t in shots if isinstance(t, list) and len(t) > 2}
                         ) if isinstance(shots, list) else []
        return (f"{head} {unit} shoots ({e.get('type')}) at {', '.join(targets)}" if targets
                else f"{head} {unit} has no target")
    if kind == "declare_charge":
        return f"{head} {unit} declares a charge"
    if kind == "charge_roll":
        return f"{head} {unit} charge roll {e.get('dice')} = {e.get('roll')}"
    if kind == "charge_targets":
        return f"{head} {unit} charges {e.get('targets')}"
    if kind == "charge_move":
        return f"{head} {unit} completes its charge move"
    if kind in ("charge_failed", "charge_declined"):
        why = e.get("reason")
        return f"{head} {unit} does not charge" + (f" ({why})" if why else "")
    if kind == "select_to_fight":
        return f"{head} {unit} fights" + (" (Fights First)" if e.get("step") == "ff" else "")
    if kind == "pile_in_move":
        return f"{head} {unit} piles in"
    if kind == "consolidate_move":
        return f"{head} {unit} consolidates"
    if kind == "gain_cp":
        return f"{head} both players gain 1 CP: {e.get('cp')}"
    if kind == "battle_shock_roll":
        verdict = "passes" if e.get("passed") else "fails: battle-shocked"
        return f"{head} {e.get('unit')} battle-shock roll {e.get('dice')} {verdict}"
    if kind == "attack":
        return (f"{head} {e.get('attacker')} {'fights' if e.get('melee') else 'shoots'} "
                f"{e.get('target')}: {e.get('hits')} hits, {e.get('wounds')} wounds, "
                f"{e.get('unsaved')} unsaved, {e.get('wounds_lost')} wounds lost, "
                f"{e.get('models_destroyed')} destroyed")
    if kind == "destroyed":
        return f"{head}   {e.get('model')} destroyed ({e.get('cause')})"
    if kind == "unit_destroyed":
        return f"{head}   unit {e.get('unit')} destroyed"
    if kind == "objective_control":
        return f"{head} objective {e.get('objective')}: controlled by {e.get('controller')}"
    if kind == "score":
        return f"{head} scores {e.get('vp')} VP ({e.get('objectives')}), total {e.get('total')}"
    if kind == "battle_end":
        w = e.get("winner")
        return f"== Battle over: VP {e.get('vp')}; " + (f"{w} wins ==" if w else "a draw ==")
    rest = {k: v for k, v in e.items() if k not in ("event", "round", "player", "phase")}
    return f"{head} {kind} {rest}"
