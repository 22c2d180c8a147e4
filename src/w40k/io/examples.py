"""The embedded example scenario that `w40k attack` runs with no arguments."""

from __future__ import annotations

EXAMPLE_SCENARIO: dict[str, object] = {
    "weapons": [
        {"name": "Boltgun", "count": 4, "range": 24, "A": "2", "skill": 3, "S": 4, "AP": 0,
         "D": "1", "abilities": ["RAPID FIRE 1"]},
        {"name": "Plasma gun", "count": 1, "range": 24, "A": "1", "skill": 3, "S": 8, "AP": -3,
         "D": "2", "abilities": ["RAPID FIRE 1", "HAZARDOUS"]},
        {"name": "Heavy bolter", "count": 1, "range": 36, "A": "3", "skill": 4, "S": 5,
         "AP": -1, "D": "2", "abilities": ["SUSTAINED HITS 1", "HEAVY"]},
    ],
    "target": {
        "name": "Boyz",
        "models": [
            {"name": "Boss Nob", "count": 1, "T": 5, "Sv": 5, "W": 2,
             "keywords": ["INFANTRY", "ORKS"]},
            {"name": "Boy", "count": 9, "T": 5, "Sv": 5, "W": 1,
             "keywords": ["INFANTRY", "ORKS"]},
        ],
    },
    "attacker": {"models": [{"name": "Intercessor", "count": 6, "W": 2,
                             "keywords": ["INFANTRY"]}]},
    "context": {"half_range": True, "remained_stationary": True},
}
"""Six Intercessor-armed marines (boltguns, a plasma gun, a heavy bolter) shooting ten Boyz at
half range after remaining stationary."""
