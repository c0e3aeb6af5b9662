"""What the page asks of a game (issue 27 §5), answered by the library: a turn played, a game record replayed.

rummy.web serves these as ``POST /api/play`` and ``POST /api/game``. As in rummy.reports.page,
each function takes text as a file holds it and returns a JSON-ready object; bad input raises
RummyError with the line the command line prints.

- ``play_report``: ``rummy play POSITION TURN`` (rummy.reports.play.play_turn, the code path
  ``check`` shares): the next position (its data and code) and the turn's text for the game
  record, or, for an illegal turn, ``check``'s report (its lines and breaches).
- ``game_report``: a game record (rummy.games.record) read and replayed (rummy.games.replay):
  the record as rummy writes it, and every position of every hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummy.reports.page import BEFORE, breaches_view, plain, read_play_position

if TYPE_CHECKING:
    from rummy.position import Position
    from rummy.reports.play import PlayedTurn

TURN = "turn"  # where the error lines say the turn came from
GAME = "game"
MAX_GAME_TURNS = 600  # turns one request replays: a long evening of House is a few hundred


def play_report(position_text: str, turn: str, kind: str | None = None,
                time_limit: float = 10.0) -> dict[str, Any]:
    """The turn ``turn`` played from the position: anything ``check`` reads as AFTER (steps, draw
    words, an after-position, a ``best --json`` answer), or the word ``best`` for the best turn.
    Legal: ``legal`` true, ``position`` (the next position's data), ``code`` and ``turn`` (the text a
    game record keeps, which replays to the same position). Illegal: ``legal`` false and ``check``
    (check's ``--json`` object) with ``view.lines`` and ``view.breaches``. ``best`` that found no turn
    in time: ``legal`` null and ``nothing_to_judge``."""
    from rummy.errors import NoTurnInAnswer
    from rummy.position_code import position_code
    from rummy.reports.page import kind_of
    from rummy.reports.play import BEST_TURN, best_turn_text, play_turn

    before = read_play_position(position_text, BEFORE, kind, mover_may_be_hidden=True)  # as rummy play reads it
    asked_best = turn.strip().lower() == BEST_TURN
    text = best_turn_text(before, time_limit) if asked_best else turn
    try:
        played = play_turn(before, text, TURN, kind_of(text), f"{BEFORE} -> {TURN}")
    except NoTurnInAnswer as empty:
        return {"legal": None, "status": empty.status, "nothing_to_judge": empty.problem}
    report = played.report
    if played.position is None:
        return {"legal": False, "check": report.data,
                "view": {"lines": plain(report.lines), "breaches": breaches_view(report)}}
    position = played.position
    return {"legal": True, "turn": record_text(played, None if asked_best else turn),
            "player": before.to_move, "position": position.to_data(), "code": position_code(position),
            "reading": report.data.get("reading"), **ending_data(played)}


def ending_data(played: PlayedTurn) -> dict[str, Any]:
    """``ending``: where the turn ended the hand, why and its scores (rummy.hand_end: ``reason``,
    ``scores``, ...) with ``summary``, its line; null while the hand goes on."""
    ending = played.ending
    return {"ending": None if ending is None else {**ending.to_data(), "summary": ending.summary()}}


def record_text(played: PlayedTurn, given: str | None) -> str:
    """The turn as a game record keeps it: check's ``turn``, its canonical text (rummy.turn_text: the
    draw's words, then the steps), which ``play`` reads back to the same next position. ``given``: the
    text the user gave, kept where check writes none and one line of it is the whole turn (a draw in
    words alone); None for the word ``best``."""
    from rummy.errors import RummyError

    written = played.report.data.get("turn")
    if isinstance(written, str):
        return written
    if given is not None and len(given.strip().splitlines()) == 1 and not given.lstrip().startswith(("{", "[")):
        return given.strip()
    raise RummyError(f"{TURN}: this turn has no text for the game record: give it as steps or draw words")


def game_report(text: str, kind: str | None = None) -> dict[str, Any]:
    """A game record (TOML or JSON) read and replayed: ``game`` (the record's data as rummy writes it)
    and ``hands``, each with ``positions`` (the position before each turn, then the one after the
    last: data and code). A turn that does not replay is bad input, named by hand and turn."""
    from rummy.games.record import GameRecord
    from rummy.games.replay import replay
    from rummy.position_code import position_code
    from rummy.reports.page import kind_of

    found = kind_of(text, kind)
    if found == "code":
        from rummy.errors import RummyError

        raise RummyError(f"{GAME}: a game record is TOML or JSON, not a position's code")
    record = GameRecord.from_text(text, GAME, found)
    turns = sum(len(hand.turns) for hand in record.hands)
    if turns > MAX_GAME_TURNS:
        from rummy.errors import RummyError

        raise RummyError(f"{GAME}: {turns} turns: the page replays at most {MAX_GAME_TURNS}; "
                         "use 'rummy game show' for a longer game")
    return {"game": record.to_data(), "hands": [
        {"positions": [{"position": position.to_data(), "code": position_code(position)}
                       for position in hand.positions]}
        for hand in replay(record, GAME)]}


# ------------------------------------------------------------ playing against rummy
def deal_report(rules: str, players: list[str], seed: int | None = None, hand: int = 1) -> dict[str, Any]:
    """Hand number ``hand`` dealt for a game against rummy (rummy.deal.deal: every hand known, the stock
    listed, the first mover by the hand's number): ``position`` (data), ``code`` and ``seed`` (drawn at
    random when not given)."""
    import secrets

    from rummy.deal import MAX_SEED, deal
    from rummy.position_code import position_code
    from rummy.rules import ruleset_from_spec

    seed = secrets.randbelow(MAX_SEED + 1) if seed is None else seed
    position = deal(ruleset_from_spec(rules), players, seed, hand)
    return {"position": position.to_data(), "code": position_code(position), "seed": seed}


def rummy_turn_report(position_text: str, time_limit: float = 10.0) -> dict[str, Any]:
    """Rummy plays the mover's turn from the mover's own view (``seat_view``: the other hands and the
    stock hidden), carried out on the full position: ``turns``, one or two (a draw from the stock, the
    stock's real top card, then the play), each with ``player``, ``turn``, ``position`` and ``code``."""
    from rummy.answer import best
    from rummy.errors import RummyError
    from rummy.games.selfplay import seat_view  # what selfplay's seats see: one definition of it
    from rummy.position_code import position_code
    from rummy.reports.play import play_turn
    from rummy.solution import SolverConfig
    from rummy.turn_text import answer_turn_text
    from rummy.vocabulary import Phase

    position = read_play_position(position_text, BEFORE, None)
    mover = position.to_move
    turns: list[dict[str, Any]] = []
    for _ in range(2):  # a draw from the stock, then the play from what it brought
        answer = best(seat_view(position), SolverConfig(time_limit=time_limit, workers=1))
        text = answer_turn_text(answer)
        if text is None:
            text = _stock_draw(position, answer)
        played = play_turn(position, text, TURN, "toml", f"{BEFORE} -> {TURN}")
        if played.position is None:
            raise RummyError(f"{TURN}: rummy's turn for {mover} ({text}) was refused by the checker: "
                             + "; ".join(breach.message for breach in played.report.verdict.breaches))
        drawn_only = position.phase == Phase.DRAW and played.position.phase == Phase.PLAY
        position = played.position
        # the text is rummy's own (answer_turn_text, canonical) or the stock's top card drawn
        turns.append({"player": mover, "turn": text, "position": position.to_data(),
                      "code": position_code(position), **ending_data(played)})
        if played.ending is not None or not drawn_only or position.to_move != mover:
            break
    return {"turns": turns}


def _stock_draw(position: Position, answer: Any) -> str:
    """Where rummy's answer is a draw from the stock (a random card in the seat's view), the stock's top
    card: ``draw CARD``; a tile game with no play to make draws too."""
    from rummy.errors import RummyError
    from rummy.vocabulary import DrawSource, Phase

    draw = answer.solution.draw
    from_stock = draw is not None and draw.chosen is not None and draw.chosen.source == DrawSource.STOCK
    tile_draw = position.phase == Phase.PLAY and not position.rules.discard
    stock = position.stock
    if not (from_stock or tile_draw):
        raise RummyError(f"{TURN}: rummy found no turn for {position.to_move} ({answer.solution.status})")
    if not isinstance(stock, tuple) or not stock:
        raise RummyError(f"{TURN}: rummy draws for {position.to_move} from the stock, whose cards are not listed")
    return f"draw {stock[0].notation(position.rules.deck)}"


__all__ = ["MAX_GAME_TURNS", "deal_report", "game_report", "play_report", "record_text", "rummy_turn_report"]
