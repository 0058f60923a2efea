"""Finding one session (conversations/selectors/sessions.py ``session_get``) and who may touch it
(conversations/access.py ``session_for_caller``): the tenant always, the subject when a person asks; a
deleted, malformed, other tenant's or other subject's session is not found, and looks the same."""

from __future__ import annotations

import uuid

import pytest
from django.http import Http404
from django.utils import timezone

from conversations.access import session_for_caller
from conversations.models import Session
from conversations.selectors.sessions import session_get
from memories.access import Caller


def person(membership) -> Caller:
    return Caller(tenant_id=membership.tenant_id, actor="test", subject_id=membership.subject_id)


def agent(tenant) -> Caller:
    return Caller(tenant_id=tenant.pk, actor="agent:test")


def test_it_reads_the_session_as_the_orm_does(world, make_session):
    session = make_session(title="Trip to Valparaíso", workspace="w1", dont_save=True)
    found = session_get(tenant_id=world.demo.pk, session_id=session.pk)
    expected = Session.objects.get(pk=session.pk)
    for field in Session._meta.concrete_fields:
        if field.name != "title":
            assert getattr(found, field.attname) == getattr(expected, field.attname), field.name
    assert found.title == "Trip to Valparaíso"
    assert found.created_at.tzinfo is not None and isinstance(found.pk, uuid.UUID)


def test_it_takes_the_id_as_text_or_uuid(world, make_session):
    session = make_session()
    for value in (session.pk, str(session.pk), session.pk.hex):
        assert session_get(tenant_id=world.demo.pk, session_id=value).pk == session.pk


@pytest.mark.parametrize("value", ["", "not-a-uuid", "1; DROP TABLE x", 42, None])
def test_a_malformed_id_is_not_found(world, make_session, value):
    make_session()
    assert session_get(tenant_id=world.demo.pk, session_id=value) is None


def test_it_validates_the_tenant(world, make_session):
    # The same subject id in another tenant is another person: neither sees the other's session.
    theirs = make_session("alice", tenant=world.acme)
    assert session_get(tenant_id=world.demo.pk, session_id=theirs.pk) is None
    assert session_get(tenant_id=world.demo.pk, session_id=theirs.pk, user_id="alice") is None
    assert session_get(tenant_id=world.acme.pk, session_id=theirs.pk, user_id="alice").pk == theirs.pk
    with pytest.raises(Http404):
        session_for_caller(agent(world.demo), theirs.pk)
    with pytest.raises(Http404):
        session_for_caller(person(world.alice), theirs.pk)


def test_it_validates_ownership_when_a_subject_is_given(world, make_session):
    alices = make_session("alice")
    assert session_get(tenant_id=world.demo.pk, session_id=alices.pk, user_id="bob") is None
    assert session_get(tenant_id=world.demo.pk, session_id=alices.pk, user_id="") is None
    assert session_get(tenant_id=world.demo.pk, session_id=alices.pk, user_id="alice").pk == alices.pk
    with pytest.raises(Http404):
        session_for_caller(person(world.bob), alices.pk)
    assert session_for_caller(person(world.alice), alices.pk).pk == alices.pk
    assert session_for_caller(agent(world.demo), alices.pk).pk == alices.pk  # an agent: any subject of its tenant


def test_a_deleted_session_is_not_found(world, make_session):
    session = make_session()
    Session.objects.filter(pk=session.pk).update(deleted_at=timezone.now())
    assert session_get(tenant_id=world.demo.pk, session_id=session.pk) is None
    with pytest.raises(Http404):
        session_for_caller(agent(world.demo), session.pk)
