"""Tests grouped by rulebook section: one folder per section (sNN_name), rules-layer and engine tests together."""
