"""Draws written as words (``"draw 7H"``, ``take 3``, ``open``, ``pass``, ``"demand QS from bob"``) are read
by ``check`` and ``play`` through one code path (issue 27): on every shipped draw-phase example, both give
the same exit code, the same verdict or the same one-line error, and ``play`` prints the position ``check``
judged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummy.position import Position
from rummy.reports.check import answer_from_text, turn_report
from rummy.vocabulary import Phase
from tests.support.cli import run_main
from tests.support.paths import PUZZLE_EXAMPLES

DRAW_PHASE = [path for path in sorted(PUZZLE_EXAMPLES.glob("*.toml")) if Position.from_file(path).phase == Phase.DRAW]


def draw_words(before: Position) -> list[str]:
    """Every draw word, with a card the position does not show (drawn, or demanded of another player)."""
    deck = before.rules.deck
    card = min(card for card, count in before.unseen_cards().items() if count > 0 and not card.is_joker)
    other = next(player.name for player in before.players if player.name != before.to_move)
    named = card.notation(deck)
    return ["draw", f"draw {named}", "take", "take 2", "open", "pass", f"demand {named} from {other}"]


def held(position: Position, name: str) -> int:
    player = next(player for player in position.players if player.name == name)
    return len(player.hand) if player.hand is not None else player.hand_count or 0


def test_the_shipped_examples_have_draw_phase_positions_of_every_family_with_a_draw() -> None:
    families = {Position.from_file(path).rules.family.name for path in DRAW_PHASE}
    assert len(DRAW_PHASE) >= 5 and len(families) >= 3, families


@pytest.mark.parametrize("path", DRAW_PHASE, ids=lambda path: path.stem)
def test_check_and_play_agree_on_every_draw_word(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = Position.from_file(path)
    codes = set()
    for word in draw_words(before):
        checked = run_main(capsys, "check", path, word, "--json")
        played = run_main(capsys, "play", path, word, "--json")
        code = checked[0]
        codes.add(code)
        assert played[0] == code, (word, checked, played)
        if code == 2:  # bad input for both, said alike in one line, nothing on stdout
            assert checked[1] == played[1] == "" and checked[2] == played[2], word
            assert len(checked[2].splitlines()) == 1 and "Traceback" not in checked[2]
            continue
        verdict = json.loads(checked[1])
        assert verdict["legal"] == (code == 0) and verdict["reading"]["draw"]["from"], (word, verdict)
        if code == 1:  # illegal: play refuses with check's very verdict
            assert played[1] == checked[1] and verdict["breaches"], word
            continue
        shown = json.loads(played[1])
        judged = turn_report(before, answer_from_text(word, "draw", "toml", before), "x").judged
        assert judged is not None and shown == json.loads(judged.to_json()), word
        after = Position.from_data(shown) if shown["phase"] == "play" else None
        if word == "pass":  # the turn passes, nothing moves
            assert shown["to_move"] != before.to_move and shown["phase"] == "draw", word
            continue
        assert after is not None and after.to_move == before.to_move, word
        gained = held(after, before.to_move) - held(before, before.to_move)
        assert gained == (int(word.split()[1]) if word.startswith("take ") else 1), word
        if word.startswith("draw "):
            assert after.mover.hand is not None and word.split()[1] in {
                card.notation(before.rules.deck) for card in after.mover.hand}, word
        if word.startswith("demand "):
            giver = word.split()[-1]
            assert held(after, giver) == held(before, giver) - 1, word

    assert 0 in codes and 2 in codes, codes  # a legal draw was carried out; "draw" alone: the stock is not listed


@pytest.mark.parametrize(("name", "word", "code"), [
    ("house-upcard", "take 2", "pile-too-short"), ("house-upcard", "draw 9C", "stock-not-opened"),
    ("house-classic-draw", "pass", "no-upcard"), ("straight-draw", "take 2", "too-many-taken"),
])
def test_an_illegal_draw_is_checks_verdict_in_play_too(name: str, word: str, code: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = PUZZLE_EXAMPLES / f"{name}.toml"
    checked = run_main(capsys, "check", path, word)
    played = run_main(capsys, "play", path, word)
    assert checked[0] == played[0] == 1 and checked[1] == played[1], (checked, played)
    assert code in checked[1] and "illegal" in checked[1]


@pytest.mark.parametrize("word", ["take 2", "open", "pass"])
def test_the_pages_check_reads_draw_words_as_the_command_line(word: str, capsys: pytest.CaptureFixture[str]) -> None:
    from rummy.reports.page import check_report

    path = PUZZLE_EXAMPLES / "house-upcard.toml"
    code, printed, _ = run_main(capsys, "check", path, word, "--json")
    command_line = json.loads(printed)
    answer = check_report(path.read_text(encoding="utf-8"), word)
    assert code in (0, 1) and {key: answer[key] for key in command_line if key != "warnings"} == {
        key: value for key, value in command_line.items() if key != "warnings"}
    assert answer["legal"] == (word != "take 2")
