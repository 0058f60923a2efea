"""A strict Content-Security-Policy: every asset comes from this app, nothing inline runs."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", POLICY)
        return response


# Seconds a client should wait before retrying while a dependency (the database) is unreachable.
RETRY_AFTER_SECONDS = 5
_UNAVAILABLE = "The service can't reach its database right now; nothing was changed. Try again shortly."


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _json(status: int, error: str, detail: str, **headers: str) -> HttpResponse:
    from django.http import JsonResponse

    response = JsonResponse({"error": error, "detail": detail}, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: JSON for the API, a short page for people (never a traceback)."""
    if _is_api(request):
        return _json(503, "service_unavailable", _UNAVAILABLE, **{"Retry-After": str(RETRY_AFTER_SECONDS)})
    response = HttpResponse(_UNAVAILABLE, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _is_debug_page(response: HttpResponse) -> bool:
    """Django's technical 404/500 page (it lists URL patterns or a traceback), shown when DEBUG is on."""
    return (
        response.status_code in (404, 500)
        and "text/html" in response.get("Content-Type", "")
        and not getattr(response, "streaming", False)
        and b"DEBUG = True" in response.content
    )


def _branded(request: HttpRequest, status: int) -> HttpResponse:
    """The branded page people get in production, in their language (templates/404.html, 500.html)."""
    from django.shortcuts import render
    from django.template.loader import render_to_string

    if status == 404:
        return render(request, "404.html", status=404)
    return HttpResponse(render_to_string("500.html"), status=500)  # no request: nothing that could fail again


class CleanFailureMiddleware:
    """Every failure answers cleanly, debugging on or off.

    - The database unreachable (or locked past its timeout): 503 with ``Retry-After``, JSON on the API.
    - On the API, every error is JSON: a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is refused with 413
      before anything reads it, too many form fields is a 400 naming the limit, and any HTML error page
      Django would send (a malformed id in a path is its 404) becomes ``{"error", "detail"}``.

    - With ``MEMGOV_DEBUG`` on, people still get the branded 404/500 pages; Django's debug pages (URL
      patterns, tracebacks) only when ``MEMGOV_DEBUG_PAGES`` asks for them too.

    Outermost in MIDDLEWARE, so it sees the answer of everything below it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from django.conf import settings

        if _is_api(request):
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if limit is not None and length > limit:
                return _json(413, "body_too_large", f"The request body is over {limit} bytes; send less.")
        response = self.get_response(request)
        if _is_api(request) and response.status_code >= 400 and "json" not in response.get("Content-Type", ""):
            from http import HTTPStatus

            try:
                phrase = HTTPStatus(response.status_code).phrase
            except ValueError:
                phrase = "Error"
            detail = {404: "No such resource."}.get(response.status_code, phrase + ".")
            replaced = _json(response.status_code, phrase.lower().replace(" ", "_").replace("-", "_"), detail)
            for name in ("Retry-After", "Allow", "WWW-Authenticate"):
                if name in response:
                    replaced[name] = response[name]
            return replaced
        if settings.DEBUG and not settings.MEMGOV_DEBUG_PAGES and _is_debug_page(response):
            return _branded(request, response.status_code)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
        from django.db import InterfaceError, OperationalError

        if isinstance(exception, OperationalError | InterfaceError):
            return unavailable_response(request)
        if not _is_api(request):
            return None
        if isinstance(exception, RequestDataTooBig):
            return _json(413, "body_too_large", "The request body is too large; send less.")
        if isinstance(exception, TooManyFieldsSent):
            from django.conf import settings

            limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
            return _json(400, "too_many_fields", f"The request has more than {limit} fields; send fewer.")
        if isinstance(exception, SuspiciousOperation):
            return _json(400, "bad_request", "The request was refused as malformed.")
        return None
