"""The console's sections: one list, filtered by what the person's permissions allow.

Admin pages add their entries here (with ADMIN_PERM); the landing page and the console's own menu
both read this list, so a section appears for exactly the people who may open it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from console.access import ADMIN_PERM, AUDIT_PERM, ConsoleAccess


@dataclass(frozen=True)
class ConsoleSection:
    url_name: str
    label: str | Promise
    description: str | Promise
    perm: str
    nav_key: str


COMPLIANCE_SECTIONS: list[ConsoleSection] = [
    ConsoleSection(
        "console:audit-search",
        _("Audit log"),
        _("Search every recorded event by kind, actor, memory, subject and time. Read-only."),
        AUDIT_PERM,
        "audit",
    ),
    ConsoleSection(
        "console:audit-export",
        _("Export and verify"),
        _("Download the audit log for a time range as JSONL or CSV with a signed manifest, and check it offline."),
        AUDIT_PERM,
        "export",
    ),
    ConsoleSection(
        "console:subjects",
        _("Subject requests"),
        _("Export everything held about one person, and see erasure receipts."),
        AUDIT_PERM,
        "subjects",
    ),
]

ADMIN_SECTIONS: list[ConsoleSection] = [
    ConsoleSection(
        "console:rules",
        _("Rule approvals"),
        _("Approve or reject proposed shared rules (four eyes; two approvals when high risk), revoke rules in force."),
        ADMIN_PERM,
        "rules",
    ),
    ConsoleSection(
        "console:policy",
        _("Policy"),
        _("Retention, confirmation and alert thresholds, as versions you can restore; what each agent key may write."),
        ADMIN_PERM,
        "policy",
    ),
    ConsoleSection(
        "console:agents",
        _("Agent keys"),
        _("Create, rotate and revoke the keys agents call memgov with."),
        ADMIN_PERM,
        "agents",
    ),
    ConsoleSection(
        "console:people",
        _("People and teams"),
        _("Roles, team membership and owners."),
        ADMIN_PERM,
        "people",
    ),
    ConsoleSection(
        "console:projects",
        _("Projects"),
        _("Who is in each project: only its members are given the project's approved rules."),
        ADMIN_PERM,
        "projects",
    ),
    ConsoleSection(
        "console:metrics",
        _("Metrics and alerts"),
        _("Writes, rejections, sensitive detections, conflicts, cross-scope reads, stale uses, context size."),
        ADMIN_PERM,
        "metrics",
    ),
]

GROUPS = ((_("Compliance"), COMPLIANCE_SECTIONS), (_("Administration"), ADMIN_SECTIONS))


def console_sections_for(access: ConsoleAccess) -> list[tuple[str | Promise, list[ConsoleSection]]]:
    """The groups of sections this person may open, each with at least one section."""
    groups = []
    for title, sections in GROUPS:
        allowed = [section for section in sections if section.perm in access.perms]
        if allowed:
            groups.append((title, allowed))
    return groups


def console_render(
    request: HttpRequest, access: ConsoleAccess, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """A console page: ``context`` plus what every console page's menu needs."""
    context = {"access": access, "sections": console_sections_for(access), "nav": "console", **context}
    return render(request, template, context, status=status)
