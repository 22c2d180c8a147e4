"""The package's own YAML files read by libyaml (io/safe_read._shipped_yaml) decode to the
same values as the pure-Python reader; refusals stay the pure reader's."""

from __future__ import annotations

from importlib import resources

import pytest

from w40k.core.errors import DataError
from w40k.io import safe_read
from w40k.io.deploy import _cluster, block


def _shipped_texts() -> list[tuple[str, str]]:
    data = resources.files("w40k").joinpath("data")
    out = []
    for folder in (data, data.joinpath("missions"), data.joinpath("layouts")):
        for entry in folder.iterdir():
            if entry.is_file() and entry.name.endswith(".yaml"):
                out.append((entry.name, entry.read_text(encoding="utf-8")))
    return out


def test_every_shipped_file_decodes_the_same() -> None:
    texts = _shipped_texts()
    assert len(texts) >= 5
    for name, text in texts:
        assert safe_read._shipped_yaml(text) == safe_read._yaml(text), name


def test_refusals_are_the_pure_readers() -> None:
    with pytest.raises(DataError, match="appears twice"):
        safe_read._shipped_yaml("a: 1\na: 2\n")
    with pytest.raises(DataError, match="aliases"):
        safe_read._shipped_yaml("a: &x 1\nb: *x\n")


def test_cluster_is_kept_and_fresh() -> None:
    radii = [0.63] * 20 + [1.0]
    a = _cluster(radii)
    a[0, 0] = 99.0  # the caller's copy
    b = _cluster(radii)
    assert b[0, 0] != 99.0
    assert b.shape == (21, 2)
    assert block(radii).shape == (21, 2)
