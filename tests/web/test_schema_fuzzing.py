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
_WEB.tournament("club")

schema = schemathesis.openapi.from_wsgi("/openapi.json", _WEB.app)


@schemathesis.serializer("application/x-ndjson")
def _json_lines(ctx: Any, value: Any) -> bytes:
    """A backup's body (POST /import): what the fuzzer made, one JSON value per line."""
    items = value if isinstance(value, list) else [value]
    return "".join(json.dumps(item) + "\n" for item in items).encode()


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_operation_answers_5xx_or_off_its_schema(case: Any) -> None:
    case.call_and_validate(
        headers={"Authorization": f"Bearer {_TOKEN}"},
        # A request the schema allows may still be refused by the rules (a player who
        # is not there, a round that may not be drawn yet): that 4xx is right, and it
        # is checked to be documented problem+json like every other answer.
        excluded_checks=[positive_data_acceptance],
    )
