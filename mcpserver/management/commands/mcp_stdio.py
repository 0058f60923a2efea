"""``manage.py mcp_stdio``: the MCP server over stdin/stdout, for a client that launches it (Claude Desktop).

The agent key comes from ``MEMGOV_AGENT_KEY`` (never an argument, which ``ps`` would show) and is checked
on every call, so revoking it stops the process's next call; ``MEMGOV_USER_ID`` optionally names the person
the OpenMemory-style tools act for. Nothing but MCP messages is written to stdout.
"""

from __future__ import annotations

import logging
import os
import sys

from django.core.management.base import BaseCommand, CommandError

from governance.agents import client_for_key
from mcpserver.calls import Binding
from mcpserver.server import build_server


class Command(BaseCommand):
    help = "Serve memgov's MCP tools over stdio; the agent key comes from MEMGOV_AGENT_KEY."
    requires_system_checks = []

    def handle(self, *args: object, **options: object) -> None:
        key = os.environ.get("MEMGOV_AGENT_KEY", "").strip()
        if not key:
            raise CommandError("set MEMGOV_AGENT_KEY to the agent key (manage.py create_agent_key prints one)")
        if client_for_key(key) is None:
            raise CommandError("MEMGOV_AGENT_KEY is unknown or revoked")
        # stdout carries the protocol: every log line goes to stderr.
        logging.basicConfig(stream=sys.stderr, force=True)
        for handler in logging.getLogger().handlers:
            if getattr(handler, "stream", None) is sys.stdout:
                handler.setStream(sys.stderr)
        subject = os.environ.get("MEMGOV_USER_ID", "").strip()[:128]
        build_server(fallback=Binding(key=key, subject=subject)).run("stdio")
