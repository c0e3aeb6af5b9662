"""The FastAPI application of ``rummy serve``: the JSON API, the shipped positions, and the page.

FastAPI (on Starlette and uvicorn) was chosen for its typed request models,
which give the OpenAPI description (``/openapi.json``) from the same code
that validates requests (FastAPI's ``/docs`` and ``/redoc`` pages load
scripts from public CDNs into the board's origin: they are switched off).
The page is plain HTML, CSS and JavaScript served as static files: nothing
to build, nothing to install beyond the Python package.

Every answer is the command line's ``--json`` object (rummy.reports.page),
plus a ``view`` key for the page. Bad input is a 400 whose ``error`` is the
line the command line prints (without the ``rummy:`` prefix). Every
request passes rummy.web.guard first: its Host is checked, its answer gets
the security headers, and a bug is a JSON 500.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

import anyio.to_thread  # Starlette runs on anyio: no dependency of its own
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummy.reports import page as reports  # looked up at each call: a test may put its own function there
from rummy.web.guard import HostGuard, InternalErrors, SecurityHeaders, error_body, error_response, tell
from rummy.web.shipped import ListFilter, NotShipped, Shipped, default_root
from rummy.web.stream import NdjsonStream, one_line_stream, streamed_lines
from rummy.web.workers import GRACE_SECONDS, MAX_PER_CLIENT, Busy, Outcome, SolvePool, TookTooLong

MAX_BODY_BYTES = 256 * 1024  # a request's body; the largest real position is a few KB
MAX_TEXT = 128 * 1024  # characters of one position or turn
DEFAULT_SECONDS = 10.0  # a solve's time limit when the request gives none
MAX_SECONDS = 30.0  # and at most, whatever the request asks
# Positions read at once by /api/show and /api/steps, in threads of their own. Reading is quick, but a
# table given as a bag is arranged by a search of up to 10 s (rummy.table_bag.ARRANGE_SECONDS): without
# this bound, 40 such requests would hold every thread of the server's pool, and the page, the presets
# and the shipped positions would wait for them (docs/serve.md "Reading a position").
READERS = 4
Answered = TypeVar("Answered")  # what a guarded call makes (an answer, a filter)


@dataclass(frozen=True)
class Settings:
    workers: int = 2  # solver processes
    max_waiting: int = 32  # solves running or queued at once
    max_per_client: int = MAX_PER_CLIENT  # of those, from one client address
    grace_seconds: float = GRACE_SECONDS  # a solve past its limit by this much has its worker killed
    max_seconds: float = MAX_SECONDS
    puzzles: Any = None  # the shipped positions' folder; None: the package's own
    host: str = "127.0.0.1"  # the address listened on: a Host header names it or the loopback (rummy.web.guard)
    readers: int = READERS  # positions read at once in request threads (show, steps)


Kind = Literal["toml", "json", "code"]
PositionText = Field(max_length=MAX_TEXT, description=(
    "A position as a file holds it: TOML or JSON, or its code (rummy1_..., formats.md \"Position codes\")."))


class _Request(BaseModel):
    # Switches are JSON true or false (StrictBool): pydantic would read "yes", "off", 1 or 0.0 as a switch,
    # and {"progress": "no"} or a number meant for another field is a mistake to name, not to guess at
    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _without_byte_order_mark(cls, value: Any) -> Any:
        """A text pasted from a file that starts with a UTF-8 byte-order mark reads as the file does on
        the command line (rummy.inputs decodes files as utf-8-sig)."""
        return value.removeprefix("\ufeff") if isinstance(value, str) else value


class ShowRequest(_Request):
    position: str = PositionText
    format: Kind | None = Field(None, description="toml, json or code; told by the content when left out.")
    after: StrictBool = Field(False, description="Read it as an after-position (rummy show --after).")


class BestRequest(_Request):
    position: str = PositionText
    format: Kind | None = None
    time_limit: float | None = Field(None, gt=0, description="Seconds; at most the server's limit.")
    objective: Literal["default", "tiles", "value"] = "default"
    seed: int = Field(0, ge=0, le=2**31 - 1)
    progress: StrictBool = Field(False, description=(
        "Stream the answer as NDJSON (application/x-ndjson): a line per better turn found while the search goes "
        "on ({\"progress\": {...}}), the usual answer last (docs/serve.md \"Best so far\")."))


class CheckRequest(_Request):
    before: str = Field(max_length=MAX_TEXT, description="The position before the turn.")
    after: str = Field(max_length=MAX_TEXT, description=(
        "The turn: an after-position, a 'best --json' answer, or steps ('play 7H 8H 9H to new/1; discard KS')."))
    before_format: Kind | None = None
    after_format: Kind | None = None
    best: StrictBool = Field(False, description=(
        "Also solve BEFORE and say how far the turn is from the best (check --best)."))
    time_limit: float | None = Field(None, gt=0)


class StepsRequest(_Request):
    before: str = Field(max_length=MAX_TEXT, description="The position before the turn.")
    steps: str = Field(max_length=MAX_TEXT, description="The turn so far, as steps ('play 7H 8H 9H to new/1; ...').")
    before_format: Kind | None = None


class HintRequest(_Request):
    puzzle: str | None = Field(None, max_length=MAX_TEXT, description="The puzzle's text (or give 'id').")
    id: str | None = Field(None, max_length=300,
                           description="A shipped puzzle (GET /api/positions): its stored answer is used.")
    format: Kind | None = None
    level: int = Field(1, ge=1, le=4,
                       description="1 the idea (themes), 2 the key card or play, 3 a first move, 4 the whole turn.")
    time_limit: float | None = Field(None, gt=0)


class PlayCheckRequest(_Request):
    rules: str = Field(max_length=100, description="A preset's name (GET /api/presets).")
    cards: str = Field(max_length=4096, description="The play's cards as a position writes them ('7H 8H *').")


class PlayRequest(_Request):
    position: str = PositionText
    turn: str = Field(max_length=MAX_TEXT, description=(
        "The turn, as rummy check reads AFTER: steps ('play 7H 8H 9H to new/1; discard KS'), draw words "
        "('draw 7H', 'take 2', 'pass'), both, an after-position, a best --json answer, or the word 'best'."))
    format: Kind | None = None
    time_limit: float | None = Field(None, gt=0, description="For 'best': how long the solver may search.")


class GameRequest(_Request):
    game: str = Field(max_length=MAX_TEXT, description="A game record, TOML or JSON (formats.md \"Game records\").")
    format: Literal["toml", "json"] | None = None


class DealRequest(_Request):
    rules: str = Field(max_length=100, description="A preset's name (GET /api/presets).")
    players: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(
        min_length=2, max_length=8, description="The players' names in seating order.")
    seed: int | None = Field(None, ge=0, le=2**63 - 1, description="The deck's shuffle; left out: one at random.")
    hand: int = Field(1, ge=1, le=200, description="The hand's number in the game (from 1): who moves first.")


class RummyTurnRequest(_Request):
    position: str = PositionText
    time_limit: float | None = Field(None, gt=0)


class BadInput(Exception):
    def __init__(self, lines: tuple[str, ...] | list[str], status: int = 400) -> None:
        super().__init__(lines[0] if lines else "bad input")
        self.lines = tuple(lines)
        self.status = status


class BodyLimit:
    """Refuse a body larger than ``limit`` bytes (413), by its Content-Length or as it streams in:
    the body is read here, at most ``limit`` + 1 bytes of it, and handed on whole."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _too_large(self.limit)(scope, receive, send)
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await _too_large(self.limit)(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _too_large_words(limit: int) -> str:
    return f"request: larger than {limit // 1024} KB"


def _too_large(limit: int) -> ASGIApp:
    return error_response(_too_large_words(limit), 413)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    from contextlib import asynccontextmanager
    from importlib.resources import files
    from pathlib import Path

    pool = SolvePool(settings.workers, settings.max_waiting, settings.max_per_client, settings.grace_seconds)
    shipped = Shipped(Path(settings.puzzles) if settings.puzzles is not None else default_root())
    static = Path(str(files("rummy.web") / "static"))

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        pool.warm()
        yield
        pool.close()

    app = FastAPI(title="rummy", version=_version(), lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Best moves, turn checks and hints for rummy games where the table can be rearranged. "
                              "Every answer is the JSON that the command line prints with --json (formats.md), "
                              "plus a 'view' key for drawing it.")
    app.state.pool = pool
    app.state.shipped = shipped

    @app.exception_handler(BadInput)
    async def bad_input(_: Request, error: BadInput) -> JSONResponse:
        lines = [_one_line(line) for line in error.lines] or ["bad input"]
        return JSONResponse({"error": lines[0], "errors": lines}, status_code=error.status)

    @app.exception_handler(NotShipped)
    async def not_shipped(_: Request, error: NotShipped) -> JSONResponse:
        # listed when the server started, since removed or replaced by a link
        line = _one_line(f"no shipped position {str(error)!r:.120}: not a regular file in its collection any more")
        return JSONResponse(error_body([line]), status_code=404)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: StarletteHTTPException) -> JSONResponse:
        line = _one_line(f"request: {str(error.detail).lower()}" if error.status_code == 400 else str(error.detail))
        return JSONResponse({"error": line, "errors": [line]}, status_code=error.status_code)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, error: RequestValidationError) -> JSONResponse:
        lines = [_validation_line(problem) for problem in error.errors()]
        return JSONResponse({"error": lines[0] if lines else "request: not valid", "errors": lines}, status_code=400)

    def seconds(asked: float | None) -> float:
        return min(asked if asked is not None else min(DEFAULT_SECONDS, settings.max_seconds), settings.max_seconds)

    async def solved(connection: Request, function: Callable[..., Any], limit: float, **kwargs: Any) -> Any:
        """The solve's report, from a worker. A client that hangs up first has its solve withdrawn
        (dropped if queued, its worker stopped if running), and so has a request whose task is cancelled."""
        try:
            solve = pool.submit(function, limit, connection.client.host if connection.client else "", **kwargs)
        except Busy as error:
            raise BadInput([str(error)], 503) from None
        gone = asyncio.ensure_future(client_left(connection))
        try:
            await asyncio.wait((solve.answer, gone), return_when=asyncio.FIRST_COMPLETED)
            if not solve.answer.done():  # nobody reads this answer: 499, nginx's "client closed request"
                raise BadInput(["request: the client closed the connection before the answer"], 499)
            outcome: Outcome = solve.answer.result()
        except TookTooLong as error:
            raise BadInput([str(error)], 503) from None
        finally:
            gone.cancel()
            pool.withdraw(solve)
        return outcome_report(connection, outcome)

    def outcome_report(connection: Request, outcome: Outcome) -> Any:
        """A worker's outcome as the answer, or as the refusal it is (BadInput: a 400, or a 500 for a bug)."""
        if outcome.bad_input:
            raise BadInput(outcome.bad_input)
        if outcome.internal is not None:
            line = f"internal error: {outcome.internal} (a bug in rummy)"
            tell(f"{connection.method} {connection.url.path}: {line}", outcome.trace)
            raise BadInput([line], 500)
        return outcome.report

    async def streamed(connection: Request, function: Callable[..., Any], limit: float, **kwargs: Any) -> Response:
        """A solve whose better answers stream as NDJSON lines before its answer (docs/serve.md "Best so far").

        Nothing is sent before the worker's first line: a solve refused before it has told anything
        (bad input, busy, a bug, too long) is the usual JSON refusal with its status. From then on the
        status is 200 and a refusal is the stream's last line. A client that hangs up, before or during
        the stream, has its solve withdrawn (its worker stopped), as ``solved`` does."""
        try:
            solve = pool.submit(function, limit, connection.client.host if connection.client else "", streams=True,
                                **kwargs)
        except Busy as error:
            raise BadInput([str(error)], 503) from None
        assert solve.lines is not None  # submitted with streams
        handed_on = False
        try:
            gone = asyncio.ensure_future(client_left(connection))
            first = asyncio.ensure_future(solve.lines.get())
            told = False
            try:
                await asyncio.wait((first, solve.answer, gone), return_when=asyncio.FIRST_COMPLETED)
            finally:
                gone.cancel()
                told = first.done()
                if not told:
                    first.cancel()
            if not told:
                if not solve.answer.done():  # the client left first
                    raise BadInput(["request: the client closed the connection before the answer"], 499)
                try:
                    report = outcome_report(connection, solve.answer.result())
                except TookTooLong as error:
                    raise BadInput([str(error)], 503) from None
                return NdjsonStream(one_line_stream(report), on_close=lambda: pool.withdraw(solve))
            handed_on = True

            def last_line(outcome: Outcome | TookTooLong) -> Any:
                """The answer, or the refusal as a JSON refusal's body (the status is sent by now)."""
                try:
                    if isinstance(outcome, TookTooLong):
                        raise BadInput([str(outcome)], 503)
                    return outcome_report(connection, outcome)
                except BadInput as error:
                    return error_body([_one_line(line) for line in error.lines] or ["bad input"])

            return NdjsonStream(streamed_lines(solve, first.result(), last_line),
                                on_close=lambda: pool.withdraw(solve))
        finally:
            if not handed_on:
                pool.withdraw(solve)

    reading = anyio.CapacityLimiter(settings.readers)
    app.state.reading = reading  # its statistics tell how many reads wait (tests wait on them, not on the clock)
    reads_by_client: Counter[str] = Counter()

    async def read(connection: Request, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """A position read (and its bag arranged) in a thread of ``reading``'s, not of the server's pool;
        refused at once (503) when as many reads wait as solves may (``max_waiting``), or when one client
        already has as many reads in hand as it may have solves (``max_per_client``): one visitor's
        slow bags never fill the queue the others wait in."""
        waiting = reading.statistics().tasks_waiting
        if waiting >= settings.max_waiting:
            positions = "1 position" if waiting == 1 else f"{waiting} positions"
            raise BadInput([f"busy: {positions} waiting to be read; try again shortly"], 503)
        client = connection.client.host if connection.client else ""
        if reads_by_client[client] >= settings.max_per_client:
            raise BadInput([f"busy: {settings.max_per_client} positions of yours are being read; "
                            "wait for them to be answered"], 503)
        reads_by_client[client] += 1
        try:
            result: dict[str, Any] = await anyio.to_thread.run_sync(_guarded, make, limiter=reading)
        finally:
            reads_by_client[client] -= 1
            if not reads_by_client[client]:
                del reads_by_client[client]
        return result

    async def client_left(connection: Request) -> None:
        """Returns when the client hangs up. The body is read by now (BodyLimit replayed it), so the
        server's next message is ``http.disconnect``; it comes as soon as the client's socket closes."""
        while (await connection.receive())["type"] != "http.disconnect":
            pass

    @app.post("/api/show", summary="rummy show --json: the position, read as the command line reads it, with its "
                                   "code and its TOML")
    async def show(request: ShowRequest, connection: Request) -> dict[str, Any]:
        return await read(connection, lambda: reports.show_report(request.position, request.format, request.after))

    @app.post("/api/steps", summary="The table after a turn written as steps (as check reads them), not judged")
    async def steps(request: StepsRequest, connection: Request) -> dict[str, Any]:
        return await read(connection,
                          lambda: reports.steps_report(request.before, request.steps, request.before_format))

    @app.post("/api/best", summary="rummy best --json --verify: the best turn (or draw advice in the draw phase); "
                                   "with progress, streamed: each better turn found, then the answer",
              response_model=None)
    async def best(request: BestRequest, connection: Request) -> dict[str, Any] | Response:
        limit = seconds(request.time_limit)
        asked = {"text": request.position, "kind": request.format, "time_limit": limit,
                 "objective": request.objective, "seed": request.seed}
        if request.progress:
            return await streamed(connection, reports.best_report, limit, **asked)
        result: dict[str, Any] = await solved(connection, reports.best_report, limit, **asked)
        return result

    @app.post("/api/check", summary="rummy check --json: is the turn legal? Every breach, coded")
    async def check(request: CheckRequest, connection: Request) -> dict[str, Any]:
        limit = seconds(request.time_limit)
        result: dict[str, Any] = await solved(
            connection, reports.check_report, limit, before_text=request.before, after_text=request.after,
            before_kind=request.before_format, after_kind=request.after_format, compare=request.best, time_limit=limit)
        return result

    @app.post("/api/hint", summary="rummy hint --json: hints for a puzzle, never more than the level asked")
    async def hint(request: HintRequest, connection: Request) -> dict[str, Any]:
        limit = seconds(request.time_limit)
        text, solution = request.puzzle, None
        if request.id is not None:
            entry = shipped.get(request.id)
            if entry is None:
                raise BadInput([f"id: no shipped position {request.id!r:.80}"], 404)
            text, solution = shipped.text(entry), shipped.solution_text(entry)
        if text is None:
            raise BadInput(["puzzle: give the puzzle's text, or the id of a shipped puzzle"])
        result: dict[str, Any] = await solved(connection, reports.hint_report, limit, text=text, level=request.level,
                                              kind=request.format, solution_text=solution, time_limit=limit)
        return result

    @app.post("/api/play", summary="rummy play --json: the position after a turn, and the turn's text for a game "
                                   "record; an illegal turn gives check's report")
    async def play(request: PlayRequest, connection: Request) -> dict[str, Any]:
        from rummy.reports import game_page

        limit = seconds(request.time_limit)
        result: dict[str, Any] = await solved(connection, game_page.play_report, limit, position_text=request.position,
                                              turn=request.turn, kind=request.format, time_limit=limit)
        return result

    @app.post("/api/game", summary="A game record read and replayed: the record, and every position of every hand")
    async def game(request: GameRequest, connection: Request) -> dict[str, Any]:
        from rummy.reports import game_page

        # replaying judges every turn (Python, not a search): in a worker, within the longest time limit
        result: dict[str, Any] = await solved(connection, game_page.game_report, settings.max_seconds,
                                              text=request.game, kind=request.format)
        return result

    @app.post("/api/deal", summary="A hand dealt (rummy.deal): every hand known, the stock listed")
    def deal(request: DealRequest) -> dict[str, Any]:
        from rummy.reports import game_page

        return _guarded(lambda: game_page.deal_report(request.rules, request.players, request.seed, request.hand))

    @app.post("/api/rummy-turn", summary="rummy plays the mover's turn from the mover's own view (the other hands "
                                         "and the stock hidden), carried out on the full position")
    async def rummy_turn(request: RummyTurnRequest, connection: Request) -> dict[str, Any]:
        from rummy.reports import game_page

        limit = seconds(request.time_limit)
        # a draw and a play: two searches at most, within the worker's clock of twice the limit
        result: dict[str, Any] = await solved(connection, game_page.rummy_turn_report, 2 * limit,
                                              position_text=request.position, time_limit=limit)
        return result

    @app.get("/api/limits", summary="A solve's time limit: the default a request gets, and the most it may ask")
    def limits() -> dict[str, float]:
        # The page's time-limit control and its "search longer" stay within what this server grants.
        return {"time_limit": seconds(None), "max_time_limit": settings.max_seconds}

    @app.get("/api/presets", summary="The presets as the position editor needs them: each deck and table shape")
    def presets() -> dict[str, Any]:
        from rummy.reports.editor import presets_report

        return presets_report()

    @app.post("/api/play-check", summary="One play's cards, read as a position reads them: whole or not, its score")
    def play_check(request: PlayCheckRequest) -> dict[str, Any]:
        from rummy.reports.editor import play_check_report

        return _guarded(lambda: play_check_report(request.rules, request.cards))

    @app.get("/api/positions", summary="The shipped examples and puzzle collections, narrowed by theme, tier, kind, "
                                       "family or collection when the query names one; and every theme")
    def positions(connection: Request) -> dict[str, Any]:
        # Read by hand, not as FastAPI parameters: an unknown key or one given twice is refused, not ignored.
        return shipped.listing(_guarded(lambda: ListFilter.from_query(connection.query_params.multi_items(), shipped)))

    @app.get("/api/positions/{collection}/{name}", summary="One shipped position's text (read-only)")
    def position(collection: str, name: str) -> dict[str, Any]:
        entry = shipped.get(f"{collection}/{name}")
        if entry is None:
            raise BadInput([f"no shipped position {collection!r:.40}/{name!r:.80}"], 404)
        return {**entry.to_data(), "text": shipped.text(entry)}

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(static / "index.html")

    app.mount("/static", StaticFiles(directory=static), name="static")
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    # The last added is the outermost: headers on every answer, then bugs caught, then the Host checked.
    app.add_middleware(HostGuard, listening=settings.host)
    app.add_middleware(InternalErrors)
    app.add_middleware(SecurityHeaders)
    return app


def _guarded(make: Callable[[], Answered]) -> Answered:
    from rummy.errors import RummyError, error_lines

    try:
        return make()
    except RummyError as error:
        raise BadInput(error_lines(error)) from None


def _validation_line(problem: Any) -> str:
    """Pydantic's problem as one line naming the field: ``time_limit: Input should be greater than 0``."""
    from rummy.errors import quote

    if problem.get("type") == "json_invalid":
        return _one_line(f"request: not valid JSON ({problem.get('ctx', {}).get('error', problem.get('msg'))})")
    where = ".".join(str(part) if str(part).isidentifier() or isinstance(part, int) else quote(str(part))
                     for part in problem.get("loc", ()) if part != "body") or "request"
    return _one_line(f"{where}: {problem.get('msg', 'not valid')}")


def _one_line(message: str) -> str:
    """A line as the command line prints it (rummy.errors.one_line): the same words, never two lines."""
    from rummy.errors import one_line

    return one_line(message)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rummy")
    except PackageNotFoundError:
        return "0"

