"""rummy.words: the one wording of an answer, said alike by ``rummy best``, its picture and a puzzle's answer sheet."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rummy.answer import Answer, answer_data, best
from rummy.cards import Card, parse_cards
from rummy.plan import HAND, Step
from rummy.position import Position
from rummy.solution import DrawChoice, DrawOption
from rummy.vocabulary import Action, DrawSource
from rummy.words import OPTIONS_SHOWN, number, option_words, plain, step_words
from tests.support.cli import run_cli
from tests.support.paths import PUZZLE_EXAMPLES
from tests.support.pictures import NS

HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"
HOUSE_DRAW = PUZZLE_EXAMPLES / "house-classic-draw.toml"


def section(root: ET.Element, name: str) -> ET.Element:
    return next(g for g in root.iter(f"{NS}g") if g.get("data-section") == name)


def lines_of(element: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in element.iter(f"{NS}text")]


def picture_steps(root: ET.Element) -> list[str]:
    """The steps column's numbered steps, a wrapped step joined back into one line."""
    steps: list[str] = []
    for line in lines_of(section(root, "steps"))[1:]:
        if line.startswith("marks on"):
            break
        head = line.split(". ", 1)
        if head[0].isdigit() and len(head) == 2:
            steps.append(head[1])
        else:
            steps[-1] += line
    return steps


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


@pytest.mark.parametrize("step, words", [
    (Step(Action.PLAY, cards("2C 2H"), HAND, "new/1", "ann", pays_for=cards("*")),
     "play 2C 2H from your hand to new/1 (ann's space), paying for the steal of *"),
    (Step(Action.MELD, cards("7H 7S *"), HAND, "new/1", stands_for=cards("7C")), "meld 7H 7S * (joker as 7C) as new/1"),
    (Step(Action.REPLACE_JOKER, cards("6H"), HAND, "bob/1", stands_for=cards("6H")),
     "replace the joker of bob/1 (standing for 6H) with 6H (the joker goes to your hand)"),
    (Step(Action.PLAY, cards("9D"), HAND, "cat/1", why="keeps cat/1 whole after the steal of *"),
     "play 9D from your hand to cat/1: keeps cat/1 whole after the steal of *"),
    (Step(Action.STEAL, cards("*"), "cat/1", "new/1", paid_by=cards("2C"), stood_for=cards("9D QD"),
          stands_as_rank="2"),
     "steal * (joker as a 2) from cat/1 (where it stood for 9D or QD) to new/1, paid by 2C"),
    (Step(Action.MOVE, cards("*"), "ann/1", "new/2", stood_for=cards("3C"), stands_for=cards("8H")),
     "move * (joker as 8H) from ann/1 (where it stood for 3C) to new/2"),
    (Step(Action.PLAY, cards("* 8C"), HAND, "new/3", stands_as_rank="8"), "play * 8C (joker as an 8) from your hand to new/3"),
    (Step(Action.MOVE, cards("QS"), "bob/1", "bob/2", why="keeps bob's plays whole"),
     "move QS from bob/1 to bob/2: keeps bob's plays whole"),
    (Step(Action.STEAL, cards("7H"), "bob/1", "new/2", "ann", paid_by=cards("8H")),
     "steal 7H from bob/1 to new/2 (ann's space), paid by 8H"),
    (Step(Action.STEAL, cards("9C"), "bob/1", "ann/2"), "steal bob/1 by adding 9C (now ann's)"),
    (Step(Action.LAY_OFF, cards("KS"), HAND, "cat/1"), "lay off KS on cat/1"),
    (Step(Action.DISCARD, cards("KS"), HAND), "discard KS"),
])
def test_every_step_reads_whole(step: Step, words: str) -> None:
    assert plain(step_words(step), "cards") == words


def test_every_draw_option_reads_whole() -> None:
    draw = DrawChoice((), unseen=30)
    said = {
        DrawOption(DrawSource.STOCK, 1.5, scores_chance=None): "the stock (expected over 30 unseen cards)",
        DrawOption(DrawSource.STOCK, 2, cards("QS")): "the stock (its top card is known: QS)",
        DrawOption(DrawSource.DISCARD, 3, cards("JH 5D"), take=2): "the discard pile, the top 2 cards: JH 5D",
        DrawOption(DrawSource.PILE, 4, cards("JH 5D")): "the whole discard pile (JH 5D), its top card melded at once",
        DrawOption(DrawSource.OPEN, 5, cards("4C")): "open the stock, taking its face-up card 4C",
        DrawOption(DrawSource.PASS, 0): "pass (the turn ends, gain 0)",
        DrawOption(DrawSource.DEMAND, 6, card=Card.from_notation("QS"), player="bob", probability=None):
            "demand QS from bob (succeeds with ?)",
    }
    for option, words in said.items():
        assert plain(option_words(option, draw), "cards") == words
    assert number(16.4666) == "16.47" and number(94.0) == "94" and number(3) == "3"


def test_best_and_its_picture_say_the_same_steps(tmp_path: Path) -> None:
    answer = best(Position.from_file(HOUSE))
    assert answer.plan is not None
    said = [plain(step_words(step), "cards") for step in answer.plan.steps]
    result = run_cli("best", HOUSE, "--svg", tmp_path / "a.svg")
    assert result.returncode == 0, result.stderr
    printed = [line.split(". ", 1)[1] for line in result.stdout.splitlines() if line[:3].strip().rstrip(".").isdigit()]
    assert printed == said
    assert picture_steps(ET.parse(tmp_path / "a.svg").getroot()) == said


def draw_rows(root: ET.Element) -> list[tuple[str, str, str]]:
    """The picture's draw option table: (rank, value, what is taken) a row."""
    rows = []
    for row in section(root, "draw-options").iter(f"{NS}g"):
        if row.get("data-option") is not None:
            rank, value, taken = lines_of(row)
            rows.append((rank.rstrip("."), value, taken))
    return rows


def printed_draw_rows(stdout: str) -> list[tuple[str, str, str]]:
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("draw options"))
    rows = []
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        rank, value, taken = line.split(maxsplit=2)
        rows.append((rank.rstrip("."), value, taken))
    return rows


def test_a_draw_phase_picture_has_the_option_table_best_prints(tmp_path: Path) -> None:
    result = run_cli("best", HOUSE_DRAW, "--svg", tmp_path / "b.svg")
    assert result.returncode == 0, result.stderr
    root = ET.parse(tmp_path / "b.svg").getroot()
    rows = draw_rows(root)
    assert rows == printed_draw_rows(result.stdout) and len(rows) > 1
    take = next(line for line in result.stdout.splitlines() if line.startswith("take: "))
    assert take in lines_of(section(root, "draw-options"))


def test_a_draw_phase_answer_sheet_has_the_option_table_and_solves_nothing(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A collection of one draw-phase puzzle, its answer stored as 'best --json' writes it."""
    position = Position.from_file(HOUSE_DRAW)
    answer = best(position)
    folder = tmp_path / "draws"
    folder.mkdir()
    (folder / "p.toml").write_text(HOUSE_DRAW.read_text())
    (folder / "p.solution.json").write_text(json.dumps(answer_data(answer)))
    (folder / "index.json").write_text(json.dumps({"puzzles": [{"name": "p", "kind": "steal", "tier": "easy"}]}))

    import rummy.answer
    from rummy.files import Folder
    from rummy.sheets import read_collection, sheet_files

    def no_solving(*args: object, **kwargs: object) -> Answer:
        raise AssertionError("the stored answer was solved again")

    monkeypatch.setattr(rummy.answer, "best", no_solving)
    with Folder(folder) as opened:
        (puzzle,) = read_collection(opened)
    pictures = sheet_files(puzzle)
    root = ET.fromstring(pictures["p.answer.svg"])
    deck = position.rules.deck
    assert answer.solution.draw is not None
    expected = [(str(rank), number(option.value), plain(option_words(option, answer.solution.draw), deck))
                for rank, option in enumerate(answer.solution.draw.options[:OPTIONS_SHOWN], 1)]
    assert draw_rows(root) == expected
    assert answer.plan is not None
    assert picture_steps(root) == [plain(step_words(step), deck) for step in answer.plan.steps]
    before = lines_of(section(root, "before"))
    assert before[0] == "after the draw, before the play"


def test_the_hand_penalty_reads_as_avoided_or_added() -> None:
    """The JSON ``what`` stays "hand penalty"; the words say which way it goes."""
    from rummy.words import breakdown_parts

    assert breakdown_parts([("table points won", 25), ("hand penalty", 34), ("first out", 0)]) == [
        "table points won 25", "hand penalty avoided 34"]
    assert breakdown_parts([("hand penalty", -8)]) == ["hand penalty -8"]


def test_the_stock_option_says_always_and_never() -> None:
    draw = DrawChoice((), unseen=30)
    for chance, words in [(1.0, "the turn always scores"), (0.0, "the turn never scores"),
                          (0.35, "the turn scores something with 35%"), (0.999, "the turn scores something with more than 99%")]:
        option = DrawOption(DrawSource.STOCK, 1.5, scores_chance=chance)
        assert plain(option_words(option, draw), "cards") == f"the stock (expected over 30 unseen cards; {words})"
