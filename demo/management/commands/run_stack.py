"""Run the whole embedded stack in one terminal: the web server, a Celery worker and the beat.

``make run`` uses this. Each process runs in its own session with its output prefixed
(``web |``, ``worker |``, ``beat |``). Ctrl-C or SIGTERM stops all of them (SIGTERM, then SIGKILL
after a grace period); if one of them exits on its own, the others are stopped too and the exit
code is passed on — so the stack never runs half up.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser


@dataclass(frozen=True)
class ProcessSpec:
    name: str
    argv: Sequence[str]


class ProcessGroup:
    """Start processes together, stop them together."""

    def __init__(
        self, specs: Sequence[ProcessSpec], *, out: IO[str], grace: float = 10.0, cwd: str | None = None
    ) -> None:
        self.specs = list(specs)
        self.cwd = cwd
        self.out = out
        self.grace = grace
        self.procs: dict[str, subprocess.Popen[str]] = {}
        self._stop = threading.Event()
        self._write_lock = threading.Lock()
        self._pumps: list[threading.Thread] = []

    def _pump(self, name: str, stream: IO[str]) -> None:
        width = max(len(spec.name) for spec in self.specs)
        for line in stream:
            with self._write_lock:
                self.out.write(f"{name:<{width}} | {line.rstrip()}\n")
                self.out.flush()

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # lines show up as they are written
        for spec in self.specs:
            proc = subprocess.Popen(  # noqa: S603 - argv built from our own constants
                list(spec.argv),
                env=env,
                cwd=self.cwd,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                text=True,
                bufsize=1,
                start_new_session=True,  # our signal reaches the whole tree (runserver's reloader too)
            )
            self.procs[spec.name] = proc
            assert proc.stdout is not None
            pump = threading.Thread(target=self._pump, args=(spec.name, proc.stdout), daemon=True)
            pump.start()
            self._pumps.append(pump)
            self.say(f"started {spec.name} (pid {proc.pid}): {' '.join(spec.argv)}")

    def say(self, message: str) -> None:
        with self._write_lock:
            self.out.write(f"run_stack: {message}\n")
            self.out.flush()

    def request_stop(self, *_: object) -> None:
        self._stop.set()

    def wait(self, poll: float = 0.2) -> int:
        """Block until a stop is requested (→ 0) or a process exits (→ its code); then stop all."""
        code = 0
        while not self._stop.is_set():
            exited = [(name, proc.returncode) for name, proc in self.procs.items() if proc.poll() is not None]
            if exited:
                name, code = exited[0]
                self.say(f"{name} exited with code {code}; stopping the others")
                code = code or 1
                break
            self._stop.wait(poll)
        self.stop()
        return code

    def stop(self) -> None:
        alive = [proc for proc in self.procs.values() if proc.poll() is None]
        for proc in alive:
            _signal_group(proc, signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for proc in alive:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say(f"pid {proc.pid} ignored SIGTERM for {self.grace:.0f}s; killing it")
                _signal_group(proc, signal.SIGKILL)
                proc.wait()
        for pump in self._pumps:
            pump.join(timeout=2)
        self.say("all processes stopped")


def _signal_group(proc: subprocess.Popen[str], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):  # it exited already
        os.killpg(proc.pid, sig)


def stack_specs(
    *, host: str, port: int, web: str = "uvicorn", with_worker: bool = True, with_beat: bool = True
) -> list[ProcessSpec]:
    python = sys.executable
    manage = str(settings.BASE_DIR / "manage.py")
    if web == "uvicorn":  # config.asgi: Django and the MCP server at /mcp/ (docs/integrations.md)
        web_argv = [python, "-m", "uvicorn", "config.asgi:application", "--host", host, "--port", str(port)]
    elif web == "gunicorn":
        web_argv = [
            python,
            "-m",
            "gunicorn",
            "config.asgi:application",
            "--worker-class",
            "uvicorn_worker.UvicornWorker",
        ]
        # --preload: the detection engine and tokenizers load once, before the workers fork (bench_startup).
        web_argv += ["--bind", f"{host}:{port}", "--workers", "2", "--preload"]
    else:  # Django's development server: pages and the REST API, without /mcp/
        web_argv = [python, manage, "runserver", f"{host}:{port}"]
    specs = [ProcessSpec("web", web_argv)]
    celery = [python, "-m", "celery", "-A", "config"]
    if with_worker:
        # One process is plenty for the embedded default (and kinder to SQLite's single writer);
        # gossip and mingle only matter between several workers.
        worker = [*celery, "worker", "--pool=solo", "--loglevel=INFO", "--without-gossip", "--without-mingle"]
        specs.append(ProcessSpec("worker", [*worker, "-n", "memgov-embedded@%h"]))
    if with_beat:
        specs.append(ProcessSpec("beat", [*celery, "beat", "--loglevel=INFO"]))
    return specs


class Command(BaseCommand):
    help = "Start the web server, one Celery worker and the beat; Ctrl-C stops all three."
    requires_system_checks = []  # the web process runs them

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--web", choices=["uvicorn", "gunicorn", "runserver"], default="uvicorn")
        parser.add_argument("--no-worker", action="store_true", help="web and beat only")
        parser.add_argument("--no-beat", action="store_true", help="web and worker only")

    def handle(self, *args: object, **options: object) -> None:
        specs = stack_specs(
            host=str(options["host"]),
            port=int(options["port"]),
            web=str(options["web"]),
            with_worker=not options["no_worker"],
            with_beat=not options["no_beat"],
        )
        # From the project directory, so `celery -A config` finds the app wherever this was started from.
        group = ProcessGroup(specs, out=self.stdout, cwd=str(settings.BASE_DIR))
        signal.signal(signal.SIGINT, group.request_stop)
        signal.signal(signal.SIGTERM, group.request_stop)
        broker = settings.CELERY_BROKER_URL or f"the embedded filesystem broker in {settings.VAR_DIR}/broker/"
        group.say(f"broker: {broker.split('@')[-1]}")
        group.start()
        code = group.wait()
        if code:
            sys.exit(code)
