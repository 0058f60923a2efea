"""memory_edit: a person's edit passes the same sensitivity rules as an agent's write."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from governance.pipeline.base import Scope
from governance.vocabulary import Level
from memories.services.edits import EditRefused, memory_edit
from memories.services.records import NewMemory


def test_an_ordinary_edit_is_a_new_version_with_the_new_sensitivity(world, make_memory):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    memory = memory_edit(memory=memory, actor="user:alice", content="Works as a backend engineer on dispatch-docs")
    assert (memory.version, memory.sensitivity) == (2, "medium")


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ("my password is Hunter2-Secret!", "restricted_data"),
        ("身份证号 11010519491231002X", "restricted_data"),
        ("My bank account balance is 3000 dollars", "too_sensitive_for_long_term"),
    ],
)
def test_it_refuses_what_the_pipeline_would_refuse_long_term(world, make_memory, content, code):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    with pytest.raises(EditRefused) as refused:
        memory_edit(memory=memory, actor="user:alice", content=content)
    assert refused.value.code == code and content not in str(refused.value)
    memory.refresh_from_db()
    assert (memory.content, memory.version) == ("Prefers tables", 1)
    event = AuditEvent.objects.get(event="memory_write_rejected", memory_id=memory.id)
    assert event.reason_code == code and event.details == {"change": "edit"}


def test_high_sensitivity_is_allowed_in_a_session(world, make_memory):
    memory = make_memory(
        world.demo, "Budget talk", user_id="alice", type="temporary_context", level=Level.SESSION, session_id="s1"
    )
    memory = memory_edit(memory=memory, actor="user:alice", content="My bank account balance is 3000 dollars")
    assert (memory.version, memory.sensitivity) == (2, "high")


@pytest.mark.parametrize(
    ("field", "value"), [("type", "episodic"), ("source_type", "rumour"), ("status", "archived-ish")]
)
def test_a_record_of_an_unknown_type_source_or_status_is_refused(field, value):
    fields = {"type": "user_preference", "source_type": "explicit_user_request", field: value}
    with pytest.raises(ValueError, match=field):
        NewMemory(scope=Scope(Level.USER, user_id="alice"), content="Prefers tea", **fields)
