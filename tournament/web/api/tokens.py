"""``/api/v1/me`` and ``/api/v1/tokens``: who is signed in, and API tokens for scripts.

A script gets its token once, with the account's email and password (rate-limited like
the login), or from the command line (``tournament tokens create EMAIL --name NAME``);
the token is shown only in that answer, stored only as its hash.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask_openapi3.models.tag import Tag
from pydantic import ConfigDict, Field

from tournament.app.services import services
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.models import Model
from tournament.web.auth import ACCOUNT, ANYONE, caller, requires
from tournament.web.problems import Problem, documented

api = APIBlueprint(
    "tokens",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[Tag(name="accounts", description="who is signed in; API tokens")],
)


class Me(Model):
    email: str | None
    admin: bool
    roles: dict[str, str] = Field(description="tournament id -> role")


class TokenRequest(Model):
    model_config = ConfigDict(extra="forbid")

    email: str = Field(min_length=3, max_length=254)
    password: str = Field(min_length=1, max_length=256)
    name: str = Field(min_length=1, max_length=100, description="what the token is for")


class TokenInfo(Model):
    id: int
    name: str
    prefix: str = Field(description="the token's first characters, to tell tokens apart")
    created_at: str
    last_used_at: str | None
    revoked_at: str | None


class NewToken(TokenInfo):
    token: str = Field(description="the token: shown this once; send it as Authorization: Bearer")


class TokenList(Model):
    tokens: list[TokenInfo]


class TokenPath(Model):
    token_id: int = Field(ge=1, le=2**62)


def _info(token: Any) -> dict[str, Any]:
    def when(moment: Any) -> str | None:
        return moment.isoformat() if moment is not None else None

    return {
        "id": token.id,
        "name": token.name,
        "prefix": token.prefix,
        "created_at": when(token.created_at),
        "last_used_at": when(token.last_used_at),
        "revoked_at": when(token.revoked_at),
    }


@api.get("/me", summary="Who is signed in, and their roles", responses={200: Me})
def me() -> Response:
    who = caller()
    roles: dict[str, str] = {}
    if who.account_id is not None:
        roles = {
            tid: role.name.lower()
            for tid, role in services().accounts.roles(who.account_id).items()
        }
    return jsonify(email=who.email, admin=who.admin, roles=roles)


@api.post(
    "/tokens",
    summary="A new API token, from the account's email and password (rate-limited)",
    responses={201: NewToken, **documented([401, 422, 429])},
)
@requires(ANYONE)
def create_token(body: TokenRequest) -> tuple[Response, int]:
    accounts = services().accounts
    account = accounts.authenticate(body.email, body.password)
    if account is None:
        raise Problem(401, "Not signed in", "wrong email or password")
    token, secret = accounts.create_token(account.email, body.name)
    return jsonify({**_info(token), "token": secret}), 201


@api.get(
    "/tokens",
    summary="The signed-in account's tokens (never the tokens themselves)",
    responses={200: TokenList, **documented([401])},
    security=[{"bearer": []}, {"session": []}],
)
@requires(ACCOUNT)
def list_tokens() -> Response:
    accounts = services().accounts
    return jsonify(tokens=[_info(t) for t in accounts.tokens(caller().email)])


@api.post(
    "/tokens/<token_id>/revoke",
    summary="Revoke one of the signed-in account's tokens",
    responses={200: TokenInfo, **documented([401, 404])},
    security=[{"bearer": []}, {"session": []}],
)
@requires(ACCOUNT)
def revoke_token(path: TokenPath) -> Response:
    accounts = services().accounts
    own = {token.id for token in accounts.tokens(caller().actor)}
    if path.token_id not in own:
        raise Problem(404, "Not found", f"token {path.token_id} is not one of your tokens")
    return jsonify(_info(accounts.revoke_token(caller().actor, str(path.token_id))))
