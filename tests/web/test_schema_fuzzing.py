"""schemathesis against /openapi.json, with a token (issue 9): every operation, with
generated valid and invalid input, never answers 5xx and always answers what the
document says (status, content type, body schema, headers); input the schema forbids
is refused."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.web.conftest import make_web

# The schema is read when the module is collected, so the app it fuzzes is made then
# (on a throw-away store; schemathesis's fixture-based loading does not run under
# this pytest).
_FOLDER = Path(tempfile.mkdtemp(prefix="fuzz-"))
_WEB = make_web(f"sqlite:///{_FOLDER / 'fuzz.sqlite3'}", _FOLDER)
_TOKEN = _WEB.admin()
# A tournament under the id the document gives as its example, with players, a round
# and a result: the examples and the coverage phase then reach real data (and the
# answers about it), not only 404s (attack F14).
_TID = _WEB.tournament("herbstturnier-2026-11-27")
for _name in ("Anna", "Berta", "Carl", "Dora"):
    _WEB.ok("POST", f"/api/v1/tournaments/{_TID}/players", {"name": _name})
_WEB.ok("POST", f"/api/v1/tournaments/{_TID}/rounds", {})
_FIRST = _WEB.ok("GET", f"/api/v1/tournaments/{_TID}/matches/1.1")
_WEB.ok(
    "POST",
    f"/api/v1/tournaments/{_TID}/matches/1.1/results",
    {"forfeit": {"winner": _FIRST["players"][0]["id"]}},
)

schema = schemathesis.openapi.from_wsgi("/openapi.json", _WEB.app)


@schemathesis.serializer("application/x-ndjson")
def _json_lines(ctx: Any, value: Any) -> bytes:
    """A backup's body (POST /import): what the fuzzer made, one JSON value per line."""
    items = value if isinstance(value, list) else [value]
    return "".join(json.dumps(item) + "\n" for item in items).encode()


@schemathesis.check
def accepts_valid_data_or_refuses_by_a_rule(ctx: Any, response: Any, case: Any) -> bool | None:
    """schemathesis's positive_data_acceptance (ST202: a request the schema allows is
    not refused as invalid), except the refusals no JSON Schema can say: a 422 that
    names the rule of play it applies (``rule``, docs/rules.md: a player who is not
    there, an option the format has not, a file that is not UTF-8; and "not both" of
    two query parameters, which OpenAPI cannot state), a 422 naming the ``line`` of an
    uploaded backup that is not one, a 422 for an Idempotency-Key another request
    stored (the fuzzer reuses keys), and a 412 for an If-Match that is well formed but
    names another version. A 422 without a rule is the request's form, which the
    document must state (attack F14)."""
    if response.status_code == 412 and "If-Match" in (case.headers or {}):
        return None
    if response.status_code == 422:
        try:
            problem = json.loads(response.content)
        except ValueError:
            problem = None
        if isinstance(problem, dict) and (
            problem.get("rule") or "line" in problem or problem.get("field") == "Idempotency-Key"
        ):
            return None
    return positive_data_acceptance(ctx, response, case)


@schema.parametrize()
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_attack_f14_every_answer_fits_the_document_under_all_checks(case: Any) -> None:
    """Every check schemathesis has (``--checks all``), ST202 as above (operator F13,
    attack F14)."""
    case.call_and_validate(
        headers={"Authorization": f"Bearer {_TOKEN}"},
        excluded_checks=[positive_data_acceptance],
        additional_checks=[accepts_valid_data_or_refuses_by_a_rule],
    )
