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
