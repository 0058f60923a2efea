"""The scope and permission filter of the read path: deny by default, one index-friendly query.

What a subject sees (seed §12.1; DESIGN.md "The read path"):

- its own memories: user level (untagged, or tagged with the project the request names), project
  level for the named project, session level only for the named ``session_id``, task level only for
  the named ``task_id`` — always ``user_id`` = the subject, so a session or task id of another subject
  simply matches nothing;
- shared rules (``user_id`` blank): tenant level; team level for the teams whose membership names the
  subject (only the named team, when the request names one); project level for the named project
  when the subject is one of its members (``governance.models.Project``). A subject that is not
  still gets its own memories of that project: naming a project is how an agent says where the
  person is working, not a request for somebody else's data;
- only ``active`` rows whose ``expires_at`` is unset or in the future: pending, paused, archived,
  expired (swept or not) and deleted rows never come back;
- nothing at all for an agent the subject switched off (``memories.models.AgentAccess``): the grant says
  so and the candidate selector returns no row for it, whoever asks it.

A request naming a scope its caller may not read (a person asking for another subject, a team the
subject is not in, a level or type outside the agent key's allowance) gets no grant at all: the
caller answers as if there were nothing, and records ``cross_scope_read``.

The query reads two branches, ``tenant_id = ? AND user_id = subject`` and ``tenant_id = ? AND user_id =
''`` (both ``status = 'active'``), each on the ``memory_subject_level_status`` index: its cost is the
subject's own rows plus the tenant's shared rules, whatever the table's size. It is written as SQL (see
``_candidate_sql``) because building the same filter with the ORM cost several times the query itself on
every read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any, NamedTuple
from uuid import UUID

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from governance.models import Membership, Project, ProjectMembership, Team, TeamMembership
from governance.vocabulary import Level, Status
from memories.access import Caller
from memories.models import AgentAccess, Memory, MemoryEmbedding, Subject
from vault import DecryptionError
from vault.datakeys import data_key_by_id
from vault.envelope import NONCE_SIZE, NONCE_SQL_START, associated_data, key_id_of, open_sealed_with

# The newest this many visible rows are ranked; a subject with more sees its most recently updated.
CANDIDATE_LIMIT = 2000


class CrossScope(StrEnum):
    """Reason codes of a denied read (audited with ``cross_scope_read``)."""

    OTHER_SUBJECT = "other_subject"
    NOT_TEAM_MEMBER = "not_team_member"
    LEVEL_NOT_ALLOWED = "level_not_allowed"
    TYPE_NOT_ALLOWED = "type_not_allowed"


@dataclass(frozen=True)
class ContextScope:
    """The scope a request names: whose context, and which team/project/session/task it is in."""

    user_id: str
    team: str = ""
    project: str = ""
    session_id: str = ""
    task_id: str = ""


@dataclass(frozen=True)
class ReadGrant:
    """What one request may read, once the permission checks passed: the selector's whole filter."""

    tenant_id: int
    user_id: str
    teams: tuple[str, ...] = ()
    project: str = ""
    project_rules: bool = False  # the subject is a member of ``project``: its shared rules are readable
    session_id: str = ""
    task_id: str = ""
    types: frozenset[str] | None = None  # None: every type
    levels: frozenset[str] | None = None  # None: every level
    subject_paused: bool = False  # nothing may be injected until the subject resumes
    agent_blocked: bool = False  # the subject switched the calling agent off: nothing of theirs is read


@dataclass(frozen=True)
class ScopeDecision:
    grant: ReadGrant | None
    denied: str = ""  # a CrossScope reason code when there is no grant


class ContextCandidate(NamedTuple):
    """A visible memory, decrypted, with what ranking and rendering need (and nothing else).

    A named tuple rather than a frozen dataclass: a read builds one per visible memory (~100), and a
    frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field) cost more than decrypting.
    """

    id: str
    level: str
    type: str
    content: str
    source_type: str
    source_message_id: str
    confidence: float
    sensitivity: str
    team: str
    project: str
    session_id: str
    task_id: str
    updated_at: datetime
    # When an answer last used it (a citation, ``POST /api/v1/memories/used``): ranking counts it as recent.
    last_cited_at: datetime | None = None
    # The memory's vector for the current embedder, still sealed (``open_vectors``); None without one.
    vector: bytes | None = None


@dataclass(frozen=True)
class SubjectState:
    paused: bool  # the subject paused all memory: nothing is injected
    teams: tuple[str, ...]  # slugs of the teams whose membership names the subject
    projects: frozenset[str] = frozenset()  # slugs of the projects whose membership names the subject
    agent_blocked: bool = False  # the subject switched the calling agent off


_PAUSED, _TEAM, _PROJECT, _BLOCKED = 1, 2, 3, 4  # what each row of subject_read_state's statement is


def subject_read_state(*, tenant_id: int, user_id: str, agent_id: int | None = None) -> SubjectState:
    """Whether the subject paused memory or switched this agent off, its teams and its projects, in one
    round trip (checked on every read, so a pause, a switch or a membership change applies to the very
    next read)."""
    qn = connection.ops.quote_name
    subject, membership = qn(Subject._meta.db_table), qn(Membership._meta.db_table)
    team_link, team = qn(TeamMembership._meta.db_table), qn(Team._meta.db_table)
    project_link, project = qn(ProjectMembership._meta.db_table), qn(Project._meta.db_table)
    sql = (
        f"SELECT '', {_PAUSED} FROM {subject} WHERE tenant_id = %s AND user_id = %s AND memory_paused = %s"  # noqa: S608
        f" UNION ALL SELECT t.slug, {_TEAM} FROM {team_link} l"
        f" JOIN {membership} m ON l.membership_id = m.id JOIN {team} t ON l.team_id = t.id"
        " WHERE m.tenant_id = %s AND m.subject_id = %s AND t.tenant_id = %s"
        f" UNION ALL SELECT p.slug, {_PROJECT} FROM {project_link} l"
        f" JOIN {membership} m ON l.membership_id = m.id JOIN {project} p ON l.project_id = p.id"
        " WHERE m.tenant_id = %s AND m.subject_id = %s AND p.tenant_id = %s"
    )
    params: list[object] = [tenant_id, user_id, True, *[tenant_id, user_id, tenant_id] * 2]
    if agent_id is not None:
        sql += (
            f" UNION ALL SELECT '', {_BLOCKED} FROM {qn(AgentAccess._meta.db_table)}"  # noqa: S608
            " WHERE tenant_id = %s AND user_id = %s AND agent_id = %s AND blocked = %s"
        )
        params += [tenant_id, user_id, agent_id, True]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return SubjectState(
        agent_blocked=any(kind == _BLOCKED for _, kind in rows),
        paused=any(kind == _PAUSED for _, kind in rows),
        teams=tuple(sorted(slug for slug, kind in rows if kind == _TEAM)),
        projects=frozenset(slug for slug, kind in rows if kind == _PROJECT),
    )


def read_grant_for(*, caller: Caller, scope: ContextScope, types: tuple[str, ...] = ()) -> ScopeDecision:
    """Decide what this caller may read for this scope; no grant when it names a scope it may not read."""
    if not scope.user_id:
        raise ValueError("a context read names its subject")
    if caller.subject_id is not None and scope.user_id != caller.subject_id:
        return ScopeDecision(None, CrossScope.OTHER_SUBJECT)
    levels: frozenset[str] | None = None
    allowed_types: frozenset[str] | None = None
    if caller.agent is not None:
        levels = frozenset(caller.agent.allowed_levels) or None
        allowed_types = frozenset(caller.agent.allowed_types) or None
    if levels is not None:
        named = {
            Level.TEAM: scope.team,
            Level.PROJECT: scope.project,
            Level.SESSION: scope.session_id,
            Level.TASK: scope.task_id,
        }
        if any(value and level.value not in levels for level, value in named.items()):
            return ScopeDecision(None, CrossScope.LEVEL_NOT_ALLOWED)
    if types and allowed_types is not None and not set(types) <= allowed_types:
        return ScopeDecision(None, CrossScope.TYPE_NOT_ALLOWED)
    state = subject_read_state(
        tenant_id=caller.tenant_id,
        user_id=scope.user_id,
        agent_id=caller.agent.pk if caller.agent is not None else None,
    )
    teams = state.teams
    if scope.team:
        if scope.team not in teams:
            return ScopeDecision(None, CrossScope.NOT_TEAM_MEMBER)
        teams = (scope.team,)
    return ScopeDecision(
        ReadGrant(
            tenant_id=caller.tenant_id,
            user_id=scope.user_id,
            teams=teams,
            project=scope.project,
            project_rules=bool(scope.project) and scope.project in state.projects,
            session_id=scope.session_id,
            task_id=scope.task_id,
            types=frozenset(types) if types else allowed_types,
            levels=levels,
            subject_paused=state.paused,
            agent_blocked=state.agent_blocked,
        )
    )


# The candidate query selects ContextCandidate's fields, in its order: a row becomes a candidate once its
# id is in canonical form, its content opened and its date made aware.
_ID, _CONTENT_AT, _UPDATED_AT, _CITED_AT, _VECTOR_AT = (
    ContextCandidate._fields.index(name) for name in ("id", "content", "updated_at", "last_cited_at", "vector")
)
_COLUMNS = ContextCandidate._fields[:_VECTOR_AT]  # the memory's own columns; the vector is a subquery
# What the indexed read selects of each row (``_stamped_column``), the vector's nonce after them; the rest
# (``DISPLAY_FIELDS``) only shows in a line, and is read with the content of the memories shown.
STAMPED_FIELDS = (
    "id",
    "level",
    "type",
    "content",
    "source_type",
    "confidence",
    "project",
    "updated_at",
    "last_cited_at",
)
DISPLAY_FIELDS = tuple(name for name in _COLUMNS if name not in STAMPED_FIELDS)


@cache
def _quoted(vendor: str, name: str) -> str:
    return connection.ops.quote_name(Memory._meta.get_field(name).column)


def _column(name: str) -> str:
    return _quoted(connection.vendor, name)


def _marks(count: int) -> str:
    return ", ".join(["%s"] * count)


@lru_cache(maxsize=256)
def _candidate_statement(
    vendor: str,
    *,
    project: bool,
    project_rules: bool,
    session: bool,
    task: bool,
    teams: int,
    types: int | None,
    levels: int | None,
    vectors: bool = False,
    stamps: bool = False,
    ordered: bool = True,
) -> str:
    """The candidate query for one shape of grant, written out and kept: building it cost more than running it.

    It reads as the rules in this module's docstring; ``_candidate_params`` gives the values in the
    order of the placeholders (``types``/``levels``: how many are allowed, None for no restriction).
    ``vectors``: each row also brings its sealed vector of the named model (a primary-key lookup per
    row), else NULL. ``stamps``: the content and the vector are replaced by their nonces (``vault.envelope
    .nonce_of``), and the id and dates by text (``_stamped_column``), for a read that takes what ranking
    needs from the retrieval index (``memories.read.indexed``), only ``STAMPED_FIELDS``. ``ordered``: newest
    first (else in no order: the indexed read sorts what it needs, where the database sorted whole rows).
    """
    c = _column
    own = [f"({c('level')} = %s AND {c('project')} = '')"]
    shared = [f"{c('level')} = %s"]
    if project:
        own.append(f"({c('level')} IN (%s, %s) AND {c('project')} = %s)")
    if project_rules:
        shared.append(f"({c('level')} = %s AND {c('project')} = %s)")
    if session:
        own.append(f"({c('level')} = %s AND {c('session_id')} = %s)")
    if task:
        own.append(f"({c('level')} = %s AND {c('task_id')} = %s)")
    if teams:
        shared.append(f"({c('level')} = %s AND {c('team')} IN ({_marks(teams)}))")
    allowances = ""
    for name, allowed in (("type", types), ("level", levels)):
        if allowed is not None:  # an empty allowance matches nothing
            allowances += f" AND {c(name)} IN ({_marks(allowed)})" if allowed else " AND 1 = 0"
    # Only quoted column names from the models' _meta and %s placeholders are interpolated.
    table = connection.ops.quote_name(Memory._meta.db_table)

    def stamp(column: str) -> str:
        return f"substr({column}, {NONCE_SQL_START}, {NONCE_SIZE})" if stamps else column

    if stamps:
        select = ", ".join(_stamped_column(vendor, name, c(name)) for name in STAMPED_FIELDS)
    else:
        select = ", ".join(c(name) for name in _COLUMNS)
    if vectors:
        qn = connection.ops.quote_name
        embedding = qn(MemoryEmbedding._meta.db_table)
        select += (
            f", (SELECT {stamp('e.' + qn('vector'))} FROM {embedding} e"  # noqa: S608
            f" WHERE e.{qn('memory_id')} = {table}.{c('id')} AND e.{qn('model')} = %s)"
        )
    else:
        select += ", NULL"

    def branch(user_id: str, levels_where: list[str]) -> str:
        return (
            f"SELECT {select} FROM {table} WHERE {c('tenant')} = %s AND {c('user_id')} = {user_id}"  # noqa: S608
            f" AND {c('status')} = %s AND ({c('expires_at')} IS NULL OR {c('expires_at')} > %s)"
            f" AND ({' OR '.join(levels_where)}){allowances}"
        )

    # Two branches, each an equality on (tenant, user_id): the subject index, which PostgreSQL's planner
    # picks even before the table was first analyzed (with one ``user_id IN (…)`` branch it scanned the
    # tenant's every active row after a bulk load). The subject is never blank, so no row is in both.
    own_rows, shared_rules = branch("%s", own), branch("''", shared)
    order = f" ORDER BY {c('updated_at')} DESC, {c('id')} DESC" if ordered else ""
    return f"{own_rows} UNION ALL {shared_rules}{order} LIMIT %s"


def _stamped_column(vendor: str, name: str, column: str) -> str:
    """A column as the indexed read takes it (``memories.read.indexed``): the content's nonce in place of the
    content, the id as its 32 hex digits, dates as the text of their UTC time (SQLite: as stored, in the
    connection's zone) — plain values numpy reads at once, where the driver made an object of each."""
    if name == "content":
        return f"substr({column}, {NONCE_SQL_START}, {NONCE_SIZE})"
    postgres = vendor == "postgresql"
    if name == "id" and postgres:
        return f"REPLACE(CAST({column} AS TEXT), '-', '') AS {column}"
    if name in ("updated_at", "last_cited_at"):
        if postgres:
            return f"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS {column}"
        return f"CAST({column} AS TEXT) AS {column}"
    return column


def _candidate_params(
    grant: ReadGrant, *, now: datetime, limit: int, db: BaseDatabaseWrapper, model: str = ""
) -> list[object]:
    """The values of ``_candidate_statement``'s placeholders, in their order (``model``: of the vectors)."""
    user, project, session, task = Level.USER.value, Level.PROJECT.value, Level.SESSION.value, Level.TASK.value
    active, until = Status.ACTIVE.value, db.ops.adapt_datetimefield_value(now)
    allowances: list[object] = []
    for allowed in (grant.types, grant.levels):
        if allowed is not None:
            allowances += sorted(allowed)
    vector: list[object] = [model] if model else []
    own: list[object] = [*vector, grant.tenant_id, grant.user_id, active, until, user]
    if grant.project:
        own += [user, project, grant.project]
    if grant.session_id:
        own += [session, grant.session_id]
    if grant.task_id:
        own += [task, grant.task_id]
    shared: list[object] = [*vector, grant.tenant_id, active, until, Level.TENANT.value]
    if grant.project_rules:
        shared += [project, grant.project]
    if grant.teams:
        shared += [Level.TEAM.value, *grant.teams]
    return [*own, *allowances, *shared, *allowances, limit]


def _candidate_sql(
    grant: ReadGrant,
    *,
    now: datetime,
    limit: int,
    db: BaseDatabaseWrapper,
    model: str = "",
    stamps: bool = False,
    ordered: bool = True,
) -> tuple[str, list[object]]:
    """The candidate query for this grant and its parameters; every value is a bound parameter."""
    sql = _candidate_statement(
        db.vendor,
        project=bool(grant.project),
        project_rules=grant.project_rules,
        session=bool(grant.session_id),
        task=bool(grant.task_id),
        teams=len(grant.teams),
        types=None if grant.types is None else len(grant.types),
        levels=None if grant.levels is None else len(grant.levels),
        vectors=bool(model),
        stamps=stamps,
        ordered=ordered,
    )
    return sql, _candidate_params(grant, now=now, limit=limit, db=db, model=model)


_AAD_MODEL = Memory._meta.label_lower
_CONTENT = Memory._meta.get_field("content").attname


def uuid_text(value: object) -> str:
    if isinstance(value, UUID):
        return str(value)
    text = str(value)  # SQLite stores the 32 hex digits
    if len(text) == 32:
        return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"
    return str(UUID(text))


def memory_context_rows(
    *,
    grant: ReadGrant,
    now: datetime,
    limit: int = CANDIDATE_LIMIT,
    db: BaseDatabaseWrapper | None = None,
    model: str = "",
    stamps: bool = False,
    ordered: bool = True,
) -> list[tuple[Any, ...]]:
    """The candidate statement's rows (``ContextCandidate``'s fields, content still sealed), newest first
    (``stamps``, ``ordered``: see ``_candidate_statement``).

    This is the filter, before decryption: a row another tenant sealed would also fail to open here
    (its associated data names its tenant), so the scope tests check the filter on these rows, where
    that second lock can't hide a leak. A grant for an agent the subject switched off selects nothing,
    whoever holds it (the context read, a handoff).
    """
    if grant.agent_blocked:
        return []
    db = db or connections[DEFAULT_DB_ALIAS]
    sql, params = _candidate_sql(grant, now=now, limit=limit, db=db, model=model, stamps=stamps, ordered=ordered)
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def memory_context_candidates(
    *, grant: ReadGrant, now: datetime, limit: int = CANDIDATE_LIMIT, model: str = ""
) -> list[ContextCandidate]:
    """The memories this grant may see, newest first, decrypted. Unreadable rows (key destroyed) are skipped.

    Rows are read as tuples and opened here as the field's descriptor would open them (building ~100
    model instances per read costs more than decrypting them): the associated data is the field's own,
    so a blob moved between rows still fails to open. A subject's rows share one data key, fetched once.
    """
    db = connections[DEFAULT_DB_ALIAS]  # once: each access through the ``connection`` proxy costs microseconds
    rows = memory_context_rows(grant=grant, now=now, limit=limit, db=db, model=model)
    # SQLite hands back naive datetimes in the connection's zone (Django's converters would attach it);
    # combine() is replace(tzinfo=zone) at a quarter of the cost.
    zone, combine = db.timezone, datetime.combine
    tenant_id = grant.tenant_id
    # A cipher per data key per read, not per row (making one was a third of opening a row).
    ciphers: dict[int, AESGCM | None] = {}  # data key id → its cipher; None: the key was destroyed
    candidates = []
    for row in rows:
        values = list(row)
        memory_id = row[_ID]
        if type(memory_id) is str and len(memory_id) == 32:  # SQLite stores the 32 hex digits
            memory_id = f"{memory_id[:8]}-{memory_id[8:12]}-{memory_id[12:16]}-{memory_id[16:20]}-{memory_id[20:]}"
        else:
            memory_id = uuid_text(memory_id)
        values[_ID] = memory_id
        blob = bytes(row[_CONTENT_AT])
        try:
            key_id = key_id_of(blob)
            if key_id in ciphers:
                cipher = ciphers[key_id]
            else:
                key = data_key_by_id(key_id)
                cipher = ciphers[key_id] = None if key is None else AESGCM(key)
        except DecryptionError:  # not a sealed value, or its key doesn't unwrap
            continue
        if cipher is None:  # destroyed: the subject was erased
            continue
        aad = associated_data(model=_AAD_MODEL, tenant_id=tenant_id, record_id=memory_id, field=_CONTENT)
        try:
            values[_CONTENT_AT] = open_sealed_with(cipher, blob, aad=aad)
        except DecryptionError:  # sealed for another row, field or tenant
            continue
        at = row[_UPDATED_AT]
        if at.tzinfo is None:
            values[_UPDATED_AT] = combine(at.date(), at.time(), zone)
        cited = row[_CITED_AT]
        if cited is not None and cited.tzinfo is None:
            values[_CITED_AT] = combine(cited.date(), cited.time(), zone)
        if values[_VECTOR_AT] is not None:
            values[_VECTOR_AT] = bytes(values[_VECTOR_AT])
        candidates.append(ContextCandidate._make(values))
    return candidates
