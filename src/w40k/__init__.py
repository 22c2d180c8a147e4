"""w40k: a rules engine for the Warhammer 40,000 11th-edition core rules."""

__version__ = "0.1.0"
