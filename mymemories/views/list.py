"""The list: the person's memories grouped as §18.1, with search, filters and sorting, how much is
remembered (per type, and in tokens an agent receives), and the bulk bar's checkboxes."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import get_language
from django.views.decorators.http import require_http_methods

from governance import labels
from memories.access import Caller
from memories.models import Memory
from memories.read.footprint import context_footprint_for_person
from memories.selectors import LIVE_STATUSES, memory_search_for_subject, memory_type_counts_for_subject
from memories.services.integrity import memory_integrity_failures_record
from mymemories.forms import BULK_LIMIT, AddForm, FilterForm
from mymemories.rules import shared_rules_for_person
from mymemories.views._base import person_required

# Cards per group on the overview. Rendering is the cost (a card is ~2 KB of HTML): beyond this a
# group links to its own page, so a long-time user's page stays fast; search and filters reach all.
GROUP_LIMIT = 40


@dataclass
class Group:
    key: str
    title: Promise
    description: Promise
    memories: list[Memory] = field(default_factory=list)
    total: int = 0

    @property
    def more(self) -> int:
        return self.total - len(self.memories)


def group_memories(memories: list[Memory], *, only: str = "", limit: int | None = GROUP_LIMIT) -> list[Group]:
    groups = {key: Group(key, title, description) for key, title, description in labels.GROUPS}
    for memory in memories:
        group = groups[labels.group_of(type=memory.type, level=memory.level)]
        group.total += 1
        if limit is None or len(group.memories) < limit:
            group.memories.append(memory)
    if only:
        return [groups[only]]
    return list(groups.values())


@dataclass(frozen=True)
class TypeCount:
    type: str
    label: Promise
    count: int


def type_counts(person: Caller) -> list[TypeCount]:
    """The person's current memories per type, in the labels' order; types with none are left out."""
    counts = memory_type_counts_for_subject(tenant_id=person.tenant_id, user_id=person.subject_id or "")
    return [TypeCount(code, label, counts[code]) for code, label in labels.TYPE_LABELS.items() if counts.get(code)]


@require_http_methods(["GET", "POST"])
@person_required
def memory_list(request: HttpRequest, person: Caller) -> HttpResponse:
    return list_page(request, person)


def list_page(request: HttpRequest, person: Caller, *, add_form: AddForm | None = None) -> HttpResponse:
    """GET shows everything current; the search form POSTs, so search words never land in a URL.

    Type/status/scope codes (and ``group``, to see one whole group, and ``sort``) may come as GET
    parameters. An unknown one is a 400 that names it, above everything current, rather than silently
    ignored. The sort travels with the search form and the links, so it is kept across both.
    """
    codes = {key: request.GET.get(key, "") for key in ("type", "status", "scope", "group", "sort")}
    searching = request.method == "POST" and add_form is None  # a refused "add" comes back here too
    form = FilterForm(request.POST if searching else codes)
    valid = form.is_valid()
    filters = form.cleaned_data if valid else {}
    status = filters.get("status")
    memories = memory_search_for_subject(
        tenant_id=person.tenant_id,
        user_id=person.subject_id or "",
        text=filters.get("q", ""),
        types=(filters["type"],) if filters.get("type") else (),
        levels=(filters["scope"],) if filters.get("scope") else (),
        statuses=(status,) if status else LIVE_STATUSES,
        order=filters.get("sort") or "changed",
    )
    memory_integrity_failures_record(memories=memories, actor=person.actor)
    only = filters.get("group", "")
    filtered = any(filters.get(key) for key in ("q", "type", "status", "scope"))
    return render(
        request,
        "memories/list.html",
        {
            "form": form,
            "groups": group_memories(memories, only=only, limit=None if only else GROUP_LIMIT),
            "count": len(memories),
            "filtered": filtered,
            "only_group": only,
            "sort": filters.get("sort", ""),
            "bulk_limit": BULK_LIMIT,
            "type_counts": type_counts(person),
            "footprint": context_footprint_for_person(
                caller=person, language="zh" if (get_language() or "").startswith("zh") else "en"
            ),
            # Rules others set that shape this person's answers: listed read-only, on the overview.
            "shared_rules": [] if filtered or only else shared_rules_for_person(membership=person.membership),
            "nav": "list",
            "add_form": add_form or AddForm(prefix="add"),
        },
        status=200 if valid and add_form is None else 400,
    )
