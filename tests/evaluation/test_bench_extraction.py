"""bench_extraction runs end to end at tiny sizes and prints its figures (the figures themselves are the
benchmark's business, not a timed test's)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


@pytest.mark.django_db(transaction=True)
def test_it_prints_phase_1_and_phase_2_figures():
    out = StringIO()
    call_command("bench_extraction", "--sessions", "2", "--memories", "40", "--per-subject", "20", "--json", stdout=out)
    figures = json.loads(out.getvalue().strip().splitlines()[-1])
    phase1, phase2 = figures["phase1"], figures["phase2"]
    assert phase1["sessions"] == 2 and phase1["events_per_session"] == 50
    assert phase1["candidates"] >= 4 and 0 < phase1["write_pipeline_share"] <= 1
    assert phase2["memories"] == 40 and phase2["proposed"] >= 1 and phase2["skipped_not_dirty"] == 2


@pytest.mark.django_db
def test_bad_sizes_are_refused():
    with pytest.raises(CommandError, match="at least 1"):
        call_command("bench_extraction", "--sessions", "0")
