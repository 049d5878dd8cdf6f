"""The API's blueprints, whose OpenAPI operations are worked out when the document is
first asked for (``/openapi.json``, ``/docs``, ``python -m tournament.web.openapi_doc``),
not when the routes are declared.

flask-openapi3 builds each operation's JSON schemas (pydantic's ``model_json_schema`` for
every body, parameter and response model) in the route's decorator: at import, that was
most of the service's start-up (speed P10) for a document few requests ever ask for. A
route's request validation needs only its annotations, which are read at once as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from flask_openapi3.blueprint import APIBlueprint as DocumentedBlueprint
from flask_openapi3.openapi import OpenAPI
from flask_openapi3.utils import parse_parameters

_documenting = threading.Lock()


class APIBlueprint(DocumentedBlueprint):
    """An :class:`flask_openapi3.blueprint.APIBlueprint` that keeps what its decorators
    say for the document and works the operations out in :meth:`document`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deferred: list[tuple[str, Callable[..., Any], dict[str, Any]]] = []
        self._documented = False

    def _collect_openapi_info(self, rule: str, func: Callable[..., Any], **kwargs: Any) -> Any:
        if self.doc_ui is True and kwargs.get("doc_ui", True) is True:
            self._deferred.append((rule, func, kwargs))
        return parse_parameters(func, doc_ui=False)  # what validation needs: the models

    def document(self) -> None:
        """Work out this blueprint's operations (paths, schemas, tags), once."""
        with _documenting:
            if self._documented:
                return
            for rule, func, kwargs in self._deferred:
                super()._collect_openapi_info(rule, func, **kwargs)
            self._documented = True


def document_blueprints(app: OpenAPI) -> None:
    """Lay every registered API blueprint's operations into ``app``'s document, in the
    order they were registered (as :meth:`OpenAPI.register_api` does for the others)."""
    for blueprint in app.blueprints.values():
        if not isinstance(blueprint, APIBlueprint):
            continue
        blueprint.document()
        for tag in blueprint.tags:
            if tag.name not in app.tag_names:
                app.tags.append(tag)
                app.tag_names.append(tag.name)
        app.paths.update(**blueprint.paths)
        app.components_schemas.update(**blueprint.components_schemas)
