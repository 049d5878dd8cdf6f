"""What the page tests read in HTML: elements, their attributes and text (the standard
library's parser: no browser needed for what the markup alone shows)."""

from __future__ import annotations

import dataclasses
import re
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


@dataclasses.dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Element] = []
        self.open: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.found.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i].tag == tag:
                del self.open[i:]
                return

    def handle_data(self, data: str) -> None:
        for element in self.open:
            element.text += data


def elements(html: str) -> list[Element]:
    parser = _Collect()
    parser.feed(html)
    parser.close()
    return parser.found


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def unlabelled(html: str) -> list[str]:
    """The elements a screen reader could not name: form fields without a label, links and
    buttons without words, landmarks and scrolling regions without a name, abbreviations
    without their full form, images without alt, tables without a caption or name."""
    found = elements(html)
    labelled_ids = {e.attrs.get("for") for e in found if e.tag == "label"}
    named_ids = {e.attrs["id"]: words(e.text) for e in found if "id" in e.attrs}
    bad = []
    for e in found:
        named = bool(e.attrs.get("aria-label")) or bool(
            named_ids.get(e.attrs.get("aria-labelledby", ""))
        )
        if e.tag in ("input", "select", "textarea") and e.attrs.get("type") != "hidden":
            if not named and e.attrs.get("id") not in labelled_ids:
                bad.append(f"<{e.tag} {e.attrs}> has no label")
        elif e.tag in ("a", "button") and not (words(e.text) or named):
            bad.append(f"<{e.tag} {e.attrs}> has no words")
        elif e.tag == "nav" or e.attrs.get("role") == "region":
            if not named:
                bad.append(f"<{e.tag} {e.attrs}> has no name")
        elif e.tag == "abbr" and not e.attrs.get("title"):
            bad.append(f"<abbr>{e.text}</abbr> has no title")
        elif e.tag == "img" and "alt" not in e.attrs:
            bad.append(f"<img {e.attrs}> has no alt")
    tables = sum(1 for e in found if e.tag == "table")
    captions = [e for e in found if e.tag == "caption" and words(e.text)]
    if len(captions) < tables:
        bad.append(f"{tables - len(captions)} of {tables} tables have no caption")
    return bad
