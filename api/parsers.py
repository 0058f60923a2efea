"""Request parsers for the JSON API: DRF's, with a 400 where theirs let bad input through as a 500."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

Context = Mapping[str, Any] | None


class JSONParser(parsers.JSONParser):
    """A 400 for a document nested too deeply to decode.

    The json module gives up on a few thousand nested arrays or objects with a RecursionError, which
    DRF (catching only ValueError) let through. No request of this API nests more than three levels,
    so such a body is never one a client meant to send.
    """

    def parse(self, stream: IO[Any], media_type: str | None = None, parser_context: Context = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the document is nested too deeply.") from None


def _undecodable(exc: UnicodeError, parser_context: Context) -> ParseError:
    charset = parsers.get_encoding(parser_context or {})
    return ParseError(f"Form parse error - the body can't be read as {charset} ({exc}); send UTF-8.")


class FormParser(parsers.FormParser):
    """A 400 for a body that the charset named in its Content-Type can't decode.

    Any codec Python knows is accepted as a charset; some (idna, punycode, …) fail on ordinary form
    text, and DRF's parsers didn't catch that.
    """

    def parse(self, stream: IO[Any], media_type: str | None = None, parser_context: Context = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except UnicodeError as exc:
            raise _undecodable(exc, parser_context) from None


class MultiPartParser(parsers.MultiPartParser):
    """The same as :class:`FormParser`, for multipart bodies."""

    def parse(self, stream: IO[Any], media_type: str | None = None, parser_context: Context = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except UnicodeError as exc:
            raise _undecodable(exc, parser_context) from None
