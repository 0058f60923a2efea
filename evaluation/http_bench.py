"""bench_http: what serving memgov over HTTP costs beside the work each request carries.

The same writes and context reads are timed three ways in one run, on the configured database:

- the **service** call in this process (``memory_write``, ``memory_context_build``): wall p50 and mean CPU;
- over **HTTP** against the documented production commands (gunicorn with ``--preload``: sync workers on
  ``config.wsgi``, and ``config.asgi`` on UvicornWorkers) on loopback, with 1, 4 and 16 concurrent clients:
  latency, requests per second, and the **server's CPU per request** (every gunicorn process's user +
  system time from ``/proc``, over the requests served) beside the service call's CPU; and the share of the
  machine's cores doing the service's work (service CPU × requests ÷ (wall time × cores));
- the **floor** (``floor_bench``): the same writes and reads with nothing but ``sqlite3`` and ``cryptography``.

The clients are raw keep-alive HTTP/1.1 connections (as a load generator such as wrk keeps them), a few
microseconds of this process's time per request, so on a small machine they leave the cores to the server.
Linux only (``/proc``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.gunicorn_probe import PROBE_DIR_ENV, probe_totals
from evaluation.read_bench import percentile
from evaluation.startup_bench import ROOT, free_port, gunicorn_argv, process_tree, stop


class RawHttp:
    """One keep-alive HTTP/1.1 connection that POSTs JSON and reads the answer (Content-Length or chunked)."""

    def __init__(self, port: int, key: str) -> None:
        self.port, self.key = port, key
        self._connect()

    def _connect(self) -> None:
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=120)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile("rb")

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, bytes]:
        payload = json.dumps(body).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {self.key}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        ).encode()
        try:
            self.sock.sendall(head + payload)
            status_line = self.file.readline()
        except OSError:
            status_line = b""
        if not status_line:  # the server closed an idle kept-alive connection (gunicorn's keepalive is 2 s)
            self.close()
            self._connect()
            self.sock.sendall(head + payload)
            status_line = self.file.readline()
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while (line := self.file.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip().lower()
        if headers.get("transfer-encoding") == "chunked":
            answer = b""
            while (size := int(self.file.readline().strip(), 16)) > 0:
                answer += self.file.read(size)
                self.file.readline()
            self.file.readline()
        else:
            answer = self.file.read(int(headers.get("content-length", "0")))
        if headers.get("connection") == "close":
            self.close()
            self._connect()
        return status, answer

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def server_cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and all its descendants, in seconds."""
    ticks = 0
    for one in process_tree(pid):
        try:
            stat = Path(f"/proc/{one}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


# The servers a row can be measured on: config.asgi on UvicornWorkers (everything, /mcp/ included), and
# gunicorn's sync workers on config.wsgi (pages and REST: no event loop and no thread hand-off per request).
SERVERS = ("asgi", "sync")


def server_argv(kind: str, *, port: int, workers: int) -> list[str]:
    if kind == "asgi":
        return gunicorn_argv(port=port, workers=workers, preload=True)
    if kind == "sync":
        argv = [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(workers), "--preload"]
        return [*argv, "--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
    raise ValueError(f"unknown server {kind!r}: one of {', '.join(SERVERS)}")


@contextmanager
def production_server(
    kind: str, *, workers: int, probe: Path | None = None, startup_timeout: float = 300.0
) -> Iterator[tuple[int, int]]:
    """A gunicorn of ``kind`` (``server_argv``) with --preload on a free loopback port: (port, master pid).
    With ``probe`` (an empty folder), its workers record each service call's CPU there (gunicorn_probe.py)."""
    port = free_port()
    env = {**os.environ, "MEMGOV_ALLOWED_HOSTS": "127.0.0.1"}
    argv = server_argv(kind, port=port, workers=workers)
    if probe is not None:
        env[PROBE_DIR_ENV] = str(probe)
        argv += ["-c", "python:evaluation.gunicorn_probe"]
    process = subprocess.Popen(argv, cwd=ROOT, env=env)  # noqa: S603 - our own argv
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with code {process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                    probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    if b" 200 " in probe.recv(64):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not answer /healthz in time")
            time.sleep(0.2)
        yield port, process.pid
    finally:
        stop(process)


@dataclass(frozen=True)
class HttpRow:
    server: str
    op: str
    clients: int
    requests: int
    p50_ms: float
    p99_ms: float
    per_second: float
    server_cpu_ms: float  # the server's CPU per request
    service_cpu_ms: float  # the service call's mean CPU in the benchmark's process, alone, from the same run
    useful_share: float  # of all the machine's cores, the share that did the service's work (at its CPU alone)
    served_service_cpu_ms: float | None = None  # the same call's mean CPU inside the server, on these requests

    @property
    def overhead(self) -> float:
        """The server's CPU per request over the service call's CPU alone."""
        return self.server_cpu_ms / self.service_cpu_ms

    @property
    def served_overhead(self) -> float | None:
        """The server's CPU per request over the service call's CPU inside the server: what HTTP adds."""
        if not self.served_service_cpu_ms:
            return None
        return self.server_cpu_ms / self.served_service_cpu_ms


def http_row(
    *,
    server: str,
    op: str,
    port: int,
    server_pid: int,
    key: str,
    clients: int,
    requests: int,
    request: Callable[[int], tuple[str, dict[str, Any]]],
    service_cpu_ms: float,
    probe: Path | None = None,
) -> HttpRow:
    """``requests`` calls shared by ``clients`` threads, each on its own connection; the server's CPU over them,
    and (with the server's ``probe`` folder) the CPU its workers spent in the service calls of these requests."""
    connections = [RawHttp(port, key) for _ in range(clients)]
    numbers = iter(range(requests))
    lock = threading.Lock()
    latencies: list[float] = []
    failures: list[str] = []

    def client(connection: RawHttp) -> None:
        while True:
            with lock:
                number = next(numbers, None)
            if number is None:
                return
            path, body = request(number)
            started = time.perf_counter()
            status, answer = connection.post(path, body)
            elapsed = (time.perf_counter() - started) * 1000
            with lock:
                latencies.append(elapsed)
                if status != 200:
                    failures.append(f"{status} {answer[:200]!r}")

    threads = [threading.Thread(target=client, args=(c,)) for c in connections]
    probed_before = probe_totals(probe).get(op, (0, 0.0)) if probe is not None else None
    cpu_before, started = server_cpu_seconds(server_pid), time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall, cpu = time.perf_counter() - started, server_cpu_seconds(server_pid) - cpu_before
    for connection in connections:
        connection.close()
    if failures:
        raise RuntimeError(f"{len(failures)} of {requests} {op} requests failed, first: {failures[0]}")
    served = None
    if probe is not None and probed_before is not None:
        calls, seconds = probe_totals(probe).get(op, (0, 0.0))
        if calls - probed_before[0] != requests:
            raise RuntimeError(f"the server recorded {calls - probed_before[0]} {op} service calls for {requests}")
        served = (seconds - probed_before[1]) / requests * 1000
    return HttpRow(
        server=server,
        op=op,
        clients=clients,
        requests=requests,
        p50_ms=percentile(latencies, 0.5),
        p99_ms=percentile(latencies, 0.99),
        per_second=requests / wall,
        server_cpu_ms=cpu / requests * 1000,
        service_cpu_ms=service_cpu_ms,
        useful_share=service_cpu_ms / 1000 * requests / (wall * (os.cpu_count() or 1)),
        served_service_cpu_ms=served,
    )


def http_table(rows: list[HttpRow]) -> list[str]:
    """The rows as a table: the server's CPU per request over the service call's CPU alone (in the benchmark's
    process) and over the same call's CPU inside the server (where it shares the cores), when probed."""
    lines = [
        f"{'server':<8}{'op':<6}{'clients':>8}{'n':>6}{'p50 ms':>9}{'p99 ms':>9}{'req/s':>8}"
        f"{'server CPU ms/req':>19}{'service alone ms':>18}{'×':>6}{'service in server ms':>22}{'×':>6}"
        f"{'useful cores':>14}"
    ]
    for row in rows:
        served = "" if row.served_service_cpu_ms is None else f"{row.served_service_cpu_ms:.2f}"
        served_ratio = "" if row.served_overhead is None else f"{row.served_overhead:.2f}"
        lines.append(
            f"{row.server:<8}{row.op:<6}{row.clients:>8}{row.requests:>6}{row.p50_ms:>9.2f}{row.p99_ms:>9.2f}"
            f"{row.per_second:>8.0f}{row.server_cpu_ms:>19.2f}{row.service_cpu_ms:>18.2f}{row.overhead:>6.2f}"
            f"{served:>22}{served_ratio:>6}{row.useful_share:>13.0%}"
        )
    return lines
