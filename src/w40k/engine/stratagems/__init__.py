"""Stratagems (15): the data format every stratagem is written in (``model``), the 15.01
procedure and limits (``usage``), the core stratagems (``core``, ``reroll``) and the queries
the phases ask about stratagems in force (``effects``)."""
