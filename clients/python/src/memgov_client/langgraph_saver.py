"""``MemgovSaver``: a LangGraph checkpointer (``BaseCheckpointSaver``) on memgov sessions.

A thread is a memgov session (``workspace`` ``langgraph:<thread_id>`` of the subject ``user_id`` in ``app``);
every ``put`` and every ``put_writes`` is one event of it, appended in order, sealed with the subject's key
and kept for the tenant's session retention. A checkpoint event holds the checkpoint, its metadata, its
parent checkpoint id and the channel values of the versions it made new (as LangGraph's own savers store
them, so a checkpoint that changed one channel stores one); a writes event holds a task's pending writes
for one checkpoint. Reading a thread rebuilds the checkpoints, parents, blobs and writes from its events, so
time travel (``get_tuple`` with a ``checkpoint_id``) and forks (a ``put`` whose parent is an older
checkpoint) are LangGraph's own, on an append-only, audited history. ``delete_thread`` deletes the session;
``copy_thread`` appends the source's records, in order, to the target's session; ``prune`` keeps each
namespace's latest checkpoint in a new session and deletes the old one.

The events are ``label`` events: memgov never puts them into a model's context projection nor extracts
memories from them (a graph's state is not what a person said). Each event's content is at most the
server's ``MEMGOV_SESSION_MAX_EVENT_CHARS`` (64,000 by default): a larger checkpoint is refused with
``BadRequest``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_checkpoint_id,
    get_checkpoint_metadata,
)
from langgraph.checkpoint.memory import InMemorySaver

from memgov_client.client import Client
from memgov_client.errors import BadRequest, NotFound

WORKSPACE_PREFIX = "langgraph:"
PAGE = 1000
APPEND_BATCH = 100  # the most events one append takes

Typed = tuple[str, bytes]


def _pack(typed: Typed) -> list[str]:
    return [typed[0], base64.b64encode(typed[1]).decode("ascii")]


def _unpack(packed: list[str]) -> Typed:
    return packed[0], base64.b64decode(packed[1])


@dataclass
class _Thread:
    """A thread as its events rebuild it: per namespace, checkpoints (id → checkpoint, metadata, parent),
    channel values by version, and pending writes per checkpoint keyed as LangGraph's savers key them."""

    checkpoints: dict[str, dict[str, tuple[list[str], list[str], str | None]]] = field(default_factory=dict)
    blobs: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)
    writes: dict[tuple[str, str], dict[tuple[str, int], tuple[str, str, list[str], str]]] = field(default_factory=dict)

    def apply(self, record: dict[str, Any]) -> None:
        ns = record["ns"]
        if record["lg"] == "checkpoint":
            for channel, (version, packed) in record["blobs"].items():
                self.blobs[(ns, channel, version)] = packed
            self.checkpoints.setdefault(ns, {})[record["id"]] = (
                record["checkpoint"],
                record["metadata"],
                record["parent"],
            )
        elif record["lg"] == "writes":
            stored = self.writes.setdefault((ns, record["checkpoint_id"]), {})
            for idx, channel, packed in record["writes"]:
                key = (record["task_id"], idx)
                if idx >= 0 and key in stored:  # a task's regular writes are kept once; special ones replace
                    continue
                stored[key] = (record["task_id"], channel, packed, record.get("task_path", ""))


def _dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":"))


def _latest_records(thread: _Thread, ns: str, versions: dict[str, Any]) -> list[dict[str, Any]]:
    """The records that rebuild a namespace's latest checkpoint on their own: the checkpoint with every
    channel value its ``versions`` name (whichever earlier checkpoint stored them), then its pending writes."""
    checkpoints = thread.checkpoints[ns]
    latest = max(checkpoints)
    packed, metadata, parent = checkpoints[latest]
    blobs = {
        channel: [str(version), thread.blobs[(ns, channel, str(version))]]
        for channel, version in versions.items()
        if (ns, channel, str(version)) in thread.blobs
    }
    records: list[dict[str, Any]] = [
        {
            "lg": "checkpoint",
            "ns": ns,
            "id": latest,
            "parent": parent,
            "checkpoint": packed,
            "metadata": metadata,
            "blobs": blobs,
        }
    ]
    by_task: dict[tuple[str, str], list[list[Any]]] = {}
    for (task_id, idx), (_task, channel, value, path) in thread.writes.get((ns, latest), {}).items():
        by_task.setdefault((task_id, path), []).append([idx, channel, value])
    for (task_id, path), writes in by_task.items():
        records.append(
            {"lg": "writes", "ns": ns, "checkpoint_id": latest, "task_id": task_id, "task_path": path, "writes": writes}
        )
    return records


def _record_of(event: dict[str, Any]) -> dict[str, Any] | None:
    """The saver's record (a checkpoint or writes) an event holds, or None for any other event."""
    if event["kind"] != "label" or not event["content"]:
        return None
    try:
        record = json.loads(event["content"])
    except ValueError:
        return None
    return record if isinstance(record, dict) and "lg" in record else None


class MemgovSaver(BaseCheckpointSaver[str]):
    """``MemgovSaver(*, base_url, api_key, user_id, app="default")``; ``client`` lends a
    ``memgov_client.Client``. Use it as ``graph.compile(checkpointer=MemgovSaver(...))``."""

    def __init__(
        self,
        *,
        base_url: str = "",
        api_key: str = "",
        user_id: str,
        app: str = "default",
        client: Client | None = None,
        serde: Any = None,
    ) -> None:
        super().__init__(serde=serde)
        if client is None and not (base_url and api_key):
            raise ValueError("MemgovSaver needs base_url and api_key (or a client)")
        self.user_id = user_id
        self.app = app
        self._owns_client = client is None
        self._client = client or Client(base_url, api_key)
        self._sessions: dict[str, str] = {}  # thread id → memgov session id
        self._threads: dict[str, tuple[_Thread, str]] = {}  # session id → the thread read so far, its last event
        self._lock = threading.Lock()

    get_next_version = InMemorySaver.get_next_version  # versions as LangGraph's own savers make them

    # Threads and their sessions.

    def _session(self, thread_id: str, *, create: bool) -> str | None:
        with self._lock:
            if thread_id in self._sessions:
                return self._sessions[thread_id]
            workspace = WORKSPACE_PREFIX + str(thread_id)
            found = self._client.sessions.list(user_id=self.user_id, app=self.app, workspace=workspace, last=True)
            if found["results"]:
                self._sessions[thread_id] = found["results"][0]["id"]
            elif create:
                made = self._client.sessions.create(user_id=self.user_id, app=self.app, workspace=workspace)
                self._sessions[thread_id] = made["id"]
            return self._sessions.get(thread_id)

    def _thread_ids(self) -> list[str]:
        return [
            s["workspace"].removeprefix(WORKSPACE_PREFIX)
            for s in self._client.sessions.iter(user_id=self.user_id, app=self.app)
            if s["workspace"].startswith(WORKSPACE_PREFIX)
        ]

    def _read(self, thread_id: str) -> _Thread:
        """The thread as its events rebuild it. The events this saver read before are kept, so a read fetches
        only what was appended since (``after`` the last event it read: usually one or two); when that event
        is no longer on the session's branch, the whole branch is read again."""
        session_id = self._session(thread_id, create=False)
        if session_id is None:
            return _Thread()
        known = self._threads.get(session_id)
        try:
            fresh = self._events(session_id, after=known[1]) if known is not None else None
            if fresh is None:  # nothing read yet, or what was read is gone from the branch: from the root
                known = None
                fresh = self._events(session_id, after=None)
        except NotFound:  # deleted meanwhile (by the person, or another saver)
            with self._lock:
                self._sessions.pop(thread_id, None)
                self._threads.pop(session_id, None)
            return _Thread()
        thread = known[0] if known is not None else _Thread()
        for event in fresh:
            record = _record_of(event)
            if record is not None:
                thread.apply(record)
        last = fresh[-1]["id"] if fresh else (known[1] if known is not None else None)
        if last is not None:
            with self._lock:
                self._threads[session_id] = (thread, last)
        return thread

    def _events(self, session_id: str, *, after: str | None) -> list[dict[str, Any]] | None:
        """The branch's events after ``after`` (all of them when None), oldest first, a page at a time from the
        leaf back; None when ``after`` is no longer on the branch (popped meanwhile)."""
        events: list[dict[str, Any]] = []
        leaf: str | None = None
        while True:
            try:
                branch = self._client.sessions.events(session_id, leaf=leaf, after=after, limit=PAGE)
            except BadRequest as error:
                if after is not None and error.field == "after":
                    return None
                raise
            events[:0] = branch["events"]
            if not branch["has_more"]:
                return events
            leaf = branch["next_leaf"]

    def _append(self, thread_id: str, record: dict[str, Any]) -> None:
        content = _dumps(record)
        for attempt in (0, 1):
            session_id = self._session(thread_id, create=True)
            assert session_id is not None
            try:
                self._client.sessions.append(session_id, [{"kind": "label", "content": content}])
                return
            except NotFound:
                with self._lock:
                    self._sessions.pop(thread_id, None)
                    self._threads.pop(session_id, None)
                if attempt:
                    raise

    def _append_all(self, session_id: str, contents: Sequence[str]) -> None:
        """Label events with these contents, in order, as many to a request as the server takes."""
        for start in range(0, len(contents), APPEND_BATCH):
            batch = contents[start : start + APPEND_BATCH]
            self._client.sessions.append(session_id, [{"kind": "label", "content": content} for content in batch])

    # Reading.

    def _channel_versions(self, packed: list[str]) -> dict[str, Any]:
        checkpoint: Checkpoint = self.serde.loads_typed(_unpack(packed))
        return dict(checkpoint["channel_versions"])

    def _tuple(self, thread: _Thread, thread_id: str, ns: str, checkpoint_id: str) -> CheckpointTuple:
        packed, metadata, parent = thread.checkpoints[ns][checkpoint_id]
        checkpoint: Checkpoint = self.serde.loads_typed(_unpack(packed))
        values = {}
        for channel, version in checkpoint["channel_versions"].items():
            blob = thread.blobs.get((ns, channel, str(version)))
            if blob is not None and blob[0] != "empty":
                values[channel] = self.serde.loads_typed(_unpack(blob))
        stored = thread.writes.get((ns, checkpoint_id), {})
        writes = [
            (task_id, channel, self.serde.loads_typed(_unpack(value)))
            for task_id, channel, value, _path in (stored[k] for k in sorted(stored, key=lambda k: (stored[k][3], *k)))
        ]
        return CheckpointTuple(
            config={"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": checkpoint_id}},
            checkpoint={**checkpoint, "channel_values": values},
            metadata=self.serde.loads_typed(_unpack(metadata)),
            parent_config=(
                {"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": parent}}
                if parent
                else None
            ),
            pending_writes=writes,
        )

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        thread_id = str(config["configurable"]["thread_id"])
        ns = config["configurable"].get("checkpoint_ns", "")
        thread = self._read(thread_id)
        checkpoints = thread.checkpoints.get(ns, {})
        checkpoint_id = get_checkpoint_id(config) or (max(checkpoints) if checkpoints else None)
        if checkpoint_id is None or checkpoint_id not in checkpoints:
            return None
        return self._tuple(thread, thread_id, ns, checkpoint_id)

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        thread_ids = [str(config["configurable"]["thread_id"])] if config else self._thread_ids()
        wanted_ns = config["configurable"].get("checkpoint_ns") if config else None
        wanted_id = get_checkpoint_id(config) if config else None
        before_id = get_checkpoint_id(before) if before else None
        for thread_id in thread_ids:
            thread = self._read(thread_id)
            for ns, checkpoints in thread.checkpoints.items():
                if wanted_ns is not None and ns != wanted_ns:
                    continue
                for checkpoint_id in sorted(checkpoints, reverse=True):
                    if (wanted_id and checkpoint_id != wanted_id) or (before_id and checkpoint_id >= before_id):
                        continue
                    metadata = self.serde.loads_typed(_unpack(checkpoints[checkpoint_id][1]))
                    if filter and not all(metadata.get(k) == v for k, v in filter.items()):
                        continue
                    if limit is not None:
                        if limit <= 0:
                            return
                        limit -= 1
                    yield self._tuple(thread, thread_id, ns, checkpoint_id)

    # Writing.

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        thread_id = str(config["configurable"]["thread_id"])
        ns = config["configurable"].get("checkpoint_ns", "")
        stored = checkpoint.copy()
        values: dict[str, Any] = stored.pop("channel_values")  # type: ignore[misc]
        blobs = {
            channel: [
                str(version),
                _pack(self.serde.dumps_typed(values[channel]) if channel in values else ("empty", b"")),
            ]
            for channel, version in new_versions.items()
        }
        self._append(
            thread_id,
            {
                "lg": "checkpoint",
                "ns": ns,
                "id": checkpoint["id"],
                "parent": config["configurable"].get("checkpoint_id"),
                "checkpoint": _pack(self.serde.dumps_typed(stored)),
                "metadata": _pack(self.serde.dumps_typed(get_checkpoint_metadata(config, metadata))),
                "blobs": blobs,
            },
        )
        return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": checkpoint["id"]}}

    def put_writes(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        thread_id = str(config["configurable"]["thread_id"])
        packed = [
            [WRITES_IDX_MAP.get(channel, idx), channel, _pack(self.serde.dumps_typed(value))]
            for idx, (channel, value) in enumerate(writes)
        ]
        self._append(
            thread_id,
            {
                "lg": "writes",
                "ns": config["configurable"].get("checkpoint_ns", ""),
                "checkpoint_id": config["configurable"]["checkpoint_id"],
                "task_id": task_id,
                "task_path": task_path,
                "writes": packed,
            },
        )

    def delete_thread(self, thread_id: str) -> None:
        """Deletes the thread's session: its events, snapshots and session memories (audited, as any)."""
        session_id = self._session(str(thread_id), create=False)
        with self._lock:
            self._sessions.pop(str(thread_id), None)
            if session_id is not None:
                self._threads.pop(session_id, None)
        if session_id is not None:
            with contextlib.suppress(NotFound):  # deleted meanwhile
                self._client.sessions.delete(session_id)

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copies every checkpoint and pending write of the source thread, in order, to the target thread
        (appended to its session, created if needed): the whole parent chain, as LangGraph asks, so the copy
        rebuilds exactly what the source does. The source is left as it is; a source with no session
        copies nothing."""
        source = self._session(str(source_thread_id), create=False)
        if source is None:
            return
        try:
            events = self._events(source, after=None) or []
        except NotFound:  # deleted meanwhile
            return
        contents = [event["content"] for event in events if _record_of(event) is not None]
        if not contents:
            return
        target = self._session(str(target_thread_id), create=True)
        assert target is not None
        self._append_all(target, contents)

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """``"delete"`` deletes each thread's session. ``"keep_latest"`` keeps each namespace's latest
        checkpoint with every channel value it holds and its pending writes: they go to a new session of the
        thread, and the old session, with the rest of the history, is deleted (memgov deletes a session whole,
        never single events of it)."""
        if strategy not in ("keep_latest", "delete"):
            raise ValueError(f"prune: strategy must be 'keep_latest' or 'delete' (got {strategy!r})")
        for thread_id in map(str, thread_ids):
            if strategy == "delete":
                self.delete_thread(thread_id)
                continue
            old = self._session(thread_id, create=False)
            thread = self._read(thread_id)
            records = [
                record
                for ns, checkpoints in thread.checkpoints.items()
                for record in _latest_records(thread, ns, self._channel_versions(checkpoints[max(checkpoints)][0]))
            ]
            if old is None or not records:
                continue
            self._replace_session(thread_id, old, records)

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Deletes every checkpoint whose metadata names one of ``run_ids``, in every thread of this saver's
        person and app, with its pending writes. A thread that keeps other checkpoints goes to a new session
        holding them (each with the channel values it needs, wherever a deleted checkpoint had stored them),
        and the old session is deleted, as ``prune`` does; a thread left with none is deleted."""
        wanted = {str(run_id) for run_id in run_ids}
        if not wanted:
            return
        for thread_id in self._thread_ids():
            old = self._session(thread_id, create=False)
            if old is None:
                continue
            try:
                events = self._events(old, after=None) or []
            except NotFound:  # deleted meanwhile
                continue
            kept = self._without_runs([r for r in map(_record_of, events) if r is not None], wanted)
            if kept is None:
                continue
            if kept:
                self._replace_session(thread_id, old, kept)
            else:
                self.delete_thread(thread_id)

    def _without_runs(self, records: list[dict[str, Any]], wanted: set[str]) -> list[dict[str, Any]] | None:
        """The records without the checkpoints of ``wanted`` runs and their writes; None when there are none.
        A channel value stored with a deleted checkpoint moves to the first kept one that needs it."""
        removed = {
            (record["ns"], record["id"])
            for record in records
            if record["lg"] == "checkpoint"
            and str(self.serde.loads_typed(_unpack(record["metadata"])).get("run_id")) in wanted
        }
        if not removed:
            return None
        orphans: dict[tuple[str, str, str], list[Any]] = {}
        stored: set[tuple[str, str, str]] = set()
        kept: list[dict[str, Any]] = []
        for record in records:
            ns = record["ns"]
            if record["lg"] != "checkpoint":
                if (ns, record["checkpoint_id"]) not in removed:
                    kept.append(record)
                continue
            if (ns, record["id"]) in removed:
                orphans.update({(ns, channel, str(blob[0])): blob for channel, blob in record["blobs"].items()})
                continue
            blobs = dict(record["blobs"])
            for channel, version in self._channel_versions(record["checkpoint"]).items():
                key = (ns, channel, str(version))
                if channel not in blobs and key not in stored and key in orphans:
                    blobs[channel] = orphans[key]
            stored.update((ns, channel, str(blob[0])) for channel, blob in blobs.items())
            kept.append({**record, "blobs": blobs})
        return kept

    def _replace_session(self, thread_id: str, old: str, records: list[dict[str, Any]]) -> None:
        """The thread continues in a new session holding ``records``; the old session is deleted (memgov
        deletes a session whole, never single events of it)."""
        made = self._client.sessions.create(user_id=self.user_id, app=self.app, workspace=WORKSPACE_PREFIX + thread_id)
        self._append_all(made["id"], [_dumps(record) for record in records])
        with self._lock:
            self._sessions[thread_id] = made["id"]
            self._threads.pop(old, None)
        with contextlib.suppress(NotFound):
            self._client.sessions.delete(old)

    # Async: the same calls on a worker thread (the client is synchronous, as SqliteSaver's sqlite3 is).

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return await asyncio.to_thread(self.get_tuple, config)

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        found = await asyncio.to_thread(lambda: list(self.list(config, filter=filter, before=before, limit=limit)))
        for item in found:
            yield item

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        return await asyncio.to_thread(self.put, config, checkpoint, metadata, new_versions)

    async def aput_writes(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        await asyncio.to_thread(self.put_writes, config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        await asyncio.to_thread(self.delete_thread, thread_id)

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        await asyncio.to_thread(self.copy_thread, source_thread_id, target_thread_id)

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        await asyncio.to_thread(lambda: self.prune(thread_ids, strategy=strategy))

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        await asyncio.to_thread(self.delete_for_runs, run_ids)

    def close(self) -> None:
        if self._owns_client:
            self._client.close()
