"""Request parsers for the JSON API."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with a 400 for a document nested too deeply to decode.

    The json module gives up on a few thousand nested arrays or objects with a RecursionError, which
    DRF (catching only ValueError) let through as a 500. No request of this API nests more than three
    levels, so such a body is never one a client meant to send.
    """

    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the document is nested too deeply.") from None
