"""The Movement, Shooting, Charge and Fight phases (engine/table.py lists their frames)."""
