"""Tests grouped by rulebook section: one folder per section (sNN_name), with the
rules-layer and engine tests of that section together."""
