"""The console's people: another admin of demo (frank), acme's admin (gina), and a rule waiting for approval."""

from __future__ import annotations

import pytest

from governance.pipeline.base import Candidate, Scope
from governance.services.tenancy import membership_set, user_create
from governance.vocabulary import Level, MemoryType, Role, SourceType
from memories.models import Memory
from memories.services.write import memory_write

RULE = "All repositories must have a CODEOWNERS file."


@pytest.fixture
def gina(world):
    """acme's tenant admin: an admin, but of another tenant."""
    return membership_set(
        tenant=world.acme, user=user_create(username="gina", password="x"), role=Role.TENANT_ADMIN, actor="t"
    )


@pytest.fixture
def frank(world):
    return membership_set(
        tenant=world.demo, user=user_create(username="frank", password="x"), role=Role.TENANT_ADMIN, actor="t"
    )


@pytest.fixture
def pending_rule(world) -> Memory:
    result = memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content=RULE,
            scope=Scope(Level.TENANT),
            source_type=SourceType.EXPLICIT_USER_REQUEST,
            type=MemoryType.ORGANIZATION_RULE,
        ),
        actor_label="agent:demo-agent",
        agent=world.demo_agent,
        on_behalf_of="carol",
    )
    return result.memory
