"""The vocabulary (rummy.vocabulary): every fixed set of words as the documents list it, and output unchanged by it.

Each set is read from the documents that define it (docs/rules.md's option
table, docs/formats.md's steps and statuses, docs/generate.md's kinds and
tiers; the shared specification too, where it is at hand) and compared with
its enum. The members are words: ``best --json``, ``rules --json``, position
files and reprs come out exactly as plain strings would write them, and a
draw-phase answer prints the very JSON it printed when its figures travelled
as strings in ``Solution.stats``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tomli_w

from rummy.answer import answer_data
from rummy.cli._options import Preset
from rummy.family import FAMILIES
from rummy.generator import KINDS, TIERS
from rummy.plan import Step
from rummy.position import Position
from rummy.reader import PHASES
from rummy.reports.presets import preset_data
from rummy.rules import OPTION_CHOICES, OPTION_WORDS, PRESETS, Ruleset, preset
from rummy.solution import DrawChoice, DrawOption, Solution, SolverConfig
from rummy.vocabulary import Ace, Action, DrawSource, Objective, Phase, PuzzleKind, SearchStatus, Status, Tier, Word
from tests.support.judged import judged_best
from tests.support.paths import REPO_ROOT, SHARED_DIR, shared_best_examples
from tests.support.positions import DRAW_BEFORE

ROOT = REPO_ROOT
DOCS = ROOT / "docs"
SPEC = SHARED_DIR / "spec"


def words(text: str) -> tuple[str, ...]:
    """The backticked words of a piece of markdown, in order."""
    return tuple(re.findall(r"`([^`]+)`", text))


def option_row(text: str, key: str) -> tuple[str, ...]:
    """The values column of an option table's row ``| `key` | `a`, `b` | ...``."""
    match = re.search(rf"^\| `{key}` \| ([^|]*) \|", text, re.M)
    assert match, f"no row for {key}"
    return words(match.group(1))


def plain(data):
    """``data`` with every word turned into the plain string it stands for."""
    if isinstance(data, dict):
        return {plain(key): plain(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(plain(item) for item in data)
    return str(data) if isinstance(data, str) else data


def has_word(data) -> bool:
    if isinstance(data, dict):
        return any(has_word(key) or has_word(value) for key, value in data.items())
    if isinstance(data, (list, tuple)):
        return any(has_word(item) for item in data)
    return isinstance(data, Word)


# ------------------------------------------------------------ the documents
@pytest.mark.parametrize("key", OPTION_WORDS)
def test_every_option_word_is_listed_in_the_rules(key: str) -> None:
    assert tuple(OPTION_WORDS[key]) == option_row((DOCS / "rules.md").read_text(encoding="utf-8"), key)
    assert OPTION_CHOICES[key] == tuple(OPTION_WORDS[key])  # the choices have one home
    spec = SPEC / "rules.md"
    if spec.is_file() and f"| `{key}` |" in spec.read_text(encoding="utf-8"):
        assert tuple(OPTION_WORDS[key]) == option_row(spec.read_text(encoding="utf-8"), key)


def test_every_word_option_of_a_ruleset_holds_its_member() -> None:
    types = {f.name: f.type for f in dataclasses.fields(Ruleset)}
    assert {key for key, kind in types.items() if kind in {w.__name__ for w in OPTION_WORDS.values()}} == set(OPTION_WORDS)
    for ruleset in [*PRESETS.values(), preset("robber").with_options({"ace": "low"})]:
        for key, words_of in OPTION_WORDS.items():
            assert type(getattr(ruleset, key)) is words_of, (ruleset.name, key)
    assert preset("robber").with_options({"ace": "low"}).ace is Ace.LOW


def test_the_phases_are_those_of_the_formats() -> None:
    assert PHASES == tuple(Phase) == words(re.search(r"`phase` \(([^)]*)\)", (DOCS / "formats.md").read_text()).group(1))
    spec = SPEC / "formats.md"
    if spec.is_file():
        comment = re.search(r'^phase = "play" +# (.*)$', spec.read_text(encoding="utf-8"), re.M).group(1)
        assert tuple(re.findall(r'"(\w+)"', comment)) == tuple(Phase)
    assert type(Position.from_file(ROOT / "puzzles" / "examples" / "rummikub.toml").phase) is Phase


def test_the_step_actions_are_those_of_the_formats() -> None:
    text = (DOCS / "formats.md").read_text(encoding="utf-8")
    table = re.findall(r"^\| `([a-z-]+)` \| .* \|$", text.split("| action | keys | meaning |")[1].split("\n\n")[0], re.M)
    assert tuple(table) + ("draw",) == tuple(Action)
    assert '{"action": "draw", "from": "stock", "expected_gain": ...}' in text
    assert dataclasses.fields(Step)[0].type == "Action"


def test_the_statuses_are_those_of_the_formats() -> None:
    text = " ".join((DOCS / "formats.md").read_text(encoding="utf-8").split())
    listed = re.search(r"`status` \(([^)]*)\)", text).group(1).split(", the time limit")[0]
    assert words(listed) == tuple(Status)
    spec = SPEC / "formats.md"
    if spec.is_file():  # the specification's four; rummy adds "unknown"
        block = spec.read_text(encoding="utf-8").split('"status": ')[1].split('(with "reason")')[0]
        assert tuple(re.findall(r'"([a-z-]+)"', block)) == tuple(Status)[:-1]
    assert Solution("optimal", 0, 0, None).status is Status.OPTIMAL
    assert set(SearchStatus) - set(Status) == {"infeasible"}  # a search's end, never an answer's


def test_the_draw_sources_are_among_the_formats() -> None:
    text = " ".join((DOCS / "formats.md").read_text(encoding="utf-8").split())
    assert {'{"from": "stock"}', '{"from": "pile", "cards": [...], "top": "9S"}'} <= set(re.findall(r"`(\{[^`]*\})`", text))
    spec = SPEC / "formats.md"
    if spec.is_file():
        sentence = " ".join(spec.read_text(encoding="utf-8").split()).split("`from` is ")[1].split(".")[0]
        assert set(DrawSource) <= set(re.findall(r'`"?([a-z]+)"?`', sentence))


def test_the_puzzle_words_are_those_of_generate_and_registered() -> None:
    text = (DOCS / "generate.md").read_text(encoding="utf-8")
    kinds = dict.fromkeys(words(re.search(r"^\| `--kind` \| (.*) \| required \|$", text, re.M).group(1)))
    kinds = [k for k in kinds if k not in ("house-classic", "house-epic", "robber")]
    assert tuple(kinds) == tuple(PuzzleKind)
    assert {name for _, name in KINDS} == set(PuzzleKind)
    assert all(type(kind.name) is PuzzleKind for kind in KINDS.values())
    tiers = words(re.search(r"^\| `--difficulty` \| (.*?);", text, re.M).group(1))
    assert tiers == tuple(Tier) == TIERS


def test_the_objectives_are_one_set() -> None:
    assert tuple(Objective) == ("default", "tiles", "value")
    assert all(type(o) is Objective for family in FAMILIES.values() for o in family.objectives)
    assert set(o for family in FAMILIES.values() for o in family.objectives) == set(Objective)
    assert SolverConfig().objective is Objective.DEFAULT


# --------------------------------------------------------------- the command line
def completions(args: list[str], incomplete: str) -> list[str]:
    """What bash is offered after ``rummy ARGS INCOMPLETE`` (docs/cli.md: shell completion)."""
    words = ["rummy", *args, incomplete]
    env = {**os.environ, "_RUMMY_COMPLETE": "complete_bash", "COMP_WORDS": " ".join(words), "COMP_CWORD": str(len(words) - 1)}
    run = subprocess.run([sys.executable, "-m", "rummy"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


@pytest.mark.parametrize("args, incomplete, offered", [
    (["best", "x.toml", "--objective"], "", list(Objective)),
    (["generate", "--kind"], "", list(PuzzleKind)),
    (["generate", "--kind"], "me", ["meld-steal"]),
    (["generate", "--difficulty"], "", list(Tier)),
    (["rules"], "house", ["house-classic", "house-epic"]),
    (["generate", "--rules"], "r", ["rummikub", "rummikub-lenient", "robber"]),
])
def test_shell_completion_offers_the_choices(args, incomplete, offered) -> None:
    assert completions(args, incomplete) == offered


@pytest.mark.parametrize("command, option, choices", [
    ("best", "--objective", Objective), ("generate", "--kind", PuzzleKind), ("generate", "--difficulty", Tier),
    ("generate", "--rules", Preset),
])
def test_help_lists_the_choices(command: str, option: str, choices) -> None:
    env = {**os.environ, "TERMINAL_WIDTH": "240", "NO_COLOR": "1"}
    run = subprocess.run([sys.executable, "-m", "rummy", command, "--help"], capture_output=True, text=True, cwd=ROOT,
                         env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    line = next(line for line in run.stdout.splitlines() if f" {option} " in line)
    if command == "generate":  # long lists: named, whole, in the option's help (which wraps between words)
        import re

        for choice in choices:
            assert re.search(rf"(?<![\w-]){re.escape(str(choice))}(?![\w-])", run.stdout), (choice, run.stdout)
        return
    assert "|".join(choices) in line, run.stdout


# ----------------------------------------------------------------- output
def test_words_write_as_their_text() -> None:
    data = {"ace": Ace.HIGH_OR_LOW, "steps": [{"action": Action.LAY_OFF}], "phase": Phase.DRAW}
    assert json.dumps(data) == json.dumps(plain(data)) == '{"ace": "high_or_low", "steps": [{"action": "lay-off"}], "phase": "draw"}'
    assert tomli_w.dumps(data) == tomli_w.dumps(plain(data))
    assert f"{Status.NO_LEGAL_TURN} {Tier.EASY!s}" == "no-legal-turn easy"
    assert repr(Ace.LOW) == "'low'" and repr(preset("robber").with_options({"ace": "low"})) == \
        "preset('robber').with_options({'ace': 'low'})"


@pytest.mark.parametrize("name", PRESETS)
def test_rules_json_and_position_files_are_written_as_before(name: str) -> None:
    data = preset_data(PRESETS[name])
    assert json.dumps(data, indent=2) == json.dumps(plain(data), indent=2)
    assert not has_word(json.loads(json.dumps(data)))


@pytest.mark.parametrize("path", shared_best_examples()[:8] + sorted((ROOT / "puzzles" / "examples").glob("*.toml")),
                         ids=lambda p: p.name)
def test_best_json_and_files_of_the_examples_are_plain_text(path: Path) -> None:
    position = Position.from_file(path)
    data = answer_data(judged_best(position, SolverConfig(time_limit=60, workers=1)))
    assert has_word(data)  # status, actions, phase...
    assert json.dumps(data, ensure_ascii=False) == json.dumps(plain(data), ensure_ascii=False)
    assert position.to_toml() == tomli_w.dumps(plain(position.to_data()))
    if data["after"] is not None:
        assert Position.from_data(json.loads(json.dumps(data))["after"], strict=False).to_data() == data["after"]


# test_robber_draw_answers' draw-phase Robber position, with bob's run JC QC KC
# to steal: the answers below are what ``best --json`` printed before the draw
# had its own types (seconds, wall_time and branches left out: they vary), and
# since issue 13 a random stock option's ``scores_chance``; since issue 14 the ``breakdown``;
# since issue 26 each step's ``play_cards`` (the plays it is the first to name, with their cards).
DRAW_ANSWERS = {
    ("2C 9D", "QS", "30"):
        '{"rules": "robber", "status": "optimal", "gain": 6.9474, "bound": 6.9474, "cards_played": 0, "steps": '
        '[{"action": "draw", "from": "stock", "expected_gain": 6.9474}], "after": null, "seconds": 0, "draw": '
        '{"from": "stock"}, "options": [{"from": "stock", "value": 6.9474, "scores_chance": 0.0842}], '
        '"stats": {"pile_gain": null, '
        '"stock_expected_gain": 6.9474, "samples": 52, "unseen": 95, "openings": 0, "draw": "stock"}}',
    ("2C 9D", "QS", '"8H 2D"'):
        '{"rules": "robber", "status": "optimal", "gain": 15, "bound": 15, "cards_played": 1, "steps": [{"action": '
        '"draw", "from": "stock", "cards": ["8H"], "expected_gain": 15}, {"action": "lay-off", "cards": ["8H"], '
        '"from": "hand", "to": "ann/1", "play_cards": {"ann/1": ["5H", "6H", "7H"]}}, '
        '{"action": "discard", "card": "9D"}], "after": {"rules": "robber", '
        '"to_move": "ann", "phase": "play", "players": {"ann": {"side": "ann", "melded": false, "hand": "2C", '
        '"plays": ["5H 6H 7H 8H"]}, "bob": {"side": "bob", "melded": false, "hand_count": 9, "plays": ["JC QC KC"]}}, '
        '"piles": {"discard": "QS 9D", "stock": "2D"}, "turn": {"meld": [], "replaced": [], "discard": "9D"}}, '
        '"seconds": 0, "breakdown": [{"what": "table points won", "points": 10}, {"what": "hand penalty", "points": 5}], '
        '"turn": "draw 8H; lay off 8H on ann/1 (5H 6H 7H); discard 9D", "plays_disturbed": 1, "cards_moved": 0, "draw": {"from": "stock", "cards": ["8H"]}, '
        '"options": [{"from": "stock", "cards": ["8H"], "value": 15}], "stats": {"pile_gain": null, '
        '"stock_expected_gain": 15, "samples": 1, "unseen": 1, "openings": 0, "draw": "stock"}}',
    ("2C 9D 10C", "9C 4H 8H", "30"):
        '{"rules": "robber", "status": "optimal", "gain": 185, "bound": 185, "cards_played": 4, "steps": [{"action": '
        '"draw", "from": "pile", "cards": ["8H", "4H", "9C"], "top": "8H"}, {"action": "lay-off", "cards": ["4H", '
        '"8H"], "from": "hand", "to": "ann/1", "play_cards": {"ann/1": ["5H", "6H", "7H"]}}, {"action": "steal", '
        '"cards": ["9C", "10C"], "from": "bob/1", "to": "ann/2", "play_cards": {"bob/1": ["JC", "QC", "KC"]}}, '
        '{"action": "discard", "card": "9D"}], "after": {"rules": "robber", "to_move": "ann", "phase": '
        '"play", "players": {"ann": {"side": "ann", "melded": false, "hand": "2C", "plays": ["4H 5H 6H 7H 8H", '
        '"9C 10C JC QC KC"]}, "bob": {"side": "bob", "melded": false, "hand_count": 9, "plays": []}}, "piles": '
        '{"discard": "9D", "stock": 30}, "turn": {"meld": [], "replaced": [], "discard": "9D"}}, "seconds": 0, '
        '"breakdown": [{"what": "table points won", "points": 110}, {"what": "taken from bob", "points": 60}, '
        '{"what": "hand penalty", "points": 15}], '
        '"turn": "take; lay off 4H 8H on ann/1 (5H 6H 7H); steal 9C 10C from bob/1 (JC QC KC); discard 9D", '
        '"plays_disturbed": 2, "cards_moved": 0, "draw": {"from": "pile", "cards": ["8H", "4H", "9C"], "top": "8H"}, '
        '"options": [{"from": "pile", "cards": ["8H", "4H", "9C"], "top": "8H", "value": 185}, {"from": "stock", '
        '"value": 151.25, "scores_chance": 1}], "stats": {"pile_gain": 185, "stock_expected_gain": 151.25, "samples": 52, "unseen": 92, '
        '"openings": 1, "draw": "pile"}}',
    ("2C 9D", "QS", "0"):
        '{"rules": "robber", "status": "no-legal-turn", "gain": 0, "bound": 0, "cards_played": 0, "steps": [], '
        '"after": null, "seconds": 0, "reason": "the discard pile\'s top card QS cannot be melded and the stock is '
        'empty", "stats": {"pile_gain": null, "stock_expected_gain": null, "samples": 0, "unseen": 0, "openings": 0}}',
}


@pytest.mark.parametrize("hand, pile, stock", DRAW_ANSWERS, ids=["random-stock", "listed-stock", "pile", "none"])
def test_a_draw_phase_answer_prints_as_before(hand: str, pile: str, stock: str) -> None:
    text = DRAW_BEFORE.replace('hand = "2C 9D"', f'hand = "{hand}"').replace('discard = "QS"', f'discard = "{pile}"')
    text = text.replace("STOCK", stock).replace("hand_count = 9\n", 'hand_count = 9\nplays = ["JC QC KC"]\n')
    answer = judged_best(Position.from_toml(text), SolverConfig(time_limit=30, workers=1))
    draw = answer.solution.draw
    assert isinstance(draw, DrawChoice) and all(isinstance(option, DrawOption) for option in draw.options)
    assert not {"draw", "draw_option", "options", "stock_expected_gain", "pile_gain"} & set(answer.solution.stats)
    data = answer_data(answer)
    data["seconds"] = 0
    for key in ("wall_time", "branches", "method"):
        data["stats"].pop(key, None)
    assert json.dumps(data) == DRAW_ANSWERS[hand, pile, stock]


# ------------------------------------------------------------ the --rules choices
def test_the_preset_words_are_the_presets() -> None:
    from rummy.cli._options import Preset
    from rummy.rules import PRESETS

    assert tuple(Preset) == tuple(PRESETS)
