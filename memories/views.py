"""The "My memories" pages for the logged-in person."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from memories.access import membership_for_user
from memories.selectors import memory_list_for_subject


@login_required
def my_memories(request: HttpRequest) -> HttpResponse:
    membership = membership_for_user(request.user)
    memories = []
    if membership is not None:
        memories = list(memory_list_for_subject(tenant_id=membership.tenant_id, user_id=membership.subject_id))
    return render(request, "memories/list.html", {"membership": membership, "memories": memories})
