"""The rendered book of every artefact (`make book`): Jupyter Book over the executed notebooks.

    python -m lib.book                                   # build/mini/notebooks -> build/book/
    python -m lib.book --tier tiny --executed-dir tests/notebooks --out /tmp/book

One page per artefact is its executed notebook (never re-executed here), and one index page per
paper lists every artefact of `notebooks/manifest.csv` with its notebook, params file, published
CSV, `lib` modules, figures, claims and status. The table of contents and the index pages are
generated from the manifest, so a new artefact needs no edit of the book; the static configuration
and the page templates live in `book/`. The build fetches nothing: `remote_assets` lists any page
that would load a script, style, image or font from the network, and a build with one fails.
`check_in_browser` opens pages of a built book in headless Chromium and reports, per page, the
images that did not load and the local links that are broken (tests/core/test_book.py runs it).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from string import Template

import yaml

from . import PAPERS, TIERS
from .claims import claims_for
from .manifest import Entry, read
from .params import read_params_file, tier_defaults
from .published import paths as published_paths
from .paths import REPO_ROOT, resolve

TEMPLATES = REPO_ROOT / "book"  # _config.yml, index.md (front page), paper.md (paper index), check.html, _static/
BUILD_DIR = REPO_ROOT / "build"
OUTPUT = BUILD_DIR / "book"
JUPYTER_BOOK = Path(sys.executable).with_name("jupyter-book")
# An asset a page loads (not a link it offers): src= of script/img/iframe/..., href= of <link>, url() in styles.
_ASSET = re.compile(r"""<(?:script|img|iframe|source|audio|video|embed)\b[^>]*?\bsrc=["']([^"']+)["']"""
                    r"""|<link\b[^>]*?\bhref=["']([^"']+)["']|url\(\s*["']?([^"')\s]+)""", re.IGNORECASE)
_REMOTE = re.compile(r"^(?:https?:)?//", re.IGNORECASE)
NO_NETWORK = "http://127.0.0.1:9"  # a proxy that refuses every connection: any fetch fails
_REPORT = re.compile(r'<pre id="report">(.*?)</pre>', re.DOTALL)


class BookError(RuntimeError):
    """A book that cannot be built (one line: what is missing and the command that makes it)."""


@dataclass(frozen=True)
class Artefact:
    """One manifest row and the files the book shows or links for it (None or empty where absent)."""

    entry: Entry
    page: Path | None  # the executed notebook
    params: Path | None
    published: tuple[Path, ...]
    figures: tuple[Path, ...]
    lib_modules: tuple[str, ...]
    claims: int


def executed_root(tier: str, executed_dir: str | Path | None = None) -> Path:
    """Where the executed notebooks of `tier` are (the runner's `build/<tier>/notebooks` by default)."""
    return resolve(executed_dir) if executed_dir else BUILD_DIR / tier / "notebooks"


def paper_title(paper: str) -> str:
    """The paper's title: the quoted title on the first docstring line of `lib.<paper>`."""
    first = (importlib.import_module(f"lib.{paper}").__doc__ or "").strip().split("\n", 1)[0]
    quoted = re.search(r'"([^"]+)"', first)
    return quoted.group(1) if quoted else paper


def lib_modules(notebook: Path, paper: str) -> tuple[str, ...]:
    """The modules of the paper's own package `lib.<paper>` that a notebook (its jupytext percent
    source, plain Python) imports, in order."""
    tree = ast.parse(notebook.read_text())
    names = (node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module)
    return tuple(dict.fromkeys(n for n in names if n == f"lib.{paper}" or n.startswith(f"lib.{paper}.")))


def figure_files(entry: Entry, params: Path | None) -> tuple[Path, ...]:
    """The PNG figures the artefact's notebook saved (`<artefact>.png`, `<artefact>_ours.png`, ...)
    in the folder its params name (`output_dir`), where they exist."""
    if params is None:
        return ()
    folder = ({**tier_defaults(params), **read_params_file(params)}).get("output_dir")
    if not folder or not resolve(folder).is_dir():
        return ()
    folder = resolve(folder)
    return tuple(sorted([*folder.glob(f"{entry.artefact}.png"), *folder.glob(f"{entry.artefact}_*.png")]))


def published_files(entry: Entry) -> tuple[Path, ...]:
    """The paper's printed numbers for the artefact (`lib/published/<paper>/<artefact>.csv` or its
    blocks), none for an artefact whose numbers are not printed."""
    try:
        return tuple(published_paths(entry.paper, entry.artefact))
    except FileNotFoundError:
        return ()


def artefacts(paper: str, tier: str, root: Path) -> list[Artefact]:
    """Every manifest row of `paper` with its files; raises `BookError` when some of the paper's
    notebooks were executed at `tier` but not this one (a paper with none is reported on its index)."""
    entries = [e for e in read() if e.paper == paper]
    expected = [e for e in entries if e.notebook and tier in e.tiers]
    executed = {e: root / paper / f"{e.artefact}.ipynb" for e in expected}
    missing = [e for e in expected if not executed[e].is_file()]
    if missing and len(missing) < len(expected):
        first = missing[0]
        raise BookError(f"{paper}/{first.artefact}: no executed notebook at {executed[first]} "
                        f"({len(missing)} of its {len(expected)} are missing); run `make figures TIER={tier} PAPER={paper}`")
    rows = []
    for entry in entries:
        params = entry.params_path(tier) if tier in entry.tiers and entry.params_path(tier).is_file() else None
        page = executed.get(entry) if entry not in missing else None
        rows.append(Artefact(entry, page, params, published_files(entry), figure_files(entry, params),
                             lib_modules(entry.notebook_path, paper) if entry.notebook else (),
                             len(claims_for(paper, entry.artefact))))
    return rows


def _download(label: str, target: Path, page_dir: Path) -> str:
    """A MyST download link to `target` (Sphinx copies the file into the book)."""
    return f"{{download}}`{label} <{os.path.relpath(target, page_dir)}>`"


def _cell(text: str) -> str:
    """Plain text as one Markdown table cell: on one line, its markup characters escaped."""
    return re.sub(r"([\\`*_\[\]<>$|])", r"\\\1", " ".join(text.split()))


def _row(artefact: Artefact, page_dir: Path, claims_page: bool) -> str:
    """One line of a paper's index table."""
    entry = artefact.entry
    name = f"[{entry.artefact}]({entry.artefact}.ipynb)" if artefact.page else entry.artefact
    caption = entry.caption if len(entry.caption) <= 140 else entry.caption[:139].rstrip() + "…"
    notebook = _download(Path(entry.notebook).name, entry.notebook_path, page_dir) if entry.notebook else "—"
    params = _download(artefact.params.name, artefact.params, page_dir) if artefact.params else "—"
    published = ", ".join(_download(p.name, p, page_dir) for p in artefact.published) or "—"
    package = f"lib.{entry.paper}"
    lib = ", ".join(f"`{m.removeprefix(package + '.')}`" for m in artefact.lib_modules) or "—"
    figures = ", ".join(_download(p.name, p, page_dir) for p in artefact.figures) or "—"
    claims = (f"[{artefact.claims}](claims.ipynb)" if claims_page else str(artefact.claims)) if artefact.claims else "—"
    cells = [name, _cell(caption), f"`{entry.status}`", notebook, params, published, lib, figures, claims]
    return "| " + " | ".join(cells) + " |"


def paper_page(paper: str, rows: list[Artefact], tier: str, page_dir: Path) -> str:
    """The Markdown index page of one paper (template `book/paper.md`)."""
    with_notebook = [a for a in rows if a.entry.notebook and tier in a.entry.tiers]
    if not with_notebook:
        executed = f":::{{note}}\nNo artefact of this paper has a notebook at the `{tier}` tier yet.\n:::"
    elif not any(a.page for a in rows):
        executed = (f":::{{warning}}\nThe `{tier}`-tier notebooks of this paper have not been executed, so the "
                    f"{len(with_notebook)} artefacts below with a notebook have no page yet: run "
                    f"`make figures TIER={tier} PAPER={paper}`, then `make book`.\n:::")
    else:
        executed = f"{len(with_notebook)} executed notebooks, one page each."
    claims_page = any(a.entry.artefact == "claims" and a.page for a in rows)
    return Template((TEMPLATES / "paper.md").read_text()).substitute(
        title=paper_title(paper), paper=paper, tier=tier, executed=executed,
        rows="\n".join(_row(a, page_dir, claims_page) for a in rows))


def front_page(contents: dict[str, list[Artefact]], tier: str) -> str:
    """The book's Markdown front page (template `book/index.md`): one line per paper."""
    lines = []
    for paper, rows in contents.items():
        with_notebook = sum(1 for a in rows if a.entry.notebook and tier in a.entry.tiers)
        pages = sum(1 for a in rows if a.page)
        lines.append(f"| [{_cell(paper_title(paper))}]({paper}/index.md) | {len(rows)} | {with_notebook} | "
                     f"{pages or f'not executed: `make figures TIER={tier} PAPER={paper}`'} |")
    return Template((TEMPLATES / "index.md").read_text()).substitute(tier=tier, papers="\n".join(lines))


def write_source(source: Path, tier: str, root: Path) -> dict[str, list[Artefact]]:
    """Write the book's source under `source`: the front page, each paper's index page, a copy of
    every executed notebook, the style sheet and the table of contents (`_toc.yml`); return the
    artefacts per paper."""
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(TEMPLATES / "_static", source / "_static")  # the book's style sheet
    contents = {paper: artefacts(paper, tier, root) for paper in PAPERS}
    chapters = []
    for paper, rows in contents.items():
        folder = source / paper
        folder.mkdir()
        for artefact in rows:
            if artefact.page:
                shutil.copyfile(artefact.page, folder / artefact.page.name)
        (folder / "index.md").write_text(paper_page(paper, rows, tier, folder))
        sections = [{"file": f"{paper}/{a.entry.artefact}"} for a in rows if a.page]
        chapters.append({"file": f"{paper}/index", **({"sections": sections} if sections else {})})
    (source / "index.md").write_text(front_page(contents, tier))
    (source / "_toc.yml").write_text(yaml.safe_dump({"format": "jb-book", "root": "index", "chapters": chapters},
                                                    sort_keys=False))
    return contents


def remote_assets(html_dir: Path) -> dict[str, list[str]]:
    """Every page or stylesheet of a built book that loads something over the network, with the
    addresses (links a reader may follow are not assets, and are allowed)."""
    found = {}
    for path in sorted([*html_dir.rglob("*.html"), *html_dir.rglob("*.css")]):
        assets = ("".join(match.groups(default="")) for match in _ASSET.finditer(path.read_text(errors="replace")))
        remote = sorted({address for address in assets if _REMOTE.match(address)})
        if remote:
            found[str(path.relative_to(html_dir))] = remote
    return found


def build(tier: str = "mini", executed_dir: str | Path | None = None, out: str | Path = OUTPUT) -> Path:
    """Build the book of `tier` into `out` (`out/html/index.html`, sources in `out/source`); return
    the front page. Raises `BookError` for a missing executed notebook, a failed build, or a page
    that would load anything from the network."""
    if tier not in TIERS:
        raise BookError(f"unknown tier {tier!r}; expected one of {list(TIERS)}")
    if not JUPYTER_BOOK.is_file():
        raise BookError(f"jupyter-book is not installed beside {sys.executable}: run `make setup` (pyproject.toml lists it)")
    out = resolve(out)
    source = out / "source"
    write_source(source, tier, executed_root(tier, executed_dir))
    html = out / "html"
    shutil.rmtree(html, ignore_errors=True)
    command = [str(JUPYTER_BOOK), "build", str(source), "--path-output", str(out / "jupyter_book"),
               "--config", str(TEMPLATES / "_config.yml"), "--all", "--quiet", "--warningiserror"]
    done = subprocess.run(command, capture_output=True, text=True)
    built = out / "jupyter_book" / "_build" / "html"
    if done.returncode or not (built / "index.html").is_file():
        lines = (done.stderr + done.stdout).strip().splitlines() or ["no output"]
        cause = next((line for line in lines if "WARNING" in line or "ERROR" in line), lines[-1])
        raise BookError(f"jupyter-book failed on {source} (exit {done.returncode}): {cause.strip()}")
    built.rename(html)
    shutil.rmtree(out / "jupyter_book")
    remote = remote_assets(html)
    if remote:
        page, addresses = next(iter(remote.items()))
        raise BookError(f"{len(remote)} page(s) of the book load remote assets, e.g. {page}: {addresses[0]}")
    return html / "index.html"


@dataclass(frozen=True)
class PageCheck:
    """What headless Chromium saw on one page of a built book."""

    page: str  # relative to the book's HTML folder
    error: str | None = None  # set when the page itself did not load
    title: str = ""
    images: tuple[tuple[str, int], ...] = ()  # (src, natural width in pixels: 0 when it did not load)
    broken: tuple[str, ...] = ()  # local links, scripts and style sheets that cannot be read (images: `images`)
    formulas: int = 0  # formulas MathJax typeset

    def problems(self) -> list[str]:
        """One line per fault: the page did not load, an image did not load, a local link is broken."""
        if self.error:
            return [f"{self.page}: {self.error}"]
        return ([f"{self.page}: image {src} did not load" for src, width in self.images if width <= 0]
                + [f"{self.page}: broken link or asset {target}" for target in self.broken])


def check_in_browser(html_dir: str | Path, pages: list[str], chromium: str = "chromium",
                     timeout_s: float = 120) -> list[PageCheck]:
    """Open `pages` (paths relative to the built book's `html_dir`) in one headless Chromium with the
    network closed, and report, per page, whether it loaded, each image's natural width, the local
    links and assets that cannot be read, and its typeset formulas. A page `_check.html` (template
    `book/check.html`) is written beside the book for the run and removed after it."""
    html_dir = Path(html_dir)
    harness = html_dir / "_check.html"
    harness.write_text(Template((TEMPLATES / "check.html").read_text()).substitute(pages=json.dumps(pages)))
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--proxy-server={NO_NETWORK}",
               "--allow-file-access-from-files", "--virtual-time-budget=120000", "--dump-dom", harness.as_uri()]
    try:
        dom = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s).stdout
    finally:
        harness.unlink()
    found = _REPORT.search(dom)
    if not found or found.group(1) == "pending":
        raise BookError(f"headless Chromium did not finish checking {len(pages)} page(s) of {html_dir}")
    return [PageCheck(page=row["page"], error=row.get("error"), title=row.get("title", ""),
                      images=tuple((src, width) for src, width in row.get("images", [])),
                      broken=tuple(row.get("broken", [])), formulas=row.get("formulas", 0))
            for row in json.loads(unescape(found.group(1)))]


def main(argv: list[str] | None = None) -> int:
    """`python -m lib.book`: build the book, print where it is; one line on any error."""
    parser = argparse.ArgumentParser(prog="python -m lib.book", description=__doc__.splitlines()[0])
    parser.add_argument("--tier", default="mini", help="whose executed notebooks to render (default: mini)")
    parser.add_argument("--executed-dir", help="folder of executed notebooks (default: build/<tier>/notebooks)")
    parser.add_argument("--out", default=str(OUTPUT), help="output folder (default: build/book)")
    args = parser.parse_args(argv)
    try:
        index = build(args.tier, args.executed_dir, args.out)
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"book: {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
