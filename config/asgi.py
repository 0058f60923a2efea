"""The ASGI entry point: Django (pages and the REST API) and the MCP server at ``/mcp/``, in one process.

``uvicorn config.asgi:application`` or ``gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker``
(docs/integrations.md). ``config.wsgi`` still serves Django alone, without ``/mcp/``.

Django runs here as it does under a WSGI server: its WSGI handler on a pool of threads (a2wsgi), each thread
keeping its database connection between requests (Django's connections are per thread). Django's own ASGI
handler runs every request on a new thread, and so opens a new database connection for every request
(tests/mcpserver/test_mcp_http.py holds this entry point to one).
"""

import os
from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

django_wsgi = get_wsgi_application()  # sets Django up: the imports below need its apps loaded

from config.warmup import warm_up_process  # noqa: E402
from mcpserver.http import McpHttpApp  # noqa: E402

WEB_THREADS = int(os.environ.get("MEMGOV_WEB_THREADS", "8"))

django_application = WSGIMiddleware(django_wsgi, workers=WEB_THREADS)
mcp_application = McpHttpApp()
MCP_PATHS = frozenset({"/mcp", "/mcp/"})


async def _lifespan(receive: Callable[..., Any], send: Callable[..., Any]) -> None:
    """Django has no lifespan of its own; the MCP session manager's task group lives for the process."""
    stack = AsyncExitStack()
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            try:
                await stack.enter_async_context(mcp_application.lifespan())
            except Exception as exc:
                await send({"type": "lifespan.startup.failed", "message": str(exc)})
                return
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await stack.aclose()
            await send({"type": "lifespan.shutdown.complete"})
            return


async def application(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
    elif scope["type"] == "http" and scope["path"] in MCP_PATHS:
        await mcp_application(scope, receive, send)
    else:
        await django_application(scope, receive, send)


warm_up_process()
