"""Agent authentication: ``Authorization: Bearer mg_<prefix>_<secret>``; only a hash is stored."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

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
    parts = key.split("_", 2)
    if len(parts) != 3 or parts[0] != KEY_PREFIX:
        return None
    # Every agent request runs this lookup: a prepared statement skips the ORM's per-call SQL
    # building, which cost several times the query itself (README, "The write benchmark").
    client = next(iter(select_instances(AgentClient, "key_prefix = %s", [parts[1]])), None)
    if client is None or not hmac.compare_digest(client.key_hash, hash_secret(key)):
        return None
    if not client.is_active:
        return None
    return client


class AgentKeyAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[AgentPrincipal, None] | None:
        header = authentication.get_authorization_header(request).decode("latin-1")
        if not header:
            return None
        scheme, _sep, key = header.partition(" ")
        if scheme != self.keyword or not key.strip():
            raise exceptions.AuthenticationFailed(_("Use 'Authorization: Bearer <agent key>'."))
        client = client_for_key(key.strip())
        if client is None:
            raise exceptions.AuthenticationFailed(_("Unknown or revoked agent key."))
        return AgentPrincipal(client), None

    def authenticate_header(self, request: Request) -> str:
        return self.keyword
