"""What every answer of ``rummy serve`` carries and refuses (rummy.web.guard), and the shipped files it reads.

The app is driven in this process (FastAPI's TestClient); tests/web/test_connections.py checks the Host
and the connections against a real server.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install 'rummy[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():  # starlette would rather have httpx2: a warning, not our concern
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummy.reports import page as reports
from rummy.web.app import Settings, create_app
from rummy.web.guard import CONTENT_SECURITY_POLICY, allowed_names, host_name
from tests.support.paths import PUZZLE_EXAMPLES

BASE_URL = "http://127.0.0.1:8000"
ROBBER = PUZZLE_EXAMPLES / "robber.toml"


def app_client(settings: Settings, base_url: str = BASE_URL) -> TestClient:
    """A client of an app whose lifespan is not run: no solver process starts (nothing here solves)."""
    return TestClient(create_app(settings), base_url=base_url)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The module's app, its lifespan run: a test here that solves starts a worker, stopped on leaving."""
    with app_client(Settings(workers=1)) as running:
        yield running


def refused(response: object, status: int) -> list[str]:
    from httpx import Response

    assert isinstance(response, Response)
    assert response.status_code == status, response.text
    data = response.json()
    assert data["error"] == data["errors"][0] and all("\n" not in line for line in data["errors"])
    return list(data["errors"])


# ------------------------------------------------------------------ headers on every answer
@pytest.mark.parametrize("method, path, status", [
    ("GET", "/", 200), ("GET", "/static/main.js", 200), ("GET", "/static/style.css", 200),
    ("GET", "/api/positions", 200), ("GET", "/openapi.json", 200), ("GET", "/nowhere", 404),
    ("GET", "/api/positions/examples/nothing", 404), ("POST", "/api/show", 400), ("GET", "/api/show", 405),
])
def test_every_answer_has_the_security_headers(client: TestClient, method: str, path: str, status: int) -> None:
    response = client.request(method, path, json={} if method == "POST" else None)
    assert response.status_code == status
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY and "default-src 'self'" in CONTENT_SECURITY_POLICY
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_refusals_before_the_app_have_them_too(client: TestClient) -> None:
    too_large = client.post("/api/show", content=b"{" * (300 * 1024), headers={"content-type": "application/json"})
    wrong_host = client.get("/", headers={"host": "evil.example"})
    for response in (too_large, wrong_host):
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("method", ["GET", "POST", "OPTIONS"])
def test_no_answer_allows_another_origin(client: TestClient, method: str) -> None:
    headers = {"origin": "http://evil.example", "access-control-request-method": "POST",
               "access-control-request-headers": "content-type"}
    response = client.request(method, "/api/show" if method != "GET" else "/api/positions", headers=headers,
                              json={"position": ROBBER.read_text()} if method == "POST" else None)
    assert response.status_code in (200, 405)
    assert not [name for name in response.headers if name.lower().startswith("access-control-")]


def test_the_cdn_pages_are_off_and_the_description_stays(client: TestClient) -> None:
    assert client.get("/docs").status_code == 404
    assert client.get("/redoc").status_code == 404
    assert client.get("/docs/oauth2-redirect").status_code == 404
    assert client.get("/openapi.json").json()["paths"]["/api/best"]


def test_the_page_loads_nothing_from_elsewhere(client: TestClient) -> None:
    import re

    page = client.get("/").text
    sources = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert sources and all(source.startswith("/static/") for source in sources)


# ------------------------------------------------------------------ the Host header
def test_testclients_own_host_is_refused_like_any_other_name() -> None:
    client = app_client(Settings(workers=1), "http://testserver")
    lines = refused(client.get("/api/positions"), 421)
    assert lines == ["request: Host 'testserver' is not this server's name (open it as 127.0.0.1)"]


@pytest.mark.parametrize("header, name", [
    ("localhost", "localhost"), ("LocalHost:8000", "localhost"), ("127.0.0.1:1", "127.0.0.1"), ("[::1]", "::1"),
    ("[::1]:8000", "::1"), ("evil.example:80", "evil.example"), ("::1", None), ("[::1", None), ("[::1]8000", None),
    ("localhost:http", None), (":8000", None), ("", None), ("localhost:８０", None),
])
def test_a_host_headers_name(header: str, name: str | None) -> None:
    assert host_name(header) == name


@pytest.mark.parametrize("listening, host, status", [
    ("127.0.0.1", "localhost:8000", 200), ("127.0.0.1", "[::1]:8000", 200), ("127.0.0.1", "192.168.1.20:8000", 421),
    ("192.168.1.20", "192.168.1.20:8000", 200), ("192.168.1.20", "127.0.0.1:8000", 200),
    ("192.168.1.20", "192.168.1.21:8000", 421), ("board.lan", "board.lan:8000", 200), ("board.lan", "evil.lan", 421),
    ("::1", "[::1]:8000", 200), ("0.0.0.0", "192.168.1.20:8000", 200), ("0.0.0.0", "[fe80::1]:8000", 200),
    ("0.0.0.0", "evil.example:8000", 421), ("::", "10.0.0.1", 200),
])
def test_a_host_is_answered_when_it_names_where_the_server_listens(listening: str, host: str, status: int) -> None:
    """Listening on every address (0.0.0.0), the server is reached by an address it cannot know:
    any IP address is taken, never a name (a rebound name is always a name)."""
    response = app_client(Settings(workers=1, host=listening)).get("/openapi.json", headers={"host": host})
    assert response.status_code == status, response.text
    assert allowed_names(listening)[-3:] == ("127.0.0.1", "localhost", "::1")


# ------------------------------------------------------------------ a bug is a JSON 500
def test_a_bug_in_an_endpoint_is_a_json_500_and_one_line_without_a_traceback(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    def broken(*_: object, **__: object) -> None:
        raise KeyError("no such thing")

    monkeypatch.delenv("RUMMY_DEBUG", raising=False)
    monkeypatch.setattr(reports, "steps_report", broken)
    capfd.readouterr()
    response = client.post("/api/steps", json={"before": ROBBER.read_text(), "steps": "draw stock"})
    lines = refused(response, 500)
    assert lines == ["internal error: KeyError: 'no such thing' (a bug in rummy)"]
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    err = capfd.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines() == ["rummy: POST /api/steps: internal error: KeyError: 'no such thing' (a bug in rummy)"]
    monkeypatch.undo()
    assert client.post("/api/steps", json={"before": ROBBER.read_text(), "steps": ""}).status_code == 200



@pytest.mark.parametrize("debug", [False, True], ids=["plain", "RUMMY_DEBUG"])
def test_a_bug_in_a_solve_is_a_json_500_and_one_line_on_the_servers_stderr(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str], debug: bool) -> None:
    """A bug in a worker's solve is told as a bug in the server's own process is: the client gets the JSON 500,
    the server's stderr one line (and, with RUMMY_DEBUG=1, the worker's traceback)."""
    from tests.support import web_work

    if debug:
        monkeypatch.setenv("RUMMY_DEBUG", "1")
    else:
        monkeypatch.delenv("RUMMY_DEBUG", raising=False)
    monkeypatch.setattr(reports, "best_report", web_work.broken)  # the worker unpickles web_work.broken
    capfd.readouterr()
    response = client.post("/api/best", json={"position": ROBBER.read_text(), "time_limit": 5})
    assert refused(response, 500) == ["internal error: KeyError: 'no such thing' (a bug in rummy)"]
    err = capfd.readouterr().err
    assert err.splitlines()[-1] == "rummy: POST /api/best: internal error: KeyError: 'no such thing' (a bug in rummy)"
    assert ("Traceback" in err and "web_work.py" in err) is debug

# ------------------------------------------------------------------ shipped files: regular, inside
@pytest.fixture()
def collection(tmp_path: Path) -> Path:
    """A folder of shipped positions: a regular file, links out and in, and a collection that is a link."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.toml").write_text('secret = "not for the page"\n')
    root = tmp_path / "puzzles"
    examples = root / "examples"
    examples.mkdir(parents=True)
    (examples / "robber.toml").write_text(ROBBER.read_text())
    (examples / "zz-link.toml").symlink_to(outside / "secret.toml")
    (examples / "zz-inner-link.toml").symlink_to(examples / "robber.toml")
    (examples / "zz-folder.toml").mkdir()
    (root / "tiles").symlink_to(outside, target_is_directory=True)
    house = root / "house"
    house.mkdir()
    (house / "p.toml").symlink_to(outside / "secret.toml")
    (house / "index.json").write_text('{"puzzles": [{"name": "p", "position": "p.toml"}, '
                                      '{"name": "up", "position": "../outside/secret.toml"}]}')
    return root


def test_only_regular_files_inside_a_collection_are_listed_and_served(collection: Path) -> None:
    client = app_client(Settings(workers=1, puzzles=collection))
    listed = client.get("/api/positions").json()["collections"]
    assert [(c["name"], [p["id"] for p in c["positions"]]) for c in listed] == [("examples", ["examples/robber"])]
    assert client.get("/api/positions/examples/robber").json()["text"] == ROBBER.read_text()
    for name in ("examples/zz-link", "examples/zz-inner-link", "examples/zz-folder", "tiles/secret", "house/p",
                 "house/up"):
        response = client.get(f"/api/positions/{name}")
        assert response.status_code == 404 and "not for the page" not in response.text, name


def test_a_listed_file_replaced_by_a_link_is_not_followed(collection: Path) -> None:
    client = app_client(Settings(workers=1, puzzles=collection))
    listed = collection / "examples" / "robber.toml"
    os.remove(listed)
    listed.symlink_to(collection.parent / "outside" / "secret.toml")
    lines = refused(client.get("/api/positions/examples/robber"), 404)
    assert lines == ["no shipped position 'examples/robber.toml': not a regular file in its collection any more"]
