"""LangGraph's own store tests (tests/test_store.py of the langgraph-checkpoint source distribution, which
``make install`` fetches into var/upstream/) run against MemgovStore in place of InMemoryStore.

Each test's outcome is held here, test by test: the ones a governed store passes must pass, and the ones it
must fail, fail for the reason named (docs/integrations.md, "MemgovStore and InMemoryStore"). A change in
either direction fails this file. The tests that spy on ``InMemoryStore.batch`` with pytest-mock test that
class's internals, not a store's behaviour, and are not run.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import inspect
import os
import sys
import types
import uuid
from pathlib import Path

import pytest
from async_run import run as run_async
from django.conf import settings
from memgov_client.langgraph import MemgovStore

VERSION = importlib.metadata.version("langgraph-checkpoint")
UPSTREAM = Path(settings.BASE_DIR) / "var" / "upstream" / f"langgraph_checkpoint-{VERSION}" / "tests"

# Why a governed store must fail a test: the exception it fails with and a word to find in its message.
NOT_A_MEMORY = (ValueError, "content")  # the test stores values like {"data": …}: no text a person can read
NO_EMBEDDINGS = (TypeError, "index")  # the test configures its own embeddings; memgov ranks with its own

EXPECTED: dict[str, tuple[type[Exception], str] | None] = {
    "test_list_namespaces_empty_store": None,
    "test_list_namespaces_basic": NOT_A_MEMORY,
    "test_list_namespaces_with_wildcards": NOT_A_MEMORY,
    "test_list_namespaces_pagination": NOT_A_MEMORY,
    "test_list_namespaces_max_depth": NOT_A_MEMORY,
    "test_list_namespaces_no_conditions": NOT_A_MEMORY,
    "test_search_pages_match_full_listing": NOT_A_MEMORY,
    "test_cannot_put_empty_namespace": NOT_A_MEMORY,
    "test_search_and_listing_keep_empty_prefixes_and_wildcards": NOT_A_MEMORY,
    "test_async_search_and_listing_keep_empty_prefixes_and_wildcards[batched=False]": NOT_A_MEMORY,
    "test_async_search_and_listing_keep_empty_prefixes_and_wildcards[batched=True]": NOT_A_MEMORY,
    "test_vector_search_scores_every_item": NO_EMBEDDINGS,
    "test_vector_store_initialization": NO_EMBEDDINGS,
    "test_vector_insert_with_auto_embedding": NO_EMBEDDINGS,
    "test_async_vector_insert_with_auto_embedding": NO_EMBEDDINGS,
    "test_vector_update_with_embedding": NO_EMBEDDINGS,
    "test_async_vector_update_with_embedding": NO_EMBEDDINGS,
    "test_vector_search_with_filters": NO_EMBEDDINGS,
    "test_async_vector_search_with_filters": NO_EMBEDDINGS,
    "test_async_batched_vector_search_concurrent": NO_EMBEDDINGS,
    "test_vector_search_pagination": NO_EMBEDDINGS,
    "test_async_vector_search_pagination": NO_EMBEDDINGS,
    "test_embed_with_path": NO_EMBEDDINGS,
    "test_non_ascii": NO_EMBEDDINGS,
}


def _load_upstream() -> types.ModuleType:
    if not (UPSTREAM / "test_store.py").exists():
        message = f"LangGraph's store tests are not in {UPSTREAM}: run `make install`"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    saved = {name: sys.modules.get(name) for name in ("tests", "tests.embed_test_utils", "pytest_mock")}
    try:
        sys.modules["tests"] = types.ModuleType("tests")
        sys.modules["tests.embed_test_utils"] = _module("tests.embed_test_utils", UPSTREAM / "embed_test_utils.py")
        if importlib.util.find_spec("pytest_mock") is None:  # only its type is imported by the tests we run
            sys.modules["pytest_mock"] = types.SimpleNamespace(MockerFixture=object)  # type: ignore[assignment]
        return _module("langgraph_upstream_test_store", UPSTREAM / "test_store.py")
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def _module(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def upstream(world, live_server, monkeypatch) -> types.ModuleType:
    module = _load_upstream()

    def memgov_store(**options: object) -> MemgovStore:
        if "index" in options:
            raise TypeError("MemgovStore takes no embeddings index: memgov ranks with its own context ranking")
        # A new person per store: two stores in one test share nothing, as two InMemoryStores don't.
        return MemgovStore(base_url=live_server.url, api_key=world.demo_key, user_id=f"lg-{uuid.uuid4().hex[:12]}")

    monkeypatch.setattr(module, "InMemoryStore", memgov_store)
    return module


def _run(module: types.ModuleType, test_id: str) -> None:
    name, _sep, param = test_id.partition("[")
    function = getattr(module, name)
    kwargs: dict[str, object] = {}
    if param:
        key, _eq, value = param.rstrip("]").partition("=")
        kwargs[key] = value == "True"
    if "fake_embeddings" in inspect.signature(function).parameters:
        kwargs["fake_embeddings"] = module.CharacterEmbeddings(dims=500)
    if inspect.iscoroutinefunction(function):
        run_async(lambda: function(**kwargs))
    else:
        function(**kwargs)


@pytest.mark.parametrize("test_id", list(EXPECTED))
def test_langgraphs_store_test(upstream, test_id):
    expected = EXPECTED[test_id]
    if expected is None:
        _run(upstream, test_id)
        return
    error, word = expected
    with pytest.raises(error, match=word):
        _run(upstream, test_id)


def test_every_store_test_upstream_ships_is_accounted_for(upstream):
    shipped = {name for name in dir(upstream) if name.startswith("test_")}
    not_stores = {
        "test_async_batch_store_resilience",  # AsyncBatchedBaseStore and helpers: no store of ours involved
        "test_dedupe_ops_maps_repeated_reads_and_puts_to_one_op",
        "test_get_text_at_path",
        "test_get_text_at_path_with_non_dict_mapping",
        "test_async_batch_store",
        "test_async_batch_store_handles_cancellation",
        "test_async_batch_store_deduplication",
        "test_validate_op_namespace_rejects_invalid_labels",
        "test_validate_op_namespace_allows_empty_prefix_and_wildcards",
        "test_rejects_invalid_namespace_labels",  # spy on InMemoryStore.batch (pytest-mock)
        "test_async_rejects_invalid_namespace_labels",
    }
    assert shipped == {test_id.partition("[")[0] for test_id in EXPECTED} | not_stores
