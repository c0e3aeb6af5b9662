"""The files of the page of ``rummy serve`` as the server sends them: ES modules the browser loads
as they are, so each must come with a JavaScript content type (a module script with any other type
is refused), every one the page imports must be there, and none is past the size the project allows.

The page's behaviour is tested in a browser (tests/web/test_browser.py); ESLint checks its code (.ci/run).
"""

from __future__ import annotations

import re
import warnings
from html.parser import HTMLParser
from importlib.resources import files
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web page needs the web extra: pip install 'rummy[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():  # starlette would rather have httpx2: a warning, not our concern
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummy.web.app import Settings, create_app

STATIC = Path(str(files("rummy.web") / "static"))
MOST_LINES = 600  # the project's limit for a module, Python or JavaScript
JAVASCRIPT_TYPES = {"text/javascript", "application/javascript"}
# `import {a, b} from "./x.js";`, over several lines too, and `import "./x.js";`
IMPORT = re.compile(r'^\s*import\s+(?:[^;"\']*?\s+from\s+)?"(\./[^"]+)"', re.MULTILINE | re.DOTALL)


class _Page(HTMLParser):
    """The page's script elements (their src, or None inline) and any attribute a CSP of
    "default-src 'self'" would refuse: event handlers (on...) and inline styles."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[str | None, str | None]] = []
        self.inline: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script":
            self.scripts.append((found.get("src"), found.get("type")))
        self.inline += [f"<{tag} {name}>" for name in found if name.startswith("on") or name == "style"]


@pytest.fixture(scope="module")
def client() -> TestClient:
    # No `with`: the lifespan (which starts the solvers) is not needed to serve files.
    return TestClient(create_app(Settings(workers=1)), base_url="http://127.0.0.1")


def _page(client: TestClient) -> _Page:
    answer = client.get("/")
    assert answer.status_code == 200
    page = _Page()
    page.feed(answer.text)
    return page


def _served_module(client: TestClient, url: str) -> str:
    answer = client.get(url)
    assert answer.status_code == 200, url
    media_type = answer.headers["content-type"].split(";")[0].strip().lower()
    assert media_type in JAVASCRIPT_TYPES, f"{url} is served as {media_type}"
    return answer.text


def test_every_module_the_page_imports_is_served_as_javascript(client: TestClient) -> None:
    page = _page(client)
    assert page.scripts == [("/static/main.js", "module")]
    waiting, seen = ["/static/main.js"], set()
    while waiting:
        url = waiting.pop()
        if url in seen:
            continue
        seen.add(url)
        for name in IMPORT.findall(_served_module(client, url)):
            waiting.append("/static/" + name.removeprefix("./"))
    # Every module is reached from main.js, and no module lies unused in the package.
    assert seen == {f"/static/{path.name}" for path in STATIC.glob("*.js")}
    assert len(seen) >= 8  # the split page (state, api, table, plan, mymove, ...), not one script


def test_an_import_the_server_does_not_have_is_not_found(client: TestClient) -> None:
    # The check above would catch a missing module only if a 404 is told apart: it is.
    assert client.get("/static/no-such-module.js").status_code == 404


def test_the_page_has_nothing_inline_a_content_security_policy_would_refuse(client: TestClient) -> None:
    page = _page(client)
    assert all(src is not None for src, _ in page.scripts)
    assert page.inline == []
    for path in STATIC.glob("*.js"):
        code = path.read_text(encoding="utf-8")
        for banned in ("innerHTML", "outerHTML", "insertAdjacentHTML", "eval(", "new Function"):
            assert banned not in code, f"{path.name} uses {banned}"


def test_no_static_file_is_over_the_line_limit() -> None:
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in STATIC.iterdir()}
    assert {"index.html", "main.js", "style.css"} <= sizes.keys()
    assert {name: lines for name, lines in sizes.items() if lines > MOST_LINES} == {}
