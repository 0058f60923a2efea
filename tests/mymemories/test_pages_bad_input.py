"""Bad input and other people's ids on every "My memories" page.

The project's rule: every page validates what it is sent and answers 4xx with a message that says what
to fix — never a 500 — and nobody sees or changes what is not theirs. alice is the person logged in;
bob is her teammate, and tenant acme has a subject that is *also* called alice (same subject id, other
tenant). Their memories, confirmations and erasure receipts must be the same 404 as a missing one, and
rejected input must leave the database exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from bad_input import logged_in, page_text, refused, shown
from django.test import Client

from audit.models import AuditEvent
from governance.pipeline.base import Candidate, Scope
from governance.vocabulary import Level, MemoryType, SourceType
from memories.models import Confirmation, ErasureReceipt, Memory, SessionOptOut, Subject
from memories.services.records import memory_delete
from memories.services.subjects import subject_erase
from memories.services.write import memory_write
from tests.plans import say_yes

LONG = "x" * 100_000
MISSING = "0190a0a0-0000-7000-8000-000000000000"


@dataclass
class Scene:
    mine: Memory
    bobs: Memory
    acme_alices: Memory  # tenant acme's subject "alice": same subject id, other tenant
    rule: Memory  # a tenant rule of demo: shared, nobody's own
    gone: Memory  # alice's own, deleted
    my_confirmation: Confirmation
    settled: Confirmation  # alice's own, already accepted
    bob_confirmation: Confirmation
    acme_confirmation: Confirmation
    carol_receipt: ErasureReceipt  # same tenant, another person
    acme_receipt: ErasureReceipt  # same subject id, other tenant


def _inference(tenant, agent, user_id: str, content: str) -> Confirmation:
    result = memory_write(
        tenant_id=tenant.pk,
        candidate=Candidate(
            content=content,
            scope=Scope(Level.USER, user_id=user_id),
            source_type=SourceType.AGENT_INFERENCE,
            type=MemoryType.USER_PREFERENCE,
            confidence=0.8,
        ),
        actor_label=f"agent:{agent.name}",
        agent=agent,
    )
    assert result.confirmation is not None, result.decision
    return result.confirmation


@pytest.fixture
def scene(world, make_memory) -> Scene:
    acme_receipt = subject_erase(tenant_id=world.acme.pk, user_id="alice", actor="test")
    carol_receipt = subject_erase(tenant_id=world.demo.pk, user_id="carol", actor="test")
    gone = make_memory(world.demo, "Alice's deleted note", user_id="alice")
    memory_delete(memory=gone, actor="test")
    settled = _inference(world.demo, world.demo_agent, "alice", "Alice prefers tea")
    Confirmation.objects.filter(pk=settled.pk).update(state=Confirmation.State.ACCEPTED)
    return Scene(
        mine=make_memory(world.demo, "Alice prefers tables", user_id="alice"),
        bobs=make_memory(world.demo, "Bob prefers tables too", user_id="bob", session_id="s1"),
        acme_alices=make_memory(world.acme, "Acme alice prefers tables", user_id="alice", session_id="s1"),
        rule=make_memory(world.demo, "Tables need captions", level=Level.TENANT, type="organization_rule"),
        gone=gone,
        my_confirmation=_inference(world.demo, world.demo_agent, "alice", "Alice prefers short answers"),
        settled=settled,
        bob_confirmation=_inference(world.demo, world.demo_agent, "bob", "Bob prefers long answers"),
        acme_confirmation=_inference(world.acme, world.acme_agent, "alice", "Acme alice prefers emoji"),
        carol_receipt=carol_receipt,
        acme_receipt=acme_receipt,
    )


def _state() -> dict[str, Any]:
    """Everything a page could change, to compare before and after a rejected request."""
    return {
        "memories": sorted(Memory.objects.values_list("pk", "status", "version", "updated_at")),
        "confirmations": sorted(Confirmation.objects.values_list("pk", "state")),
        "audit_events": AuditEvent.objects.count(),
        "receipts": ErasureReceipt.objects.count(),
        "opt_outs": sorted(SessionOptOut.objects.values_list("tenant_id", "user_id", "session_id")),
        "paused": sorted(Subject.objects.filter(memory_paused=True).values_list("tenant_id", "user_id")),
    }


def _refused(client: Client, path: str, data: dict[str, Any], message: str, *, status: int = 400) -> str:
    """POST ``data``: the status, the message the person can act on, and not a row changed."""
    return refused(client, path, data, message, state=_state, status=status)


# --- Ids that are not the caller's --------------------------------------------------------------

MEMORY_ACTIONS = [
    ("get", "/memories/{}/edit", None),
    ("post", "/memories/{}/edit", {"content": "Taken over"}),
    ("get", "/memories/{}/delete", None),
    ("post", "/memories/{}/delete", {}),
    ("post", "/memories/{}/pause", {}),
    ("post", "/memories/{}/resume", {}),
    ("get", "/memories/{}/history", None),
    ("post", "/memories/{}/rollback", {"version": 1}),
]


def test_a_memory_that_is_not_mine_is_the_missing_404(world, scene):
    """bob's, acme's alice's, the tenant's shared rule and alice's own deleted memory: all missing."""
    alice = logged_in(world.alice)
    before = _state()
    for method, path, data in MEMORY_ACTIONS:
        missing = getattr(alice, method)(path.format(MISSING), data)
        assert missing.status_code == 404, path
        for memory in (scene.bobs, scene.acme_alices, scene.rule, scene.gone):
            response = getattr(alice, method)(path.format(memory.pk), data)
            assert (response.status_code, response.content) == (404, missing.content), (method, path, memory)
    assert _state() == before


def test_a_confirmation_that_is_not_mine_or_not_pending_is_the_missing_404(world, scene):
    alice = logged_in(world.alice)
    before = _state()
    for action in ("accept", "decline"):
        missing = alice.post(f"/inbox/{MISSING}/{action}")
        assert missing.status_code == 404
        for confirmation in (scene.bob_confirmation, scene.acme_confirmation, scene.settled):
            response = alice.post(f"/inbox/{confirmation.pk}/{action}")
            assert (response.status_code, response.content) == (404, missing.content), (action, confirmation)
    assert _state() == before
    page = page_text(alice.get("/inbox/"))
    assert "Alice prefers short answers" in page
    for other in ("Bob prefers long answers", "Acme alice prefers emoji", "Alice prefers tea"):
        assert other not in page


def test_an_erasure_receipt_that_is_not_mine_is_the_missing_404(world, scene):
    alice = logged_in(world.alice)
    missing = alice.get(f"/data/erase/receipts/{MISSING}")
    assert missing.status_code == 404
    for receipt in (scene.carol_receipt, scene.acme_receipt):
        response = alice.get(f"/data/erase/receipts/{receipt.pk}")
        assert (response.status_code, response.content) == (404, missing.content)


def test_malformed_ids_in_the_path_are_404(world):
    alice = logged_in(world.alice)
    before = _state()
    for path in (
        "/memories/not-a-uuid/edit",
        "/memories/0190A0A0-0000-7000-8000-000000000000/edit",  # ids are lower-case hex
        f"/memories/{MISSING}0/history",
        "/memories/1/pause",
        "/inbox/1/accept",
        f"/inbox/{MISSING[:-1]}/decline",
        "/data/erase/receipts/" + "f" * 5000,
    ):
        assert alice.get(path).status_code == 404, path
        assert alice.post(path).status_code == 404, path
    assert _state() == before


# --- Methods --------------------------------------------------------------------------------------

GET_ONLY = ["/inbox/", "/controls/", "/data/", "/memories/{mine}/history", "/data/erase/receipts/{receipt}"]
POST_ONLY = [
    "/memories/bulk",
    "/memories/{mine}/pause",
    "/memories/{mine}/resume",
    "/memories/{mine}/rollback",
    "/inbox/{confirmation}/accept",
    "/inbox/{confirmation}/decline",
    "/controls/pause",
    "/controls/resume",
    "/controls/sessions/opt-out",
    "/controls/sessions/clear",
    "/data/export",
]
GET_AND_POST = ["/", "/memories/{mine}/edit", "/memories/{mine}/delete", "/commands/", "/preview/", "/data/erase"]


def test_each_page_answers_405_to_a_method_it_does_not_take(world, scene):
    """Pages that only show are GET; actions are POST only (a link or prefetch never changes anything)."""
    alice = logged_in(world.alice)
    receipt = ErasureReceipt.objects.create(
        tenant=world.demo, user_id="alice", erased_by="test", memories_erased=0, versions_erased=0, key_destroyed=False
    )
    ids = {"mine": scene.mine.pk, "confirmation": scene.my_confirmation.pk, "receipt": receipt.pk}
    before = _state()
    for methods, paths in (
        (("post", "put", "patch", "delete"), GET_ONLY),
        (("get", "put", "patch", "delete"), POST_ONLY),
        (("put", "patch", "delete"), GET_AND_POST),
    ):
        for path in paths:
            for method in methods:
                assert getattr(alice, method)(path.format(**ids)).status_code == 405, (method, path)
    for path in GET_ONLY + GET_AND_POST:
        assert alice.get(path.format(**ids)).status_code == 200, path
    assert _state() == before


# --- Bad form input -------------------------------------------------------------------------------

REQUIRED = "This field is required."
TOO_LONG = "Ensure this value has at most"
NULL_CHAR = "Null characters are not allowed."


def test_edit_refuses_bad_content_with_a_message(world, scene):
    alice = logged_in(world.alice)
    for data, message in [
        ({}, REQUIRED),
        ({"content": ""}, REQUIRED),
        ({"content": "   "}, REQUIRED),
        ({"content": LONG}, TOO_LONG),
        ({"content": "tables\x00chairs"}, NULL_CHAR),
        ({"content": "Prefers charts", "reason": LONG}, TOO_LONG),
    ]:
        _refused(alice, f"/memories/{scene.mine.pk}/edit", data, message)


def test_rollback_to_a_bad_version_says_so_and_changes_nothing(world, scene):
    """The history page's buttons send a version; anything else comes back there with a message."""
    alice = logged_in(world.alice)
    history = f"/memories/{scene.mine.pk}/history"
    for version, message in [
        (None, "Choose a version to restore."),
        ("", "Choose a version to restore."),
        ("abc", "Choose a version to restore."),
        ("0", "Choose a version to restore."),
        ("-1", "Choose a version to restore."),
        ("1.5", "Choose a version to restore."),
        ("9" * 100_000, "Choose a version to restore."),
        ("7", "That version can&#x27;t be restored."),
        ("9" * 30, "That version can&#x27;t be restored."),  # a whole number no database integer holds
    ]:
        before = _state()
        response = alice.post(f"/memories/{scene.mine.pk}/rollback", {} if version is None else {"version": version})
        assert (response.status_code, response["Location"]) == (302, history), shown(version)
        assert message in page_text(alice.get(history)), shown(version)
        assert _state() == before, shown(version)


def test_session_forms_refuse_a_bad_session_id_with_a_message(world, scene):
    alice = logged_in(world.alice)
    for session_id, message in [
        (None, REQUIRED),
        ("", REQUIRED),
        ("   ", REQUIRED),
        ("s" * 129, TOO_LONG),
        (LONG, TOO_LONG),
        ("s\x001", NULL_CHAR),
    ]:
        for form, path in (("optout", "/controls/sessions/opt-out"), ("clear", "/controls/sessions/clear")):
            data = {"confirm": "on"} | ({} if session_id is None else {f"{form}-session_id": session_id})
            _refused(alice, path, data, message)


def test_clearing_a_session_clears_only_my_memories_of_it(world, scene, make_memory):
    """bob and acme's alice have memories in session s1 too; alice's clear takes only hers."""
    mine = make_memory(
        world.demo, "Alice's s1 note", user_id="alice", type="temporary_context", level=Level.SESSION, session_id="s1"
    )
    alice = logged_in(world.alice)
    asked = alice.post("/controls/sessions/clear", {"clear-session_id": "s1"})
    shown = page_text(asked)
    assert "Alice&#x27;s s1 note" in shown
    assert "Bob prefers tables too" not in shown and "Acme alice" not in shown
    assert say_yes(alice, asked).status_code == 302
    assert Memory.objects.get(pk=mine.pk).status == "deleted"
    assert Memory.objects.get(pk=scene.bobs.pk).status == "active"
    assert Memory.objects.get(pk=scene.acme_alices.pk).status == "active"


def test_commands_refuse_bad_input_with_a_message(world, scene):
    alice = logged_in(world.alice)
    for data, message in [
        ({}, REQUIRED),
        ({"text": ""}, REQUIRED),
        ({"text": "   "}, REQUIRED),
        ({"text": LONG}, TOO_LONG),
        ({"text": "forget\x00it"}, NULL_CHAR),
        ({"text": "clear this session", "session_id": LONG}, "Select a valid choice"),  # chosen, never typed
        ({"text": "delete all memories about tables", "confirm": "on", "memory_ids": LONG}, TOO_LONG),
    ]:
        _refused(alice, "/commands/", data, message)


def test_a_confirmed_command_never_reaches_memories_that_are_not_mine(world, scene):
    """Naming bob's, acme's and made-up ids in a confirmed delete changes nothing: only what was shown goes."""
    alice = logged_in(world.alice)
    before = _state()
    ids = ",".join([str(scene.bobs.pk), str(scene.acme_alices.pk), str(scene.rule.pk), "not-a-uuid", MISSING])
    response = alice.post(
        "/commands/", {"text": "delete all memories about tables", "confirm": "on", "memory_ids": ids}, follow=True
    )
    assert response.status_code == 200
    page = page_text(response)
    assert "Nothing was changed" in page
    assert "Bob prefers" not in page and "Acme alice" not in page
    assert _state() == before


def test_the_preview_refuses_bad_input_and_shows_only_my_memories(world, scene):
    alice = logged_in(world.alice)
    for data, message in [
        ({}, REQUIRED),
        ({"query": ""}, REQUIRED),
        ({"query": LONG}, TOO_LONG),
        ({"query": "tables\x00"}, NULL_CHAR),
        ({"query": "tables", "project": LONG}, TOO_LONG),
        ({"query": "tables", "session_id": "s" * 129}, TOO_LONG),
    ]:
        _refused(alice, "/preview/", data, message)
    assert "Alice prefers tables" in page_text(alice.post("/preview/", {"query": "tables"}))
    for extra in ({"project": "acme-docs"}, {"session_id": "s1"}):
        page = page_text(alice.post("/preview/", {"query": "tables"} | extra))
        assert "Bob prefers" not in page and "Acme alice" not in page, extra


def test_erase_refuses_anything_but_the_phrase(world, scene):
    alice = logged_in(world.alice)
    for data, message in [
        ({}, REQUIRED),
        ({"phrase": ""}, REQUIRED),
        ({"phrase": "yes"}, "The phrase doesn"),
        ({"phrase": "erase my memories please"}, "The phrase doesn"),
        ({"phrase": LONG}, TOO_LONG),
    ]:
        _refused(alice, "/data/erase", data, message)


def test_export_ignores_what_it_is_sent_and_holds_only_my_data(world, scene):
    response = logged_in(world.alice).post("/data/export", {"user_id": "bob", "tenant": "acme", "x": LONG})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Alice prefers tables" in body
    assert "Bob prefers" not in body and "Acme alice" not in body


# --- The list's filters ---------------------------------------------------------------------------


def test_an_unknown_filter_code_is_a_400_that_names_the_filter(world, scene):
    alice = logged_in(world.alice)
    for params, field in [
        ({"type": "nonsense"}, "Type"),
        ({"status": "deleted"}, "Status"),
        ({"scope": LONG}, "Scope"),
        ({"type": "user_preference", "group": "bogus"}, "Group"),
    ]:
        response = alice.get("/", params)
        assert response.status_code == 400, shown(params)
        page = page_text(response)
        assert 'data-testid="filter-errors"' in page and f"{field}: Select a valid choice." in page, shown(params)
        assert "Alice&#x27;s deleted note" not in page and "Bob prefers" not in page
    response = alice.post("/", {"q": "q" * 201})  # a search that is too long is not "everything"
    assert response.status_code == 400
    assert "Search: Ensure this value has at most 200 characters" in page_text(response)


def test_every_filter_shows_only_my_memories_and_unknown_parameters_are_ignored(world, scene):
    alice = logged_in(world.alice)
    for params in (
        {"scope": "tenant"},
        {"scope": "user"},
        {"status": "pending_confirmation"},
        {"group": "projects"},
        {"user_id": "bob", "tenant": "acme", "utm_source": "mail"},
    ):
        response = alice.get("/", params)
        assert response.status_code == 200, params
        page = page_text(response)
        # A tenant rule shapes alice's answers: it may appear, read-only, under "Rules set for you by
        # others" — never among the memories she controls.
        memories_part = page.split('data-testid="shared-rules"')[0]
        for other in ("Bob prefers", "Acme alice", "Tables need captions", "Alice&#x27;s deleted note"):
            assert other not in memories_part, (params, other)
        assert "Bob prefers" not in page and "Acme alice" not in page


# --- The bulk bar ---------------------------------------------------------------------------------

NOT_MINE = "Some of the selected memories are not yours or no longer exist. Nothing was changed."
NOT_A_MEMORY = "The selection holds something that is not a memory."


def test_a_bulk_change_naming_a_memory_that_is_not_mine_is_refused_whole(world, scene):
    """bob's, acme's alice's, the tenant's rule, alice's own deleted one and a made-up id — alone or beside
    alice's own memory, for the plan and for "yes", every action: the same 400 and message, nothing changed."""
    alice = logged_in(world.alice)
    mine = str(scene.mine.pk)
    pages = set()
    for other in (scene.bobs.pk, scene.acme_alices.pk, scene.rule.pk, scene.gone.pk, MISSING):
        for ids in ([str(other)], [mine, str(other)]):
            for action in ("delete", "pause", "resume"):
                for yes in ({}, {"confirm": "on", "changes": ids}):
                    page = _refused(alice, "/memories/bulk", {"action": action, "ids": ids} | yes, NOT_MINE)
                    assert "Bob prefers" not in page and "Acme alice" not in page and "Tables need" not in page
                    pages.add(page.split('name="csrfmiddlewaretoken"')[0])
    assert len(pages) == 1  # not-yours reads exactly like missing


def test_a_teammate_and_another_tenant_cannot_change_alices_memories_in_bulk(world, scene):
    mine = str(scene.mine.pk)
    for person in (world.bob, world.erin):
        client = logged_in(person)
        for action in ("delete", "pause"):
            for yes in ({}, {"confirm": "on", "changes": [mine]}):
                page = _refused(client, "/memories/bulk", {"action": action, "ids": [mine]} | yes, NOT_MINE)
                assert "Alice prefers tables" not in page
    assert Memory.objects.get(pk=scene.mine.pk).status == "active"


def test_a_bulk_change_refuses_bad_input_with_a_message(world, scene):
    mine = str(scene.mine.pk)
    alice = logged_in(world.alice)
    for data, message in [
        ({"action": "delete"}, "Select at least one memory."),
        ({"action": "delete", "ids": ""}, "Select at least one memory."),
        ({"ids": mine}, REQUIRED),
        ({"action": "erase", "ids": mine}, "Select a valid choice"),
        ({"action": LONG, "ids": mine}, "Select a valid choice"),
        ({"action": "delete", "ids": "not-a-uuid"}, NOT_A_MEMORY),
        ({"action": "delete", "ids": mine.upper()}, NOT_A_MEMORY),  # ids are written one way
        ({"action": "delete", "ids": "{" + mine + "}"}, NOT_A_MEMORY),
        ({"action": "delete", "ids": [mine, "1"]}, NOT_A_MEMORY),
        ({"action": "delete", "ids": LONG}, NOT_A_MEMORY),
        ({"action": "delete", "ids": mine + "\x00"}, NOT_A_MEMORY),
        ({"action": "delete", "ids": [mine] * 401}, "Select at most 400 memories at a time."),
        ({"action": "delete", "ids": mine, "changes": "x", "confirm": "on"}, NOT_A_MEMORY),
        ({"action": "delete", "ids": mine, "sort": "random"}, "Select a valid choice"),
    ]:
        _refused(alice, "/memories/bulk", data, message)


def test_the_list_sort_refuses_an_unknown_order_by_name(world, scene):
    alice = logged_in(world.alice)
    for params in ({"sort": "random"}, {"sort": LONG}, {"sort": "-updated_at"}):
        response = alice.get("/", params)
        assert response.status_code == 400, shown(params)
        assert "Sort by: Select a valid choice." in page_text(response), shown(params)
    response = alice.post("/", {"q": "tables", "sort": "used; drop table"})
    assert response.status_code == 400 and "Sort by: Select a valid choice." in page_text(response)
