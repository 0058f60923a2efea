"""subject_export: everything held about one subject — and nothing about anyone else — audited."""

from __future__ import annotations

import json

from audit.models import AuditEvent
from governance.vocabulary import Level
from memories.services.export import subject_export
from memories.services.records import memory_delete, memory_update
from memories.services.subjects import session_opt_out, subject_set_paused


def test_it_exports_memories_versions_settings_and_audit_events(world, make_memory):
    pref = make_memory(world.demo, "Prefers tables", user_id="alice")
    memory_update(memory=pref, actor="user:alice", content="Prefers bullet lists")
    gone = make_memory(world.demo, "Old note", user_id="alice", level=Level.SESSION, session_id="s1")
    memory_delete(memory=gone, actor="user:alice")
    make_memory(world.demo, "Bob's note", user_id="bob")
    make_memory(world.acme, "Acme's alice", user_id="alice")
    subject_set_paused(tenant_id=world.demo.pk, user_id="alice", paused=True, actor="user:alice")
    session_opt_out(tenant_id=world.demo.pk, user_id="alice", session_id="s2", actor="user:alice")

    document = subject_export(tenant_id=world.demo.pk, user_id="alice", actor="console:carol")

    json.dumps(document)  # serializable as it is
    assert document["settings"] == {"memory_paused": True, "sessions_not_saved": ["s2"]}
    by_id = {m["id"]: m for m in document["memories"]}
    assert set(by_id) == {str(pref.id), str(gone.id)}  # deleted but not yet purged: still held, so exported
    assert [v["content"] for v in by_id[str(pref.id)]["versions"]] == ["Prefers tables", "Prefers bullet lists"]
    assert by_id[str(gone.id)]["status"] == "deleted"
    events = document["audit_events"]
    assert {"subject_paused", "session_opted_out", "memory_updated", "memory_deleted"} <= {e["event"] for e in events}
    assert all(e["subject_id"] == "alice" for e in events)
    text = json.dumps(document)
    assert "Bob's note" not in text and "Acme's alice" not in text
    exported = AuditEvent.objects.get(event="subject_exported")
    assert (exported.tenant_id, exported.subject_id, exported.actor) == (world.demo.pk, "alice", "console:carol")
    assert exported.details == {"memories": 2, "audit_events": len(events)}
