"""``MemgovStore``: LangGraph's long-term memory store (``BaseStore``) on memgov, governed.

Every ``put`` is a candidate memory for one person (``user_id``) that memgov's write pipeline decides on:
a rejected put raises ``MemoryRejected`` with the reason code; a put waiting for the person's confirmation
is not returned by ``get`` or ``search`` until they confirm it; ``search`` with a query uses memgov's
context ranking. Where this must differ from ``InMemoryStore`` is listed, test by test, in
docs/integrations.md.

A value is the memory as a person can read it: ``{"content": "…"}``, optionally with ``type``,
``source_type`` and ``confidence`` (what the write pipeline weighs). ``(namespace, key)`` is kept as the
memory's ``source_message_id``: ids, never content, for it is written to the audit log.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    validate_op_namespace,
)

# The same matching InMemoryStore does, so that filters and namespace conditions mean the same here.
from langgraph.store.memory import _compare_values, _does_match

from memgov_client.client import Client
from memgov_client.errors import BadRequest, MemoryRejected, NotFound
from memgov_client.langgraph_saver import MemgovSaver

__all__ = ["MemgovSaver", "MemgovStore"]
from memgov_client.types import Memory

VALUE_KEYS = frozenset({"content", "type", "source_type", "confidence"})
REF_PREFIX = "lg."
MAX_REF = 128  # memgov's limit on source_message_id
MAX_RANKED = 50  # memgov's top_k ceiling: a query search ranks at most this many


def ref_for(namespace: tuple[str, ...], key: str) -> str:
    """``lg.<label>.<label>..<key>``: labels can't hold a period, so the first ``..`` ends the namespace."""
    ref = f"{REF_PREFIX}{'.'.join(namespace)}..{key}"
    if len(ref) > MAX_REF:
        raise ValueError(f"namespace and key take {len(ref)} characters; memgov keeps at most {MAX_REF}")
    return ref


def parse_ref(ref: str) -> tuple[tuple[str, ...], str] | None:
    if not ref.startswith(REF_PREFIX):
        return None
    body = ref[len(REF_PREFIX) :]
    cut = body.find("..")
    if cut <= 0:
        return None
    return tuple(body[:cut].split(".")), body[cut + 2 :]


def _when(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _value(memory: Memory) -> dict[str, Any]:
    return {
        "content": memory["content"],
        "type": memory["type"],
        "source_type": memory["source"]["source_type"],
        "confidence": memory["confidence"],
    }


class _Index:
    """The person's active memories that this store wrote, read once per batch."""

    def __init__(self, memories: Iterable[Memory]) -> None:
        self.by_ref: dict[tuple[tuple[str, ...], str], Memory] = {}
        for memory in memories:
            parsed = parse_ref(memory["source"].get("source_message_id", ""))
            if parsed is not None:
                self.by_ref.setdefault(parsed, memory)

    def under(self, prefix: tuple[str, ...]) -> list[tuple[tuple[str, ...], str, Memory]]:
        found = [(ns, key, m) for (ns, key), m in self.by_ref.items() if ns[: len(prefix)] == prefix]
        return sorted(found, key=lambda row: (row[2]["created_at"], row[2]["id"]))


class MemgovStore(BaseStore):
    """``MemgovStore(base_url=…, api_key=…, user_id=…)``: the long-term memory of one person.

    ``source_type`` and ``confidence`` are what a put claims when its value doesn't say (by default an
    agent's inference, which the person confirms before it is used); ``ttl`` (minutes) becomes the
    memory's requested expiry, which the tenant's retention policy may only shorten.
    """

    supports_ttl = True

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str,
        user_id: str,
        source_type: str = "agent_inference",
        confidence: float = 0.8,
        ttl: TTLConfig | None = None,
        client: Client | None = None,
    ) -> None:
        if not user_id:
            raise ValueError("user_id: name the person whose memory this store holds")
        self.user_id = user_id
        self.source_type = source_type
        self.confidence = confidence
        self.ttl_config = ttl
        self.client = client or Client(base_url, api_key)

    # --- BaseStore -------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        for op in ops:
            validate_op_namespace(op)
        index: _Index | None = None
        results: list[Result] = []
        for op in ops:
            if index is None:
                index = self._index()
            if isinstance(op, GetOp):
                found = index.by_ref.get((tuple(op.namespace), op.key))
                results.append(self._item(op.namespace, op.key, found) if found else None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op, index))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._namespaces(op, index))
            elif isinstance(op, PutOp):
                self._put(op, index)
                index = None  # the next op sees what this one changed
                results.append(None)
            else:
                raise TypeError(f"unknown store operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # The sync client on a worker thread: the same requests, without blocking the event loop.
        return await asyncio.to_thread(self.batch, list(ops))

    # --- memgov side -----------------------------------------------------------------------------

    def write(self, namespace: tuple[str, ...], key: str, value: dict[str, Any], *, ttl: float | None = None) -> dict:
        """``put`` that returns memgov's decision (``save``, or ``ask_confirmation`` with its confirmation id)."""
        self._check_value(value)
        expires_at = datetime.now(UTC) + timedelta(minutes=ttl) if ttl else None
        decision = self.client.memories.write(
            content=value["content"],
            scope={"level": "user", "user_id": self.user_id},
            source={
                "source_type": value.get("source_type", self.source_type),
                "source_message_id": ref_for(namespace, key),
            },
            type=value.get("type"),
            # The store's confidence goes with its own source; a value that names its source says its own.
            confidence=value.get("confidence", None if "source_type" in value else self.confidence),
            expires_at=expires_at,
        )
        if decision["decision"] == "reject":
            raise MemoryRejected(dict(decision))
        return dict(decision)

    def _index(self) -> _Index:
        return _Index(self.client.memories.iter(user_id=self.user_id, page_size=500))

    @staticmethod
    def _check_value(value: dict[str, Any]) -> None:
        extra = sorted(set(value) - VALUE_KEYS)
        if extra:
            raise ValueError(f"memgov keeps a memory's content, type, source_type and confidence; not {extra}")
        if not isinstance(value.get("content"), str) or not value["content"].strip():
            raise ValueError("value['content']: the memory's text is required")

    def _put(self, op: PutOp, index: _Index) -> None:
        existing = index.by_ref.get((tuple(op.namespace), op.key))
        if op.value is None:
            if existing is not None:
                with contextlib.suppress(NotFound):  # deleted meanwhile: the outcome asked for
                    self.client.memories.delete(existing["id"])
            return
        if existing is None:
            self.write(op.namespace, op.key, op.value, ttl=op.ttl)
            return
        self._check_value(op.value)
        changed_type = op.value.get("type") not in (None, existing["type"])
        if op.value["content"] == existing["content"] and not changed_type:
            return
        try:
            self.client.memories.update(
                existing["id"], content=op.value["content"], type=op.value.get("type") if changed_type else None
            )
        except BadRequest as exc:
            if exc.reason_code in ("invalid_request", "invalid_candidate"):
                raise
            raise MemoryRejected({"decision": "reject", "reason_code": exc.reason_code, "reason": exc.detail}) from exc

    def _item(self, namespace: tuple[str, ...], key: str, memory: Memory) -> Item:
        return Item(
            value=_value(memory),
            key=key,
            namespace=tuple(namespace),
            created_at=_when(memory["created_at"]),
            updated_at=_when(memory["updated_at"]),
        )

    def _search(self, op: SearchOp, index: _Index) -> list[SearchItem]:
        rows = index.under(tuple(op.namespace_prefix))
        scores: dict[str, float] = {}
        if op.query:
            ranked = self.client.memories.context(
                scope={"user_id": self.user_id}, query=op.query, top_k=MAX_RANKED, token_budget=32000
            )
            scores = {item["id"]: item["score"] for item in ranked["items"]}
            rows = sorted((r for r in rows if r[2]["id"] in scores), key=lambda r: -scores[r[2]["id"]])
        if op.filter:
            rows = [r for r in rows if all(_compare_values(_value(r[2]).get(k), v) for k, v in op.filter.items())]
        page = rows[op.offset : op.offset + op.limit]
        return [
            SearchItem(
                namespace=ns,
                key=key,
                value=_value(memory),
                created_at=_when(memory["created_at"]),
                updated_at=_when(memory["updated_at"]),
                score=scores.get(memory["id"]) if op.query else None,
            )
            for ns, key, memory in page
        ]

    def _namespaces(self, op: ListNamespacesOp, index: _Index) -> list[tuple[str, ...]]:
        namespaces = {ns for ns, _key in index.by_ref}
        if op.match_conditions:
            namespaces = {ns for ns in namespaces if all(_does_match(c, ns) for c in op.match_conditions)}
        if op.max_depth is not None:
            namespaces = {ns[: op.max_depth] for ns in namespaces}
        return sorted(namespaces)[op.offset : op.offset + op.limit]
