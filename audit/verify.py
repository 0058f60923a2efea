"""Walk a tenant's chain, compare it with its latest signed checkpoint, and name what is wrong.

The walk finds an event that was edited, removed or reordered without the hashes being redone. The
checkpoint (audit/checkpoints.py, stored outside the database) finds what the walk can't: the tail cut
off with the head moved back ("truncated after #N"), the head row deleted ("head missing"), and a chain
edited and re-hashed from some event on ("rewritten").
"""

from __future__ import annotations

from dataclasses import dataclass

from audit.chain import GENESIS, event_hash, row_fields
from audit.checkpoints import BadCheckpoint, Checkpoint, checkpoints_of, stored_hash
from audit.models import AuditChainHead, AuditEvent


@dataclass(frozen=True)
class ChainReport:
    tenant_id: int
    events: int
    ok: bool
    first_bad_seq: int | None = None
    first_bad_id: int | None = None
    problem: str = ""
    checkpoint: Checkpoint | None = None


def _walk(tenant_id: int, batch_size: int) -> tuple[int, int, str, ChainReport | None]:
    """(events, last seq, last hash, the first broken link's report or None)."""
    expected_seq = 1
    prev_hash = GENESIS
    count = 0
    rows = AuditEvent.objects.filter(tenant_id=tenant_id).order_by("seq")
    for row in rows.iterator(chunk_size=batch_size):
        count += 1
        problem = ""
        if row.seq != expected_seq:
            problem = f"expected event #{expected_seq}, found #{row.seq}: events removed or reordered"
        elif row.prev_hash != prev_hash:
            problem = "its prev_hash does not match the event before it: removed, inserted or swapped"
        elif event_hash(row_fields(row)) != row.hash:
            problem = "its content does not match its hash: the event was edited"
        if problem:
            return count, expected_seq - 1, prev_hash, ChainReport(tenant_id, count, False, row.seq, row.pk, problem)
        prev_hash = row.hash
        expected_seq += 1
    return count, expected_seq - 1, prev_hash, None


def _against_checkpoints(
    tenant_id: int, count: int, last_seq: int, checkpoints: list[Checkpoint]
) -> ChainReport | None:
    latest = checkpoints[-1]
    if last_seq < latest.seq:
        return ChainReport(
            tenant_id,
            count,
            False,
            last_seq + 1,
            None,
            f"truncated after #{last_seq}: the checkpoint of {latest.at} names event #{latest.seq}",
            latest,
        )
    if stored_hash(tenant_id=tenant_id, seq=latest.seq) == latest.hash:
        return None
    # The latest checkpoint no longer matches: the older ones bound where the rewrite began.
    intact = next((c for c in reversed(checkpoints) if stored_hash(tenant_id=tenant_id, seq=c.seq) == c.hash), None)
    first_bad = min((c for c in checkpoints if c.seq > (intact.seq if intact else 0)), key=lambda c: c.seq)
    since = f"after #{intact.seq} (checkpoint of {intact.at} still matches)" if intact else "at or after #1"
    return ChainReport(
        tenant_id,
        count,
        False,
        first_bad.seq,
        None,
        f"rewritten {since}, at or before #{first_bad.seq}: that event no longer has the hash its checkpoint "
        f"of {first_bad.at} recorded; its later hashes were recomputed",
        latest,
    )


def verify_chain(*, tenant_id: int, batch_size: int = 2000) -> ChainReport:
    count, last_seq, last_hash, broken = _walk(tenant_id, batch_size)
    try:
        checkpoints = checkpoints_of(tenant_id=tenant_id)
    except BadCheckpoint as exc:
        return ChainReport(tenant_id, count, False, None, None, f"a checkpoint is not valid: {exc}")
    if broken is not None:
        return broken
    if checkpoints:
        report = _against_checkpoints(tenant_id, count, last_seq, checkpoints)
        if report is not None:
            return report
    head = AuditChainHead.objects.filter(tenant_id=tenant_id).first()
    if head is None and count:
        return ChainReport(
            tenant_id, count, False, None, None, f"head missing: the log has {count} events but no chain head row"
        )
    if head is not None and (head.seq != last_seq or head.head_hash != last_hash):
        return ChainReport(
            tenant_id,
            count,
            False,
            last_seq + 1,
            None,
            f"the chain head says #{head.seq} but the log ends at #{last_seq}: events removed at the end",
        )
    return ChainReport(tenant_id, count, True, checkpoint=checkpoints[-1] if checkpoints else None)
