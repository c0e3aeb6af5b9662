"""Robber Rummy's draw phase: ``best`` and ``check`` agree (formats.md, draw-phase answers).

A draw-phase answer names the option chosen (``draw``) and every option with
its value (``options``, best first). A certain draw (the pile, a listed
stock) carries the whole turn, which the checker judges from the position
right after the draw; a random draw (a stock of unknown cards) is the draw
alone (``after`` null), which the checker judges by itself. Here every
shipped Robber puzzle, switched to the draw phase, and seeded random
positions go through both, in the API and through the command line; the
turns behind a random draw are checked card by card from the draw-phase
position, and their checker-computed gains average to the answer's value.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from rummy.answer import answer_data, best, verify_answer
from rummy.cards import SUITS, Card
from rummy.checker import check
from rummy.checker.robber import judge_draw_alone
from rummy.cli.app import main
from rummy.errors import PositionError
from rummy.position import Position
from rummy.solution import SolverConfig
from rummy.vocabulary import DrawSource
from tests.support.paths import REPO_ROOT
from tests.support.positions import DRAW_BEFORE

REPO = REPO_ROOT
PUZZLES = sorted((REPO / "puzzles" / "robber").glob("*.toml"))
CONFIG = SolverConfig(time_limit=30)


def draw_phase_text(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    assert text.count('phase = "play"') == 1, path
    return text.replace('phase = "play"', 'phase = "draw"')


def run(*args) -> tuple[int, str, str]:
    """``rummy ARGS`` in this process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def unseen(position: Position) -> list[Card]:
    return sorted(position.unseen_cards())


def after_drawing(position: Position, card: Card) -> Position:
    """The play-phase position after ``card`` came from a stock of unknown cards (built here, not by the model)."""
    mover = position.mover
    drawn = position.replace_player(replace(mover, hand=(mover.hand or ()) + (card,)))
    return replace(drawn, phase="play", stock=position.stock - 1)


def assert_answer_shape(position: Position, data: dict) -> None:
    """formats.md's draw-phase keys, and the agreement of ``draw``, ``options``, ``gain``, ``steps`` and ``after``."""
    draw, options = data["draw"], data["options"]
    values = [option["value"] for option in options]
    assert values == sorted(values, reverse=True)
    assert {option["from"] for option in options} <= {"stock", "pile"}
    assert len({option["from"] for option in options}) == len(options)
    assert options[0]["from"] == draw["from"] and data["gain"] == pytest.approx(values[0], abs=1e-3)
    assert data["steps"][0] == {"action": "draw", **draw, **({"expected_gain": data["gain"]} if draw["from"] == "stock" else {})}
    assert all(step["action"] != "draw" for step in data["steps"][1:])
    random_draw = draw["from"] == "stock" and not isinstance(position.stock, tuple)
    if random_draw:
        assert draw == {"from": "stock"} and data["after"] is None and len(data["steps"]) == 1
        return
    assert data["after"] is not None and data["after"]["phase"] == "play"
    if draw["from"] == "pile":
        cards = [c.notation() for c in reversed(position.discard_pile)]
        assert draw == {"from": "pile", "cards": cards, "top": cards[0]}
    else:
        assert draw == {"from": "stock", "cards": [position.stock[0].notation()]}


def assert_checked(position: Position, answer) -> None:
    """The checker accepts the answer: the turn after a certain draw, or a random draw alone."""
    solution = answer.solution
    assert solution.status == "optimal", solution.reason
    verdict = verify_answer(answer)
    assert verdict is not None and verdict.legal, verdict.breaches
    if solution.after is None:
        assert verdict.reading["draw"]["from"] == "stock" and "judged" in verdict.reading
        return
    verdict = check(position, solution.after)
    assert verdict.legal, verdict.breaches
    assert verdict.reading["draw"]["from"] == solution.draw.chosen.source
    assert verdict.reading["gain"] == pytest.approx(solution.gain)  # the value of a certain draw is its turn's gain
    if solution.draw.chosen.source == DrawSource.STOCK:
        assert solution.after.stock == position.stock[1:]
    else:
        assert solution.after.stock == position.stock


# ------------------------------------------------------- shipped puzzles
def test_the_puzzles_are_there() -> None:
    assert len(PUZZLES) >= 12


def test_every_shipped_puzzle_in_the_draw_phase_is_answered_and_checked_through_the_cli(tmp_path: Path) -> None:
    folder = tmp_path / "draw"
    folder.mkdir()
    for path in PUZZLES:
        (folder / path.name).write_text(draw_phase_text(path), encoding="utf-8")
    code, out, err = run("best", folder, "--json", "--verify")
    assert code == 0, err
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(PUZZLES)
    draws = Counter()
    for data in answers:
        before = Path(data["file"])
        position = Position.from_file(before)
        assert data["status"] == "optimal" and data["verified"] is True, data.get("verify_breaches")
        assert_answer_shape(position, data)
        draws[data["draw"]["from"]] += 1
        answer_file = tmp_path / (before.stem + ".answer.json")
        answer_file.write_text(json.dumps(data), encoding="utf-8")
        code, out, err = run("check", before, answer_file, "--json")
        assert code == 0, out + err
        reading = json.loads(out)["reading"]
        assert reading["draw"]["from"] == data["draw"]["from"]
        if data["after"] is None:
            assert "judged" in reading
        else:
            assert reading["gain"] == pytest.approx(data["gain"])
    assert draws["stock"] and draws["pile"]  # both kinds of answer are exercised


@pytest.mark.parametrize("path", PUZZLES, ids=[p.stem for p in PUZZLES])
def test_a_listed_stock_makes_the_draw_certain_and_the_turn_is_checked(path: Path) -> None:
    position = Position.from_toml(draw_phase_text(path))
    left = unseen(position)
    rng = random.Random(path.stem)
    position = replace(position, stock=tuple(rng.sample(left, 3)))
    answer = best(position, CONFIG)
    assert_checked(position, answer)
    data = answer_data(answer)
    assert_answer_shape(position, data)
    # What the stock is worth is exactly the turn after its known top card.
    stock_value = next(o["value"] for o in data["options"] if o["from"] == "stock")
    drawn = replace(position.replace_player(replace(position.mover, hand=position.mover.hand + position.stock[:1])),
                    phase="play", stock=position.stock[1:])
    turn = best(drawn, CONFIG).solution
    assert stock_value == pytest.approx(float(check(position, turn.after).reading["gain"]))


@pytest.mark.parametrize("path", PUZZLES[::6], ids=[p.stem for p in PUZZLES[::6]])
def test_turns_behind_a_random_stock_draw_are_legal_from_the_draw_phase_position(path: Path) -> None:
    position = Position.from_toml(draw_phase_text(path))
    rng = random.Random(path.stem)
    for card in rng.sample(unseen(position), 3):
        turn = best(after_drawing(position, card), CONFIG).solution
        verdict = check(position, turn.after)
        assert verdict.legal, verdict.breaches
        assert verdict.reading["draw"] == {"draw": "stock", "from": "stock", "drawn": [card.notation()]}


def test_the_cli_pipes_a_draw_answer_into_check(tmp_path: Path) -> None:
    """``rummy check BEFORE <(rummy best BEFORE --json)``, as a shell runs it: a random draw, the pile, a listed stock."""
    chosen = {}
    for path in PUZZLES:
        position = Position.from_toml(draw_phase_text(path))
        draw = best(position, CONFIG).solution.draw.chosen.source
        chosen.setdefault(draw, (path, position))
        if len(chosen) == 2:
            break
    path, position = chosen["stock"]
    listed = " ".join(c.notation() for c in unseen(position)[:2])
    texts = [draw_phase_text(path), draw_phase_text(chosen["pile"][0]),
             draw_phase_text(path).replace(f"\nstock = {position.stock}\n", f'\nstock = "{listed}"\n')]
    assert texts[2] != texts[0]
    rummy = f"{sys.executable} -m rummy"
    for index, text in enumerate(texts):
        before = tmp_path / f"draw-{index}.toml"
        before.write_text(text, encoding="utf-8")
        result = subprocess.run(["bash", "-c", f"{rummy} check {before} <({rummy} best {before} --json)"],
                                cwd=REPO, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout.startswith("legal")
        assert ("judged: the draw alone" in result.stdout) == (index == 0)


# ------------------------------------------------------ random positions
def random_draw_position(seed: int) -> Position:
    """Owned plays, a hand, a discard pile whose top is often meldable, and a stock of each kind."""
    rng = random.Random(seed)
    deck = Counter({Card(r, s): 2 for r in range(1, 14) for s in SUITS})

    def take(cards: list[Card]) -> bool:
        if any(deck[c] < n for c, n in Counter(cards).items()):
            return False
        deck.subtract(cards)
        return True

    plays: dict[str, list[str]] = {"ann": [], "bob": [], "cat": []}
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.5:
            rank = rng.randint(1, 13)
            cards = [Card(rank, rng.choice(SUITS)) for _ in range(3)]
        else:
            suit, start = rng.choice(SUITS), rng.randint(1, 10)
            cards = [Card(start + i, suit) for i in range(rng.randint(3, 4))]
        if take(cards):
            plays[rng.choice(list(plays))].append(" ".join(c.notation() for c in cards))
    table = [Card.from_notation(t) for texts in plays.values() for text in texts for t in text.split()]

    def near(cards: list[Card]) -> list[Card]:
        return [c for c in sorted(deck.elements()) if any(
            c.rank == t.rank or (c.suit == t.suit and abs(c.rank - t.rank) <= 2) for t in cards)]

    hand: list[Card] = []
    for _ in range(rng.randint(3, 8)):
        pool = near(table + hand) if rng.random() < 0.5 else sorted(deck.elements())
        card = rng.choice(pool or sorted(deck.elements()))
        take([card])
        hand.append(card)
    pile: list[Card] = []
    for i in range(rng.randint(1, 4)):
        pool = near(hand) if i == 0 or rng.random() < 0.3 else sorted(deck.elements())
        card = rng.choice(pool or sorted(deck.elements()))
        take([card])
        pile.insert(0, card)  # the first card chosen ends on top
    kind = rng.choice(("count", "count", "listed", "empty"))
    stock = 40 if kind == "count" else 0 if kind == "empty" else " ".join(
        c.notation() for c in rng.sample(sorted(deck.elements()), 3))
    data = {"rules": "robber", "to_move": "cat", "phase": "draw",
            "players": {name: {"plays": plays[name], **({"hand": " ".join(c.notation() for c in hand)} if name == "cat"
                                                         else {"hand_count": 6})} for name in plays},
            "piles": {"discard": " ".join(c.notation() for c in pile), "stock": stock}}
    return Position.from_data(data)


@pytest.mark.parametrize("seed", range(24))
def test_random_draw_phase_answers_are_checked(seed: int) -> None:
    position = random_draw_position(seed)
    answer = best(position, CONFIG)
    solution = answer.solution
    if solution.status == "no-legal-turn":
        assert position.stock == 0 and solution.after is None
        return
    assert_checked(position, answer)
    assert_answer_shape(position, answer_data(answer))
    if solution.after is None and seed % 3 == 0:
        # The value of a random draw: the mean, over the unseen cards, of the gain the checker computes
        # for the best turn after each (every such turn legal from the draw-phase position).
        weights = position.unseen_cards()
        total = 0.0
        for card, weight in weights.items():
            verdict = check(position, best(after_drawing(position, card), CONFIG).solution.after)
            assert verdict.legal, verdict.breaches
            total += weight * float(verdict.reading["gain"])
        assert solution.gain == pytest.approx(total / sum(weights.values()), abs=1e-6)


# ------------------------------------------------- a random draw judged alone
def draw_answer(status: str = "optimal", draw: dict | None = None) -> dict:
    return {"rules": "robber", "status": status, "gain": 10, "bound": 10, "cards_played": 0,
            "steps": [{"action": "draw", **(draw or {"from": "stock"})}], "after": None,
            **({"draw": draw} if draw else {})}


def write(path: Path, data) -> Path:
    path.write_text(json.dumps(data) if isinstance(data, dict) else data, encoding="utf-8")
    return path



@pytest.mark.parametrize("draw", [{"from": "stock"}, None])
def test_check_judges_a_random_draw_alone(tmp_path: Path, draw) -> None:
    before = write(tmp_path / "before.toml", DRAW_BEFORE.replace("STOCK", "30"))
    code, out, err = run("check", before, write(tmp_path / "answer.json", draw_answer(draw=draw)))
    assert code == 0, err
    assert out.startswith("legal") and "the draw alone" in out


def test_a_random_draw_from_an_empty_stock_is_illegal(tmp_path: Path) -> None:
    before = write(tmp_path / "before.toml", DRAW_BEFORE.replace("STOCK", "0"))
    code, out, _ = run("check", before, write(tmp_path / "answer.json", draw_answer(draw={"from": "stock"})), "--json")
    assert code == 1
    assert [b["code"] for b in json.loads(out)["breaches"]] == ["empty-stock"]


@pytest.mark.parametrize("stock, answer, says", [
    ("30", draw_answer(draw={"from": "pile", "cards": ["QS"], "top": "QS"}), "taking the pile is a certain draw"),
    ('"8H 2D"', draw_answer(draw={"from": "stock"}), "the stock is listed"),
    ("30", draw_answer(draw={"from": "open"}), "no draw of Robber Rummy"),
])
def test_an_answer_without_its_turn_is_bad_input_where_the_draw_is_certain(tmp_path: Path, stock, answer, says) -> None:
    before = write(tmp_path / "before.toml", DRAW_BEFORE.replace("STOCK", stock))
    code, out, err = run("check", before, write(tmp_path / "answer.json", answer))
    assert code == 2 and not out
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_an_answer_that_found_no_turn_has_nothing_to_judge(tmp_path: Path) -> None:
    """Not bad input: one plain line, exit 4 (formats.md "No turn within the time limit")."""
    before = write(tmp_path / "before.toml", DRAW_BEFORE.replace("STOCK", "30"))
    code, out, err = run("check", before, write(tmp_path / "answer.json", draw_answer(status="no-legal-turn")))
    assert (code, out.strip(), err) == (4, "nothing to judge: the answer found no turn (status no-legal-turn)", "")


def test_a_play_phase_position_has_no_draw_to_judge(tmp_path: Path) -> None:
    before = write(tmp_path / "before.toml", DRAW_BEFORE.replace("STOCK", "30").replace('"draw"', '"play"'))
    code, _, err = run("check", before, write(tmp_path / "answer.json", draw_answer(draw={"from": "stock"})))
    assert code == 2 and "no after position" in err
    with pytest.raises(PositionError):
        judge_draw_alone(Position.from_file(before), DrawSource.STOCK)
