"""memgov_client: a typed client for memgov's REST API (``Client``, ``AsyncClient``) and, with the
``langgraph`` extra, ``memgov_client.langgraph.MemgovStore``."""

from memgov_client._http import RetryPolicy
from memgov_client.aio import AsyncClient
from memgov_client.client import Client
from memgov_client.errors import (
    APIError,
    AuthenticationError,
    BadRequest,
    Conflict,
    MemgovError,
    MemoryRejected,
    NotFound,
    PermissionDenied,
    RateLimited,
    ServerError,
    ServiceUnavailable,
    TransportError,
)

__all__ = [
    "APIError",
    "AsyncClient",
    "AuthenticationError",
    "BadRequest",
    "Client",
    "Conflict",
    "MemgovError",
    "MemoryRejected",
    "NotFound",
    "PermissionDenied",
    "RateLimited",
    "RetryPolicy",
    "ServerError",
    "ServiceUnavailable",
    "TransportError",
]
