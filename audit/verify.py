"""Walk a tenant's chain and name the first event that was changed, removed or reordered."""

from __future__ import annotations

from dataclasses import dataclass

from audit.chain import GENESIS, event_hash, row_fields
from audit.models import AuditChainHead, AuditEvent


@dataclass(frozen=True)
class ChainReport:
    tenant_id: int
    events: int
    ok: bool
    first_bad_seq: int | None = None
    first_bad_id: int | None = None
    problem: str = ""


def verify_chain(*, tenant_id: int, batch_size: int = 2000) -> ChainReport:
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
            return ChainReport(tenant_id, count, False, row.seq, row.pk, problem)
        prev_hash = row.hash
        expected_seq += 1
    head = AuditChainHead.objects.filter(tenant_id=tenant_id).first()
    if head is not None and (head.seq != expected_seq - 1 or head.head_hash != prev_hash):
        return ChainReport(
            tenant_id,
            count,
            False,
            expected_seq,
            None,
            f"the chain head says #{head.seq} but the log ends at #{expected_seq - 1}: events removed at the end",
        )
    return ChainReport(tenant_id, count, True)
