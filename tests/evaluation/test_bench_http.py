"""bench_http's parts: the floor store does what a governed write and read must at least do, the raw client speaks
HTTP/1.1 (kept alive, or reconnecting when the server closes), and a tiny run serves both gunicorns on this test
database and reports every row with the server's CPU."""

from __future__ import annotations

import hashlib
import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import pytest
from child_env import database_env
from django.core.management import CommandError, call_command

from evaluation.floor_bench import FloorStore, floor_figures
from evaluation.gunicorn_probe import probe_totals
from evaluation.http_bench import RawHttp, server_argv, server_cpu_seconds
from governance.models import AgentClient
from memories.models import Memory


def test_the_floor_dedups_seals_and_chains_its_audit():
    store = FloorStore(top_k=2)
    try:
        assert store.write("ada", "Prefers tables") and not store.write("ada", "prefers   TABLES")
        store.write("ada", "Writes Go")
        store.write("bob", "Prefers prose")
        assert store.read("ada") == ["Writes Go", "Prefers tables"]
        sealed = store.db.execute("SELECT content FROM memory").fetchall()
        assert all(b"Prefers" not in row[0] and b"Go" not in row[0] for row in sealed)
        chain = store.db.execute("SELECT event, memory_ids, prev_hash, hash FROM audit ORDER BY seq").fetchall()
        assert [event for event, *_ in chain] == ["memory_write_approved"] * 3 + ["memory_read"]
        for (_e, _i, _p, previous), (event, ids, prev_hash, digest) in itertools.pairwise(chain):
            assert prev_hash == previous
            assert digest == hashlib.sha256(f"{prev_hash}|{event}|{ids}".encode()).hexdigest()
    finally:
        store.close()


def test_floor_figures_time_both_operations():
    figures = floor_figures(subjects=["a", "b"], scope=3, texts=("note {n}",), requests=6)
    assert figures.write_p50_ms > 0 and figures.read_p50_ms > 0 and figures.write_cpu_ms > 0


class _Echo(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    closing = False

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        answer = json.dumps({"got": json.loads(body), "auth": self.headers["Authorization"]}).encode()
        self.send_response(200)
        if type(self).closing:
            self.send_header("Connection", "close")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(f"{len(answer):x}\r\n".encode() + answer + b"\r\n0\r\n\r\n")
            self.close_connection = True
        else:
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.parametrize("closing", [False, True], ids=["kept-alive", "closed-and-chunked"])
def test_the_raw_client_posts_json_and_reads_each_answer(closing):
    handler = type("Echo", (_Echo,), {"closing": closing})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    client = RawHttp(server.server_address[1], "mg_k")
    try:
        for n in range(3):
            status, answer = client.post("/x", {"n": n})
            assert status == 200 and json.loads(answer) == {"got": {"n": n}, "auth": "Bearer mg_k"}
    finally:
        client.close()
        server.shutdown()
        server.server_close()


def test_the_servers_are_the_documented_command_and_gunicorns_sync_workers():
    asgi, sync = server_argv("asgi", port=9, workers=3), server_argv("sync", port=9, workers=3)
    assert "config.asgi:application" in asgi and "uvicorn_worker.UvicornWorker" in asgi and "--preload" in asgi
    assert "config.wsgi" in sync and "-k" not in sync and "--preload" in sync
    with pytest.raises(ValueError, match="unknown server"):
        server_argv("gevent", port=9, workers=1)
    assert server_cpu_seconds(1) >= 0 and server_cpu_seconds(2**22 + 7) == 0  # gone: nothing counted


def test_the_probe_sums_what_every_worker_recorded(tmp_path):
    (tmp_path / "101.txt").write_text("write 0.003000\nread 0.002000\n")
    (tmp_path / "102.txt").write_text("write 0.001000\n")
    totals = probe_totals(tmp_path)
    assert totals["write"][0] == 2 and totals["write"][1] == pytest.approx(0.004)
    assert totals["read"] == (1, pytest.approx(0.002)) and probe_totals(tmp_path / "none") == {}


def test_bad_options_name_what_to_fix(db):
    with pytest.raises(CommandError, match="--clients"):
        call_command("bench_http", "--clients", "one")
    with pytest.raises(CommandError, match="--servers"):
        call_command("bench_http", "--servers", "asgi,iis")


def test_a_tiny_run_times_service_floor_and_both_servers(transactional_db, monkeypatch):
    for name, value in {**database_env(), "DJANGO_SETTINGS_MODULE": "config.settings"}.items():
        monkeypatch.setenv(name, value)
    out = StringIO()
    args = ["--requests", "4", "--warmup", "1", "--clients", "1,2", "--workers", "1", "--subjects", "2"]
    call_command("bench_http", *args, "--scope", "3", "--json", stdout=out, stderr=StringIO())
    text = out.getvalue()
    figures = json.loads(text.strip().splitlines()[-1])
    rows = {(row["server"], row["op"], row["clients"]): row for row in figures["http"]}
    assert set(rows) == {(s, op, c) for s in ("asgi", "sync") for op in ("write", "read") for c in (1, 2)}
    assert all(row["requests"] == 4 and row["server_cpu_ms"] >= 0 and row["p50_ms"] > 0 for row in rows.values())
    # CPU is read in clock ticks (10 ms): one row of 4 requests may fall inside a tick, all eight together don't.
    assert sum(row["server_cpu_ms"] for row in rows.values()) > 0
    # Inside the server, each worker timed every service call of the row (a row raises unless all 4 were).
    assert all(row["served_service_cpu_ms"] > 0 for row in rows.values())
    assert figures["service"]["write"]["cpu_ms"] > 0 and figures["floor"]["read_p50_ms"] > 0
    assert figures["governed_over_floor"]["write"] > 1
    assert "server CPU ms/req" in text and "floor (sqlite3 + cryptography)" in text
    # Every write went through the pipeline and was kept: 1 + 4 as service calls, as many on each server's rows.
    written = Memory.objects.filter(tenant__slug="bench-a", created_by__startswith="agent:bench-http-").count()
    assert written == (1 + 4) + 2 * 2 * (1 + 4)
    bench_keys = AgentClient.objects.filter(name__startswith="bench-http-")
    assert bench_keys.count() == 1 and not bench_keys.get().is_active
