"""Agent keys (``mg_<prefix>_<secret>``; only a hash is stored) and the principal an agent becomes once
its key is accepted. The HTTP authentication that reads the key lives with the API."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from dbkit.rows import select_instances
from governance.models import AgentClient

KEY_PREFIX = "mg"


@dataclass(frozen=True)
class AgentPrincipal:
    """What ``request.user`` is for an agent: the client and its tenant, never a Django user."""

    client: AgentClient

    is_authenticated = True
    is_anonymous = False

    @property
    def tenant_id(self) -> int:
        return self.client.tenant_id

    @property
    def label(self) -> str:
        return f"agent:{self.client.name}"


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def generate_key() -> tuple[str, str, str]:
    """(full key shown once, lookup prefix, hash to store)."""
    prefix = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    full = f"{KEY_PREFIX}_{prefix}_{secret}"
    return full, prefix, hash_secret(full)


def client_for_key(key: str) -> AgentClient | None:
    """The active agent this key belongs to, or None (unknown, malformed or revoked alike)."""
    parts = key.split("_", 2)
    if len(parts) != 3 or parts[0] != KEY_PREFIX:
        return None
    # Every agent request runs this lookup: a prepared statement skips the ORM's per-call SQL
    # building, which cost several times the query itself (docs/benchmarks.md).
    client = next(iter(select_instances(AgentClient, "key_prefix = %s", [parts[1]])), None)
    if client is None or not hmac.compare_digest(client.key_hash, hash_secret(key)):
        return None
    if not client.is_active:
        return None
    return client
