"""``/api/v1/tournaments/{tid}/members``: who holds which role in a tournament.

Owners grant and take back roles (scorer: enters and signs results; organiser: runs the
tournament; owner: also grants roles); organisers see who may do what. Roles live with
the accounts, not in the tournament's log: they say who may write, not what happened.
"""

from __future__ import annotations

from typing import Literal

from flask import Response, jsonify
from flask_openapi3.models.tag import Tag
from pydantic import ConfigDict, Field

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.models import Model, TournamentPath
from tournament.web.auth import caller, requires
from tournament.web.problems import Problem, documented

api = APIBlueprint(
    "members",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[Tag(name="accounts", description="who is signed in; API tokens; roles")],
)

RoleName = Literal["scorer", "organiser", "owner"]


class Member(Model):
    email: str
    role: str


class MemberList(Model):
    members: list[Member]


class Grant(Model):
    model_config = ConfigDict(extra="forbid", strict=True)

    email: str = Field(min_length=3, max_length=254, description="an account of this service")
    role: RoleName = Field(description="scorer, organiser or owner")


class Revoke(Model):
    model_config = ConfigDict(extra="forbid", strict=True)

    email: str = Field(min_length=3, max_length=254)


def _members(tid: str) -> list[dict[str, str]]:
    return [
        {"email": account.email, "role": role.name.lower()}
        for account, role in services().accounts.members(tid)
    ]


def _exists(tid: str) -> None:
    services().tournaments.state(tid)  # 404 naming the tournament when it is not there


@api.get(
    "/tournaments/<tid>/members",
    summary="Who holds which role in the tournament",
    responses={200: MemberList, **documented([401, 403, 404])},
)
@requires(Role.ORGANISER)
def list_members(path: TournamentPath) -> Response:
    """Not published: it names accounts (organisers and up only)."""
    _exists(path.tid)
    return jsonify(members=_members(path.tid))


@api.post(
    "/tournaments/<tid>/members",
    summary="Give an account a role in the tournament (replacing the one it had)",
    responses={200: MemberList, **documented([401, 403, 404, 422])},
)
@requires(Role.OWNER)
def grant_role(path: TournamentPath, body: Grant) -> Response:
    _exists(path.tid)
    services().accounts.grant(body.email, path.tid, Role.parse(body.role), by=caller().actor)
    return jsonify(members=_members(path.tid))


@api.post(
    "/tournaments/<tid>/members/revoke",
    summary="Take an account's role in the tournament away",
    responses={200: MemberList, **documented([401, 403, 404, 409, 422])},
)
@requires(Role.OWNER)
def revoke_role(path: TournamentPath, body: Revoke) -> Response:
    _exists(path.tid)
    if body.email.strip().lower() == (caller().email or "").lower():
        raise Problem(
            409,
            "Conflicts with what is recorded",
            "you cannot take your own role away (another owner, or an admin, can)",
            field="body.email",
        )
    if not services().accounts.revoke_role(body.email, path.tid):
        raise Problem(
            404, "Not found", f"{body.email} holds no role in {path.tid!r}", field="body.email"
        )
    return jsonify(members=_members(path.tid))
