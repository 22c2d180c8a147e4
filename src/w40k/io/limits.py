"""Every limit on what the project reads and on the work one command may do, in one place.

Each limit keeps a command under about 1 GB of memory and 30 s on a small machine; anything
past one is refused with a :class:`~w40k.core.errors.DataError` that names the limit, before
any work starts (docs/input-limits.md lists them with the error format). The limits are far
above what any real army, mission or table needs; roster importers reuse them.
"""

from __future__ import annotations

# -- files -------------------------------------------------------------------------------------

MAX_FILE_BYTES = 8 * 1024 * 1024
"""The largest input file (8 MiB): a long game record is about 1 MiB."""
MAX_DEPTH = 64
"""The deepest nesting of lists and objects in a file (the formats need about 8)."""
MAX_NODES = 2_000_000
"""The most values (numbers, texts, lists, objects) in one decoded file."""
MAX_INT_DIGITS = 18
"""The most digits of an integer in a file (refused before Python converts it)."""
MAX_ABS_INT = 10**15
"""The largest integer magnitude in a file."""
MAX_TEXT = 200
"""The longest name, keyword or ability text a model field accepts."""
MAX_LONG_TEXT = 4000
"""The longest free text (a datasheet ability's rules text)."""
MAX_LIST = 10_000
"""The longest list in any model field (models, events, choices are bounded separately)."""

# -- profiles and units ---------------------------------------------------------------------------

MAX_CHARACTERISTIC = 100
"""The largest T, W, S, A or D value (the largest printed values are about 30)."""
MAX_MODELS_PER_UNIT = 100
"""The most models in one unit or one scenario target (the largest datasheets allow 30)."""
MAX_WEAPON_COUNT = 100
"""The most models firing one weapon entry of a scenario."""
MAX_ATTACKS_PER_VOLLEY = 2000
"""The most attacks one volley can make (sum over weapon entries of count x the largest A)."""
MAX_UNITS = 100
"""The most units in one position, scene or army."""
MAX_MODELS = 2000
"""The most models in one position or scene."""
MAX_TERRAIN = 500
"""The most terrain features or areas in one position or scene."""
MAX_POLYGON_POINTS = 256
"""The most corners of one footprint."""
MAX_TABLE_INCHES = 240.0
"""The widest or deepest battlefield, in inches (a full table is 60 x 44)."""
MAX_DICE_SCRIPT = 10_000
"""The most scripted dice of one kind (referee mode)."""

# -- work ---------------------------------------------------------------------------------------

MAX_SIMS = 5_000_000
"""The most simulated trials (``--sims``)."""
MAX_SIM_DICE = 100_000_000
"""The most dice a simulation may roll in all (trials x the volley's largest attack count)."""
MAX_EXACT_STATES = 2_000_000
"""The largest estimated state count for ``--exact`` (:func:`w40k.io.work.exact_states`);
past it the command simulates instead and says so."""
MAX_ROUNDS = 10
"""The most battle rounds a mission may have (the core missions use 5)."""
MAX_CP = 1000
"""The most command points or victory points a position may give a player."""
MAX_RECORD_CHOICES = 200_000
"""The most choices in one game record."""
MAX_EVENTS = 2_000_000
"""The most events in one game record or saved position."""
MAX_GAMES = 1_000_000
"""The most games one ``w40k simulate`` batch may play (``--games``)."""
MAX_WORKERS = 256
"""The most worker processes of ``w40k simulate`` (``--workers``)."""
MAX_RESULTS_BYTES = 512 * 1024 * 1024
"""The largest results file ``w40k simulate --combine`` reads (about 2 million games)."""
