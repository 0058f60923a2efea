"""The "My memories" list: only the person's own memories, grouped as §18.1, searchable, escaped, translated."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.test import Client

from governance.vocabulary import Level


def _ids(page: str) -> set[str]:
    return set(re.findall(r'data-memory-id="([0-9a-f-]+)"', page))


def test_it_requires_login(client, world):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_it_shows_only_my_memories_not_my_teammates_nor_the_other_tenants(client, world, make_memory):
    mine = make_memory(world.demo, "Alice likes tables", user_id="alice")
    make_memory(world.demo, "Bob likes TL;DR", user_id="bob")
    make_memory(world.acme, "An acme subject also called alice", user_id="alice")
    client.force_login(world.alice.user)
    page = client.get("/").content.decode()
    assert _ids(page) == {str(mine.id)}
    assert "Bob likes TL;DR" not in page and "acme subject" not in page
    client.force_login(world.erin.user)
    assert _ids(client.get("/").content.decode()) == set()  # erin's subject id is "erin"


def test_memories_are_grouped_as_the_seed_shows(client, world, make_memory):
    pref = make_memory(world.demo, "Answers in Chinese", user_id="alice")
    profile = make_memory(world.demo, "Backend engineer", user_id="alice", type="user_profile")
    rule = make_memory(
        world.demo, "Update the changelog", user_id="alice", type="project_rule", level=Level.PROJECT, project="docs"
    )
    task = make_memory(
        world.demo, "Writing the wiki page", user_id="alice", type="task_state", level=Level.TASK, task_id="t1"
    )
    client.force_login(world.alice.user)
    page = client.get("/").content.decode()
    sections = {
        key: _ids(chunk)
        for key, chunk in re.findall(r'aria-labelledby="g-(\w+)" data-group>(.*?)</section>', page, flags=re.S)
    }
    assert sections == {
        "preferences": {str(pref.id)},
        "profile": {str(profile.id)},
        "projects": {str(rule.id)},
        "temporary": {str(task.id)},
    }


def test_each_memory_says_why_when_where_from_status_and_expiry(client, world, make_memory):
    memory = make_memory(world.demo, "Prefers dark mode", user_id="alice")
    memory.reason_code, memory.source_message_id, memory.agent = "explicit_request", "msg-42", world.demo_agent
    memory.save(update_fields=["reason_code", "source_message_id", "agent"])
    client.force_login(world.alice.user)
    page = client.get("/").content.decode()
    for text in ("You asked for this to be remembered.", "via demo-agent", "msg-42", "In use", "Never — you decide"):
        assert text in page


def test_memory_content_is_escaped(client, world, make_memory):
    make_memory(world.demo, "<script>alert(1)</script>", user_id="alice")
    client.force_login(world.alice.user)
    page = client.get("/").content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_search_posts_decrypts_and_matches_normalized_text(client, world, make_memory):
    tables = make_memory(world.demo, "Prefers Markdown TABLES", user_id="alice")
    make_memory(world.demo, "Likes short answers", user_id="alice")
    make_memory(world.demo, "Bob prefers markdown tables too", user_id="bob")
    client.force_login(world.alice.user)
    page = client.post("/", {"q": "markdown tables"}).content.decode()
    assert _ids(page) == {str(tables.id)}
    # Search words never go in a URL: a GET "q" is ignored.
    assert len(_ids(client.get("/?q=markdown").content.decode())) == 2


def test_it_filters_by_type_status_and_scope(client, world, make_memory):
    pref = make_memory(world.demo, "Pref", user_id="alice")
    profile = make_memory(world.demo, "Profile", user_id="alice", type="user_profile")
    session = make_memory(
        world.demo, "Session note", user_id="alice", type="temporary_context", level=Level.SESSION, session_id="s1"
    )
    from memories.services.records import memory_pause

    memory_pause(memory=profile, actor="test")
    client.force_login(world.alice.user)
    assert _ids(client.get("/?type=user_profile").content.decode()) == {str(profile.id)}
    assert _ids(client.get("/?status=paused").content.decode()) == {str(profile.id)}
    assert _ids(client.get("/?scope=session").content.decode()) == {str(session.id)}
    assert _ids(client.post("/", {"status": "active", "scope": "user"}).content.decode()) == {str(pref.id)}
    # An unknown code is a 400 that names it, not a 500; the page still renders everything below it.
    unknown = client.get("/?type=nonsense")
    assert unknown.status_code == 400 and 'data-testid="filter-errors"' in unknown.content.decode()
    assert _ids(unknown.content.decode()) == {str(pref.id), str(profile.id), str(session.id)}


def test_deleted_memories_are_not_listed_even_when_asked_for(client, world, make_memory):
    from memories.services.records import memory_delete

    memory_delete(memory=make_memory(world.demo, "Gone", user_id="alice"), actor="test")
    client.force_login(world.alice.user)
    assert "Gone" not in client.get("/").content.decode()
    assert "Gone" not in client.get("/?status=deleted").content.decode()


def test_the_page_is_translated_to_chinese(world, make_memory):
    make_memory(world.demo, "Prefers tables", user_id="alice")
    client = Client(headers={"accept-language": "zh-hans"})
    client.force_login(world.alice.user)
    page = client.get("/").content.decode()
    assert '<html lang="zh-hans">' in page
    for text in ("我的记忆", "偏好", "个人资料", "项目与规则", "当前任务与临时记忆", "待确认", "使用中"):
        assert text in page


def test_the_language_switch_sets_the_language(world):
    client = Client()
    client.force_login(world.alice.user)
    response = client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
    assert response.status_code == 302
    assert "我的记忆" in client.get("/").content.decode()


def test_a_person_without_membership_sees_a_clear_page(client, db):
    user = get_user_model().objects.create_user("nomember", password="x-password-1")
    client.force_login(user)
    response = client.get("/")
    assert response.status_code == 403
    assert "not a member" in response.content.decode()


def test_pages_send_a_strict_content_security_policy_and_no_inline_script(client, world, make_memory):
    make_memory(world.demo, "Anything", user_id="alice")
    client.force_login(world.alice.user)
    response = client.get("/")
    assert "script-src 'self'" in response["Content-Security-Policy"]
    page = response.content.decode()
    assert re.search(r"<script(?![^>]*\bsrc=)", page) is None
    assert " style=" not in page and "<style" not in page


def test_a_long_group_is_capped_and_links_to_all_of_it(client, world, make_memory):
    from mymemories.views.list import GROUP_LIMIT

    for number in range(GROUP_LIMIT + 3):
        make_memory(world.demo, f"Preference number {number}", user_id="alice")
    profile = make_memory(world.demo, "Backend engineer", user_id="alice", type="user_profile")
    client.force_login(world.alice.user)
    page = client.get("/").content.decode()
    assert len(_ids(page)) == GROUP_LIMIT + 1 and str(profile.id) in _ids(page)
    assert f"Show all {GROUP_LIMIT + 3}" in page and "?group=preferences" in page
    whole = client.get("/?group=preferences").content.decode()
    assert len(_ids(whole)) == GROUP_LIMIT + 3 and str(profile.id) not in _ids(whole)
    assert len(_ids(client.get("/?group=nonsense").content.decode())) == GROUP_LIMIT + 1


# --- Sorting ----------------------------------------------------------------------------------------


def _order(page: str) -> list[str]:
    return re.findall(r'<article class="memory[^"]*" id="m-[0-9a-f-]+" data-memory-id="([0-9a-f-]+)"', page)


def _aged(world, make_memory):
    """Three preferences: a created first and changed last, b used last, c created last and never used."""
    from datetime import timedelta

    from django.utils import timezone

    from memories.models import Memory

    now = timezone.now()
    a, b, c = (make_memory(world.demo, f"Preference {n}", user_id="alice") for n in "abc")
    for memory, created, updated, used in (
        (a, 30, 1, 20),
        (b, 20, 10, 2),
        (c, 10, 5, None),
    ):
        Memory.objects.filter(pk=memory.pk).update(
            created_at=now - timedelta(days=created),
            updated_at=now - timedelta(days=updated),
            last_used_at=None if used is None else now - timedelta(days=used),
        )
    return [str(m.pk) for m in (a, b, c)]


def test_it_sorts_by_last_changed_created_or_last_used(client, world, make_memory):
    a, b, c = _aged(world, make_memory)
    client.force_login(world.alice.user)
    assert _order(client.get("/").content.decode()) == [a, c, b]  # the default: last changed
    assert _order(client.get("/?sort=changed").content.decode()) == [a, c, b]
    assert _order(client.get("/?sort=created").content.decode()) == [c, b, a]
    assert _order(client.get("/?sort=used").content.decode()) == [b, a, c]  # never used: last
    assert _order(client.post("/", {"q": "preference", "sort": "used"}).content.decode()) == [b, a, c]


def test_the_sort_is_kept_across_search_filters_and_links(client, world, make_memory):
    _aged(world, make_memory)
    client.force_login(world.alice.user)
    page = client.post("/", {"q": "preference", "sort": "created"}).content.decode()
    assert '<option value="created" selected>' in page
    assert 'href="/?sort=created">' in page  # "Clear" keeps the order
    page = client.get("/?type=user_preference&sort=used").content.decode()
    assert '<option value="used" selected>' in page and '<input type="hidden" name="sort" value="used">' in page


# --- How much is remembered -------------------------------------------------------------------------


def test_it_counts_my_memories_per_type_and_no_one_elses(client, world, make_memory):
    for n in range(3):
        make_memory(world.demo, f"Pref {n}", user_id="alice")
    make_memory(world.demo, "Backend engineer", user_id="alice", type="user_profile")
    make_memory(world.demo, "Bob's", user_id="bob", type="constraint")
    make_memory(world.acme, "Acme alice", user_id="alice", type="correction")
    client.force_login(world.alice.user)
    page = client.get("/").content.decode()
    counts = dict(re.findall(r'data-type="(\w+)">[^<]*<strong data-count>(\d+)</strong>', page))
    assert counts == {"user_preference": "3", "user_profile": "1"}
    client.force_login(world.bob.user)
    bobs = dict(
        re.findall(r'data-type="(\w+)">[^<]*<strong data-count>(\d+)</strong>', client.get("/").content.decode())
    )
    assert bobs == {"constraint": "1"}


def test_the_token_cost_is_the_agents_read_and_viewing_it_records_nothing(client, world, make_memory):
    from audit.models import AuditEvent
    from memories.access import Caller
    from memories.read.context import ContextRequest, memory_context_build
    from memories.read.scope import ContextScope

    for n in range(10):
        make_memory(world.demo, f"Preference {n}: tables, short summaries and Chinese headings", user_id="alice")
    client.force_login(world.alice.user)
    events = AuditEvent.objects.count()
    page = client.get("/").content.decode()
    assert AuditEvent.objects.count() == events
    agent = Caller(tenant_id=world.demo.pk, actor="agent:demo-agent", agent=world.demo_agent)
    read = memory_context_build(
        caller=agent, request=ContextRequest(scope=ContextScope(user_id="alice"), language="en")
    )
    cost = re.search(r'data-testid="token-cost">([^<]*)<', page).group(1)
    assert cost.startswith(f"{len(read.items)} memories, {read.token_count} tokens (of a 1200-token budget)")
