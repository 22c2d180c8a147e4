"""Shared test setup. tests/ is a package: helpers are imported as ``tests.builders``,
``tests.engine.core_helpers`` ... (pytest puts the repository root on ``sys.path``)."""

from __future__ import annotations


def pytest_sessionstart(session: object) -> None:
    """With numba installed (``pip install -e '.[dev,fast]'``; the ``dev`` extra alone does
    not install it), compile the line-of-sight kernels once, in the controlling process,
    before pytest-xdist starts its workers: they then load them from numba's disk cache
    instead of each compiling them at the same time (set ``NUMBA_CACHE_DIR`` to a cached
    folder in CI so that even this happens once)."""
    if hasattr(getattr(session, "config", None), "workerinput"):
        return
    from w40k.geometry import kernel_cache

    if kernel_cache.AVAILABLE:
        from w40k.geometry.kernel_warm import main

        main()


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _stratagems_only_where_tested(request: pytest.FixtureRequest,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests written for one phase's sequence run without reactions (an empty reaction
    table: no window asks anything); tests marked ``stratagems`` (the stratagem tests, the
    fuzzer, the golden games, save/load) play with the engine's table."""
    if request.node.get_closest_marker("stratagems") is None:
        from w40k.engine import windows

        monkeypatch.setattr(windows, "REACTIONS", ())
