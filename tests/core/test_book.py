"""`make book`: the book built from the executed tiny references (tests/notebooks/, no image payloads)
with the network closed to it: one page per artefact, an index per paper, no broken link and no
asset fetched from the network; a missing or unexecuted notebook is said in one line."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from lib import PAPERS
from lib.book import BookError, artefacts, build, main, paper_page, remote_assets
from lib.manifest import read
from lib.paths import REPO_ROOT

REFERENCES = REPO_ROOT / "tests" / "notebooks"
NO_NETWORK = "http://127.0.0.1:9"  # a proxy that refuses every connection: any fetch fails
_REFERENCE = re.compile(r"""\b(?:href|src)=["']([^"']*)["']""", re.IGNORECASE)


def _with_notebook(paper: str) -> list[str]:
    return [e.artefact for e in read() if e.paper == paper and e.notebook and "tiny" in e.tiers]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny book's HTML folder, built once for this module without network access."""
    out = tmp_path_factory.mktemp("book")
    with pytest.MonkeyPatch.context() as patch:
        for variable in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
            patch.setenv(variable, NO_NETWORK)
        patch.delenv("no_proxy", raising=False)
        patch.delenv("NO_PROXY", raising=False)
        index = build("tiny", REFERENCES, out)
    return index.parent


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


@pytest.mark.skipif(shutil.which("chromium") is None,
                    reason="headless Chromium is not installed (Debian package: apt-get install chromium)")
def test_a_page_renders_in_headless_chromium_without_network(book: Path):
    page = book / "imagenet_rib" / "table02.html"  # has a formula: MathJax must run from the book
    command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--proxy-server={NO_NETWORK}",
               "--virtual-time-budget=15000", "--dump-dom", page.as_uri()]
    dom = subprocess.run(command, capture_output=True, text=True, timeout=120).stdout
    assert "Table 2" in dom
    assert "<mjx-container" in dom


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
