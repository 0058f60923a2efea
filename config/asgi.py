"""The ASGI entry point: Django (pages and the REST API) and the MCP server at ``/mcp/``, in one process.

``uvicorn config.asgi:application`` or ``gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker``
(docs/integrations.md). ``config.wsgi`` still serves Django alone, without ``/mcp/``.
"""

import os
from contextlib import AsyncExitStack

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application

django_application = get_asgi_application()

from config.warmup import warm_up_process  # noqa: E402
from mcpserver.http import McpHttpApp  # noqa: E402

mcp_application = McpHttpApp()
MCP_PATHS = frozenset({"/mcp", "/mcp/"})


async def _lifespan(receive, send) -> None:
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


async def application(scope, receive, send) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
    elif scope["type"] == "http" and scope["path"] in MCP_PATHS:
        await mcp_application(scope, receive, send)
    else:
        await django_application(scope, receive, send)


warm_up_process()
