"""The agent key in the OpenAPI document, so clients (and the fuzz test) see how agents authenticate."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object


class AgentKeyScheme(OpenApiAuthenticationExtension):
    target_class = "api.auth.AgentKeyAuthentication"
    name = "agentKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        scheme = build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Bearer")
        return {**scheme, "description": "An agent key (`mg_…`), made with `create_agent_key`; its tenant is implied."}
