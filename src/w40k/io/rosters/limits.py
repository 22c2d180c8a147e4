"""Limits on roster files (docs/rosters.md, "Limits").

Every limit is a plain constant so that the input-validation layer can take them over later.
A file over a limit is refused with a :class:`~w40k.core.errors.DataError` that names the file
and the limit; nothing is read past the limit (a zip member is read in chunks and the read stops
at the cap, whatever its header claims).
"""

from __future__ import annotations

MAX_FILE_BYTES = 16 * 1024 * 1024
"""Largest roster file read from disk (16 MiB). A 2,000-point `.ros` is about 1-3 MB, a New
Recruit JSON export a few MB, a text export a few kB."""

MAX_ROSTER_BYTES = 32 * 1024 * 1024
"""Largest roster document after decompression (32 MiB): the `.ros` inside a `.rosz`, or a
gzip'd payload."""

MAX_ZIP_MEMBERS = 1
"""A `.rosz` holds exactly one file (the `.ros`); a zip with more files is refused rather than
guessing which one the player meant."""

MAX_COMPRESSION_RATIO = 100
"""Largest uncompressed/compressed size ratio of a zip member or gzip payload. Roster XML
compresses about 10-30 times; a zip bomb compresses thousands of times."""

MAX_XML_DEPTH = 64
"""Deepest element nesting in a roster (XML or JSON). Real rosters nest about 15-25 deep
(roster/forces/force/selections/selection/.../characteristic)."""

MAX_XML_ELEMENTS = 1_000_000
"""Most elements (XML) or values (JSON) in one roster."""

MAX_TEXT_LINES = 20_000
"""Most lines in a text export (a 3,000-point list has a few hundred)."""
