"""`make book`: the book built from the executed tiny references (tests/notebooks/) with the network
closed to it: one page per artefact, an index per paper, no broken link and no asset fetched from
the network, and, in headless Chromium, the front page, each paper's index and an artefact page of
each paper load with their figures; a missing or unexecuted notebook is said in one line."""

from __future__ import annotations

import base64
import io
import json
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from PIL import Image

from lib import PAPERS
from lib.book import NO_NETWORK, BookError, artefacts, build, check_in_browser, main, paper_page, remote_assets
from lib.manifest import read
from lib.paths import REFERENCES_DIR

REFERENCES = REFERENCES_DIR
_REFERENCE = re.compile(r"""\b(?:href|src)=["']([^"']*)["']""", re.IGNORECASE)
needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None,
                                    reason="headless Chromium is not installed (Debian: apt-get install chromium)")


def _with_notebook(paper: str) -> list[str]:
    return [e.artefact for e in read() if e.paper == paper and e.notebook and "tiny" in e.tiers]


def _with_stand_in_figures(references: Path, folder: Path) -> Path:
    """A copy of the executed references whose emptied PNG payloads (`lib.runner.make_reference` keeps
    the output, not the image) each hold a small PNG of their own colour, so the book has one image
    file per figure output, as a book of executed notebooks has; returns `folder`."""
    count = 0
    for source in sorted(references.glob("*/*.ipynb")):
        notebook = json.loads(source.read_text())
        for cell in notebook["cells"]:
            for output in cell.get("outputs", []):
                if output.get("data", {}).get("image/png") == "":
                    count += 1
                    png = io.BytesIO()
                    Image.new("RGB", (24, 16), tuple(count.to_bytes(3, "big"))).save(png, format="PNG")
                    output["data"]["image/png"] = base64.b64encode(png.getvalue()).decode()
        target = folder / source.relative_to(references)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(notebook))
    return folder


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny book's HTML folder, built once for this module without network access."""
    executed = _with_stand_in_figures(REFERENCES, tmp_path_factory.mktemp("executed"))
    out = tmp_path_factory.mktemp("book")
    with pytest.MonkeyPatch.context() as patch:
        for variable in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
            patch.setenv(variable, NO_NETWORK)
        patch.delenv("no_proxy", raising=False)
        patch.delenv("NO_PROXY", raising=False)
        index = build("tiny", executed, out)
    return index.parent


def _pages_to_open() -> list[str]:
    """The front page, each paper's index, and an artefact page of each paper with notebooks (its first
    figure, else its first artefact), with imagenet_rib's Table 2 (a formula: MathJax runs from the book)."""
    pages = ["index.html"]
    for paper in PAPERS:
        pages.append(f"{paper}/index.html")
        names = _with_notebook(paper)
        if names:
            pages.append(f"{paper}/{next((n for n in names if n.startswith('figure')), names[0])}.html")
    return [*pages, "imagenet_rib/table02.html"]


def _local_references(page: Path) -> list[str]:
    """The targets of a page's links and assets inside the book (no scheme, not an in-page anchor)."""
    targets = (unquote(urlsplit(value).path) for value in _REFERENCE.findall(page.read_text())
               if not urlsplit(value).scheme and not value.startswith(("#", "//")))
    return [t for t in targets if t]


def test_one_page_per_artefact_and_an_index_per_paper(book: Path):
    assert (book / "index.html").is_file()
    for paper in PAPERS:
        index = (book / paper / "index.html").read_text()
        for artefact in _with_notebook(paper):
            assert (book / paper / f"{artefact}.html").is_file(), f"{paper}/{artefact} has no page"
            assert f'href="{artefact}.html"' in index, f"{paper}'s index does not link {artefact}"
    front = (book / "index.html").read_text()
    assert all(f'href="{paper}/index.html"' in front for paper in PAPERS)


def test_index_rows_link_the_artefact_files(book: Path):
    index = (book / "ssl_protocols" / "index.html").read_text()
    for name in ("figure02.py", "figure02.yaml", "table_s2.csv"):
        assert re.search(rf'href="\.\./_downloads/[0-9a-f]+/{re.escape(name)}"', index), name
    assert "reproduced" in index and "accuracies" in index  # the status and a lib.ssl_protocols module


def test_no_link_or_asset_is_broken(book: Path):
    pages = [page for page in sorted(book.rglob("*.html")) if "_static" not in page.parts]  # not theme macros
    broken = [f"{page.relative_to(book)} -> {target}" for page in pages
              for target in _local_references(page) if not (page.parent / target).exists()]
    assert not broken, broken[:5]


def test_no_page_loads_a_remote_asset(book: Path):
    assert remote_assets(book) == {}
    assert (book / "_static" / "mathjax" / "tex-chtml.js").is_file()  # formulas render from the book's copy


def test_remote_assets_finds_scripts_styles_and_fonts_but_not_links(tmp_path: Path):
    (tmp_path / "page.html").write_text('<script defer src="https://cdn.example/x.js"></script>'
                                        '<link rel="stylesheet" href="//cdn.example/y.css">'
                                        '<img src="_images/local.png"><a href="https://example.org">a link</a>')
    (tmp_path / "theme.css").write_text('@font-face { src: url("https://fonts.example/f.woff2") } a { background: url(b.png) }')
    assert remote_assets(tmp_path) == {"page.html": ["//cdn.example/y.css", "https://cdn.example/x.js"],
                                       "theme.css": ["https://fonts.example/f.woff2"]}


@needs_chromium
def test_each_paper_renders_in_headless_chromium_with_its_figures(book: Path):
    pages = _pages_to_open()
    checks = {check.page: check for check in check_in_browser(book, pages)}
    assert list(checks) == pages
    problems = [line for check in checks.values() for line in check.problems()]
    assert not problems, problems[:5]
    artefact_pages = [page for page in pages if not page.endswith("index.html")]
    assert {page.split("/")[0] for page in artefact_pages} == {paper for paper in PAPERS if _with_notebook(paper)}
    assert all(checks[page].images for page in artefact_pages), "an artefact page shows no figure"
    assert checks["imagenet_rib/table02.html"].formulas > 0 and "Table 2" in checks["imagenet_rib/table02.html"].title
    assert not list(book.glob("_check.html"))  # the check leaves the book as it found it


@needs_chromium
def test_the_browser_check_sees_a_missing_figure_a_broken_link_and_a_missing_page(book: Path, tmp_path: Path):
    copy = shutil.copytree(book, tmp_path / "html")
    page = "ssl_protocols/figure02.html"
    image = re.search(r'<img [^>]*src="([^"]+)"', (copy / page).read_text()).group(1)
    (copy / "ssl_protocols" / image).unlink()
    index = (copy / "ssl_protocols/index.html").read_text()
    link = re.search(r'href="(\.\./_downloads/[0-9a-f]+/figure02\.py)"', index).group(1)
    (copy / "ssl_protocols" / link).unlink()
    checks = check_in_browser(copy, [page, "ssl_protocols/index.html", "ssl_protocols/no_such_page.html"])
    assert [check.problems() for check in checks] == [
        # a figure displayed at a set width links to its full-size file, which is gone too
        [f"{page}: image {image} did not load", f"{page}: broken link or asset {image}"],
        [f"ssl_protocols/index.html: broken link or asset {link}"],
        ["ssl_protocols/no_such_page.html: the page did not load"]]


def test_a_missing_executed_notebook_is_one_line_naming_make_figures(tmp_path: Path, capsys):
    executed = tmp_path / "executed" / "fm_perturbations"
    shutil.copytree(REFERENCES / "fm_perturbations", executed)
    dropped = _with_notebook("fm_perturbations")[0]
    (executed / f"{dropped}.ipynb").unlink()
    with pytest.raises(BookError, match=rf"fm_perturbations/{dropped}: .*make figures TIER=tiny PAPER=fm_perturbations"):
        artefacts("fm_perturbations", "tiny", tmp_path / "executed")
    assert main(["--tier", "tiny", "--executed-dir", str(tmp_path / "executed"), "--out", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "make figures" in error


def test_an_unexecuted_paper_is_said_on_its_index(tmp_path: Path):
    rows = artefacts("seq_to_final", "tiny", tmp_path)
    assert rows and not any(row.page for row in rows)
    page = paper_page("seq_to_final", rows, "tiny", tmp_path)
    assert "have not been executed" in page and "make figures TIER=tiny PAPER=seq_to_final" in page
    assert "](table02.ipynb)" not in page  # no link to a page that does not exist
