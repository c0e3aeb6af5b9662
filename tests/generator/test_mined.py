"""Puzzles mined from self-played games (``generate --kind mined``, docs/generate.md "Puzzles mined from games").

The game is played by the engine with a short limit a turn, so a mined
position depends on the seed alone only where every turn of the game before
it was proven within that limit: tile rummy's turns are (milliseconds each),
so the reproducibility test mines a tile game. House's draw advice stops at
the limit in most turns, so a House game may go otherwise on a loaded
machine: its test mines a recorded hand (puzzles/games).
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from rummy.games.selfplay import PLAYER_NAMES, selfplay
from rummy.generator import KINDS, Request, generate
from rummy.generator.candidate_search import candidate
from rummy.generator.mined_kinds import (
    GAME_TURN_SECONDS,
    MARGINS,
    MINED_PER_GAME,
    MinedTurn,
    accept_mined,
    exact_gain,
    greedy_found,
    make_mined,
    mine_hand,
    mine_record,
)
from rummy.ladder import Effort, best_found, ladder_of
from rummy.position import Position
from rummy.rules import preset
from rummy.solution import SolverConfig
from rummy.vocabulary import Phase, PuzzleKind, Status, Tier
from tests.support.cli import run_main
from tests.support.judged import judged_best
from tests.support.paths import REPO_ROOT

PROOF = SolverConfig(time_limit=60, workers=1)
TILE_GAME = ("rummikub", 3, 10)  # preset, players, game seed: a hand with mined turns
HOUSE_GAME = REPO_ROOT / "games" / "house-classic" / "house-classic-g004.json"  # a shipped record


@pytest.fixture(scope="module")
def tile_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """TILE_GAME's hand, self-played and written as a game record (rummy selfplay's)."""
    rules, players, seed = TILE_GAME
    path = tmp_path_factory.mktemp("games") / "rummikub-g010.json"
    selfplay(preset(rules), PLAYER_NAMES[:players], seed, 1, time_limit=GAME_TURN_SECONDS).game.save(path)
    return path


@pytest.fixture(scope="module")
def tile_mined(tile_record: Path) -> tuple[MinedTurn, ...]:
    return mine_record(str(tile_record), preset(TILE_GAME[0]))


@pytest.fixture(scope="module")
def house_mined() -> tuple[MinedTurn, ...]:
    return mine_record(str(HOUSE_GAME), preset("house-classic"))


@pytest.mark.slow
def test_a_game_record_mines_the_same_positions_as_the_game_self_played_from_its_seed(tile_record, tile_mined):
    rules, players, seed = TILE_GAME
    assert tile_mined and mine_record(str(tile_record), preset(rules)) == tile_mined
    assert [m.gap for m in tile_mined] == sorted((m.gap for m in tile_mined), reverse=True)  # widest first
    assert mine_hand(preset(rules), PLAYER_NAMES[:players], seed) == tile_mined  # tile turns: proven, so alike


def test_generate_mines_a_folder_of_records_one_candidate_a_record(tile_record, tile_mined):
    request = Request("rummikub", PuzzleKind.MINED, 1, workers=1, games=(str(tile_record),))
    report = generate(request)
    assert report.candidates == 1  # every record of the folder, and no more
    positions = [m.position for m in tile_mined[:MINED_PER_GAME]]
    assert report.puzzles[0].position in positions if report.puzzles else report.rejected


@pytest.mark.parametrize(("args", "named"), [
    (["--rules", "rummikub", "--kind", "max"], "only 'mined' mines games"),
    (["--rules", "house-classic", "--kind", "mined"], "a rummikub game, not house-classic"),
])
def test_games_that_do_not_fit_are_one_line_and_exit_2(tmp_path, tile_record, args, named, capsys):
    code, _, err = run_main(capsys, "generate", *args, "--games", str(tile_record.parent),
                            "--out", str(tmp_path / "out"))
    assert code == 2 and named in err and len(err.strip().splitlines()) == 1 and not (tmp_path / "out").exists()


def test_a_folder_without_records_is_refused(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("no game here", encoding="utf-8")
    for folder in (tmp_path, tmp_path / "missing"):
        code, _, err = run_main(capsys, "generate", "--rules", "rummikub", "--kind", "mined", "--games", str(folder),
                                "--out", str(tmp_path / "out"))
        assert code == 2 and err.startswith("rummy: --games: ") and len(err.strip().splitlines()) == 1


def test_the_maker_draws_its_game_from_the_candidates_random_alone(monkeypatch):
    games: list[tuple[str, tuple[str, ...], int]] = []

    def recorded(rules, players, seed):
        games.append((rules.name, players, seed))
        return ()

    monkeypatch.setattr("rummy.generator.mined_kinds.mine_hand", recorded)
    for _ in range(2):
        assert make_mined(random.Random("1/rummikub/mined/any/7"), preset("rummikub"), None) is None
    make_mined(random.Random("1/rummikub/mined/any/8"), preset("rummikub"), None)
    assert games[0] == games[1] != games[2]
    assert 2 <= len(games[0][1]) <= 4


@pytest.mark.parametrize("which", ["tile_mined", "house_mined"])
def test_a_mined_position_is_the_movers_view_of_a_play_phase_turn_beating_the_greedy_players(which, request):
    mined: tuple[MinedTurn, ...] = request.getfixturevalue(which)
    assert mined
    for turn in mined:
        position = turn.position
        assert position.phase == Phase.PLAY and position.mover.hand is not None
        assert all(p.hand is None for p in position.players if p.name != position.to_move)  # counts only
        assert not isinstance(position.stock, tuple)  # the stock as a count
        read = Position.from_toml(position.to_toml())  # a position file like any other, read strictly
        assert read.to_toml() == position.to_toml()
        answer = judged_best(read, PROOF)  # the checker accepts the best turn
        assert answer.solution.status == Status.OPTIMAL
        assert exact_gain(read, answer.solution.after) == turn.best_gain
        margin = MARGINS[read.rules.family]
        found = None
        for rung in ladder_of(read):  # every greedy rung, each a margin short of the best
            if rung.greedy:
                found = best_found(rung, read, Effort(), found)
                assert found.gain is None or found.gain <= turn.best_gain - margin, rung.name
        assert found is not None and found.gain == turn.greedy_gain and turn.gap >= margin
        assert accept_mined(read, answer) is None


def test_a_position_the_greedy_players_solve_is_rejected():
    position = Position.from_toml('rules = "rummikub"\nto_move = "ann"\ntable = ["R1 R2 R3"]\n'
                                  '[players.ann]\nmelded = true\nhand = "R4 K9"\n'
                                  '[players.bob]\nmelded = true\nhand_count = 5\n')
    answer = judged_best(position, PROOF)
    assert greedy_found(position).gain == exact_gain(position, answer.solution.after) == 1
    assert accept_mined(position, answer) == "the greedy players come within 1 of the best"


def test_a_candidate_of_several_positions_is_the_first_that_passes_else_the_first_rejection(monkeypatch):
    solved = Position.from_toml('rules = "rummikub"\nto_move = "ann"\ntable = ["R1 R2 R3"]\n'
                                '[players.ann]\nmelded = true\nhand = "R4 K9"\n'
                                '[players.bob]\nmelded = true\nhand_count = 5\n')
    kind = KINDS["tile", PuzzleKind.MINED]
    made: list[tuple[Position | None, ...]] = [(solved, None)]
    monkeypatch.setitem(KINDS, ("tile", PuzzleKind.MINED), replace(kind, make=lambda rng, rules, tier: made[0]))
    outcome = candidate(Request("rummikub", PuzzleKind.MINED, 1, workers=1), 0)
    assert outcome.puzzle is None and outcome.reason == "the greedy players come within 1 of the best"
    made[0] = (None, solved)
    assert candidate(Request("rummikub", PuzzleKind.MINED, 1, workers=1), 0).reason == "deal failed"


def test_mined_puzzles_are_never_easy_and_fit_house_and_tiles():
    for family in ("house", "tile"):
        kind = KINDS[family, PuzzleKind.MINED]
        assert Tier.EASY not in kind.tiers and kind.make is make_mined and kind.accept is accept_mined
    assert ("robber", PuzzleKind.MINED) not in KINDS and ("layoff", PuzzleKind.MINED) not in KINDS
