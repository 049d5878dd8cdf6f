"""The API's shared pydantic models: problems, path parameters, pages.

These are the API's contract (they make /openapi.json); they are not the tables. Route
modules keep their own request and response models beside their routes.

Path and query models are named ``...Path`` and ``...Query``: a validation problem says
from the model's name where the bad value was (``path.pid``, ``query.round``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

#: A tournament id as the domain makes them (a-z, 0-9, - and _).
TID = Field(
    description="the tournament's id",
    min_length=1,
    max_length=120,
    pattern=r"^[A-Za-z0-9_-]+$",
    json_schema_extra={"example": "herbstturnier-2026-11-27"},
)


def event_stream_schema(events: str) -> dict[str, Any]:
    """A ``200`` of Server-Sent Events: OpenAPI 3.1 (and schemathesis) read the schema of a
    sequential media type as that of each event, here ``{event, data, id, retry}``;
    ``events``: which ones the stream sends, in words (attack F14)."""
    one_event = {
        "type": "object",
        "description": f"one event of the stream: {events}",
        "required": ["event", "data"],
        "properties": {
            "event": {"type": "string", "description": events},
            "data": {"type": "string", "description": "JSON as the operation describes"},
            "id": {"type": "string"},
            "retry": {"type": "integer"},
        },
    }
    return {"content": {"text/event-stream": {"schema": one_event}}}


class Model(BaseModel):
    """The API's models: their validators and serializers are built on first use, not
    when their module is imported (``defer_build``: ~110 models, a tenth of a
    ``tournament serve`` start, speed P10). What they accept and the OpenAPI document
    they make are the same."""

    model_config = ConfigDict(defer_build=True)


class CodedPhrase(Model):
    """A param that is a phrase of its own: its code and params, rendered in the same
    language as the message it fills (docs/api.md#errors)."""

    code: str = Field(description="the phrase's code, e.g. sheet.hand")
    params: dict[str, str | int | CodedPhrase] = Field(default_factory=dict)


class ProblemError(Model):
    field: str | None = None
    row: int | None = None
    rule: str | None = None
    message: str
    code: str | None = Field(
        None, description="the refusal's code, e.g. tally.step_too_large (docs/api.md#errors)"
    )
    params: dict[str, str | int | CodedPhrase] | None = Field(
        None,
        description='the values the code\'s message is filled with, e.g. {"hand": 2}; a '
        "value may be a phrase of its own ({code, params})",
    )


class ProblemDetails(Model):
    """RFC 9457 problem details, with what is at fault."""

    model_config = ConfigDict(extra="allow", title="Problem")

    type: str = Field(description="a URI naming the kind of problem")
    title: str
    status: int
    detail: str = Field(description="what is wrong, in words, naming the field or rule")
    instance: str | None = None
    field: str | None = Field(None, description="the field at fault, e.g. body.hands[1].winner")
    rule: str | None = Field(None, description="the rule id at fault, e.g. R13 or T-round")
    code: str | None = Field(
        None, description="a refusal's code: the same refusal in any language (docs/api.md)"
    )
    params: dict[str, str | int | CodedPhrase] | None = Field(
        None, description="the values the code's message is filled with (as in errors[])"
    )
    errors: list[ProblemError] | None = None
    request_id: str = Field(description="quote it to the operator: it names the log line")


class TournamentPath(Model):
    tid: str = TID


class PlayerPath(Model):
    tid: str = TID
    pid: int = Field(description="the player's start number", ge=1, le=1_000_000)


class RoundPath(Model):
    tid: str = TID
    n: int = Field(description="the round's number", ge=1, le=10_000)


class MatchPath(Model):
    tid: str = TID
    mid: str = Field(
        description="the match: round.table as printed (2.5) or a bracket id (W1.3)",
        min_length=1,
        max_length=40,
    )


class ResultPath(Model):
    tid: str = TID
    rid: str = Field(description="a result's id (as a match lists it)", min_length=1, max_length=80)


class QueryModel(Model):
    """A query model whose JSON schema is worked out once: flask-openapi3 asks for it
    (without arguments) on every request with a query, to find list parameters, and
    pydantic works it out afresh each time: about 8 ms of a request that otherwise
    takes one. That caller only reads it; the OpenAPI document asks with arguments and
    gets a schema of its own as before."""

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        if args or kwargs:
            return super().model_json_schema(*args, **kwargs)
        found = _QUERY_SCHEMAS.get(cls)
        if found is None:
            found = _QUERY_SCHEMAS[cls] = super().model_json_schema()
        return found


_QUERY_SCHEMAS: dict[type[BaseModel], dict[str, Any]] = {}


class WriteQuery(QueryModel):
    """Query parameters every write takes."""

    dry_run: bool = Field(
        False, description="work out and answer what would be stored; store nothing"
    )


class Stored(Model):
    """What a write stored: its events (the tournament's version after them is the
    response's ETag)."""

    model_config = ConfigDict(extra="allow")

    version: int = Field(description="the tournament's version after this write")
    events: list[dict[str, Any]]
