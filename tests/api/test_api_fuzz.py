"""Schema-driven fuzzing of the JSON API: every operation under /api/v1/, with inputs Schemathesis
generates from the OpenAPI document the app serves, must never answer 5xx (bad input is a 4xx that
says what to fix), and a response the document describes must match it.

Per operation: the schema's examples, the coverage phase (boundaries, wrong types, missing fields,
other methods and content types) and a fixed, derandomized number of fuzzed cases, sent in-process
to the WSGI app. The cases go out in turn as the demo agent (its key) and as a person logged in with
a browser session (cookie and CSRF token). A case naming a memory, confirmation, task or session goes out
again with the id of a fresh row of the demo tenant (a memory or a session in one of several states, in turn), so
that bodies reach the services, not only the lookup; a case naming a confirmation goes out once more
as a tenant admin answering a rule another admin proposed; the other tenant's agent must then get a 404.

``MEMGOV_FUZZ_EXAMPLES=300`` (default 20) fuzzes deeper, for a hunt rather than CI.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from conversations.services.compaction import session_compact
from conversations.services.events import NewEvent, session_events_append
from conversations.services.sessions import SessionChange, session_create, session_fork, session_update
from conversations.services.tasks import task_state_update
from governance.models import Membership
from governance.pipeline.base import Candidate, Scope
from governance.services.tenancy import membership_set, user_create
from governance.vocabulary import Level, MemoryType, Role, SourceType
from memories.models import Memory
from memories.services.records import memory_delete, memory_pause, memory_update
from memories.services.write import memory_write

# Values that mean something to this tenant, mixed into what is generated so that cases reach past
# "no such subject": its people, team, project, a session and a task, commands and queries.
DICTIONARIES = {
    "subjects": ["alice", "bob", "erin"],
    "teams": ["ai-platform"],
    "projects": ["dispatch-docs"],
    "sessions": ["s-1"],
    "tasks": ["task-1"],
    "texts": [
        "remember this preference: answer in Chinese",
        "记住这个偏好：回答用表格",
        "this is just for this task, don't save it",
        "forget the project I just mentioned",
        "what do you remember about me",
        "delete all memories about tables",
        "删除所有关于 dispatch-docs 的记忆",
        "stop using this preference",
        "clear this session",
        "Keep answers short, no emoji, use tables",
        "回答简短一点，不要用表格",
        "My key is sk-proj-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3",
    ],
    # Values that break code which trusts a type: 32- and 64-bit edges, SQL LIKE wildcards, quotes.
    "integers": [-1, 0, 2**31, 2**63 - 1, 2**63, 2**64, 10**20],
    "strings": ["%", "_", "'", "\\", "a%_b", "null", " ", "..", "😀", "\u202e"],
}
BINDINGS = {
    "query.user_id": "subjects",
    "body.user_id": "subjects",
    "body.scope.user_id": "subjects",
    "body.on_behalf_of": "subjects",
    "body.scope.team": "teams",
    "body.scope.project": "projects",
    "body.scope.session_id": "sessions",
    "body.session_id": "sessions",
    "body.scope.task_id": "tasks",
    "path.task_id": "tasks",
    "body.text": "texts",
    "body.query": "texts",
    "body.instruction": "texts",
    "body.content": "texts",
}
CONFIG = schemathesis.Config.from_dict(
    {
        "seed": 20261130,
        "generation": {
            "max-examples": int(os.environ.get("MEMGOV_FUZZ_EXAMPLES", "20")),
            "deterministic": True,
            # No example database: nothing is written under the work tree, and every run is the same.
            "database": "none",
            # Credentials are ours to send (below), not generated.
            "with-security-parameters": False,
            "dictionaries": {
                "integer": {"dictionary": "integers", "probability": 0.3},
                "string": {"dictionary": "strings", "probability": 0.1},
            },
        },
        "dictionaries": {name: {"values": values} for name, values in DICTIONARIES.items()},
        "parameters": {key: {"dictionary": name, "probability": 0.5} for key, name in BINDINGS.items()},
    }
)
CHECKS = [not_a_server_error, response_schema_conformance]
ROW_IDS = ("memory_id", "confirmation_id", "task_id", "session_id")

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application(), config=CONFIG).include(
    path_regex=r"^/api/v1/"
)
_serial = itertools.count()
_turns = itertools.count()


@dataclass
class Principal:
    headers: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)


def as_agent(key: str) -> Principal:
    return Principal(headers={"Authorization": f"Bearer {key}"})


def as_person(membership: Membership) -> Principal:
    """A logged-in browser: the session cookie, and a CSRF token in its cookie and in the header."""
    browser = Client()
    browser.force_login(membership.user)
    request = HttpRequest()
    token = get_token(request)
    return Principal(
        headers={"X-CSRFToken": token},
        cookies={
            django_settings.SESSION_COOKIE_NAME: browser.cookies[django_settings.SESSION_COOKIE_NAME].value,
            django_settings.CSRF_COOKIE_NAME: request.META["CSRF_COOKIE"],
        },
    )


@pytest.fixture
def keep_test_connection() -> Iterator[None]:
    """Requests go straight to the WSGI app, not through Django's test client, so do what that client
    does: don't let the end of a request close the connection that holds the test's transaction."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


TASK = {"type": "task_state", "source_type": "task_state_machine"}
RULE = {"type": "organization_rule", "source_type": "admin_console"}
DEMO_MEMORIES: list[dict[str, Any]] = [
    {"content": "Prefers emoji in answers", "user_id": "bob"},
    {"content": "Prefers answers with tables", "user_id": "alice"},
    {"content": "回答用中文，简短一点", "user_id": "alice", "type": "constraint"},
    {"content": "Maintains the dispatch-docs site", "user_id": "alice", "level": Level.PROJECT,
     "project": "dispatch-docs", "type": "project_rule"},
    {"content": "Is debugging the deploy script", "user_id": "alice", "level": Level.SESSION, "session_id": "s-1",
     "type": "temporary_context"},
    {"content": "Step 1 of 3 is done", "user_id": "alice", "level": Level.TASK, "task_id": "task-1", **TASK},
    {"content": "Pull requests need a screenshot of the tests", "level": Level.TEAM, "team": "ai-platform", **RULE},
]  # fmt: skip


@pytest.fixture
def demo_data(world: Any, make_memory: Callable[..., Memory]) -> None:
    """What the named values above find: alice's memories in each scope, her team's rule, bob's
    preference, and erin's in the other tenant. The demo agent may export the audit log, so that
    the export's parameters are reached. frank is a second admin, whose rules carol approves."""
    world.demo_agent.can_export_audit = True
    world.demo_agent.save(update_fields=["can_export_audit"])
    membership_set(
        tenant=world.demo, user=user_create(username="frank", password="x"), role=Role.TENANT_ADMIN, actor="t"
    )
    for memory in DEMO_MEMORIES:
        make_memory(world.demo, **memory)
    make_memory(world.acme, "Prefers answers with tables", user_id="erin")


def _memory_in_turn(world: Any, make_memory: Callable[..., Memory], n: int) -> Memory:
    """alice's memory, in turn: edited once (so it has versions), paused, deleted, or a team rule."""
    if n % 4 == 3:
        content = f"Pull requests need a screenshot, variant {n}"
        return make_memory(world.demo, content, level=Level.TEAM, team="ai-platform", **RULE)
    memory = make_memory(world.demo, f"Prefers short answers with tables, variant {n}", user_id="alice")
    if n % 4 == 0:
        return memory_update(memory=memory, actor="test", content=f"Prefers bullet lists, variant {n}")
    if n % 4 == 1:
        return memory_pause(memory=memory, actor="test")
    return memory_delete(memory=memory, actor="test")


def _fresh_rows(world: Any, make_memory: Callable[..., Memory]) -> dict[str, str]:
    """Ids of new rows of the demo tenant for one case: a memory, a pending confirmation, a task."""
    n = next(_serial)  # distinct words, or the pipeline deduplicates the candidate instead of asking
    pending = memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content=f"The user seems to prefer dark mode in editor number {n}.",
            scope=Scope(Level.USER, user_id="alice"),
            source_type=SourceType.AGENT_INFERENCE,
            confidence=0.7,
        ),
        actor_label="test",
        agent=world.demo_agent,
    )
    assert pending.confirmation is not None
    rule = memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content=f"Release notes are written in English, rule number {n}.",
            scope=Scope(Level.TENANT),
            source_type=SourceType.EXPLICIT_USER_REQUEST,
            type=MemoryType.ORGANIZATION_RULE,
            confidence=0.95,
        ),
        actor_label="test",
        agent=world.demo_agent,
        on_behalf_of="frank",
    )
    assert rule.confirmation is not None  # waits for another admin: carol
    task_id = f"task-{n}"
    make_memory(world.demo, f"Step 2 of {n} is done", user_id="alice", level=Level.TASK, task_id=task_id, **TASK)
    return {
        "session_id": str(_session_in_turn(world, n)),
        "memory_id": str(_memory_in_turn(world, make_memory, n).pk),
        "confirmation_id": str(pending.confirmation.pk),
        "rule_confirmation_id": str(rule.confirmation.pk),
        "task_id": task_id,
    }


def _session_in_turn(world: Any, n: int) -> object:
    """alice's session with a few events and a task state, in turn: active, forked, compacted, or ended."""
    session = session_create(tenant_id=world.demo.pk, user_id="alice", app="chat", actor="test")
    events = [
        NewEvent(kind="user_message", content=f"Help me check the refund for order {n}."),
        NewEvent(kind="state_delta", state_delta={"step": n, "user:lang": "en"}),
        NewEvent(kind="assistant_message", content="The finance lead approved the refund."),
    ]
    appended = session_events_append(tenant_id=world.demo.pk, session_id=session.pk, events=events, actor="test")
    task_state_update(
        tenant_id=world.demo.pk, session_id=session.pk, task_id=f"task-{n}", values={"goal": "refund"}, actor="test"
    )
    if n % 4 == 1:
        fork = session_fork(
            tenant_id=world.demo.pk, session_id=session.pk, from_event_id=appended[0].event.pk, actor="test"
        )
        return fork.pk
    if n % 4 == 2:
        session_compact(tenant_id=world.demo.pk, session_id=session.pk, actor="test")
    if n % 4 == 3:
        session_update(tenant_id=world.demo.pk, session_id=session.pk, change=SessionChange(state="ended"), actor="t")
    return session.pk


def _send(case: schemathesis.Case, principal: Principal) -> int:
    response = case.call_and_validate(headers=principal.headers, cookies=principal.cookies, checks=CHECKS)
    return response.status_code


@schema.parametrize()
# The world (tenants, people, keys) is made once per operation and shared by its cases on purpose:
# each case adds rows of its own, and the test's transaction is rolled back at the end.
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@pytest.mark.usefixtures("keep_test_connection", "demo_data")
def test_no_input_makes_a_server_error(case: schemathesis.Case, world: Any, make_memory: Any) -> None:
    # The agent and the person take turns: the cases are many and varied, the serializers the same.
    person = world.dave if case.operation.path.startswith("/api/v1/audit/") else world.alice
    principal = as_agent(world.demo_key) if next(_turns) % 2 else as_person(person)
    _send(case, principal)
    named = set(case.path_parameters or {}) & set(ROW_IDS)
    if not named:
        return
    rows = _fresh_rows(world, make_memory)
    case.path_parameters = {**case.path_parameters, **{name: rows[name] for name in named}}
    _send(case, principal)
    if "confirmation_id" in named:  # the admin's path: a rule frank proposed, answered by carol
        case.path_parameters = {**case.path_parameters, "confirmation_id": rows["rule_confirmation_id"]}
        _send(case, as_person(world.carol))
    # The other tenant's agent gets nothing of the demo tenant's rows, whatever else the case says.
    # (Other methods, such as OPTIONS, which describes the endpoint, are the coverage phase's probes.)
    status = _send(case, as_agent(world.acme_key))
    if case.method.upper() == case.operation.method.upper():
        assert status in {404, 406}, f"{case.method} {case.formatted_path} as acme: {status}"
