"""Every link in README.md and docs/ stays inside the repository and leads somewhere: the
file exists and, for a ``#fragment`` into a Markdown page, so does the heading.

The Markdown is parsed with markdown-it-py (CommonMark), so text in code blocks and code
spans is never taken for a link.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

_PARSER = MarkdownIt("commonmark").enable("table")


def _inline_tokens(text: str) -> list[Token]:
    tokens = []
    for block in _PARSER.parse(text):
        if block.type == "inline" and block.children:
            tokens.extend(block.children)
    return tokens


def _links(text: str) -> list[str]:
    """The targets of the page's links and images, in order."""
    targets = []
    for token in _inline_tokens(text):
        if token.type == "link_open":
            targets.append(str(token.attrs["href"]))
        elif token.type == "image":
            targets.append(str(token.attrs["src"]))
    return targets


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives the page's headings (a repeated one gains -1, -2, ...)."""
    seen: Counter[str] = Counter()
    found = set()
    blocks = _PARSER.parse(text)
    for opening, inline in pairwise(blocks):
        if opening.type != "heading_open":
            continue
        words = "".join(child.content for child in inline.children or []
                        if child.type in ("text", "code_inline"))
        slug = _slug(words)
        found.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return found


def link_problems(page: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with each link of ``page``: outside ``root``, dead, or a missing
    heading."""
    problems = []
    for target in _links(page.read_text(encoding="utf-8")):
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or target.startswith("/"):
            problems.append(f"{target}: leads outside the repository")
            continue
        where = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        if not where.is_relative_to(root.resolve()):
            problems.append(f"{target}: leads outside the repository")
        elif not where.exists():
            problems.append(f"{target}: no such file")
        elif (parts.fragment and where.suffix == ".md"
              and unquote(parts.fragment) not in anchors(where.read_text(encoding="utf-8"))):
            problems.append(f"{target}: no heading #{parts.fragment} in {where.name}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_stays_in_the_repository_and_leads_somewhere(page: Path) -> None:
    assert link_problems(page) == []


def test_the_docs_are_linked_from_the_readme() -> None:
    linked = {urlsplit(t).path for t in _links((ROOT / "README.md").read_text())}
    for page in (ROOT / "docs").glob("*.md"):
        assert f"docs/{page.name}" in linked, page.name


def test_the_check_finds_each_kind_of_bad_link(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# Rules\n\n## 3.5 Sideshow: who asks\n")
    page = tmp_path / "README.md"
    page.write_text(
        "[ok](docs/rules.md#35-sideshow-who-asks) [top](#read-me) "
        "[spec](../shared/RULES.md) [web](https://example.com/x) [abs](/etc/passwd) "
        "[gone](docs/missing.md) [anchor](docs/rules.md#no-such-heading) "
        "![pic](docs/none.png) `[code](https://in.a.code.span)`\n\n"
        "# Read me\n\n```\n[block](https://in.a.code.block)\n```\n"
    )
    assert link_problems(page, tmp_path) == [
        "../shared/RULES.md: leads outside the repository",
        "https://example.com/x: leads outside the repository",
        "/etc/passwd: leads outside the repository",
        "docs/missing.md: no such file",
        "docs/rules.md#no-such-heading: no heading #no-such-heading in rules.md",
        "docs/none.png: no such file",
    ]


def test_repeated_headings_get_numbered_anchors() -> None:
    assert anchors("# A\n\n## Results\n\n## Results\n\n## `Rules` and more!\n") == {
        "a", "results", "results-1", "rules-and-more"
    }
