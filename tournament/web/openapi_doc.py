"""docs/openapi.json: the API's OpenAPI 3.1 document as the code makes it, checked in
so that API users can read it without running the service (a test keeps it equal).

    python -m tournament.web.openapi_doc            # rewrite docs/openapi.json
    python -m tournament.web.openapi_doc --check    # exit 1 if it differs
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "openapi.json"


def document() -> dict[str, Any]:
    """The document the app serves at /openapi.json (made on a throw-away store)."""
    from tournament.web import create_app
    from tournament.web.docs_ui import api_document

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE_URL": f"sqlite:///{folder}/openapi.sqlite3",
                "SECRET_KEY": "openapi",
                "INSTANCE_PATH": folder,
                "METRICS": False,
            }
        )
        found = api_document(app)
        app.extensions["schnapsen"].store.close()
        return found


def text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    made = text(document())
    if "--check" in argv:
        if not DOC.exists() or DOC.read_text(encoding="utf-8") != made:
            print(f"{DOC} differs from the code: python -m tournament.web.openapi_doc")
            return 1
        return 0
    DOC.write_text(made, encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
