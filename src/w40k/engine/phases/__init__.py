"""The Movement, Shooting, Charge and Fight phases; importing registers their handlers."""

from w40k.engine import attack  # noqa: F401  (registers the attack frame)
from w40k.engine.phases import charge, fight, movement, shooting

__all__ = ["charge", "fight", "movement", "shooting"]
