"""Invitations: a person joins a tenant only by accepting, and an admin learns nothing about other tenants.

The cases that matter most are the ones across tenants: acme's admin inviting a demo member, a
username nobody has, and someone answering an invitation that was not addressed to them.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from bad_input import logged_in
from django.test import Client
from django.utils import timezone

from audit.events import Event
from audit.models import AuditEvent
from audit.verify import verify_chain
from governance.models import Invitation, Membership
from governance.services.invitations import invitation_accept, invitation_create
from governance.services.people import PeopleError
from governance.services.tenancy import membership_set, user_create
from governance.vocabulary import Role
from tests.plans import confirmed


@pytest.fixture
def gina(world) -> Membership:
    """acme's tenant admin."""
    return membership_set(
        tenant=world.acme, user=user_create(username="gina", password="x"), role=Role.TENANT_ADMIN, actor="t"
    )


def _invite(client: Client, username: str, **extra: str):
    return client.post("/console/people/invite", {"username": username, "role": "member", **extra})


def _page(response) -> str:
    return response.content.decode()


def test_inviting_any_username_looks_the_same_to_the_admin(world, gina):
    """A free account, another tenant's member and a name nobody has: same answer, same page, no oracle."""
    user_create(username="hank", password="x")
    admin = logged_in(gina.user)
    answers = []
    for username in ("hank", "alice", "nobody-has-this"):
        response = _invite(admin, username)
        flash = re.search(r'<ul class="flash".*?</ul>', _page(admin.get(response["Location"])), re.S)
        answers.append((response.status_code, response["Location"], flash.group().replace(username, "NAME")))
    assert answers[0] == answers[1] == answers[2]
    assert "is invited. They join when they accept" in answers[0][2]
    assert set(Invitation.objects.filter(tenant=world.acme).values_list("username", flat=True)) == {
        "hank",
        "alice",
        "nobody-has-this",
    }
    # Nobody joined anything by being invited.
    assert not Membership.objects.filter(tenant=world.acme, user__username__in=["hank", "alice"]).exists()
    assert list(Membership.objects.filter(user__username="alice").values_list("tenant_id", flat=True)) == [
        world.demo.pk
    ]


def test_the_invited_person_accepts_and_joins_with_the_role_and_subject_id_chosen(world):
    hank = user_create(username="hank", password="x")
    admin = logged_in(world.carol.user)
    assert _invite(admin, "hank", role="compliance_officer", subject_id="emp-0042").status_code == 302

    person = logged_in(hank)
    assert "not a member of any tenant" in _page(person.get("/"))
    page = _page(person.get("/invitations/"))
    assert "Compliance officer" in page and "emp-0042" in page and "carol" in page
    invitation = Invitation.objects.get(username="hank")
    response = person.post(f"/invitations/{invitation.pk}/accept")
    assert response.status_code == 302 and response["Location"] == "/"

    membership = Membership.objects.get(user=hank)
    assert (membership.tenant_id, membership.role, membership.subject_id) == (
        world.demo.pk,
        Role.COMPLIANCE_OFFICER,
        "emp-0042",
    )
    assert hank.has_perm("governance.audit_tenant", world.demo)
    assert person.get("/").status_code == 200  # My memories now
    invitation.refresh_from_db()
    assert invitation.state == Invitation.State.ACCEPTED
    # Answered once: a second answer is refused (404: it is no longer open).
    assert person.post(f"/invitations/{invitation.pk}/accept").status_code == 404
    changes = [
        row.details["change"]
        for row in AuditEvent.objects.filter(tenant=world.demo, event=Event.MEMBERSHIP_CHANGED).order_by("seq")
    ][-3:]
    assert changes == ["invited", "invitation_accepted", "added"]
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_nobody_answers_an_invitation_addressed_to_someone_else(world):
    user_create(username="hank", password="x")
    invitation = invitation_create(tenant=world.demo, username="hank", role="member", subject_id="", acting=world.carol)
    for other in (world.alice.user, world.erin.user, user_create(username="ivan", password="x")):
        client = logged_in(other)
        assert "hank" not in _page(client.get("/invitations/"))
        assert client.post(f"/invitations/{invitation.pk}/accept").status_code == 404
        assert client.post(f"/invitations/{invitation.pk}/decline").status_code == 404
    invitation.refresh_from_db()
    assert invitation.state == Invitation.State.PENDING
    assert not Membership.objects.filter(user__username__in=["ivan"]).exists()
    assert Client().post(f"/invitations/{invitation.pk}/accept").status_code == 302  # to the login page
    invitation.refresh_from_db()
    assert invitation.state == Invitation.State.PENDING


def test_a_member_of_another_tenant_cannot_be_pulled_in_but_can_decline(world, gina):
    """One account, one tenant: acme's invitation to alice waits; accepting it is refused, declining works."""
    invitation = invitation_create(tenant=world.acme, username="alice", role="member", subject_id="", acting=gina)
    alice = logged_in(world.alice.user)
    assert "nav-invitations" in _page(alice.get("/"))
    response = alice.post(f"/invitations/{invitation.pk}/accept", follow=True)
    assert "belongs to another tenant already" in _page(response)
    assert not Membership.objects.filter(tenant=world.acme, user=world.alice.user).exists()
    assert alice.post(f"/invitations/{invitation.pk}/decline").status_code == 302
    invitation.refresh_from_db()
    assert invitation.state == Invitation.State.DECLINED
    assert "nav-invitations" not in _page(alice.get("/"))
    declined = AuditEvent.objects.get(tenant=world.acme, details__change="invitation_declined")
    assert declined.actor == "user:alice"
    assert not AuditEvent.objects.filter(tenant=world.demo, details__change__startswith="invitation").exists()


def test_withdrawn_and_expired_invitations_cannot_be_accepted(world):
    hank = user_create(username="hank", password="x")
    admin = logged_in(world.carol.user)
    withdrawn = invitation_create(tenant=world.demo, username="hank", role="member", subject_id="", acting=world.carol)
    assert confirmed(admin, f"/console/people/invitations/{withdrawn.pk}/withdraw").status_code == 302
    assert logged_in(hank).post(f"/invitations/{withdrawn.pk}/accept").status_code == 404
    with pytest.raises(PeopleError):
        invitation_accept(invitation=withdrawn, user=hank)

    expired = invitation_create(tenant=world.demo, username="hank", role="member", subject_id="", acting=world.carol)
    Invitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert 'data-invited="hank"' not in _page(admin.get("/console/people/"))
    assert logged_in(hank).post(f"/invitations/{expired.pk}/accept").status_code == 404
    with pytest.raises(PeopleError):
        invitation_accept(invitation=expired, user=hank)
    assert not Membership.objects.filter(user=hank).exists()
    # An expired invitation doesn't block a new one.
    assert _invite(admin, "hank").status_code == 302
    assert Invitation.objects.filter(username="hank", state=Invitation.State.PENDING).count() == 1


def test_admins_see_and_withdraw_only_their_own_tenants_invitations(world, gina):
    ours = invitation_create(tenant=world.demo, username="hank", role="member", subject_id="", acting=world.carol)
    theirs = invitation_create(tenant=world.acme, username="ivan", role="member", subject_id="", acting=gina)
    carol = logged_in(world.carol.user)
    page = _page(carol.get("/console/people/"))
    assert 'data-invited="hank"' in page and "ivan" not in page
    assert carol.post(f"/console/people/invitations/{theirs.pk}/withdraw").status_code == 404
    assert logged_in(world.alice.user).post(f"/console/people/invitations/{ours.pk}/withdraw").status_code == 404
    for invitation in (ours, theirs):
        invitation.refresh_from_db()
        assert invitation.state == Invitation.State.PENDING


def test_a_subject_id_taken_since_the_invitation_is_refused_at_acceptance(world):
    hank = user_create(username="hank", password="x")
    invitation = invitation_create(
        tenant=world.demo, username="hank", role="member", subject_id="h-1", acting=world.carol
    )
    # Another invitation can't reserve the same subject id while this one is open…
    with pytest.raises(PeopleError) as refused:
        invitation_create(tenant=world.demo, username="ivan", role="member", subject_id="h-1", acting=world.carol)
    assert refused.value.code == "subject_taken"
    # …but the operator can still add someone with it directly.
    membership_set(
        tenant=world.demo, user=user_create(username="ivan", password="x"), role="member", subject_id="h-1", actor="cli"
    )
    response = logged_in(hank).post(f"/invitations/{invitation.pk}/accept", follow=True)
    assert "has the subject id you were invited with" in _page(response)
    assert not Membership.objects.filter(user=hank).exists()


def test_bad_invitation_requests_are_4xx_and_change_nothing(world):
    hank = user_create(username="hank", password="x")
    invitation = invitation_create(tenant=world.demo, username="hank", role="member", subject_id="", acting=world.carol)
    person, admin = logged_in(hank), logged_in(world.carol.user)
    assert person.get(f"/invitations/{invitation.pk}/accept").status_code == 405
    assert person.post("/invitations/00000000-0000-0000-0000-000000000000/accept").status_code == 404
    assert person.post("/invitations/not-a-uuid/accept").status_code == 404
    assert admin.get(f"/console/people/invitations/{invitation.pk}/withdraw").status_code == 405
    assert admin.post("/console/people/invitations/00000000-0000-0000-0000-000000000000/withdraw").status_code == 404
    invitation.refresh_from_db()
    assert invitation.state == Invitation.State.PENDING
    assert not Membership.objects.filter(user=hank).exists()


@pytest.mark.django_db(transaction=True)
def test_two_tenants_invitations_accepted_at_once_make_one_membership(world, gina):
    """Each accept runs in its own connection at the same moment: exactly one wins, the other is refused."""
    import threading

    from django.db import connection

    hank = user_create(username="hank", password="x")
    invitations = [
        invitation_create(tenant=world.demo, username="hank", role="member", subject_id="", acting=world.carol),
        invitation_create(tenant=world.acme, username="hank", role="member", subject_id="", acting=gina),
    ]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def accept(invitation: Invitation) -> None:
        try:
            barrier.wait(timeout=30)
            invitation_accept(invitation=invitation, user=hank)
            outcomes.append("joined")
        except PeopleError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(invitation,)) for invitation in invitations]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["has_tenant", "joined"]
    assert Membership.objects.filter(user=hank).count() == 1
