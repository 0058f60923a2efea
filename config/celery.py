"""The Celery app: lifecycle jobs on workers, their schedule on exactly one beat.

Broker: ``MEMGOV_BROKER_URL`` (Redis in the distributed topology, e.g. ``redis://host:6379/0``).
Unset, the embedded default needs no server: kombu's filesystem transport, with its message files
under ``var/broker/`` — one machine, any number of local processes. (Not the SQLAlchemy transport on
SQLite: it never deletes delivered messages and has no fanout, so ``celery inspect`` can't work.)
No result backend: the jobs' outcomes are in the audit log and the metrics.

Configuration is read lazily, at the app's first use, from Django's settings — so importing this
module (Django does, via ``config/__init__``) never loads settings by itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from celery import Celery
from celery.signals import worker_init

from config.env import envint

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

EMBEDDED_BROKER_URL = "filesystem://localhost//"

# Seconds between runs of each periodic job (MEMGOV_LIFECYCLE_<JOB>_EVERY overrides).
LIFECYCLE_EVERY_DEFAULTS = {
    "extract": 60,
    "expire": 60,
    "invalidate": 300,
    "consolidate": 3600,
    "purge": 3600,
    "unused": 6 * 3600,
    "reembed": 300,
    "reindex": 300,
    "retrieval": 60,
    "sessions_purge": 3600,
}


def embedded_broker_dir(var_dir: Path) -> Path:
    return var_dir / "broker"


def embedded_broker_options(var_dir: Path) -> dict[str, Any]:
    """Transport options of the filesystem broker; creates its folders (kombu requires them)."""
    root = embedded_broker_dir(var_dir)
    queue, control = root / "queue", root / "control"
    for folder in (queue, control):
        folder.mkdir(parents=True, exist_ok=True)
    # One folder in and out: producers and consumers on this machine share it.
    return {"data_folder_in": str(queue), "data_folder_out": str(queue), "control_folder": str(control)}


def lifecycle_beat_schedule() -> dict[str, dict[str, Any]]:
    schedule = {}
    for job, default in LIFECYCLE_EVERY_DEFAULTS.items():
        every = envint(f"MEMGOV_LIFECYCLE_{job.upper()}_EVERY", default)
        if every <= 0:
            continue  # 0 turns a job's schedule off (it can still be run on demand)
        schedule[f"lifecycle-{job}"] = {
            "task": f"memgov.lifecycle.{job}",
            "schedule": float(every),
            # A run that waited longer than its period is stale: the next one does the same work.
            "options": {"expires": float(every)},
        }
    return schedule


def alerts_beat_schedule() -> dict[str, dict[str, Any]]:
    """Alerts are judged per closed window and raised once each; every few minutes is plenty."""
    every = envint("MEMGOV_ALERTS_EVERY", 300)
    if every <= 0:
        return {}
    return {
        "alerts-evaluate": {
            "task": "memgov.alerts.evaluate",
            "schedule": float(every),
            "options": {"expires": float(every)},
        }
    }


def audit_beat_schedule() -> dict[str, dict[str, Any]]:
    """Signed audit checkpoints (audit/tasks.py): the interval bounds how long a rewrite of the newest
    events can go unseen, so it is short by default."""
    every = envint("MEMGOV_AUDIT_CHECKPOINT_EVERY", 300)
    if every <= 0:
        return {}
    return {
        "audit-checkpoint": {
            "task": "memgov.audit.checkpoint",
            "schedule": float(every),
            "options": {"expires": float(every)},
        }
    }


def celery_settings() -> dict[str, Any]:
    from django.conf import settings

    var_dir = Path(settings.VAR_DIR)
    # "localhost" only to spare the log a warning: the filesystem transport has no host.
    broker_url = settings.CELERY_BROKER_URL or EMBEDDED_BROKER_URL
    conf: dict[str, Any] = {
        "broker_url": broker_url,
        "broker_connection_retry_on_startup": True,
        "task_ignore_result": True,
        "result_backend": None,
        "task_always_eager": settings.CELERY_TASK_ALWAYS_EAGER,
        # Jobs are idempotent: redelivering a message whose worker died mid-run is safe.
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "task_soft_time_limit": 300,
        "task_time_limit": 360,
        "timezone": settings.TIME_ZONE,
        "enable_utc": True,
        "beat_schedule": {**lifecycle_beat_schedule(), **alerts_beat_schedule(), **audit_beat_schedule()},
        "beat_schedule_filename": str(var_dir / "celerybeat-schedule"),
        "worker_hijack_root_logger": False,
    }
    if broker_url.startswith("filesystem://"):
        conf["broker_transport_options"] = embedded_broker_options(var_dir)
    elif broker_url.startswith(("redis://", "rediss://")):
        # A job's message comes back to the queue if its worker vanished for this long.
        conf["broker_transport_options"] = {"visibility_timeout": 3600}
    return conf


class _LazyCeleryConfig(Mapping[str, Any]):
    """Celery reads its configuration from this mapping the first time the app needs it."""

    def __init__(self) -> None:
        self._data: dict[str, Any] | None = None

    def _load(self) -> dict[str, Any]:
        if self._data is None:
            self._data = celery_settings()
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


app = Celery("memgov")
app.config_from_object(_LazyCeleryConfig())
app.autodiscover_tasks()


@worker_init.connect
def warm_up_worker(**_: object) -> None:
    """Load the detector, tokenizers and embedder once, before the first job (and before a prefork pool forks,
    so its children share them)."""
    from config.warmup import warm_up_process

    warm_up_process()


@worker_init.connect
def serve_worker_metrics(**_: object) -> None:
    """With MEMGOV_WORKER_METRICS_PORT set, the worker serves its job counters for Prometheus.

    The jobs count in the worker's process, not the web server's. With the prefork pool, set
    PROMETHEUS_MULTIPROC_DIR (an empty directory, before start) so the pool's children are added up.
    """
    port = envint("MEMGOV_WORKER_METRICS_PORT", 0)
    if not port:
        return
    from prometheus_client import REGISTRY, CollectorRegistry, multiprocess, start_http_server

    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    start_http_server(port, addr=os.environ.get("MEMGOV_WORKER_METRICS_ADDR", "127.0.0.1"), registry=registry)
