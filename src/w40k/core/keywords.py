"""Keywords (02.05): upper-case names, singular and plural equivalent.

A unit has the union of its models' keywords, but each model keeps only its own
(19.03, Appendix "Mixed keywords").
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

# Plurals that do not end in a plain "S" and words whose trailing "S" is not a plural.
_IRREGULAR = {"BEASTS": "BEAST", "SWARMS": "SWARM", "ASTARTES": "ASTARTES", "CHAOS": "CHAOS"}


@functools.lru_cache(maxsize=4096)
def canonical_keyword(name: str) -> str:
    """The comparison key of a keyword: upper case, single spaces, singular (02.05).

    >>> canonical_keyword("Monsters") == canonical_keyword("MONSTER")
    True
    """
    word = " ".join(name.strip().upper().split())
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("IES") and len(word) > 4:
        return word[:-3] + "Y"
    if word.endswith("S") and not word.endswith("SS") and len(word) > 3:
        return word[:-1]
    return word


def keyword_set(names: Iterable[str]) -> frozenset[str]:
    """Canonical keys of ``names``, for membership tests (kept per tuple of names)."""
    if isinstance(names, tuple):
        return _keyword_tuple(names)
    return frozenset(canonical_keyword(n) for n in names)


@functools.lru_cache(maxsize=4096)
def _keyword_tuple(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(canonical_keyword(n) for n in names)


def has_keyword(keys: frozenset[str], name: str) -> bool:
    """Whether a canonical key set holds ``name`` (in any number or case)."""
    return canonical_keyword(name) in keys


def has_any_keyword(keys: frozenset[str], names: Iterable[str]) -> bool:
    """Whether a canonical key set holds any of ``names`` (``INFANTRY/BEASTS``)."""
    return any(canonical_keyword(n) in keys for n in names)
