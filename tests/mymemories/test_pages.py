"""The plain "My memories" page: login required, shows only the person's own memories, escaped."""

from __future__ import annotations


def test_it_requires_login(client, world):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_it_shows_my_memories_and_not_my_teammates(client, world, make_memory):
    make_memory(world.demo, "Alice likes tables", user_id="alice")
    make_memory(world.demo, "Bob likes TL;DR", user_id="bob")
    client.force_login(world.alice.user)
    page = client.get("/").content.decode()
    assert "Alice likes tables" in page
    assert "Bob likes TL;DR" not in page


def test_memory_content_is_escaped(client, world, make_memory):
    make_memory(world.demo, "<script>alert(1)</script>", user_id="alice")
    client.force_login(world.alice.user)
    page = client.get("/").content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_pages_send_a_strict_content_security_policy(client, world):
    client.force_login(world.alice.user)
    assert "script-src 'self'" in client.get("/")["Content-Security-Policy"]


def test_health_endpoints(client, db):
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json()["status"] == "ready"
