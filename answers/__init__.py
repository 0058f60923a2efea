"""The JSON the agent surfaces answer with, built from the services' results: the REST API's views and the
MCP server's tools both return these, so an agent gets the same fields, field for field, whichever it calls.

Holds only functions from results to plain JSON-ready dicts (ids as strings, times as ISO 8601 with ``Z``).
May import the apps below it (memories, conversations and their results), never the surfaces above.
"""
