"""The agent key's scopes, checked on every API request before the view runs (governance/scopes.py).

A person's browser session is not an agent and passes through; their own rules apply in the views.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework import exceptions, permissions, status
from rest_framework.request import Request

from governance.agents import AgentPrincipal
from governance.scopes import ScopeLookup, scope_for_endpoint

if TYPE_CHECKING:  # the settings import this module while rest_framework.views is still loading
    from rest_framework.views import APIView


class InsufficientScope(exceptions.APIException):
    """403, not 404: the key's own limits are no secret of anyone's data, and its developer needs to know."""

    status_code = status.HTTP_403_FORBIDDEN
    default_code = "insufficient_scope"


class AgentScopePermission(permissions.BasePermission):
    def has_permission(self, request: Request, view: APIView) -> bool:
        user = request.user
        if not isinstance(user, AgentPrincipal):
            return True
        match = request.resolver_match
        route = match.route if match is not None else ""
        needed = scope_for_endpoint(method=request.method or "", route=route)
        if needed == ScopeLookup.OWN_RIGHT:
            return True
        if needed is None and scope_for_endpoint(method="OPTIONS", route=route) is not None:
            return True  # a known path, a method it doesn't have: the view answers 405
        if needed is None:
            raise InsufficientScope(f"No agent key may call {request.method} /{route}.")
        if needed not in user.client.scopes:
            raise InsufficientScope(f"This agent key lacks the scope {needed} (an admin grants it under Agent keys).")
        return True
