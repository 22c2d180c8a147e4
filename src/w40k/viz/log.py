"""One readable line per game event (the log `w40k battle` prints)."""

from __future__ import annotations

from w40k.engine.serial import JSON


def _where(e: dict[str, JSON]) -> str:
    r, p, ph = e.get("round"), e.get("player"), e.get("phase")
    return f"R{r} {p or '-':<5} {ph or '':<11}"


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
    if kind in ("phase_start", "turn_end", "round_end"):
        return None
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
