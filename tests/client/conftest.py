"""memgov_client against pytest-django's live server (a real HTTP server on the test database)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from memgov_client import Client


@pytest.fixture
def memgov(world, live_server) -> Iterator[Client]:
    with Client(live_server.url, world.demo_key) as client:
        yield client


@pytest.fixture
def acme(world, live_server) -> Iterator[Client]:
    with Client(live_server.url, world.acme_key) as client:
        yield client


def pytest_configure(config: pytest.Config) -> None:
    # The Agents SDK's own tests (test_openai_agents_upstream.py) carry pytest-asyncio's mark, which this
    # suite doesn't use; their marks are dropped when they run here, but they must be known to import them.
    config.addinivalue_line("markers", "asyncio: pytest-asyncio's mark, on the Agents SDK's upstream tests")
