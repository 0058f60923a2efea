"""The scope-size axis of bench_write and bench_read: each size's subjects really hold that many memories,
and the scope stays at its size while the writes are timed."""

from __future__ import annotations

from io import StringIO
from itertools import pairwise

import pytest
from django.core.management import CommandError, call_command

from evaluation import scope_bench
from evaluation.scope_bench import FIRST_INDEX, SUBJECTS_PER_SIZE
from governance.vocabulary import Status
from memories.models import Memory


def _rows(text: str) -> dict[int, list[float]]:
    rows = {}
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0].replace(",", "").isdigit() and len(parts) in (3, 5):
            rows[int(parts[0].replace(",", ""))] = [float(part) for part in parts[1:]]
    return rows


@pytest.mark.django_db(transaction=True)
def test_the_write_axis_times_warm_and_cold_writes_at_each_size():
    out = StringIO()
    call_command("bench_write", writes=4, scope_sizes="2,12", stdout=out)
    rows = _rows(out.getvalue())
    assert sorted(rows) == [2, 12] and all(len(figures) == 4 and min(figures) > 0 for figures in rows.values())
    assert "p50 at 12 / at 2:" in out.getvalue() and "cold" in out.getvalue()
    assert f"{scope_bench.ROUNDS} timed writes per cell" in out.getvalue()  # 4 asked: one a round, 8 rounds
    # The second size's subjects hold 12 seeded memories each; what the timed writes added was set aside
    # (a write that superseded a seeded memory changed it in place).
    subjects = [f"u{FIRST_INDEX + 2 * (SUBJECTS_PER_SIZE + k):05d}" for k in range(SUBJECTS_PER_SIZE)]
    assert Memory.objects.filter(user_id__in=subjects, created_by="bench").count() == 12 * SUBJECTS_PER_SIZE
    written = Memory.objects.filter(user_id__in=subjects).exclude(created_by="bench")
    assert written.exists() and not written.exclude(status=Status.DELETED).exists()


@pytest.mark.django_db(transaction=True)
def test_the_sizes_take_turns_so_the_machine_s_load_falls_on_each(monkeypatch):
    order: list[tuple[int, bool]] = []
    original = scope_bench._ScopeWriter.run

    def run(writer, writes, *, cold):
        order.append((id(writer), cold))
        return original(writer, writes, cold=cold)

    monkeypatch.setattr(scope_bench._ScopeWriter, "run", run)
    call_command("bench_write", writes=2, scope_sizes="1,3", stdout=StringIO())
    writers = list(dict.fromkeys(writer for writer, _ in order))
    timed = [writer for writer, _ in order[len(writers) :]]  # after each writer's warm-up batch
    assert len(writers) == 2 and timed.count(writers[0]) == timed.count(writers[1]) == 2 * scope_bench.ROUNDS
    switches = sum(1 for a, b in pairwise(timed) if a != b)
    assert switches >= 2 * scope_bench.ROUNDS - 1  # not one size's batches, then the other's


@pytest.mark.django_db(transaction=True)
def test_the_read_axis_prints_a_row_per_size():
    out = StringIO()
    call_command("bench_read", requests=3, scope_sizes="1,10", stdout=out)
    rows = _rows(out.getvalue())  # p50 and p99 without an index, then with the subjects indexed
    assert sorted(rows) == [1, 10] and all(len(figures) == 4 for figures in rows.values())
    assert "indexed" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_a_second_run_on_the_same_database_is_refused_rather_than_measuring_other_sizes():
    call_command("bench_write", writes=1, scope_sizes="2", stdout=StringIO())
    with pytest.raises(CommandError, match="fresh scratch database"):
        call_command("bench_read", requests=1, scope_sizes="2", stdout=StringIO())


@pytest.mark.django_db
def test_bad_sizes_are_refused_with_what_to_type():
    with pytest.raises(CommandError, match="numbers separated by commas"):
        call_command("bench_write", scope_sizes="a,b")
    with pytest.raises(CommandError, match="at least 1"):
        call_command("bench_read", scope_sizes="0")
