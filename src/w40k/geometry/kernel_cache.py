"""When to use the compiled kernels (the optional ``fast`` extra), without importing numba.

Measured (docs/geometry.md "Compiled kernels: when"): importing numba and loading the cached
kernels costs about a second and 100+ MB of memory, and compiling them the first time tens of
seconds, while the numpy path answers a small scene (a battle's 27 models, the example scene's
12) in milliseconds. So ``Visibility(scene)`` uses the kernels only when

- numba is installed and ``W40K_JIT`` is not ``0``,
- the scene has at least :data:`JIT_MIN_MODELS` models (below it the numpy path is as fast
  as loading the kernels), and
- the kernels are already compiled in numba's cache (:func:`kernels_ready`).

When a scene is large enough but the kernels are not compiled yet, the command goes on with
numpy and :func:`compile_in_background` starts one detached process that compiles them into
the cache (``python -m w40k.geometry.kernel_warm``, started as the command exits), so a later
command finds them ready: no command waits for the compiler or shares the CPU with it.
``Visibility(scene, jit=True)`` still compiles on demand.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

JIT_MIN_MODELS = 100
"""Fewest models in a scene for which ``Visibility(scene)`` uses the compiled kernels."""
KERNEL_MODULES = ("kernel_layout", "kernel_geometry", "kernel_sight", "kernel_hull", "los_kernel")
"""The modules whose compiled functions numba caches (their sources stamp the cache)."""
_MARKER = "w40k-kernels.ok"
_started = False

NUMBA_INSTALLED = importlib.util.find_spec("numba") is not None
"""numba (the ``fast`` extra) is importable (checked without importing it)."""
AVAILABLE = NUMBA_INSTALLED and os.environ.get("W40K_JIT", "1") != "0"
"""numba is installed and not switched off (``W40K_JIT=0``)."""


def cache_dir() -> Path:
    """Where numba caches the kernels: ``NUMBA_CACHE_DIR``, else ``__pycache__`` beside the
    modules (numba's own default)."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    return Path(env) if env else Path(__file__).resolve().parent / "__pycache__"


def stamp() -> str:
    """numba's version and each kernel module's size and modification time: the marker is
    valid only for the sources and numba it was written with."""
    import importlib.metadata  # here, not at import: ~10 ms that most commands never need

    here = Path(__file__).resolve().parent
    parts = [importlib.metadata.version("numba") if NUMBA_INSTALLED else "none"]
    for name in KERNEL_MODULES:
        st = (here / f"{name}.py").stat()
        parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    return " ".join(parts)


def kernels_ready() -> bool:
    """The kernels were compiled into the cache for these sources (the marker matches)."""
    try:
        return (cache_dir() / _MARKER).read_text(encoding="utf-8") == stamp()
    except OSError:
        return False


def mark_ready() -> None:
    """Record that the kernels are compiled (called by ``kernel_warm`` after compiling)."""
    d = cache_dir()
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / f"{_MARKER}.{os.getpid()}"
    tmp.write_text(stamp(), encoding="utf-8")
    tmp.replace(d / _MARKER)


def compile_in_background() -> None:
    """Once per process, at its exit, start a detached ``python -m w40k.geometry.kernel_warm``
    (at exit, so that the compiler does not take CPU from the command that asked: on a
    2-core machine a compile started at once made a 200-model ``w40k los`` 26 s instead of
    17.5 s)."""
    global _started
    if _started or not AVAILABLE:
        return
    _started = True
    atexit.register(_spawn_warm)


def _spawn_warm() -> None:
    # no process can be started (OSError): the next command stays on numpy and tries again
    with contextlib.suppress(OSError):
        subprocess.Popen(
            [sys.executable, "-m", "w40k.geometry.kernel_warm"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )


def use_kernels(n_models: int) -> bool:
    """The default of ``Visibility(scene)``: compiled kernels for this many models?"""
    if not AVAILABLE or n_models < JIT_MIN_MODELS:
        return False
    if kernels_ready():
        return True
    compile_in_background()
    return False
