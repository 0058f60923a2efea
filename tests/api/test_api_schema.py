"""The OpenAPI document and its docs page are served by the app itself, with no CDN."""

from __future__ import annotations

import re


def test_the_schema_documents_the_write_api(client, db):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    assert "/api/v1/memories/write" in schema["paths"]
    assert "/api/v1/confirmations/{confirmation_id}/accept" in schema["paths"]


def test_the_docs_page_loads_its_assets_from_this_server(client, db):
    page = client.get("/api/docs/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources, "the docs page should reference its assets"
    assert all(not s.startswith(("http://", "https://", "//")) for s in sources), sources


def test_the_docs_page_runs_under_the_strict_csp(client, db):
    response = client.get("/api/docs/")
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "<script>" not in response.content.decode().replace(" ", "")  # no inline script to block


def test_the_schema_documents_the_lists_page_and_its_bounds(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/memories"]["get"]
    page = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(schema["components"]["schemas"][page]["properties"]) == {"count", "next", "previous", "results"}
    bounds = {p["name"]: p["schema"] for p in operation["parameters"]}
    assert bounds["limit"]["maximum"] == 500 and bounds["offset"]["minimum"] == 0
    assert bounds["user_id"]["minLength"] == 1


def test_the_schema_names_the_agent_key(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    scheme = schema["components"]["securitySchemes"]["agentKey"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert {"agentKey": []} in schema["paths"]["/api/v1/memories/write"]["post"]["security"]


def test_the_schema_documents_the_branch_reads_cursor(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/sessions/{session_id}/events"]["get"]
    parameters = {p["name"]: p for p in operation["parameters"] if p["in"] == "query"}
    assert set(parameters) == {"leaf", "after", "limit"}
    assert parameters["after"]["schema"] == {"type": "string", "format": "uuid"}
    assert "after" in parameters["after"]["description"] and not parameters["after"].get("required", False)
