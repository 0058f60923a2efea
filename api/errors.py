"""Every API error is JSON with a message that says what to fix; input never causes a 500."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from conversations.services.errors import SessionInputError, SessionStateError
from conversations.summarize import SummarizerUnavailable
from governance.pipeline.base import InvalidCandidate

# Seconds a client should wait before asking again when a dependency (the LLM summarizer) is down.
RETRY_AFTER_SECONDS = 30


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, InvalidCandidate):
        return Response(
            {"error": "invalid_candidate", "field": exc.field, "detail": exc.message},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, SessionInputError):
        return Response(
            {"error": "invalid_request", "fields": {exc.field: [exc.message]}}, status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, SessionStateError):
        return Response({"error": exc.code, "detail": exc.message}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, SummarizerUnavailable):
        return Response(
            {"error": "summarizer_unavailable", "detail": str(exc)},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    if isinstance(exc, Http404 | PermissionDenied):
        # Not-found and forbidden look the same from outside.
        exc = exceptions.NotFound("No such resource.")
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"error": "invalid_request", "fields": response.data}
    elif isinstance(exc, exceptions.ParseError):
        response.data = {"error": "malformed_json", "detail": str(exc.detail)}
    elif isinstance(exc, exceptions.APIException):
        response.data = {"error": exc.default_code, "detail": response.data.get("detail", "")}
    return response
