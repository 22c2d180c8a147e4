"""Readable logs and the browser replay page."""
