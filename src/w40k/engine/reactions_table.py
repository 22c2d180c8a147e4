"""The explicit table of reactions the windows offer (engine/windows.py reads it lazily):
the core stratagems (15.02-15.12), the actions' start reactions, the surge triggers (21.01) and
the datasheet abilities' reactions (engine/ability_effects.py)."""

from __future__ import annotations

from w40k.engine.ability_effects import REACTIONS as ABILITY_REACTIONS
from w40k.engine.actions import ACTIONS, start_reaction
from w40k.engine.phases.surge import SURGES, surge_reaction
from w40k.engine.stratagems.arrivals import RAPID_INGRESS
from w40k.engine.stratagems.core import (
    COUNTEROFFENSIVE,
    CRUSHING_IMPACT,
    EPIC_CHALLENGE,
    EXPLOSIVES,
    INSANE_BRAVERY,
    SMOKESCREEN,
)
from w40k.engine.stratagems.interventions import FIRE_OVERWATCH, HEROIC_INTERVENTION
from w40k.engine.stratagems.model import Stratagem
from w40k.engine.stratagems.reroll import COMMAND_REROLL
from w40k.engine.stratagems.usage import as_reaction
from w40k.engine.windows import Reaction

CORE_STRATAGEMS: tuple[Stratagem, ...] = (
    COMMAND_REROLL, EPIC_CHALLENGE, INSANE_BRAVERY, EXPLOSIVES, CRUSHING_IMPACT, RAPID_INGRESS,
    FIRE_OVERWATCH, SMOKESCREEN, HEROIC_INTERVENTION, COUNTEROFFENSIVE)
"""The core stratagems in rulebook order."""

TABLE: tuple[Reaction, ...] = (*(as_reaction(s) for s in CORE_STRATAGEMS),
                               *(start_reaction(a) for a in ACTIONS),
                               *(surge_reaction(t) for t in SURGES), *ABILITY_REACTIONS)
"""Every reaction, in the order a window lists them."""
