"""'What would the agent see?': the read path's context block for the person's own scope, as a preview."""

from __future__ import annotations

from django.test import Client

from audit.models import AuditEvent
from memories.services.subjects import subject_set_paused


def _login(membership) -> Client:
    client = Client()
    client.force_login(membership.user)
    return client


def test_it_shows_my_context_block_and_not_my_teammates(world, make_memory):
    mine = make_memory(world.demo, "Prefers Markdown tables when comparing options", user_id="alice")
    make_memory(world.demo, "Bob prefers Markdown tables too", user_id="bob")
    response = _login(world.alice).post("/preview/", {"query": "compare two options in a table"})
    page = response.content.decode()
    assert response.status_code == 200 and 'data-testid="context-block"' in page
    assert "Prefers Markdown tables when comparing options" in page
    assert "Bob prefers" not in page
    # A preview is a read, never an injection into an agent's prompt.
    assert AuditEvent.objects.filter(event="memory_injected").count() == 0
    mine.refresh_from_db()
    assert mine.use_count == 0


def test_a_paused_subject_sends_nothing(world, make_memory):
    make_memory(world.demo, "Prefers Markdown tables", user_id="alice")
    subject_set_paused(tenant_id=world.demo.pk, user_id="alice", paused=True, actor="test")
    page = _login(world.alice).post("/preview/", {"query": "tables"}).content.decode()
    assert "agents get no memories at all" in page and "Prefers Markdown tables" not in page


def test_the_query_travels_in_the_body_and_is_validated(world):
    alice = _login(world.alice)
    assert alice.get("/preview/?query=secret").content.decode().count("secret") == 0
    assert 'aria-invalid="true"' in alice.post("/preview/", {"query": ""}).content.decode()


def test_it_says_why_each_memory_is_there(world, make_memory):
    make_memory(world.demo, "Deploys dispatch-docs with kubernetes", user_id="alice", type="user_profile")
    make_memory(world.demo, "Prefers short answers", user_id="alice")
    make_memory(world.demo, "Bob deploys with kubernetes too", user_id="bob", type="user_profile")
    page = _login(world.alice).post("/preview/", {"query": "kubernetes deploy"}).content.decode()
    table = page[page.index('data-testid="why-ranked"') :]
    table = table[: table.index("</table>")]
    assert "shares words with the question" in table and "(kubernet, deploy)" in table
    assert "standing preference or rule, sent with every question" in table
    assert table.count('<tr><th scope="row">') == 2  # m1, m2: mine only, never bob's
    assert "Bob" not in page
