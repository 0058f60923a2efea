"""bench_startup: what a web deployment costs before it serves — the time from starting gunicorn (``config.asgi``
on UvicornWorkers, the documented production command) to its first answered write, and the memory its
processes hold once every worker has served — with and without ``--preload``.

Memory is the sum of the processes' PSS (``/proc/<pid>/smaps_rollup``): a page shared by four processes counts
a quarter in each, so the sum is what the deployment really takes from the machine; RSS counts shared pages
in every process. Linux only (``/proc``).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Startup:
    preload: bool
    workers: int
    first_answer_s: float  # from the start of the server process to the first 200 of a write
    pss_mib: float  # every process of the server, once every worker has served writes
    rss_mib: float


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def gunicorn_argv(*, port: int, workers: int, preload: bool) -> list[str]:
    argv = [sys.executable, "-m", "gunicorn", "config.asgi:application", "-k", "uvicorn_worker.UvicornWorker"]
    argv += ["--workers", str(workers), "--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
    return [*argv, "--preload"] if preload else argv


def stop(process: subprocess.Popen, *, timeout: float = 30.0) -> None:
    """Ask a server to stop (SIGTERM: gunicorn and uvicorn finish their requests), then kill it if it lingers."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _children(pid: int) -> list[int]:
    try:
        listed = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(child) for child in listed]


def process_tree(pid: int) -> list[int]:
    """The process and all its descendants."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += _children(current)
    return found


def memory_kib(pid: int) -> tuple[int, int]:
    """(PSS, RSS) of one process in KiB; (0, 0) for one that is gone."""
    pss = rss = 0
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    except OSError:
        return 0, 0
    for line in lines:
        name, _, rest = line.partition(":")
        if name == "Pss":
            pss = int(rest.split()[0])
        elif name == "Rss":
            rss = int(rest.split()[0])
    return pss, rss


def _write(client: httpx.Client, url: str, key: str, subject: str) -> int:
    body = {
        "content": "Prefers answers with a short summary first",
        "scope": {"level": "user", "user_id": subject},
        "source": {"source_type": "explicit_user_request"},
    }
    headers = {"Authorization": f"Bearer {key}"}
    return client.post(f"{url}/api/v1/memories/write", json=body, headers=headers, timeout=30).status_code


def measure(*, key: str, subject_prefix: str, workers: int, preload: bool, timeout: float = 180.0) -> Startup:
    """Start the server, time its first answered write, have every worker serve, then sum its memory."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    env["MEMGOV_ALLOWED_HOSTS"] = "127.0.0.1"
    started = time.monotonic()
    process = subprocess.Popen(gunicorn_argv(port=port, workers=workers, preload=preload), cwd=ROOT, env=env)  # noqa: S603
    try:
        with httpx.Client() as client:
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"gunicorn exited with code {process.returncode}")
                try:
                    if _write(client, url, key, f"{subject_prefix}-first") == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() - started > timeout:
                    raise RuntimeError("gunicorn answered no write in time")
                time.sleep(0.05)
            first_answer = time.monotonic() - started
        # Many concurrent writes on fresh connections, so that every worker takes some and loads what it needs.
        with ThreadPoolExecutor(max_workers=workers * 2) as pool:

            def one(number: int) -> int:
                with httpx.Client() as client:
                    return _write(client, url, key, f"{subject_prefix}-{number}")

            codes = list(pool.map(one, range(workers * 12)))
        if set(codes) != {200}:
            raise RuntimeError(f"writes answered {sorted(set(codes))}")
        time.sleep(0.5)
        pss = rss = 0
        for pid in process_tree(process.pid):
            one_pss, one_rss = memory_kib(pid)
            pss, rss = pss + one_pss, rss + one_rss
        return Startup(preload, workers, first_answer, pss / 1024, rss / 1024)
    finally:
        stop(process)


def table(rows: list[Startup]) -> str:
    lines = [f"{'server':<52}{'workers':>8}{'first answer s':>16}{'PSS MiB (all)':>15}{'RSS MiB (all)':>15}"]
    for row in rows:
        name = "gunicorn config.asgi, UvicornWorker" + (" --preload" if row.preload else "")
        lines.append(f"{name:<52}{row.workers:>8}{row.first_answer_s:>16.2f}{row.pss_mib:>15.0f}{row.rss_mib:>15.0f}")
    return "\n".join(lines)
