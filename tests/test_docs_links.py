"""Every relative link and image in README.md and docs/*.md leads to a file that exists, and an
`#anchor` to a heading of it (the README's sections moved to docs/, and links rot silently)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDES = [ROOT / "bench" / "results" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PAGES = [ROOT / "README.md", *GUIDES]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text())
    return {slug(m) for m in re.findall(r"^#+\s+(.+)$", text, re.M)}


def links(page: Path) -> list[str]:
    return LINK.findall(FENCE.sub("", page.read_text()))


def broken(page: Path) -> list[str]:
    found = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):
            continue  # http(s), mailto: not this test's business
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            found.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            found.append(f"{target}: no such heading")
    return found


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_relative_link_leads_somewhere(page):
    assert broken(page) == []


def test_the_check_finds_a_missing_file_and_a_missing_heading(tmp_path):
    (tmp_path / "other.md").write_text("# Other page\n\n## A section\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-section) [gone](missing.md) [nohead](other.md#nowhere) ![img](x.png)\n"
        "```\n[in a fence](ignored.md)\n```\n"
    )
    assert broken(page) == ["missing.md: no such file", "other.md#nowhere: no such heading", "x.png: no such file"]


def test_the_readme_links_every_guide():
    readme = {target.partition("#")[0] for target in links(ROOT / "README.md")}
    assert [page for page in GUIDES if page.relative_to(ROOT).as_posix() not in readme] == []
