"""/console/: the admin and compliance console. Admin pages add their paths below the compliance ones."""

from django.urls import path

from console import (
    views_agents,
    views_audit,
    views_metrics,
    views_people,
    views_policy,
    views_projects,
    views_rules,
)

app_name = "console"

urlpatterns = [
    path("", views_audit.console_home, name="home"),
    path("audit/", views_audit.audit_search, name="audit-search"),
    path("audit/<int:seq>/", views_audit.audit_event_detail, name="audit-event"),
    path("audit/export", views_audit.audit_export, name="audit-export"),
    path("subjects/", views_audit.subject_requests, name="subjects"),
    path("subjects/export", views_audit.subject_export_download, name="subject-export"),
    # Tenant admins (governance.administer_tenant): rules, policy, agents and people, metrics.
    path("rules/", views_rules.rule_queue_page, name="rules"),
    path("rules/propose", views_rules.rule_propose_page, name="rule-propose"),
    path("rules/<uuid:memory_id>/", views_rules.rule_detail, name="rule-detail"),
    path("rules/<uuid:memory_id>/approve", views_rules.rule_approve_action, name="rule-approve"),
    path("rules/<uuid:memory_id>/reject", views_rules.rule_reject_action, name="rule-reject"),
    path("rules/<uuid:memory_id>/revoke", views_rules.rule_revoke_action, name="rule-revoke"),
    path("policy/", views_policy.policy_page, name="policy"),
    path("policy/restore", views_policy.policy_restore, name="policy-restore"),
    path("policy/agents/<int:agent_id>", views_policy.agent_rights, name="agent-rights"),
    path("agents/", views_agents.agent_list, name="agents"),
    path("agents/create", views_agents.agent_create, name="agent-create"),
    path("agents/<int:agent_id>/revoke", views_agents.agent_revoke, name="agent-revoke"),
    path("agents/<int:agent_id>/rotate", views_agents.agent_rotate, name="agent-rotate"),
    path("agents/<int:agent_id>/scopes", views_agents.agent_scopes, name="agent-scopes"),
    path("people/", views_people.people, name="people"),
    path("people/invite", views_people.person_invite, name="person-invite"),
    path(
        "people/invitations/<uuid:invitation_id>/withdraw",
        views_people.invitation_withdraw_view,
        name="invitation-withdraw",
    ),
    path("people/<int:membership_id>/role", views_people.person_role, name="person-role"),
    path("teams/create", views_people.team_create_view, name="team-create"),
    path("teams/<int:team_id>/members", views_people.team_member_add_view, name="team-member-add"),
    path(
        "teams/<int:team_id>/members/<int:membership_id>/remove",
        views_people.team_member_remove_view,
        name="team-member-remove",
    ),
    path("projects/", views_projects.projects_page, name="projects"),
    path("projects/create", views_projects.project_create_view, name="project-create"),
    path("projects/<int:project_id>/members", views_projects.project_member_add_view, name="project-member-add"),
    path(
        "projects/<int:project_id>/members/<int:membership_id>/remove",
        views_projects.project_member_remove_view,
        name="project-member-remove",
    ),
    path("metrics/", views_metrics.metrics_page, name="metrics"),
]
