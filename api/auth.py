"""Agent authentication for the API: ``Authorization: Bearer <agent key>``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from governance.agents import AgentPrincipal, client_for_key


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
