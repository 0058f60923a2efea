"""bench_integrations at a tiny size: it serves config.asgi (and config.wsgi) on this test database, times
every row, prints the table and the JSON, and leaves its agent key revoked."""

from __future__ import annotations

import json
from io import StringIO

from async_run import in_thread
from child_env import database_env
from django.core.management import call_command

from governance.models import AgentClient


def test_it_times_mcp_beside_rest_from_one_run(transactional_db, monkeypatch):
    for name, value in database_env().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "config.settings")
    out = StringIO()
    # On a thread of its own: the command runs an event loop, and the browser tests leave one in this thread.
    in_thread(
        call_command,
        "bench_integrations",
        "--requests",
        "3",
        "--warmup",
        "1",
        "--subjects",
        "2",
        "--sessions",
        "1",
        "--json",
        *("--items", "10", "--checkpoints", "4", "--json"),
        stdout=out,
    )
    text = out.getvalue()
    figures = json.loads(text.strip().splitlines()[-1])
    rows = {row["row"]: row for row in figures["rows"]}
    assert len(rows) == 19
    assert all(row["requests"] == 3 for row in rows.values() if row["group"] in ("mcp_vs_rest", "rest_asgi_vs_wsgi"))
    assert rows["MemgovSession.add_items (2 items)"]["requests"] == 5  # one session grown to 10 items
    assert rows["MemgovSession.get_items (10 items)"]["requests"] == 5
    assert rows["MemgovSession.get_items (10, first read)"]["requests"] == 5  # a new instance's, once a round
    assert rows["MemgovSaver.put"]["requests"] == rows["MemgovSaver.get_tuple (latest)"]["requests"] == 4
    assert rows["MemgovSaver.put"]["beside"] == "SqliteSaver.put"
    assert rows["MCP memory_write (SDK client)"]["beside"] == "REST POST /api/v1/memories/write"
    assert set(figures["ratio_p50"]) == {name for name, row in rows.items() if row["beside"]}
    assert figures["python_speed_us"] > 0 and "speed probe" in text and "MCP memory_context (SDK client)" in text
    bench_keys = AgentClient.objects.filter(tenant__slug="bench-integrations")
    assert bench_keys.count() == 1 and not bench_keys.get().is_active
