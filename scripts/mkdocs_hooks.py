"""MkDocs hook: the repository's own files as part of the documentation site.

The pages under ``docs/`` link files of the repository outside it — other
documents (``RULES.md``, ``training/README.md``, ``agents/README.md``), code
(``examples/masked_ppo.py``) — by their path from the page, as on GitHub. MkDocs
knows only the files under ``docs/``, so this hook adds every such file that a
page links to the site at its path in the repository (a Markdown document
becomes a page, anything else is copied as it is) and rewrites the link to
point at it; a link to a folder of the repository (which a site cannot
show) becomes its text. A link to a file the repository does not have is left alone, so
MkDocs reports it (and ``mkdocs build --strict`` fails). The documents added
are scanned the same way, so their own links work on the site too.

Used by ``mkdocs.yml`` (``hooks:``).
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

LINK = re.compile(r"(?P<head>!?\[[^\]]*\]\()(?P<target>[^)\s#]+)(?P<tail>[^)\s]*\))")
FENCE = re.compile(r"^ *```")


def _links(text: str) -> list[str]:
    """The targets of the Markdown links of ``text``, outside code blocks."""
    found, in_block = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            in_block = not in_block
        elif not in_block:
            found += [m["target"] for m in LINK.finditer(line) if "://" not in m["target"]]
    return found


def _repository(config: Any) -> Path:
    return Path(config["config_file_path"]).resolve().parent


def _outside(source: Path, target: str, docs: Path, repository: Path) -> str | None:
    """The repository path of ``target`` linked from the file ``source`` when it
    leaves ``docs`` and names an existing file of the repository, else None."""
    path = (source.parent / target).resolve()
    if path.is_relative_to(docs) or not path.is_relative_to(repository) or not path.is_file():
        return None
    return path.relative_to(repository).as_posix()


def on_files(files: Files, config: Any) -> Files:
    """Add each repository file outside ``docs/`` that a page (or a file so
    added) links to, at its repository path."""
    repository, docs = _repository(config), Path(config["docs_dir"]).resolve()
    to_scan = [Path(file.abs_src_path) for file in files.documentation_pages() if file.abs_src_path]
    added: set[str] = set()
    while to_scan:
        source = to_scan.pop()
        for target in _links(source.read_text(encoding="utf-8")):
            name = _outside(source, target, docs, repository)
            if name is None or name in added or files.get_file_from_path(name) is not None:
                continue
            added.add(name)
            files.append(
                File(name, str(repository), config["site_dir"], config["use_directory_urls"])
            )
            if name.endswith(".md"):
                to_scan.append(repository / name)
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Rewrite each link from the page's source file to its place on the site."""
    repository, docs = _repository(config), Path(config["docs_dir"]).resolve()
    source = Path(page.file.abs_src_path)
    here = posixpath.dirname(page.file.src_uri)

    def site_target(match: re.Match[str]) -> str:
        target = match["target"]
        if "://" in target:
            return match[0]
        path = (source.parent / target).resolve()
        if path.is_relative_to(docs):
            name = path.relative_to(docs).as_posix()
        else:
            name = _outside(source, target, docs, repository) or ""
        if not name and path.is_dir() and path.is_relative_to(repository):
            return match[0][match[0].index("[") + 1 : match[0].index("](")]  # a folder: its text
        if not name or files.get_file_from_path(name) is None:
            return match[0]  # MkDocs reports it
        relative = posixpath.relpath(name, here or ".")
        return f"{match['head']}{relative}{match['tail']}"

    lines, in_block = [], False
    for line in markdown.splitlines():
        if FENCE.match(line):
            in_block = not in_block
        lines.append(line if in_block else LINK.sub(site_target, line))
    return "\n".join(lines) + "\n"
