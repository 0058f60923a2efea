"""bench_sessions runs end to end, prints every row with its peer's, and judges the four targets."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command

from conversations.models import Event, Session


@pytest.mark.django_db(transaction=True)
def test_it_prints_every_row_its_peer_and_the_targets():
    out = StringIO()
    call_command("bench_sessions", appends=20, batches=3, events=300, reads=6, stdout=out)
    text = out.getvalue()
    assert "this machine runs sum(range(1000)) in" in text.splitlines()[0]
    for row in (
        "memgov append, 1 event",
        "SQLiteSession.add_items, 1 item",
        "memgov append, batch of 20",
        "SQLiteSession.add_items, batch of 20",
        "SQLiteSession.get_items(limit=20)",
        "state at a random event",
        "fork at event 100",
        "fork at event 299",
        "context projection, 4,000 tokens, after a compaction",
    ):
        line = next(line for line in text.splitlines() if line.startswith(row))
        p50, p99 = (float(x) for x in re.findall(r"p\d\d\s+([\d.]+) ms", line))
        assert 0 < p50 <= p99
    assert re.search(r"storage per event at 1,000 events\s+\d+ bytes", text)
    targets = text.split("Targets", 1)[1].strip().splitlines()
    assert len(targets) == 4 and all(line.rstrip().endswith(("met", "NOT met")) for line in targets)
    # The long session really is that long, and its forks really exist (nothing copied).
    long = Session.objects.filter(user_id="carol").first()
    assert Event.objects.filter(session=long).count() == 300 + 1 + 20  # + its compaction and what came after
