"""BattleScribe ``.ros`` (XML, ``rosterSchema``) and ``.rosz`` (a zip holding one ``.ros``).

Parsed with defusedxml (no DTD, no entity, no external reference), namespaces stripped, child
elements found by tag name in any order (another writer orders them differently).
"""

from __future__ import annotations

from w40k.io.rosters.battlescribe import read_battlescribe
from w40k.io.rosters.model import Roster
from w40k.io.rosters.tree import from_xml


def read_ros(text: str, *, source: str, fmt: str = "ros") -> Roster:
    """The roster in a ``.ros`` document."""
    return read_battlescribe(from_xml(text, source), source=source, fmt=fmt)
