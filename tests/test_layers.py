"""The house's walls (issue 23): which package may import which, read from the source.

Every ``import`` and ``from ... import`` counts, at the top of a module and inside its
functions alike (an import inside a function is an arrow that only shows up late); an
import under ``if TYPE_CHECKING:`` counts for the walls but not for the cycles, since it is
never run.

- ``engine/`` (the rules of the card game) imports the standard library only;
- the domain's rooms import only themselves and the rooms before them, in the order
  words < model < standings < commands < views: the model never imports what is derived
  from it (standings/), nor the commands or the views;
- nothing in ``tournament/domain/`` imports the I/O edge (``tournament.app``), the web,
  the command line, the workers, SQL (SQLAlchemy, SQLModel, psycopg), Flask or Celery;
- ``workers/`` and ``tournament/printing/`` never import ``tournament.web``;
- the error handling of the web (problems, auth, body caps) imports no page;
- there is no import cycle within ``tournament/domain/``.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The domain's rooms, lowest first: a room imports only itself and the rooms before it.
ROOMS = ("words", "model", "standings", "commands", "views")

#: Packages the domain never imports: the I/O edge, delivery, storage and frameworks.
NOT_IN_THE_DOMAIN = (
    "tournament.app",
    "tournament.web",
    "tournament.cli",
    "tournament.printing",
    "tournament.projections",
    "workers",
    "sqlalchemy",
    "sqlmodel",
    "psycopg",
    "alembic",
    "flask",
    "flask_babel",
    "celery",
    "redis",
)

#: Known arrows that break a wall, each with its reason. ``celery -A workers`` (the systemd
#: units, the compose file, the operators' docs) looks up ``workers.app``, which builds the
#: Flask app that holds the worker's configuration and services: the worker's composition
#: root. Its own bootstrap without the web app is later work (issue 23's closing note).
ALLOWED = {("workers", "tournament.web"): "the Celery entry point builds the Flask app"}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the module imported (a submodule when ``from package import module``)
    line: int
    type_checking: bool


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package.replace(".", "/")).rglob("*.py"))


def _is_module(name: str) -> bool:
    base = ROOT / name.replace(".", "/")
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports(path: Path) -> Iterator[Import]:
    """Every import of the module at ``path``, top-level, in functions and under
    TYPE_CHECKING alike (relative imports resolved)."""
    module = module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            guarded.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")
                if path.name != "__init__.py":
                    package.pop()
                package = package[: len(package) - node.level + 1]
                base = ".".join([*package, *([node.module] if node.module else [])])
            targets = []
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if _is_module(sub) else base)
        else:
            continue
        for target in targets:
            yield Import(module, target, node.lineno, id(node) in guarded)


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def room(name: str) -> str | None:
    parts = name.split(".")
    if len(parts) >= 3 and parts[:2] == ["tournament", "domain"] and parts[2] in ROOMS:
        return parts[2]
    return None


def arrows(package: str) -> list[Import]:
    return [i for path in sources(package) for i in imports(path)]


def where(i: Import) -> str:
    return f"{i.module}:{i.line} imports {i.target}"


def test_the_engine_imports_the_standard_library_only() -> None:
    foreign = [
        where(i)
        for i in arrows("engine")
        if not within(i.target, "engine") and i.target.split(".")[0] not in sys.stdlib_module_names
    ]
    assert foreign == []


def test_every_module_of_the_domain_is_in_a_room() -> None:
    # The package itself (it wires the rooms together) and the tests' event builders aside.
    outside = [
        module_name(p)
        for p in sources("tournament.domain")
        if room(module_name(p)) is None
        and module_name(p) not in ("tournament.domain", "tournament.domain.testing")
    ]
    assert outside == []


def test_each_room_imports_only_itself_and_the_rooms_before_it() -> None:
    upward = []
    for i in arrows("tournament.domain"):
        mine, theirs = room(i.module), room(i.target)
        if mine is None or not within(i.target, "tournament.domain"):
            continue
        if theirs is None or ROOMS.index(theirs) > ROOMS.index(mine):
            upward.append(where(i))
    assert upward == []


def test_the_model_never_imports_the_standings() -> None:
    assert [
        where(i)
        for i in arrows("tournament.domain.model")
        if within(i.target, "tournament.domain.standings")
    ] == []


@pytest.mark.parametrize("forbidden", NOT_IN_THE_DOMAIN)
def test_the_domain_imports_no_io_edge_delivery_sql_or_flask(forbidden: str) -> None:
    assert [where(i) for i in arrows("tournament.domain") if within(i.target, forbidden)] == []


@pytest.mark.parametrize("package", ["workers", "tournament.printing"])
def test_workers_and_print_packs_never_import_the_web(package: str) -> None:
    leaks = [
        where(i)
        for i in arrows(package)
        if within(i.target, "tournament.web") and (package, "tournament.web") not in ALLOWED
    ]
    assert leaks == []
    if (package, "tournament.web") in ALLOWED:  # only the entry point, only the app factory
        entry = [
            (i.module, i.target) for i in arrows(package) if within(i.target, "tournament.web")
        ]
        assert entry == [("workers", "tournament.web")]


@pytest.mark.parametrize("module", ["problems", "auth", "body_caps"])
def test_the_webs_error_handling_imports_no_page(module: str) -> None:
    path = ROOT / "tournament" / "web" / f"{module}.py"
    assert [where(i) for i in imports(path) if within(i.target, "tournament.web.pages")] == []


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_domain_has_no_import_cycle_even_through_imports_in_functions() -> None:
    graph: dict[str, set[str]] = {}
    for i in arrows("tournament.domain"):
        if within(i.target, "tournament.domain") and i.target != i.module and not i.type_checking:
            graph.setdefault(i.module, set()).add(i.target)
    assert cycles(graph) == []


def test_the_cycle_check_finds_a_cycle_closed_inside_a_function() -> None:
    # state -> knockout -> state, as it was before issue 23 (knockout's import in a function)
    graph = {"state": {"handlers"}, "handlers": {"knockout"}, "knockout": {"state"}}
    assert cycles(graph) == [["handlers", "knockout", "state"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
