"""Every failure answers cleanly: JSON errors on the API for every status, 503 with Retry-After while the
database is unreachable (a real dead port, in a real server process), a readiness probe that checks the
broker, TLS settings for deployments, and files only their owner can read."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings


@pytest.mark.parametrize(
    "method, path",
    [("get", "/api/v1/memories/not-a-uuid"), ("post", "/api/v1/memories/12345/pause"), ("get", "/api/v1/nothing-here")],
)
def test_a_malformed_id_or_unknown_path_is_a_json_404(world, method, path):
    response = getattr(world.agent_client(world.demo_key), method)(path)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json()["error"] == "not_found"


def test_an_oversize_body_is_a_json_413_before_it_is_read(world):
    body = '{"content": "' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10) + '"}'
    response = world.agent_client(world.demo_key).post("/api/v1/memories/write", body, content_type="application/json")
    assert response.status_code == 413 and response.json()["error"] == "body_too_large"


def test_too_many_form_fields_is_a_json_400(world):
    fields = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 5))
    response = world.agent_client(world.demo_key).post(
        "/api/v1/memories/write", fields, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400 and response["Content-Type"] == "application/json"
    assert response.json()["error"] == "too_many_fields"


def test_a_wrong_method_is_json_too(world):
    response = world.agent_client(world.demo_key).put("/api/v1/memories/write", {}, format="json")
    assert response.status_code == 405 and response["Content-Type"] == "application/json"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(env: dict[str, str], port: int) -> subprocess.Popen:
    argv = [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"]
    proc = subprocess.Popen(argv, cwd=settings.BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10)
                return proc
            except OSError:  # refused, reset, or slow to answer while the worker boots
                time.sleep(0.5)
    except BaseException:
        proc.kill()  # never leave a server behind
        raise
    proc.kill()
    pytest.fail(f"the server did not start: {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")


def _request(url: str, *, data: bytes | None = None, headers: dict[str, str] | None = None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=90) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.mark.parametrize("debug", ["0", "1"])
def test_with_the_database_unreachable_every_answer_is_a_retryable_503(debug, tmp_path):
    dead = _free_port()  # nothing listens here: connections are refused, as with a stopped server
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://memgov:memgov@127.0.0.1:{dead}/memgov",
        "MEMGOV_DEBUG": debug,
        "MEMGOV_VAR_DIR": str(tmp_path),
        "MEMGOV_ALLOWED_HOSTS": "127.0.0.1",
    }
    port = _free_port()
    proc = _serve(env, port)
    try:
        base = f"http://127.0.0.1:{port}"
        status, headers, body = _request(
            f"{base}/api/v1/memories?user_id=alice", headers={"Authorization": "Bearer mg_x_y"}
        )
        assert status == 503 and headers["Retry-After"] == "5" and headers["Content-Type"] == "application/json"
        assert b"Traceback" not in body and b'"service_unavailable"' in body
        status, headers, body = _request(f"{base}/accounts/login/", data=b"username=a&password=b")
        assert status in (403, 503)  # no CSRF cookie: refused before the database is asked, or the 503
        status, headers, body = _request(f"{base}/readyz")
        assert status == 503 and b'"database": "error' in body and b"Traceback" not in body
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_readyz_checks_the_broker(client, world, settings):
    settings.CELERY_BROKER_URL = ""  # the embedded filesystem broker: reachable
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["checks"] == {"database": "ok", "broker": "ok"}
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{_free_port()}/0"  # nothing listens there
    down = client.get("/readyz")
    assert down.status_code == 503 and down.json()["checks"]["broker"].startswith("error")
    assert down["Retry-After"] == "5"


def test_tls_settings_come_from_the_environment(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "MEMGOV_VAR_DIR": str(tmp_path),
        "MEMGOV_SSL_REDIRECT": "1",
        "MEMGOV_HSTS_SECONDS": "31536000",
        "MEMGOV_HSTS_INCLUDE_SUBDOMAINS": "1",
        "MEMGOV_TLS_PROXY_HEADER": "1",
    }
    code = (
        "import django; django.setup(); from django.conf import settings as s; print(s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_PROXY_SSL_HEADER)"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "True 31536000 True ('HTTP_X_FORWARDED_PROTO', 'https')", out.stderr[-1000:]
    bad = subprocess.run(
        [sys.executable, "-c", code], env={**env, "MEMGOV_HSTS_SECONDS": "a year"}, capture_output=True, text=True
    )
    assert bad.returncode != 0 and "MEMGOV_HSTS_SECONDS must be an integer" in bad.stderr


def test_behind_tls_http_is_redirected_and_hsts_sent(client, settings, world):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    assert client.get("/accounts/login/").status_code == 301
    secure = client.get("/accounts/login/", secure=True)
    assert secure.status_code == 200 and secure["Strict-Transport-Security"] == "max-age=3600"
    assert client.get("/healthz").status_code == 200  # probes stay on plain HTTP


def test_a_new_sqlite_database_and_its_wal_are_private(tmp_path, django_db_blocker):
    from django.db.utils import ConnectionHandler

    path = tmp_path / "new.sqlite3"
    # A database of its own, whatever this suite runs on: the file is what is checked.
    wrapper = ConnectionHandler(
        {
            "default": {
                "ENGINE": "dbkit.sqlite3",
                "NAME": str(path),
                "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL;"},
            }
        }
    )["default"]
    try:
        with django_db_blocker.unblock(), wrapper.cursor() as cursor:
            cursor.execute("CREATE TABLE t (x)")
            cursor.execute("INSERT INTO t VALUES (1)")
        for file in (path, path.with_name(path.name + "-wal")):
            assert file.stat().st_mode & 0o077 == 0, file
    finally:
        wrapper.close()
    assert sqlite3.connect(path).execute("SELECT x FROM t").fetchall() == [(1,)]


def test_key_files_are_private(tmp_path, settings):
    from audit.signing import _ensure_dev_key_file
    from vault.keyring import _ensure_dev_key_file as master_file

    for make, name in ((_ensure_dev_key_file, "audit.key"), (master_file, "master.key")):
        make(tmp_path / name)
        assert (tmp_path / name).stat().st_mode & 0o077 == 0
    assert Path(tmp_path).exists()
