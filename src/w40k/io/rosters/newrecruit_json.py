"""New Recruit JSON exports: the BattleScribe roster schema as JSON (``{"roster": {...}}``).

List wrappers are flattened (``"forces": [...]``), attributes are keys, element text is
``$text`` (``#text``, ``_`` and plain strings are accepted too; an empty characteristic has no
text key), ``battleScribeVersion`` may be a number, and leaders carry ``associations``
(``Leading``, ``to`` = the led unit's selection id). The same walker as ``.ros`` reads it.
"""

from __future__ import annotations

from w40k.io.rosters.battlescribe import read_battlescribe
from w40k.io.rosters.model import Roster
from w40k.io.rosters.source import json_document
from w40k.io.rosters.tree import from_json


def read_newrecruit_json(text: str, *, source: str) -> Roster:
    """The roster in a New Recruit JSON export."""
    tree = from_json(json_document(text, source), source)
    return read_battlescribe(tree, source=source, fmt="newrecruit-json")
