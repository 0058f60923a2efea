"""Seeding and timing for ``manage.py bench_read``: the read path at scale, beside LangGraph's SqliteStore.

Rows are made the way the service makes them — each subject's content sealed with that subject's data
key (``data_key_for``, AES-GCM ``seal`` with the row's associated data), a keyed fingerprint and the
comparison index's tags (``memories.aspect_index``) — but inserted with ``executemany`` in batches
(Django's field preparation, no model instances), without versions or audit rows, so a million rows
seed in minutes instead of hours. The same records
(plaintext, same ids) go into a LangGraph ``SqliteStore`` under the namespace ``(tenant, user_id)``, so
both sides answer for the same subject over the same data.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import random
import time
import timeit
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from dbkit.ids import new_id
from governance.models import AgentClient, Membership, Project, Tenant
from governance.pipeline.lexicons.conflict import AspectValues
from governance.pipeline.normalize import normalize_content
from governance.services.projects import project_create, project_member_add
from governance.services.tenancy import agent_key_create, membership_set, tenant_create, user_create
from governance.vocabulary import Level, MemoryType, SourceType, Status
from memories import aspect_index
from memories.models import Confirmation, Memory, MemoryEmbedding, MemoryVersion
from vault.datakeys import data_key_for, fingerprint_key
from vault.envelope import associated_data, seal

BENCH_TENANTS = ("bench-a", "bench-b")
BENCH_AGENT = "bench-agent"
PROJECTS = ("dispatch-docs", "ai-wiki", "billing", "search", "mobile")
SESSIONS = ("s0", "s1", "s2")

_EN = (
    "Prefers {fmt} answers with {extra}",
    "Works on the {project} project using {tech}",
    "Avoid {thing} in replies about {topic}",
    "Uses {tech} for {topic} and wants {fmt} summaries",
    "Deploys {project} with {tech} every {day}",
    "Review checklist for {topic}: run the tests, update the changelog, then deploy",
    "Likes {topic} examples in {tech}",
)
_ZH = (
    "偏好{zfmt}的回答，{zextra}",
    "常用项目：{project}，技术栈：{tech}",
    "回答{ztopic}相关问题时不要{zthing}",
    "希望{ztopic}的说明附带检查清单",
    "{project} 的部署步骤：先跑测试，再更新 changelog，最后发布",
    "用中文回答，分步骤，尽量给{zextra}",
)
_WORDS = {
    "fmt": ("short", "detailed", "bullet-point", "table-based", "step-by-step", "concise"),
    "extra": ("code samples", "a checklist", "links to docs", "diagrams", "examples"),
    "tech": ("kubernetes", "django", "postgres", "redis", "react", "terraform", "celery"),
    "thing": ("emoji", "jargon", "long preambles", "marketing language", "apologies"),
    "topic": ("deployment", "incident reviews", "billing", "search ranking", "onboarding", "security"),
    "day": ("monday", "friday", "sprint", "release"),
    "zfmt": ("简短", "详细", "分步骤", "表格形式", "要点式"),
    "zextra": ("代码示例", "检查清单", "参考链接", "流程图"),
    "ztopic": ("部署", "事故复盘", "计费", "搜索排序", "入职", "安全"),
    "zthing": ("使用表情符号", "堆砌术语", "长篇开场白", "营销话术"),
}
_TYPES = (
    MemoryType.USER_PREFERENCE,
    MemoryType.USER_PREFERENCE,
    MemoryType.USER_PROFILE,
    MemoryType.CONSTRAINT,
    MemoryType.CORRECTION,
)
_SOURCES = (
    SourceType.EXPLICIT_USER_REQUEST,
    SourceType.EXPLICIT_USER_CONFIRMATION,
    SourceType.USER_STATEMENT,
    SourceType.AGENT_INFERENCE,
)
QUERIES = (
    "how should I deploy the dispatch-docs project with kubernetes",
    "请用中文简短说明部署步骤和检查清单",
    "summarize the incident review for billing in a table",
    "搜索排序的安全注意事项有哪些",
)


def user_id_for(index: int) -> str:
    return f"u{index:05d}"


@dataclass(frozen=True)
class Record:
    """One seeded memory as both stores get it: the row's values (by attname) and the plaintext."""

    tenant_slug: str
    namespace_user: str
    values: dict[str, Any]
    content: str


def _content(rng: random.Random) -> str:
    template = rng.choice(_EN if rng.random() < 0.5 else _ZH)
    fields = {name: rng.choice(values) for name, values in _WORDS.items()}
    return template.format(project=rng.choice(PROJECTS), **fields)


def _fingerprint(key: bytes, content: str) -> str:
    # content_fingerprint(), with the tenant's HMAC key looked up once per subject rather than per row.
    return hmac.new(key, normalize_content(content).encode("utf-8"), hashlib.sha256).hexdigest()


@lru_cache(maxsize=4096)
def _parsed(content: str) -> Mapping[str, AspectValues]:
    return aspect_index.parsed(content)  # bench texts repeat: each parsed once


def _values(
    tenant: Tenant,
    *,
    user_id: str,
    content: str,
    rng: random.Random,
    key: tuple[int, bytes],
    fingerprint: bytes,
    now: Any,
    **fields: Any,
) -> dict[str, Any]:
    memory_id = new_id()
    aad = associated_data(
        model=Memory._meta.label_lower, tenant_id=tenant.pk, record_id=str(memory_id), field="content"
    )
    fingerprint_hex = _fingerprint(fingerprint, content)
    return {
        "id": memory_id,
        "tenant_id": tenant.pk,
        "user_id": user_id,
        "content": seal(content, key_id=key[0], key=key[1], aad=aad),
        "fingerprint": fingerprint_hex,
        **aspect_index.index_fields(
            tenant_id=tenant.pk, owner=user_id, fingerprint=fingerprint_hex, found=_parsed(content)
        ),
        "confidence": round(rng.uniform(0.5, 1.0), 2),
        "created_by": "bench",
        "created_at": now,
        "updated_at": now,
        **fields,
    }


def _user_rows(tenant: Tenant, index: int, per_user: int, now: Any) -> Iterator[Record]:
    rng = random.Random(index)  # noqa: S311 — reproducible bench text, not a secret
    user_id = user_id_for(index)
    key = data_key_for(tenant_id=tenant.pk, owner=user_id)
    fingerprint = fingerprint_key(tenant_id=tenant.pk)
    for _ in range(per_user):
        roll = rng.random()
        fields: dict[str, Any] = {"level": Level.USER, "type": rng.choice(_TYPES), "source_type": rng.choice(_SOURCES)}
        if roll < 0.10:
            fields.update(level=Level.PROJECT, project=rng.choice(PROJECTS), type=MemoryType.PROJECT_RULE)
        elif roll < 0.20:
            fields.update(
                level=Level.SESSION,
                session_id=rng.choice(SESSIONS),
                type=MemoryType.TEMPORARY_CONTEXT,
                expires_at=now + timedelta(hours=2),
            )
        status = rng.random()
        if status < 0.02:
            fields["status"] = Status.PAUSED
        elif status < 0.04:
            fields["status"] = Status.DELETED
        elif status < 0.06:
            fields["status"] = Status.PENDING_CONFIRMATION
        elif status < 0.08:
            fields["expires_at"] = now - timedelta(days=1)  # expired, not swept yet
        content = _content(rng)
        values = _values(
            tenant, user_id=user_id, content=content, rng=rng, key=key, fingerprint=fingerprint, now=now, **fields
        )
        yield Record(tenant.slug, user_id, values, content)


def _shared_rows(tenant: Tenant, now: Any) -> Iterator[Record]:
    rng = random.Random(tenant.slug)  # noqa: S311 — reproducible bench text, not a secret
    key = data_key_for(tenant_id=tenant.pk, owner="")
    fingerprint = fingerprint_key(tenant_id=tenant.pk)
    for index in range(20):
        content = _content(rng)
        fields: dict[str, Any] = {"level": Level.TENANT, "type": MemoryType.ORGANIZATION_RULE}
        if index % 2:
            fields = {"level": Level.PROJECT, "type": MemoryType.PROJECT_RULE, "project": PROJECTS[index % 5]}
        values = _values(
            tenant,
            user_id="",
            content=content,
            rng=rng,
            key=key,
            fingerprint=fingerprint,
            now=now,
            source_type=SourceType.ADMIN_CONSOLE,
            **fields,
        )
        yield Record(tenant.slug, "shared", values, content)


class _VectorWriter:
    """Each seeded memory's vector, as the write path stores it (``MemoryEmbedding``, sealed with the
    subject's key), when an embedder is configured. The bench's texts repeat, so each distinct text is
    embedded once."""

    def __init__(self) -> None:
        from memories.embedding.embedders import current_embedder

        self.embedder = current_embedder()
        self.cache: dict[str, str] = {}
        table = connection.ops.quote_name(MemoryEmbedding._meta.db_table)
        columns = ("memory_id", "tenant_id", "user_id", "model", "vector", "updated_at")
        self.sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"  # noqa: S608

    def write(self, records: list[Record], *, now: Any) -> None:
        if self.embedder is None:
            return
        from memories.embedding.vectors import pack_vector

        missing = sorted({r.content for r in records} - self.cache.keys())
        if missing:
            vectors = self.embedder.embed(missing, kind="document")
            self.cache.update(zip(missing, (pack_vector(v) for v in vectors), strict=True))
        field = MemoryEmbedding._meta.get_field("memory")
        rows = []
        for record in records:
            values = record.values
            key_id, key = data_key_for(tenant_id=values["tenant_id"], owner=values["user_id"])
            aad = associated_data(
                model=MemoryEmbedding._meta.label_lower,
                tenant_id=values["tenant_id"],
                record_id=str(values["id"]),
                field="vector",
            )
            blob = seal(self.cache[record.content], key_id=key_id, key=key, aad=aad)
            rows.append(
                (
                    field.get_db_prep_save(values["id"], connection),
                    values["tenant_id"],
                    values["user_id"],
                    self.embedder.name,
                    blob,
                    now,
                )
            )
        with connection.cursor() as cursor:
            cursor.executemany(self.sql, rows)


class _RowWriter:
    """``executemany`` of prepared rows: Django's own per-field preparation, without model instances.

    Every concrete column is written; a column a record doesn't set gets the field's default.
    """

    def __init__(self) -> None:
        self.fields = [f for f in Memory._meta.concrete_fields]
        self.defaults = {f.attname: f.get_db_prep_save(f.get_default(), connection) for f in self.fields}
        columns = ", ".join(connection.ops.quote_name(f.column) for f in self.fields)
        marks = ", ".join(["%s"] * len(self.fields))
        self.sql = f"INSERT INTO {connection.ops.quote_name(Memory._meta.db_table)} ({columns}) VALUES ({marks})"  # noqa: S608

    def write(self, records: list[Record]) -> None:
        rows = []
        for record in records:
            values = record.values
            rows.append(
                tuple(
                    f.get_db_prep_save(values[f.attname], connection)
                    if f.attname in values
                    else self.defaults[f.attname]
                    for f in self.fields
                )
            )
        with connection.cursor() as cursor:
            cursor.executemany(self.sql, rows)


def bench_tenants(*, actor: str) -> tuple[list[Tenant], AgentClient]:
    tenants = []
    for slug in BENCH_TENANTS:
        tenant = Tenant.objects.filter(slug=slug).first() or tenant_create(slug=slug, actor=actor)
        tenants.append(tenant)
    agent = AgentClient.objects.filter(tenant=tenants[0], name=BENCH_AGENT).first()
    if agent is None:
        agent, _ = agent_key_create(tenant=tenants[0], name=BENCH_AGENT, actor=actor)
    return tenants, agent


def bench_member(tenant: Tenant, subject: str, *, actor: str) -> None:
    """Make the measured subject a person of the tenant in every bench project, so that its reads are
    given the projects' shared rules (only members are). Idempotent."""
    membership = Membership.objects.filter(tenant=tenant, subject_id=subject).first()
    if membership is None:
        user = user_create(username=f"{tenant.slug}-{subject}", password=None)
        membership = membership_set(tenant=tenant, user=user, role="member", subject_id=subject, actor=actor)
    for slug in PROJECTS:
        project = Project.objects.filter(tenant=tenant, slug=slug).first() or project_create(
            tenant=tenant, slug=slug, actor=actor
        )
        project_member_add(project=project, membership=membership, actor=actor)


def bench_row_count(tenants: list[Tenant]) -> int:
    return Memory.objects.filter(tenant__in=tenants).count()


def bench_reset(tenants: list[Tenant]) -> None:
    """Remove earlier bench rows (memories only; audit events and tenants stay, as everywhere)."""
    with transaction.atomic():
        Confirmation.objects.filter(tenant__in=tenants).delete()
        MemoryVersion.objects.filter(tenant__in=tenants).delete()
        # One statement, not the ORM's collector (it would fetch a million ids first); nothing refers to
        # these rows any more.
        with connection.cursor() as cursor:
            for table in (MemoryEmbedding._meta.db_table, Memory._meta.db_table):
                cursor.execute(
                    f"DELETE FROM {table} WHERE tenant_id IN ({', '.join(['%s'] * len(tenants))})",  # noqa: S608
                    [t.pk for t in tenants],
                )


def bench_seed(
    tenants: list[Tenant],
    *,
    first_user: int,
    last_user: int,
    per_user: int,
    shared: bool,
    sink: Callable[[list[Record]], None],
    progress: Callable[[int], None] = lambda _: None,
    batch_users: int = 200,
) -> int:
    """Insert users [first_user, last_user) (even indexes in the first tenant, odd in the second)."""
    now = timezone.now()
    writer, vectors = _RowWriter(), _VectorWriter()
    seeded = 0
    if shared:
        for tenant in tenants:
            data_key_for(tenant_id=tenant.pk, owner="")
            with transaction.atomic():
                records = list(_shared_rows(tenant, now))
                writer.write(records)
                vectors.write(records, now=now)
            sink(records)
            seeded += len(records)
    for start in range(first_user, last_user, batch_users):
        # Data keys are cached only once committed: create and load this batch's keys before the
        # insert transaction, or every row would fetch and unwrap its key again.
        for tenant in tenants:
            fingerprint_key(tenant_id=tenant.pk)
        for index in range(start, min(last_user, start + batch_users)):
            data_key_for(tenant_id=tenants[index % 2].pk, owner=user_id_for(index))
        with transaction.atomic():
            records = []
            for index in range(start, min(last_user, start + batch_users)):
                records.extend(_user_rows(tenants[index % 2], index, per_user, now))
            writer.write(records)
            vectors.write(records, now=now)
        sink(records)
        seeded += len(records)
        progress(seeded)
    return seeded


def python_speed() -> float:
    """Microseconds for a fixed pure-Python loop: to compare figures taken on different (or busy) machines."""
    return min(timeit.repeat(lambda: sum(range(1000)), number=200, repeat=5)) / 200 * 1e6


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def timed(call: Callable[[int], object], *, requests: int, warmup: int = 20) -> tuple[list[float], list[float]]:
    """Milliseconds per call, wall-clock and this process's CPU; ``call`` gets the request number.

    CPU time leaves out waiting for the database server and for other processes on a busy machine.
    """
    for number in range(warmup):
        call(number)
    wall, cpu = [], []
    for number in range(requests):
        started, started_cpu = time.perf_counter_ns(), time.process_time_ns()
        call(number)
        wall.append((time.perf_counter_ns() - started) / 1e6)
        cpu.append((time.process_time_ns() - started_cpu) / 1e6)
    return wall, cpu
