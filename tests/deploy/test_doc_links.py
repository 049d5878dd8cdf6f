"""The operators' guides link to the section they name (operator trial of main, 6b: "the
seal key" led to the PostgreSQL roles, because the key's paragraphs sat in that section).
Anchors as GitHub makes them from headings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.deploy.files import REPO

DOCS = REPO / "docs"
GUIDES = ("operations.md", "deploy.md", "organisers.md", "api.md")
LINK = re.compile(r"\[([^\]]+)\]\(((?:[a-z-]+\.md)?)#([^)\s]+)\)")


def anchors(path: Path) -> set[str]:
    """GitHub's anchors: a heading lower-cased, punctuation dropped, spaces as hyphens."""
    found = set()
    inside_code = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            inside_code = not inside_code
        if inside_code or not line.startswith("#"):
            continue
        heading = line.lstrip("#").strip().lower()
        found.add(re.sub(r"[^\w\- ]", "", heading).replace(" ", "-"))
    return found


@pytest.mark.parametrize("guide", GUIDES)
def test_every_link_into_a_section_finds_its_heading_opfix_6b(guide: str) -> None:
    text = (DOCS / guide).read_text()
    broken = [
        f"[{words}]({target}#{anchor})"
        for words, target, anchor in LINK.findall(text)
        if anchor not in anchors(DOCS / (target or guide))
    ]
    assert broken == []


def test_links_to_the_seal_key_lead_to_its_own_section_opfix_6b() -> None:
    links = [
        (guide, target, anchor)
        for guide in GUIDES
        for words, target, anchor in LINK.findall((DOCS / guide).read_text())
        if words.lower() == "the seal key"
    ]
    assert links and all(anchor == "the-seal-key" for _, _, anchor in links), links
    assert "the-seal-key" in anchors(DOCS / "operations.md")
