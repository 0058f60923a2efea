"""Recently deleted: during the purge grace a person sees what they deleted and may bring it back.

Agents never see a deleted memory (memories/access.py); only its owner does, here.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from governance.policy import policy_snapshot_for_tenant
from governance.vocabulary import Status
from memories.access import Caller, memory_for_caller
from memories.selectors import memory_list_recently_deleted
from memories.services.records import MemoryStateError, memory_restore
from mymemories.views._base import person_required


@require_safe
@person_required
def deleted_view(request: HttpRequest, person: Caller) -> HttpResponse:
    grace = timedelta(days=policy_snapshot_for_tenant(tenant_id=person.tenant_id).purge_grace_days)
    memories = memory_list_recently_deleted(tenant_id=person.tenant_id, user_id=person.subject_id or "")
    rows = [{"memory": memory, "purge_after": memory.updated_at + grace} for memory in memories]
    return render(request, "memories/deleted.html", {"rows": rows, "nav": "deleted"})


@require_POST
@person_required
def memory_restore_view(request: HttpRequest, person: Caller, memory_id: str) -> HttpResponse:
    memory = memory_for_caller(person, memory_id)
    if memory.status != Status.DELETED:
        raise Http404("no such deleted memory")
    try:
        memory_restore(memory=memory, actor=person.actor)
    except MemoryStateError:
        messages.error(request, _("This memory can't be restored."))
    else:
        messages.success(request, _("Restored. Agents may use this memory again."))
    return redirect("memory-deleted")
