"""The demo end to end: alice's open weekly-report session, ended through the API with the demo agent's
key, becomes governed memories on the next extract run — an explicit one saved, an inference waiting for
her confirmation — and her "My memories" page says where each was learned."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from conversations.models import Session
from demo.sessions import WEEKLY_TITLE
from governance.models import Membership
from governance.vocabulary import SourceType, Status
from memories.models import Memory, MemorySource


@pytest.mark.django_db
def test_ending_the_demo_session_yields_memories_alice_sees_with_their_provenance(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    out = StringIO()
    call_command("seed_demo", stdout=out)
    key = next(line.rsplit(" ", 1)[-1] for line in out.getvalue().splitlines() if "tenant demo:" in line)
    weekly = next(s for s in Session.objects.filter(user_id="alice") if s.title == WEEKLY_TITLE)
    agent = APIClient()
    agent.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert agent.patch(f"/api/v1/sessions/{weekly.pk}", {"state": "ended"}, format="json").status_code == 200
    call_command("run_lifecycle", "--job", "extract", "--tenant", "demo", stdout=StringIO())
    learned = Memory.objects.filter(sources__session_id=str(weekly.pk))
    explicit = learned.get(source_type=SourceType.EXPLICIT_USER_REQUEST)
    assert explicit.status == Status.ACTIVE and "conclusion" in explicit.content
    inference = learned.get(source_type=SourceType.AGENT_INFERENCE)
    assert inference.status == Status.PENDING_CONFIRMATION and inference.confirmation.confirm_by == "user"
    assert MemorySource.objects.filter(session_id=str(weekly.pk)).count() == 2
    browser = Client()
    browser.force_login(Membership.objects.get(tenant__slug="demo", user__username="alice").user)
    page = browser.get("/").content.decode()
    assert f'data-provenance="{weekly.pk}"' in page and "learned from your conversation on" in page
    inbox = browser.get("/inbox/").content.decode()
    assert "要点" in inbox
