"""The Movement, Shooting, Charge and Fight phases; importing registers their handlers."""

from w40k.engine import attack, death  # noqa: F401  (register the attack and deaths frames)
from w40k.engine.phases import charge, fight, movement, shooting

__all__ = ["charge", "fight", "movement", "shooting"]
