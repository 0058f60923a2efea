"""``GET /api/v1/audit/export``: the tenant's audit events, streamed, for compliance officers only."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.checkpoints import CheckpointMismatch
from audit.export import (
    ChainDoesNotMatchCheckpoint,
    ExportInputError,
    audit_export_response,
    audit_export_start,
    export_params_parse,
)
from audit.signing import SigningKeyMissing
from governance.agents import AgentPrincipal
from governance.models import Tenant
from governance.permissions import AUDIT_PERM, membership_with_perm


class _AlwaysJson(BaseContentNegotiation):
    """``format`` is this endpoint's own parameter (jsonl|csv), not DRF's renderer override; errors are JSON."""

    def select_parser(self, request: Request, parsers: list[Any]) -> Any:
        return parsers[0] if parsers else None

    def select_renderer(
        self, request: Request, renderers: list[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        return renderers[0], renderers[0].media_type


def audit_exporter_for(request: Request) -> tuple[Tenant, str]:
    """The tenant the caller may export and the actor to record; Http404 for everyone else.

    An agent key needs ``can_export_audit``; a person needs ``governance.audit_tenant`` on their tenant.
    """
    user = request.user
    if isinstance(user, AgentPrincipal):
        if user.client.can_export_audit:
            return user.client.tenant, user.label
        raise Http404
    membership = membership_with_perm(user, AUDIT_PERM)
    if membership is None:
        raise Http404
    return membership.tenant, f"user:{user.get_username()}"


class AuditExportApi(APIView):
    renderer_classes = [JSONRenderer]
    content_negotiation_class = _AlwaysJson

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=["jsonl", "csv"], description="default jsonl"),
            OpenApiParameter("from", OpenApiTypes.DATETIME, description="ISO 8601; inclusive; omit for the start"),
            OpenApiParameter("to", OpenApiTypes.DATETIME, description="ISO 8601; exclusive (a date: through that day)"),
        ],
        responses={
            200: OpenApiResponse(description="JSONL or CSV, streamed; the last line is the signed manifest"),
            400: OpenApiResponse(description="a bad parameter, named in `fields`"),
            404: OpenApiResponse(description="not a compliance officer (or agent key with can_export_audit)"),
            409: OpenApiResponse(description="the chain no longer matches its last signed checkpoint (tampered)"),
            503: OpenApiResponse(description="no audit signing key is configured"),
        },
        summary="Export the tenant's audit events with a signed manifest",
    )
    def get(self, request: Request) -> HttpResponseBase:
        tenant, actor = audit_exporter_for(request)
        params = request.query_params
        try:
            fmt, start, end = export_params_parse(
                fmt=params.get("format"), start=params.get("from"), end=params.get("to")
            )
        except ExportInputError as exc:
            raise ValidationError({exc.field: [exc.message]}) from exc
        try:
            export = audit_export_start(tenant=tenant, fmt=fmt, start=start, end=end, actor=actor)
        except (ChainDoesNotMatchCheckpoint, CheckpointMismatch) as exc:
            return Response({"error": "audit_chain_tampered", "detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        except SigningKeyMissing as exc:
            return Response(
                {"error": "export_unavailable", "detail": str(exc)}, status=status.HTTP_503_SERVICE_UNAVAILABLE
            )
        return audit_export_response(export)
