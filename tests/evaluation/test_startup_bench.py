"""bench_startup's parts: the memory it sums is every process of the server, and one real start of gunicorn
(config.asgi on a UvicornWorker, --preload) on this test database answers a write and reports its memory."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from child_env import database_env

from evaluation.startup_bench import gunicorn_argv, measure, memory_kib, process_tree
from governance.services.tenancy import agent_key_create


def test_the_process_tree_holds_the_children_and_memory_is_read_for_each():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        for _ in range(50):
            if child.pid in process_tree(os.getpid()):
                break
            time.sleep(0.05)
        assert child.pid in process_tree(os.getpid())
        pss, rss = memory_kib(child.pid)
        assert 0 < pss <= rss
    finally:
        child.kill()
        child.wait()
    assert memory_kib(child.pid) == (0, 0)  # gone: nothing to count


def test_preload_is_the_only_difference_between_the_two_commands():
    plain = gunicorn_argv(port=8123, workers=4, preload=False)
    assert gunicorn_argv(port=8123, workers=4, preload=True) == [*plain, "--preload"]
    assert plain[plain.index("--workers") + 1] == "4" and "config.asgi:application" in plain


def test_a_preloaded_server_answers_a_write_and_its_memory_is_summed(world, transactional_db, monkeypatch):
    for name, value in {**database_env(), "DJANGO_SETTINGS_MODULE": "config.settings"}.items():
        monkeypatch.setenv(name, value)
    _agent, key = agent_key_create(tenant=world.demo, name="startup-bench", actor="test")
    started = measure(key=key, subject_prefix="startup", workers=1, preload=True)
    assert started.preload and started.workers == 1
    assert started.first_answer_s > 0
    assert 50 < started.pss_mib <= started.rss_mib  # a Django process with the detector loaded, master and worker
    from memories.models import Memory

    assert Memory.objects.filter(tenant=world.demo, user_id__startswith="startup-").count() == 13
