"""URL rules that build their URL builders on first use (start-up speed, speed P10).

Werkzeug compiles two Python functions per rule when the rule is added to the map (the
URL builders of ``url_for``: an AST made, compiled and run for each), about a third of a
millisecond a rule on this service's ~140 rules -- a good part of ``tournament serve``'s
start spent on builders most of which a process never calls. Matching a request does
not use them; :class:`LazyBuildRule` makes each one the first time ``url_for`` needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing import Rule


class LazyBuildRule(Rule):
    """A :class:`~werkzeug.routing.Rule` whose URL builders are compiled on first call
    (two threads at once may both compile one: the same function, harmless)."""

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        made: list[Callable[..., tuple[str, str]]] = []

        # Rule.compile binds what this returns to the rule (``__get__``): ``rule`` is self.
        def build(rule: Rule, **values: Any) -> tuple[str, str]:
            if not made:
                made.append(Rule._compile_builder(rule, append_unknown))
            return made[0](rule, **values)

        return build
