"""A deletion racing an index build, in two threads on real connections (SQLite and PostgreSQL alike):
neither fails, the memory is deleted, and no index is left holding it."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from memories.models import Memory
from memories.read.index import retrieval_index_of
from memories.services import retrieval_index
from memories.services.records import memory_delete

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


def _race(world, victim: Memory, monkeypatch) -> dict[str, BaseException]:
    """A refresh is held in the middle of opening the subject's memories while the victim is deleted."""
    inside, release = threading.Event(), threading.Event()
    features = retrieval_index.text_features

    def held(text: str):
        if not inside.is_set():
            inside.set()
            release.wait(20)
        return features(text)

    monkeypatch.setattr(retrieval_index, "text_features", held)
    errors: dict[str, BaseException] = {}

    def run(name: str, work) -> None:
        try:
            work()
        except BaseException as exc:
            errors[name] = exc
        finally:
            connections.close_all()

    def refresh() -> None:
        retrieval_index.retrieval_index_refresh(tenant_id=world.demo.pk, owner="alice")

    build = threading.Thread(target=run, args=("refresh", refresh))
    build.start()
    assert inside.wait(20)
    delete = threading.Thread(
        target=run, args=("delete", lambda: memory_delete(memory=Memory.objects.get(pk=victim.pk), actor="test"))
    )
    delete.start()
    delete.join(2)  # the build holds no lock while it opens memories: the deletion goes through now
    release.set()
    build.join(60)
    delete.join(60)
    return errors


@pytest.mark.parametrize("built_before", [False, True], ids=["first build", "rebuild"])
def test_a_deletion_during_a_build_leaves_no_index_holding_the_memory(world, make_memory, monkeypatch, built_before):
    memories = [
        make_memory(world.demo, f"Project note {n}: ledger-sync deploys with Argo CD", user_id="alice")
        for n in range(retrieval_index.INDEX_MIN_MEMORIES + 1)
    ]
    if built_before:
        retrieval_index.retrieval_index_refresh(tenant_id=world.demo.pk, owner="alice")
    victim = memories[5]
    assert _race(world, victim, monkeypatch) == {}
    assert Memory.objects.get(pk=victim.pk).status == "deleted"
    index = retrieval_index_of(tenant_id=world.demo.pk, owner="alice")
    assert index is None or str(victim.pk) not in index._position
