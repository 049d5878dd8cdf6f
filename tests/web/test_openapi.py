"""The OpenAPI 3.1 document: served at /openapi.json, equal to docs/openapi.json, and
naming the problem responses and security of the API (issue 9)."""

from __future__ import annotations

import json

from tests.web.conftest import Web
from tournament.web.openapi_doc import DOC, text


def test_docs_openapi_json_is_what_the_code_serves(web: Web) -> None:
    served = web.ok("GET", "/openapi.json", token=None)
    assert DOC.exists(), "python -m tournament.web.openapi_doc writes it"
    assert DOC.read_text(encoding="utf-8") == text(served), (
        "docs/openapi.json is out of date: python -m tournament.web.openapi_doc"
    )


def test_the_document_is_openapi_3_1_with_bearer_tokens_and_problem_details(web: Web) -> None:
    doc = web.ok("GET", "/openapi.json", token=None)
    assert doc["openapi"].startswith("3.1")
    assert doc["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    assert "Problem" in doc["components"]["schemas"]
    create = doc["paths"]["/api/v1/tournaments"]["post"]
    assert {"401", "422"} <= set(create["responses"])


def test_the_docs_page_is_served_from_the_package_without_any_cdn(web: Web) -> None:
    page = web.client.get("/docs/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "swagger" in html.lower()
    assert "http://" not in html and "https://" not in html.replace("{{doc_url}}", "")
    bundle = web.client.get("/docs/swagger/js/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.data) > 100_000
    assert web.client.get("/docs").status_code == 308
    json.dumps(web.ok("GET", "/openapi.json", token=None))  # serialisable as served
