"""bench_write runs end to end and prints its table (the figures themselves are for the README)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from memories.models import Memory


@pytest.mark.django_db(transaction=True)
def test_it_prints_every_row_and_the_ratio():
    out = StringIO()
    call_command("bench_write", writes=10, sizes="1200", stdout=out)
    text = out.getvalue()
    for row in (
        "pipeline via service @ 1,200 stored",
        "pipeline via HTTP    @ 1,200 stored",
        "sensitivity detection",
        "AES-GCM seal",
        "record insert + audit append",
        "(all a save stores: 2 rows + 3 events)",
        "(the 2 reads before deciding)",
        "(deciding: run_pipeline alone)",
        "first write of a new subject (x500)",
    ):
        line = next(line for line in text.splitlines() if line.startswith(row))
        p50, p99, per_second = (float(figure) for figure in line[len(row) :].split())
        assert 0 < p50 <= p99 and per_second > 0
    assert "pipeline/parts ratio" in text
    assert "pipeline/steps ratio" in text
    assert "this machine runs sum(range(1000)) in" in text.splitlines()[0]
    # Each size is measured with its own subjects, each of whom wrote once before the timed writes.
    assert Memory.objects.filter(user_id__startswith="user-1200-").values("user_id").distinct().count() == 500


@pytest.mark.django_db(transaction=True)
def test_the_http_rows_do_not_depend_on_the_deployments_allowed_hosts(settings):
    # The benchmark's test client talks to its own process; a production ALLOWED_HOSTS must not turn
    # its HTTP writes into 400s.
    settings.ALLOWED_HOSTS = ["memgov.example.com"]
    out = StringIO()
    # 5,000 rows are bulk-inserted at once: more parameters than PostgreSQL takes in one statement.
    call_command("bench_write", writes=3, sizes="5000", stdout=out)
    assert "pipeline via HTTP    @ 5,000 stored" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_durability_is_set_for_the_run_and_printed():
    from django.db import connection

    from evaluation.durability import commit_durability, set_durability

    expected = {"postgresql": ("synchronous_commit=on", "synchronous_commit=off"), "sqlite": ("FULL", "NORMAL")}
    flushed, relaxed = expected[connection.vendor]
    set_durability("flushed")
    assert flushed in commit_durability() and "(flushed commits)" in commit_durability()
    set_durability("relaxed")
    assert relaxed in commit_durability() and "(relaxed commits)" in commit_durability()
    out = StringIO()
    call_command("bench_write", writes=5, sizes="600", durability="flushed", stdout=out)
    assert "(flushed commits)" in out.getvalue().splitlines()[0]
    set_durability("relaxed")


def test_an_unknown_durability_names_the_choices():
    with pytest.raises(CommandError, match="flushed, relaxed"):
        call_command("bench_write", writes=5, sizes="600", durability="fast")
