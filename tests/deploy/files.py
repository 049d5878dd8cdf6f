"""The deploy folder's files, read as their programs read them: the compose file as YAML,
the systemd units as INI (every value of a key that repeats, as systemd keeps them), the
environment examples line by line, nginx.conf as nested blocks."""

from __future__ import annotations

import configparser
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml  # type: ignore[import-untyped]

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
UNITS = DEPLOY / "systemd"
ENV_EXAMPLE = DEPLOY / "env.example"
OWNER_ENV_EXAMPLE = DEPLOY / "owner.env.example"

#: The services that run the app (not the databases, the migration or the proxy).
APP_SERVICES = ("web", "live", "worker", "beat")


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    return loaded


def services() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = compose()["services"]
    return found


def command(service: dict[str, Any]) -> list[str]:
    """A service's command as arguments (compose takes a list or a shell-like string);
    none for a service that runs its image's own."""
    value = service.get("command", [])
    return list(value) if isinstance(value, list) else shlex.split(value)


class _Repeated(dict[str, Any]):
    """A dict that keeps every value of a repeated key (systemd's ExecStart=,
    EnvironmentFile=, ...); configparser joins them with newlines."""

    def __setitem__(self, key: str, value: Any) -> None:
        if isinstance(value, list) and key in self:
            self[key].extend(value)
        else:
            super().__setitem__(key, value)


@dataclass
class Unit:
    name: str
    sections: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def values(self, section: str, key: str) -> list[str]:
        return self.sections.get(section, {}).get(key, [])

    def value(self, section: str, key: str) -> str | None:
        found = self.values(section, key)
        return found[-1] if found else None

    def words(self, key: str, section: str = "Service") -> list[str]:
        """A command line's words, without systemd's prefixes (+, -, @, !)."""
        line = self.value(section, key)
        assert line is not None, f"{self.name} has no {key}="
        return shlex.split(line.lstrip("+-@!:"))


def unit(name: str) -> Unit:
    parser = configparser.ConfigParser(
        strict=False, interpolation=None, dict_type=_Repeated, empty_lines_in_values=False
    )
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read(UNITS / name)
    return Unit(
        name,
        {
            section: {key: parser[section][key].split("\n") for key in parser[section]}
            for section in parser.sections()
        },
    )


def service_units() -> list[str]:
    return sorted(path.name for path in UNITS.glob("*.service"))


@dataclass(frozen=True)
class Setting:
    name: str
    value: str
    optional: bool  # written `#NAME=value`: shown at its default
    documented: bool  # its block of lines has a prose comment


_SETTING = re.compile(r"^(#?)([A-Z][A-Z0-9_]*)=(.*)$")


def env_settings(path: Path) -> dict[str, Setting]:
    """The settings of an environment example: ``NAME=value`` lines and optional
    ``#NAME=value`` ones; a block (lines between blank lines) must explain them."""
    settings: dict[str, Setting] = {}
    for block in re.split(r"\n\s*\n", path.read_text()):
        lines = block.splitlines()
        prose = any(line.startswith("# ") for line in lines)
        for line in lines:
            match = _SETTING.match(line)
            if match:
                optional, name, value = match.groups()
                settings[name] = Setting(name, value, bool(optional), prose)
    return settings


def url_user(url: str) -> str | None:
    return urlsplit(url).username


@dataclass
class Block:
    """An nginx block: its directives (name, arguments) and the blocks inside it."""

    name: str
    args: list[str]
    directives: list[tuple[str, list[str]]] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    def all(self, name: str) -> list[list[str]]:
        return [args for directive, args in self.directives if directive == name]

    def first(self, name: str) -> list[str] | None:
        found = self.all(name)
        return found[0] if found else None

    def children(self, name: str) -> list[Block]:
        return [block for block in self.blocks if block.name == name]


def nginx(path: Path = DEPLOY / "nginx.conf") -> Block:
    """nginx.conf as blocks: enough of its grammar for this file (words, quotes, ; { })."""
    text = "\n".join(line.split("#", 1)[0] for line in path.read_text().splitlines())
    tokens = re.findall(r'"[^"]*"|\'[^\']*\'|[{};]|[^\s{};]+', text)
    root = Block("main", [])
    stack = [root]
    words: list[str] = []
    for token in tokens:
        if token == ";":
            stack[-1].directives.append((words[0], words[1:]))
            words = []
        elif token == "{":
            block = Block(words[0], words[1:])
            stack[-1].blocks.append(block)
            stack.append(block)
            words = []
        elif token == "}":
            assert not words, f"nginx.conf: {' '.join(words)} before }} has no ;"
            stack.pop()
        else:
            words.append(token.strip("\"'") if token[0] in "\"'" else token)
    assert len(stack) == 1 and not words, "nginx.conf: unbalanced braces"
    return root


def seconds(text: str) -> float:
    """An nginx time (``90``, ``90s``, ``2m``, ``1h``) in seconds."""
    match = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", text)
    assert match, f"not an nginx time: {text}"
    number, unit_ = int(match.group(1)), match.group(2) or "s"
    return number * {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}[unit_]
