"""A gunicorn configuration for ``bench_http`` only: the CPU of each service call, measured inside the server.

``bench_http`` compares the server's CPU per request with the service call's. Timed in the benchmark's own
process, the service call runs alone; inside the server it shares the cores with the other workers and the
clients, and takes more CPU for the same work. So the benchmark also starts gunicorn with
``-c python:evaluation.gunicorn_probe``: in every worker, each call of the write and the context read (the
service functions the REST views call) appends one line, ``<op> <CPU seconds>``, to a file of that worker in
``MEMGOV_BENCH_PROBE_DIR``. The benchmark sums the lines a row added. The line costs a system call per
request, counted in the server's CPU like everything else. Never part of a deployment's configuration.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import wraps
from importlib import import_module
from pathlib import Path
from typing import Any

PROBE_DIR_ENV = "MEMGOV_BENCH_PROBE_DIR"

# (operation, the module that defines the service function, the modules that call it by name, its name)
_PROBED = (
    ("write", "memories.services.write", ("api.memories.write_views",), "memory_write"),
    ("read", "memories.read.context", ("api.memories.context_views",), "memory_context_build"),
)


def _timed(op: str, call: Callable[..., Any], out: int) -> Callable[..., Any]:
    @wraps(call)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.thread_time()  # this thread's CPU: right for sync workers and for ASGI's thread pool
        try:
            return call(*args, **kwargs)
        finally:
            os.write(out, f"{op} {time.thread_time() - started:.6f}\n".encode())

    return timed


def post_fork(server: object, worker: object) -> None:
    """gunicorn's hook, in each new worker: wrap the service functions where the views look them up."""
    folder = os.environ.get(PROBE_DIR_ENV)
    if not folder:
        return
    out = os.open(Path(folder) / f"{os.getpid()}.txt", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    for op, home, callers, name in _PROBED:
        timed = _timed(op, getattr(import_module(home), name), out)
        for module in (home, *callers):
            setattr(import_module(module), name, timed)


def probe_totals(folder: Path) -> dict[str, tuple[int, float]]:
    """Per operation, the calls the server's workers recorded so far and their CPU seconds."""
    totals: dict[str, tuple[int, float]] = {}
    for file in folder.glob("*.txt"):
        for line in file.read_text().splitlines():
            op, _, seconds = line.partition(" ")
            calls, cpu = totals.get(op, (0, 0.0))
            totals[op] = (calls + 1, cpu + float(seconds))
    return totals
