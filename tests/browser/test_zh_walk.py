"""Every page in Chinese, as the people who use them: nothing a person reads is a raw code (a role, event,
source type, scope, status, decision or reason code) or an English-only label. Content (memory text, ids,
usernames, code samples, marked ``code``/``data-content``) is what it is; everything around it is
translated. The same pages in English show no raw code either."""

from __future__ import annotations

import re

import pytest
from my_memories_data import agent_session, agent_write, seed_alice  # tests/browser/, on sys.path under pytest
from playwright.sync_api import Page, expect

from audit.events import Event
from audit.models import AuditEvent
from governance import labels
from governance.pipeline.reasons import ReasonCode
from governance.vocabulary import DecisionKind, Level, MemoryType, Role, SourceType, Status
from memories.services.rules import rule_propose

pytestmark = pytest.mark.browser

# Codes that must never reach a person as they are (a word like "user" or "active" is caught as English).
CODES = {
    *(str(c) for c in Role), *(str(c) for c in Event), *(str(c) for c in SourceType), *(str(c) for c in MemoryType),
    *(str(c) for c in Status), *(str(c) for c in DecisionKind), *(str(c) for c in ReasonCode),
    *labels.AUDIT_REASON_LABELS,
}  # fmt: skip
CODES = {code for code in CODES if "_" in code}  # one-word codes ("save", "user") are English words, caught below

# Words that stay as they are in Chinese: the brand, the other language's name, formats, and the test's data.
ALLOWED = {
    "memgov", "English", "JSON", "JSONL", "CSV", "UTC", "ID", "API", "ISO", "Markdown", "SVG", "TTL", "Bearer",
    "alice", "bob", "carol", "dave", "erin", "frank", "demo", "acme", "agent", "Authorization", "MCP", "SDK", "LLM",
    "ai-platform", "demo-agent", "chat", "AI", "Wiki", "curl", "Prometheus", "HTTP", "URL", "OK", "PII",
    "Ed25519", "SHA", "PEM", "jsonl", "csv", "json",
}  # fmt: skip

# Text nodes and labels a person reads, outside content: code, ids, memory text, the language switch.
COLLECT = """
() => {
  const skip = "code, pre, kbd, samp, script, style, textarea, [data-content], [data-code], .memory__content," +
               " [lang=en], .lang-switch, time, .examples, .timeline__content";
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || el.closest(skip)) continue;
    const style = getComputedStyle(el);
    if (style.display === "none" && !el.closest(".visually-hidden")) continue;
    const text = node.textContent.trim();
    if (text) out.push(text);
  }
  document.querySelectorAll("[placeholder], [aria-label], [title], option, input[type=submit]").forEach(el => {
    if (el.closest(skip)) return;
    for (const attr of ["placeholder", "aria-label", "title"]) {
      const value = el.getAttribute(attr);
      if (value) out.push(value);
    }
    if (el.tagName === "OPTION") out.push(el.textContent.trim());
  });
  return out;
}
"""
WORD = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z_'-]*[A-Za-z](?![\w-])")
CJK = re.compile(r"[\u3400-\u9fff]")


def problems(texts: list[str], *, chinese: bool) -> list[str]:
    found = []
    for text in texts:
        for code in CODES:
            if re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text):
                found.append(f"raw code {code!r} in {text!r}")
        if chinese and not CJK.search(text):
            words = [w for w in WORD.findall(text) if w not in ALLOWED and not w.startswith(("msg-", "sess-", "task-"))]
            if words:
                found.append(f"English-only {text!r}")
    return found


def walk(page: Page, paths: list[str], *, chinese: bool) -> list[str]:
    found = []
    for path in paths:
        response = page.goto(path)
        assert response is not None and response.status < 500, path
        found += [f"{path}: {problem}" for problem in problems(page.evaluate(COLLECT), chinese=chinese)]
    return found


def scene(page, live_server, world) -> dict[str, str]:
    """Something on every page: memories, a pending confirmation, a session, a rule waiting, audit events."""
    memories = seed_alice(world)
    agent_write(page, live_server, world.demo_key, "Prefers answers that start with a one-line summary.",
                source={"source_type": "agent_inference", "source_message_id": "msg-314"}, confidence=0.8)  # fmt: skip
    session = agent_session(page, live_server, world.demo_key, title="Offsite plan", messages=["Plan it", "Sure"])
    rule = rule_propose(tenant_id=world.demo.pk, proposer=world.carol, content="Commit messages are in English.",
                        type=MemoryType.ORGANIZATION_RULE, level=Level.TENANT)  # fmt: skip
    seq = AuditEvent.objects.filter(tenant=world.demo).order_by("-seq").values_list("seq", flat=True).first()
    return {"memory": str(memories[0].pk), "session": session["id"], "rule": str(rule.memory.pk), "seq": str(seq)}


def pages_of(ids: dict[str, str]) -> dict[str, list[str]]:
    return {
        "alice": [
            "/", "/inbox/", "/commands/", "/preview/", "/deleted/", "/controls/", "/agents/", "/data/", "/data/erase",
            "/invitations/", f"/memories/{ids['memory']}/edit", f"/memories/{ids['memory']}/delete",
            f"/memories/{ids['memory']}/history", f"/sessions/{ids['session']}/", f"/sessions/{ids['session']}/delete",
            "/no-such-page/",
        ],
        "carol": [
            "/console/", "/console/rules/", f"/console/rules/{ids['rule']}/", "/console/rules/propose",
            "/console/policy/", "/console/agents/", "/console/people/", "/console/projects/", "/console/metrics/",
        ],
        "dave": [
            "/console/", "/console/audit/", f"/console/audit/{ids['seq']}/", "/console/audit/export",
            "/console/subjects/?subject=alice",
        ],
    }  # fmt: skip


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_reads_as_labels(page, login, live_server, world, lang):
    ids = scene(page, live_server, world)
    found = []
    for person, paths in pages_of(ids).items():
        login(page, person)
        if lang == "zh":
            page.get_by_role("button", name="简体中文").click()
            expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
        found += walk(page, paths, chinese=lang == "zh")
        page.context.clear_cookies()
    page.goto("/accounts/login/")
    if lang == "zh":
        page.get_by_role("button", name="简体中文").click()
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    found += walk(page, ["/accounts/login/"], chinese=lang == "zh")
    assert not found, "\n".join(found)


def test_the_check_catches_a_raw_code_and_an_english_label():
    """The check itself: a code, and an English-only label in the Chinese UI, are both reported."""
    assert problems(["角色：tenant_admin"], chinese=True)
    assert problems(["Save changes"], chinese=True)
    assert not problems(["保存 alice 的 JSON"], chinese=True)
    assert problems(["Role: tenant_admin"], chinese=False)
