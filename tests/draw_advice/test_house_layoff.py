"""Draw advice (rules.md §5 "Draw advice", §8) against an independent brute force.

Every option of a small draw-phase position is valued here from the spec
alone: the test enumerates the draws, builds each play-phase position right
after the draw itself (the temperatures as rules.md §5 writes them, not
rummy/draw_advice/options.py), finds the best turn with the checker-based oracle
(tests/support/oracle.py), subtracts what the drawn cards cost in hand (Classic and
lay-off: their penalty; Epic: nothing) and combines the outcomes with
exact fractions (the stock: a mean over the unseen cards weighted by
copies; a demand: its probability times its value on success). The
advice's ``DrawOption.exact`` must equal it for every option, and the
options left out must be exactly those after which no legal turn exists.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.answer import Answer, best
from rummy.cards import Card, parse_cards
from rummy.checker import turn_gain
from rummy.draw_advice.idle import idle_key
from rummy.generator.deck import DeckPool, PlayShapes, random_play
from rummy.plays import Play, is_whole
from rummy.position import Attached, Player, Position
from rummy.rules import preset
from rummy.solution import DrawOption, SolverConfig
from tests.support.oracle import brute_force_gain
from tests.support.paths import REPO_ROOT
from tests.support.random_positions import deal_hand_near, random_house

EXAMPLES = REPO_ROOT / "puzzles" / "examples"
CONFIG = SolverConfig(time_limit=30, workers=1)

# rules.md §5 "Penalty values" (House) and §8 (lay-off rummy).
HOUSE_PENALTY = {1: 11, 11: 2, 12: 3, 13: 4}


def penalty(card: Card, rules) -> int:
    if card.is_joker:
        return 15
    if rules.family == "house":
        return HOUSE_PENALTY.get(card.rank, card.rank)
    if card.rank == 12 and card.suit == "S" and rules.name == "straight":
        return 45
    return 1 if card.rank == 1 else min(card.rank, 10)


def hand_cost(cards: Iterable[Card], rules) -> int:
    """What the drawn cards cost the gain (rules.md §5: where hand cards count; Epic: they do not)."""
    if rules.name == "house-epic":
        return 0
    return sum(penalty(card, rules) for card in cards)


# ------------------------------------------------------------ the test's own draws
Key = tuple  # (source, take, card, player): one option


def option_key(option: DrawOption) -> Key:
    return (str(option.source), option.take, option.card.plain() if option.card else None, option.player)


def after_draw(position: Position, cards: tuple[Card, ...], hot: tuple[Card, ...] = (), warm: tuple[Card, ...] = (),
               players: dict[str, Player] | None = None, **changes) -> Position:
    """The play-phase position right after the mover drew ``cards`` (written here from rules.md, not rummy.draw_advice)."""
    swapped = dict(players or {})
    mover = position.mover
    swapped[mover.name] = replace(swapped.get(mover.name, mover), hand=tuple(mover.hand) + cards, hot=hot, warm=warm)
    return replace(position, players=tuple(swapped.get(p.name, p) for p in position.players), phase="play",
                   turn=None, **changes)


def unseen(position: Position) -> Counter:
    """rules.md §5: the deck minus the mover's hand, the table, the discard pile, known hands (and listed stock)."""
    rules = position.rules
    deck = Counter({Card.joker(): rules.jokers})
    for rank in range(1, 14):
        for suit in "SHDC":
            deck[Card(rank, suit)] = rules.copies
    seen = Counter()
    for player in position.players:
        seen.update(c.plain() for c in player.hand or ())
        seen.update(c.plain() for play in player.plays for c in play.cards)
        seen.update(c.plain() for attached in player.layoffs for c in attached.cards)
    seen.update(c.plain() for c in position.discard_pile)
    if isinstance(position.stock, tuple):
        seen.update(c.plain() for c in position.stock)
    if position.upcard is not None:
        seen[position.upcard.plain()] += 1
    return +(deck - seen)


def expected_draws(position: Position) -> dict[Key, tuple[Fraction, list[tuple[int, Position, tuple[Card, ...]]]]]:
    """Every draw of rules.md §5/§8: its key, the chance it succeeds, its outcomes (weight, start, cards drawn)."""
    rules = position.rules
    pile = position.discard_pile
    draws: dict[Key, tuple[Fraction, list]] = {}
    one = Fraction(1)
    if position.upcard is not None:
        card = position.upcard.plain()
        draws[("open", None, None, None)] = (one, [(1, after_draw(position, (card,), warm=(card,), upcard=None), (card,))])
        draws[("pass", None, None, None)] = (one, [])
    elif isinstance(position.stock, tuple):
        if position.stock:
            card = position.stock[0].plain()
            draws[("stock", None, None, None)] = (one, [(1, after_draw(position, (card,), stock=position.stock[1:]), (card,))])
    elif position.stock:
        draws[("stock", None, None, None)] = (one, [
            (copies, after_draw(position, (card,), stock=position.stock - 1), (card,))
            for card, copies in sorted(unseen(position).items())])
    if rules.family == "layoff":
        if pile:
            top = pile[-1].plain()
            draws[("discard", 1, None, None)] = (one, [(1, after_draw(position, (top,), warm=(top,), discard_pile=pile[:-1]),
                                                        (top,))])
        return draws
    for take in range(1, len(pile) + 1):
        taken = tuple(c.plain() for c in pile[::-1][:take])  # top first
        hot = (taken[-1],)
        warm = (taken[0],) if take >= 2 else ()
        if rules.name == "house-epic":
            warm += taken[1:-1]
        start = after_draw(position, taken, hot=hot, warm=warm, discard_pile=pile[:-take])
        draws[("discard", take, None, None)] = (one, [(1, start, taken)])
    if rules.name == "house-epic":
        hidden_total = sum(unseen(position).values())
        for player in position.players:
            if player.name == position.to_move:
                continue
            size = len(player.hand) if player.hand is not None else player.hand_count
            if size <= 1:
                continue  # never a player's last card
            if player.hand is not None:
                chances = {card: one for card in {c.plain() for c in player.hand}}
            else:
                chances = {card: Fraction(size * copies, hidden_total) for card, copies in unseen(position).items()}
            for card, chance in chances.items():
                if player.hand is not None:
                    hand = list(player.hand)
                    hand.remove(next(c for c in hand if c.plain() == card))
                    asked = replace(player, hand=tuple(hand))
                else:
                    asked = replace(player, hand_count=size - 1)
                start = after_draw(position, (card,), hot=(card,), players={player.name: asked})
                draws[("demand", None, card, player.name)] = (min(chance, one), [(1, start, (card,))])
    return draws


def outcome_value(start: Position, drawn: tuple[Card, ...]) -> Fraction | None:
    """The best turn after the draw, from before it: the oracle's gain minus what the drawn cards cost."""
    gain = brute_force_gain(start)
    return None if gain is None else Fraction(gain) - hand_cost(drawn, start.rules)


def expected_values(position: Position) -> dict[Key, Fraction | None]:
    """Every draw's value (None: no legal turn follows it, so it is not offered)."""
    values: dict[Key, Fraction | None] = {}
    for key, (chance, outcomes) in expected_draws(position).items():
        if key[0] == "pass":
            values[key] = Fraction(0)
            continue
        each = [(weight, outcome_value(start, drawn)) for weight, start, drawn in outcomes]
        if any(v is None for _, v in each):
            values[key] = None
            continue
        total = sum(w for w, _ in each)
        values[key] = chance * sum((w * v for w, v in each), Fraction(0)) / total
    return values


def advise(position: Position) -> Answer:
    return best(position, CONFIG)


def assert_matches_brute_force(position: Position) -> Answer:
    """Every option's exact value equals the brute force; the options offered are those with a legal turn."""
    answer = advise(position)
    draw = answer.solution.draw
    assert draw is not None
    got = {option_key(o): o for o in draw.options}
    assert len(got) == len(draw.options), "an option is listed twice"
    expected = expected_values(position)
    offered = {key for key, value in expected.items() if value is not None}
    assert set(got) == offered, (f"offered {sorted(got, key=str)}, expected {sorted(offered, key=str)}")
    for key, option in got.items():
        assert option.exact == expected[key], (key, option.exact, expected[key])
        assert option.value == pytest.approx(float(expected[key]), abs=1e-9)
    assert_ranked(answer)
    return answer


def assert_ranked(answer: Answer) -> None:
    """Best first; on equal values, fewer cards taken, then stock, open, discard, demand, pass."""
    options = answer.solution.draw.options
    order = ["stock", "open", "discard", "demand", "pass"]

    def taken(o: DrawOption) -> int:
        return 0 if o.source == "pass" else (o.take or 1)

    ranks = [(-o.exact, taken(o), order.index(o.source)) for o in options]
    assert ranks == sorted(ranks)
    if options:
        assert answer.solution.gain == pytest.approx(options[0].value)
        assert answer.solution.draw.chosen is options[0]


def keys_of(answer: Answer, source: str) -> set[Key]:
    return {option_key(o) for o in answer.solution.draw.options if o.source == source}


def option(answer: Answer, source: str, take: int | None = None, card: str | None = None,
           player: str | None = None) -> DrawOption | None:
    wanted = (source, take, Card.from_notation(card) if card else None, player)
    return next((o for o in answer.solution.draw.options if option_key(o) == wanted), None)


def full_deck() -> Counter:
    deck = Counter({Card.joker(): 2})
    deck.update(Card(rank, suit) for rank in range(1, 14) for suit in "SHDC")
    return deck


def draw_phase(rules: str, hand_number: int | None, tables: str) -> str:
    """A position's TOML in ann's draw phase: the rules (and House's hand number), then ``tables``."""
    number = f"hand_number = {hand_number}\n" if hand_number is not None else ""
    return f'rules = "{rules}"\n{number}to_move = "ann"\nphase = "draw"\n{tables}'


def read(text: str, rest_to: str | None = None, hidden: str = "", top: str = "") -> Position:
    """A position from TOML. ``rest_to="stock"``: the stock lists every card the text leaves out but
    ``hidden`` (what the hidden hands hold), ``top`` first; ``rest_to=NAME``: that player's known hand
    is every card left out but ``hidden`` (so only ``hidden`` is unseen)."""
    position = Position.from_toml(text)
    if rest_to is None:
        return position
    rest = full_deck() - Counter(c.plain() for c in position.known_cards()) - Counter(parse_cards(hidden))
    first = parse_cards(top)
    cards = tuple(first) + tuple(sorted((rest - Counter(first)).elements()))
    if rest_to == "stock":
        position = replace(position, stock=cards)
    else:
        position = position.replace_player(replace(position.player(rest_to), hand=cards, hand_count=None))
    return Position.from_data(position.to_data())


# ------------------------------------------------------------ random small positions
def draw_phase_house(seed: int, listed: bool = True, pile_size: int | None = None) -> Position:
    """``random_house(seed)`` with small hands, switched to the draw phase: nothing hot or warm, a
    discard pile of 1-3 cards (half of them, where possible, next to cards of the table or the hand)
    taken out of the unseen cards, and a stock: two listed cards, or the count of what is left."""
    position = random_house(seed, hand_size=(3, 4))
    rng = random.Random(seed * 7919 + 1)
    deck = unseen(position)
    near = position.table_cards() + list(position.mover.hand)
    pile = deal_hand_near(rng, deck, pile_size or rng.randint(1, 3), near)
    deck -= Counter(pile)
    if listed:
        stock: int | tuple[Card, ...] = tuple(deal_hand_near(rng, deck, 2, near))
    else:
        stock = position.stock - len(pile)
    players = tuple(replace(p, hot=(), warm=()) for p in position.players)
    drawn = replace(position, players=players, phase="draw", discard_pile=tuple(pile), stock=stock)
    return Position.from_data(drawn.to_data())  # validated as a file would be


def draw_phase_layoff(seed: int) -> Position:
    """A small random Straight or traditional draw-phase position: one or two plays (ann's or bob's,
    sometimes with a card ann laid off), ann's hand of 3-4 cards half near them, a discard pile of
    1-3 cards and a stock of one or two listed cards, or the count of the rest."""
    rng = random.Random(seed)
    rules = preset(rng.choice(("straight", "traditional")))
    pool = DeckPool(rules, rng)
    shapes = PlayShapes(tries=40, run_chance=0.5, run_lengths=(3, 3, 4), book_sizes=(3, 3, 4), joker_chance=0.0)
    spaces: dict[str, list[Play]] = {"ann": [], "bob": []}
    for _ in range(rng.randint(1, 2)):
        cards = random_play(rng, pool, rules, shapes)
        if cards:
            spaces[rng.choice(("ann", "bob"))].append(Play(tuple(cards)))
    table = [c for plays in spaces.values() for play in plays for c in play.cards]
    deck = Counter(pool.cards)
    layoffs: tuple[Attached, ...] = ()
    if spaces["bob"] and rng.random() < 0.5:
        play = spaces["bob"][0]
        fits = [c for c in sorted(deck) if is_whole(play.cards + (c,), rules)]
        if fits:
            layoffs = (Attached("bob/1", (fits[0],)),)
            deck[fits[0]] -= 1
    hand = deal_hand_near(rng, deck, rng.randint(3, 4), table)
    deck -= Counter(hand)
    pile = deal_hand_near(rng, deck, rng.randint(1, 3), table + hand)
    deck -= Counter(pile)
    hidden = rng.randint(3, 6)
    stock: int | tuple[Card, ...] = (tuple(deal_hand_near(rng, deck, rng.randint(1, 2), table + hand))
                                     if rng.random() < 0.5 else sum(deck.values()) - hidden)
    players = (Player("ann", "ann", bool(spaces["ann"]), tuple(hand), None, (), (), tuple(spaces["ann"]), layoffs),
               Player("bob", "bob", bool(spaces["bob"]), None, hidden, (), (), tuple(spaces["bob"])))
    position = Position(rules, players, "ann", "draw", None, None, (), tuple(pile), stock)
    return Position.from_data(position.to_data())


@pytest.mark.parametrize("seed", range(10))
def test_random_layoff_positions_match_the_brute_force(seed: int) -> None:
    """Straight and traditional: the stock (listed, or its mean over every unseen card) and the top discard."""
    assert_matches_brute_force(draw_phase_layoff(seed))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_random_house_positions_with_a_listed_stock_match_the_brute_force(seed: int) -> None:
    position = draw_phase_house(seed)
    assert_matches_brute_force(position)


def test_random_positions_cover_classic_epic_hidden_hands_and_absent_discards() -> None:
    """The seeds above are worth running: both presets, a hidden hand, a discard option left out and one offered."""
    positions = [draw_phase_house(seed) for seed in range(20)]
    assert {p.rules.name for p in positions} == {"house-classic", "house-epic"}
    assert any(pl.hand is None for p in positions for pl in p.players)
    absent = offered = 0
    for p in positions:
        got = keys_of(advise(p), "discard")
        takes = {k[1] for k in got}
        absent += sum(take not in takes for take in range(1, len(p.discard_pile) + 1))
        offered += len(takes)
    assert absent and offered


# ------------------------------------------------------------ hand-built positions
JOKERS_AND_DEPTHS = draw_phase("house-classic", 1, """
players.ann = {melded = true, hand = "* 4C 9S", space = ["5H 6H 7H"]}
players.bob = {melded = true, hand_count = 4, space = ["QS QD *"]}
piles = {discard = "AD 8H 2C KD", stock = "10S 3D"}
""")


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["house-classic", "house-epic"])
def test_jokers_on_the_table_and_in_the_hand_and_every_depth_of_the_pile(preset: str) -> None:
    """Taking 1 leaves a hot KD that no play can hold: not offered. Deeper takes are, each valued
    with its own hot bottom card, warm top card and (Classic cold, Epic warm) middle cards."""
    position = read(JOKERS_AND_DEPTHS.replace("house-classic", preset))
    answer = assert_matches_brute_force(position)
    assert option(answer, "discard", take=1) is None
    assert {k[1] for k in keys_of(answer, "discard")} == {2, 3, 4}
    assert answer.solution.draw.chosen.take == 4  # the AD bottom card: KD AD * around the corner


MIDDLE = draw_phase("house-classic", 2, """
players.ann = {melded = true, hand = "5H 6H 9C 10C"}
players.bob = {melded = true, hand_count = 5, space = ["QD QC QH"]}
piles = {discard = "3D 7H KS JC", stock = 20}
""")


@pytest.mark.parametrize("preset", ["house-classic", "house-epic"])
def test_middle_discards_are_cold_in_classic_and_warm_in_epic(preset: str) -> None:
    """Taking three (JC warm, KS in the middle, 7H hot) both runs are laid; going out needs the KS
    discarded, which only Classic allows. The other temperature would change the value."""
    position = read(MIDDLE.replace("house-classic", preset))
    middle_warm = preset == "house-epic"
    taken = parse_cards("JC KS 7H")  # top first

    def start(warm_middle: bool) -> Position:
        return after_draw(position, taken, hot=taken[-1:], warm=taken[:1] + (taken[1:2] if warm_middle else ()),
                          discard_pile=position.discard_pile[:-3])

    right, wrong = outcome_value(start(middle_warm), taken), outcome_value(start(not middle_warm), taken)
    assert right != wrong
    answer = assert_matches_brute_force(position)
    assert option(answer, "discard", take=3).exact == right
    assert (answer.solution.after is not None and answer.solution.after.player("ann").hand == ()) == (not middle_warm)


def test_an_unmelded_player_draws_the_stock_joker_on_a_tie_with_the_discard() -> None:
    """Replacing bob's joker releases it; the stock's (listed) joker makes a book of four with both.
    Equal values: the stock comes before the discard pile."""
    position = read(draw_phase("house-classic", 1, """
players.ann = {melded = false, hand = "3D 3H 10S"}
players.bob = {melded = true, hand_count = 6, space = ["8S 9S *"]}
piles = {discard = "KC 3C", stock = "* 5H"}
"""))
    answer = assert_matches_brute_force(position)
    stock, discard = option(answer, "stock"), option(answer, "discard", take=1)
    assert stock.exact == discard.exact == 61
    assert answer.solution.draw.chosen is stock
    assert answer.solution.after.player("ann").hand == ()


DEMANDS = draw_phase("house-epic", 3, """
players.ann = {melded = true, hand = "5D 6D KS 2H", space = ["9H 9S 9C"]}
players.bob = {melded = true, hand_count = 2, space = ["2C 3C 4C"]}
players.cat = {melded = true, hand = "7D JH 4S"}
players.dan = {melded = true, hand_count = 1}
piles = {discard = "KD 4D", stock = 0}
""")


def test_epic_demands_from_a_known_and_a_hidden_hand_never_a_last_card() -> None:
    """ann and cat against bob and dan. The stock is listed, so the unseen cards are the three that
    bob (2) and dan (1) hold: a demand from bob succeeds with 2 x 1 / 3; from cat (a partner, her hand
    shown) it is certain; dan's last card is never demanded."""
    position = read(DEMANDS, rest_to="stock", hidden="8D 5C 10H", top="8H")
    answer = assert_matches_brute_force(position)
    demands = [o for o in answer.solution.draw.options if o.source == "demand"]
    assert {o.player for o in demands} == {"bob", "cat"}
    for o in demands:
        assert o.probability == (1 if o.player == "cat" else Fraction(2, 3))
    assert option(answer, "demand", card="7D", player="cat").exact == 15
    assert option(answer, "demand", card="5C", player="bob").exact == Fraction(2, 3) * -5
    # 8D and 10H (from bob) and 4S, JH (from cat) would be hot and cannot be played: not offered.
    assert option(answer, "demand", card="8D", player="bob") is None
    assert option(answer, "demand", card="JH", player="cat") is None
    # Equal values, one card each: the discard pile before a demand.
    assert option(answer, "discard", take=1).exact == 15
    assert option_key(answer.solution.draw.chosen) == ("discard", 1, None, None)


def test_a_known_last_card_is_not_demanded_even_where_it_would_score() -> None:
    text = DEMANDS.replace('hand_count = 1', 'hand = "7D"').replace('hand = "7D JH 4S"', 'hand_count = 1')
    position = read(text, rest_to="stock", hidden="8D 5C 10H", top="8H")
    answer = assert_matches_brute_force(position)
    assert all(o.card != Card.from_notation("7D") for o in answer.solution.draw.options)
    assert {o.player for o in answer.solution.draw.options if o.source == "demand"} == {"bob"}


UPCARD = draw_phase("house-classic", 2, """
players.ann = {melded = false, hand = "7C 8C 2D"}
players.bob = {melded = true, hand_count = 5, space = ["JH QH KH"]}
piles = {discard = "3S", upcard = "9C", stock = 30}
""")


@pytest.mark.parametrize("preset", ["house-classic", "house-epic"])
def test_the_upcard_is_opened_warm_or_passed(preset: str) -> None:
    position = read(UPCARD.replace("house-classic", preset))
    answer = assert_matches_brute_force(position)
    assert option(answer, "stock") is None
    assert option(answer, "pass").exact == 0
    assert option_key(answer.solution.draw.chosen) == ("open", None, None, None)
    assert answer.solution.after.upcard is None


def test_pass_wins_when_opening_costs() -> None:
    """The AS opened is warm: it stays in the hand (11) and only the 3D can go: -8 against a pass's 0."""
    position = read(UPCARD.replace('hand = "7C 8C 2D"', 'hand = "2C 3D"').replace('upcard = "9C"', 'upcard = "AS"')
                    .replace("melded = false", 'melded = true, space = ["9S 9H 9D"]'))
    answer = assert_matches_brute_force(position)
    assert option(answer, "open").exact == -8
    assert option_key(answer.solution.draw.chosen) == ("pass", None, None, None)
    assert answer.solution.gain == 0


def test_classic_stock_expectation_over_few_unseen_cards_is_brute_forced_in_full() -> None:
    """bob's hand is known, so the five unseen cards (a joker among them) are all the stock can give."""
    position = read(draw_phase("house-classic", 4, """
players.ann = {melded = true, hand = "5C 6C JD", space = ["9H 10H JH"]}
players.bob = {melded = true, hand = "", space = ["QS QD QC"]}
piles = {discard = "2S", stock = 5}
"""), rest_to="bob", hidden="7C 8H KD 3S *")
    assert unseen(position) == Counter(parse_cards("7C 8H KD 3S *"))
    answer = assert_matches_brute_force(position)
    stock = option(answer, "stock")
    assert stock.exact.denominator == 5
    assert answer.solution.draw.unseen == 5 and answer.solution.draw.samples == 5
    assert answer.solution.after is None  # a random draw: the turn waits for the card


@pytest.mark.slow
def test_epic_stock_expectation_over_few_unseen_cards_is_brute_forced_in_full() -> None:
    """cat's hand is known (so it can be demanded card by card); bob's hidden two and the stock's three share
    five unseen cards: the stock's mean and each demand's 2/5 chance, and Epic's going-out bonus at their mean."""
    position = read(draw_phase("house-epic", 4, """
players.ann = {melded = true, hand = "5C 6C 7C", space = ["9H 10H JH"]}
players.bob = {melded = true, hand_count = 2, space = ["QS QD QC"]}
players.cat = {melded = true, hand = ""}
piles = {discard = "2S", stock = 3}
"""), rest_to="cat", hidden="8C 8H KD 3S *")
    answer = assert_matches_brute_force(position)
    assert option(answer, "stock").exact.denominator != 1
    assert {o.probability for o in answer.solution.draw.options if o.player == "bob"} == {Fraction(2, 5)}


# ------------------------------------------------------------ lay-off rummy
TRADITIONAL = draw_phase("traditional", None, """
players.ann = {hand = "2C 5D 9H KC", space = ["5S 6S 7S"]}
players.bob = {hand_count = 4, space = ["9D 10D JD"]}
piles = {discard = "3H QD", stock = "8S 4C"}
""")


def test_traditional_takes_the_top_discard_only_and_ties_go_to_the_stock() -> None:
    """8S from the stock grows ann's run; the QD from the pile is laid off on bob's: 10 each."""
    answer = assert_matches_brute_force(read(TRADITIONAL))
    assert keys_of(answer, "discard") == {("discard", 1, None, None)}
    assert option(answer, "stock").exact == option(answer, "discard", take=1).exact == 10
    assert option_key(answer.solution.draw.chosen) == ("stock", None, None, None)


def test_the_card_taken_from_the_pile_may_not_be_discarded_again() -> None:
    """Nothing plays: the KH taken must stay, the 9H goes (9 - 10); were the KH discardable it would be 0."""
    position = read(draw_phase("traditional", None, """
players.ann = {hand = "2C 5D 9H"}
players.bob = {hand_count = 7}
piles = {discard = "3S KH", stock = "4C"}
"""))
    answer = assert_matches_brute_force(position)
    assert option(answer, "discard", take=1).exact == -1
    assert option(answer, "stock").exact == 5


def test_straight_random_stock_is_brute_forced_in_full_and_the_queen_of_spades_laid_off() -> None:
    """The QS (45) from the pile goes on bob's queens; the stock's mean is over every unseen card."""
    position = read(draw_phase("straight", None, """
players.ann = {hand = "JH KH 3C 7D"}
players.bob = {hand_count = 5, space = ["QD QC QH"]}
piles = {discard = "5C QS", stock = 30}
"""))
    answer = assert_matches_brute_force(position)
    assert option(answer, "discard", take=1).exact == 10
    stock = option(answer, "stock")
    assert answer.solution.draw.unseen == 43
    assert 0 < stock.scores_chance < 1


# ------------------------------------------------------------ the random stock, card by card
def solver_value(start: Position, drawn: tuple[Card, ...]) -> Fraction | None:
    """The family's own search on one after-draw position, valued from before the draw."""
    solution = start.rules.family.solver_function()(start, CONFIG)
    if solution.after is None:
        assert solution.status == "no-legal-turn"
        return None
    assert solution.status == "optimal"
    return Fraction(turn_gain(start, solution.after)) - hand_cost(drawn, start.rules)


def stock_outcomes(position: Position) -> list[tuple[int, Position, tuple[Card, ...]]]:
    chance, outcomes = expected_draws(position)[("stock", None, None, None)]
    assert chance == 1
    return outcomes


@pytest.mark.parametrize("seed", [0, 3, 6, 13])
def test_random_stock_is_the_exact_mean_over_unseen_cards(seed: int) -> None:
    """Each unseen card solved on its own (the family's search, a few checked by the oracle), weighted by
    its copies: the stock's exact value, its chance of scoring, and the counts behind it."""
    position = draw_phase_house(seed, listed=False)
    answer = advise(position)
    stock = option(answer, "stock")
    outcomes = stock_outcomes(position)
    values = [(weight, solver_value(start, drawn)) for weight, start, drawn in outcomes]
    total = sum(w for w, _ in values)
    assert total == sum(unseen(position).values()) == answer.solution.draw.unseen
    assert stock.exact == sum((w * v for w, v in values), Fraction(0)) / total
    assert stock.scores_chance == Fraction(sum(w for w, v in values if v > 0), total)
    for _weight, start, drawn in random.Random(seed).sample(outcomes, 3):
        assert solver_value(start, drawn) == outcome_value(start, drawn), drawn
    assert answer.solution.after is None or option_key(answer.solution.draw.chosen)[0] != "stock"


IDLE = draw_phase("house-classic", 3, """
players.ann = {melded = true, hand = "5C 6C 7C", space = ["9H 10H JH"]}
players.bob = {melded = true, hand_count = 4, space = ["QS QD QC"]}
piles = {discard = "2D", stock = 30}
""")


@pytest.mark.parametrize("preset", ["house-classic", "house-epic"])
def test_idle_cards_share_one_search_per_penalty_and_lose_nothing(preset: str) -> None:
    """Most unseen cards can join no play: drawn, the best turn lays the clubs and discards the card (going
    out: Classic's 25, Epic's bonus at the mean penalty of the cards still unseen, which depends on the card
    drawn only through its penalty). One search per penalty must give what solving each card does."""
    position = read(IDLE.replace("house-classic", preset))
    outcomes = stock_outcomes(position)
    idle = [(start, drawn) for _, start, drawn in outcomes if idle_key(start, drawn[0]) is not None]
    by_penalty = Counter(penalty(drawn[0], position.rules) for _, drawn in idle)
    assert len(idle) >= 20 and max(by_penalty.values()) >= 4
    assert not any(d[0] in parse_cards("4C 8C 8H QH") for _, d in idle)  # these can join a play
    assert all(c in [d[0] for _, d in idle] for c in parse_cards("9C KH 2S"))  # these cannot
    answer = advise(position)
    assert answer.solution.draw.samples == len(outcomes)
    assert answer.solution.draw.solves < len(outcomes)  # fewer searches than stock cards: the shortcut was taken
    separately = {drawn: solver_value(start, drawn) for _, start, drawn in outcomes}
    for _start, drawn in idle:  # equal penalties, equal values: the shortcut's premise
        same = [separately[d] for _, d in idle if penalty(d[0], position.rules) == penalty(drawn[0], position.rules)]
        assert set(same) == {separately[drawn]}
    weights = {drawn: weight for weight, _, drawn in outcomes}
    total = sum(weights.values())
    assert option(answer, "stock").exact == sum((weights[d] * v for d, v in separately.items()), Fraction(0)) / total
    for start, drawn in idle[:: max(1, len(idle) // 3)]:
        assert separately[drawn] == outcome_value(start, drawn)


# ------------------------------------------------------------ the answer, end to end
def run_best(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rummy", "best", *args], capture_output=True, text=True, timeout=120)


def draw_files(tmp_path: Path) -> dict[str, tuple[Position, tuple]]:
    """Draw-phase files, each with the draw ``best`` must choose (from, take, card, player)."""
    no_pile = DEMANDS.replace('discard = "KD 4D"', 'discard = ""')
    cases = {
        "depths": (read(JOKERS_AND_DEPTHS), ("discard", 4, None, None)),
        "open": (read(UPCARD), ("open", None, None, None)),
        "pass": (read(UPCARD.replace('hand = "7C 8C 2D"', 'hand = "2C 3D"').replace('upcard = "9C"', 'upcard = "AS"')),
                 ("pass", None, None, None)),
        "stock": (read(IDLE), ("stock", None, None, None)),
        "listed": (read(TRADITIONAL), ("stock", None, None, None)),
        "certain-demand": (read(no_pile, rest_to="stock", hidden="8D 5C 10H", top="8H"), ("demand", None, "7D", "cat")),
        "random-demand": (read(no_pile.replace("7D JH 4S", "8D JH 4S"), rest_to="stock", hidden="7D 5C 10H", top="8H"),
                          ("demand", None, "7D", "bob")),
    }
    for name, (position, _) in cases.items():
        position.save(tmp_path / f"{name}.toml")
    return cases


def test_best_json_answers_the_draw_phase(tmp_path: Path) -> None:
    cases = draw_files(tmp_path)
    run = run_best(*(str(tmp_path / f"{name}.toml") for name in cases), "--json")
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [Path(a["file"]).stem for a in answers] == list(cases)
    for data, (name, (position, chosen)) in zip(answers, cases.items()):
        source, take, card, player = chosen
        draw = data["draw"]
        assert (draw["from"], draw.get("take"), draw.get("card"), draw.get("player")) == chosen, name
        values = [o["value"] for o in data["options"]]
        assert values == sorted(values, reverse=True), name
        assert data["gain"] == values[0]
        assert {k: v for k, v in data["options"][0].items() if k not in ("value", "scores_chance")} == draw
        assert data["steps"][0] == {"action": "draw", **draw, **({"expected_gain": data["gain"]} if source == "stock" else {})}
        random_draw = (source == "stock" and "cards" not in draw) or draw.get("probability", 1) < 1
        assert (data["after"] is None) == random_draw, name
        if random_draw:
            assert data["steps"] == data["steps"][:1]
            assert "plays_disturbed" not in data
            continue
        declared = {"from": source, **({"take": take} if take else {}), **({"card": card} if card else {}),
                    **({"player": player} if player else {})}
        assert data["after"]["turn"]["draw"] == declared, name
        after = Position.from_data(data["after"], strict=False)
        assert after.phase == "play" and after.turn.draw.source == source
        if source == "pass":
            assert data["gain"] == 0 and data["steps"] == [{"action": "draw", "from": "pass"}]
            assert after.player(position.to_move).hand == position.mover.hand
        else:
            assert isinstance(data["plays_disturbed"], int) and isinstance(data["cards_moved"], int)
            assert len(data["steps"]) > 1


def test_best_prints_the_ranked_options(tmp_path: Path) -> None:
    draw_files(tmp_path)
    run = run_best(str(tmp_path / "certain-demand.toml"), str(tmp_path / "random-demand.toml"))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "draw options" in out and "one turn ahead" in out
    assert "take: demand 7D from cat (succeeds with 100%)" in out
    assert "take: demand 7D from bob (succeeds with 67%)" in out
    assert out.count("table after the turn") == 1  # the random demand's turn waits for the card


MALFORMED = [
    (UPCARD.replace('upcard = "9C"', 'upcard = "ZZ"'), "piles.upcard"),
    (UPCARD.replace('upcard = "9C"', 'upcard = "9C 8C"'), "piles.upcard"),
    (TRADITIONAL.replace('stock = "8S 4C"', 'stock = 30, upcard = "8S"'), "piles.upcard"),
    (JOKERS_AND_DEPTHS + '\n[turn]\ndraw = {from = "nowhere"}\n', "turn.draw.from"),
    (JOKERS_AND_DEPTHS + '\n[turn]\ndraw = {from = "discard", take = "x"}\n', "turn.draw.take"),
    (UPCARD.replace('phase = "draw"', 'phase = "drawing"'), "phase"),
]


@pytest.mark.parametrize("text, place", MALFORMED, ids=[place for _, place in MALFORMED])
def test_a_malformed_draw_phase_file_is_one_line_naming_the_place(tmp_path: Path, text: str, place: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    run = run_best(str(path), "--json")
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr
    assert "bad.toml" in lines[0] and place in lines[0]


def test_nothing_to_draw_is_no_legal_turn(tmp_path: Path) -> None:
    path = tmp_path / "empty.toml"
    path.write_text(TRADITIONAL.replace('discard = "3H QD"', 'discard = ""').replace('stock = "8S 4C"', "stock = 0"))
    run = run_best(str(path), "--json")
    assert run.returncode == 1, run.stderr
    data = json.loads(run.stdout)
    assert data["status"] == "no-legal-turn" and data["after"] is None and "reason" in data


# ------------------------------------------------------------ properties
@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(0, 10_000), listed=st.booleans(), pile=st.integers(1, 3), upcard=st.booleans())
def test_every_answer_is_ranked_and_its_figures_are_in_range(seed: int, listed: bool, pile: int, upcard: bool) -> None:
    position = draw_phase_house(seed, listed=listed, pile_size=pile)
    if upcard:  # the stock not opened yet: its face-up card is one of the unseen
        card = sorted(unseen(position))[seed % len(unseen(position))]
        stock = position.stock[1:] if isinstance(position.stock, tuple) else position.stock - 1
        position = Position.from_data(replace(position, upcard=card, stock=stock).to_data())
    answer = advise(position)
    solution = answer.solution
    draw = solution.draw
    assert_ranked(answer)
    offered = set(expected_draws(position))
    for o in draw.options:
        assert option_key(o) in offered
        assert o.exact is not None and o.value == pytest.approx(float(o.exact))
        assert o.bound is not None and o.value <= o.bound + 1e-9
        if o.source == "demand":
            assert 0 < o.probability <= 1 and o.player != position.to_move
            assert o.certain == (o.probability == 1)
        else:
            assert o.probability is None
        if o.source == "stock":
            assert o.certain == isinstance(position.stock, tuple)
            # Only a random draw has a chance: a listed stock's top card is certain.
            assert (o.scores_chance is None) == o.certain
            assert o.certain or 0 <= o.scores_chance <= 1
        else:
            assert o.scores_chance is None
    sources = {o.source for o in draw.options}
    assert ("pass" in sources) == upcard and not (upcard and "stock" in sources)
    if not draw.options:
        assert solution.status == "no-legal-turn" and solution.reason
        return
    assert solution.status == "optimal"
    assert solution.bound >= solution.gain - 1e-9
    assert (solution.after is None) == (not draw.chosen.certain)


# ------------------------------------------------------------ the shipped draw-phase examples
DRAW_EXAMPLES = {  # the draw each example's answer takes, and its value
    "house-classic-draw": ({"from": "discard", "take": 4, "cards": ["JH", "5D", "8D", "9D"]}, 63),
    "house-epic-draw": ({"from": "discard", "take": 1, "cards": ["9H"]}, 20),
    "house-upcard": ({"from": "open", "cards": ["8S"]}, 36),
    "straight-draw": ({"from": "discard", "take": 1, "cards": ["JS"]}, 78),
    "traditional-draw": ({"from": "discard", "take": 1, "cards": ["KS"]}, 41),
    "robber-draw": ({"from": "pile", "cards": ["KD", "6S", "8C", "QD"], "top": "KD"}, 405),
}


def test_the_draw_phase_examples_are_answered_quickly_and_not_by_passing() -> None:
    paths = [EXAMPLES / f"{name}.toml" for name in DRAW_EXAMPLES]
    run = run_best(*map(str, paths), "--json")
    assert run.returncode == 0, run.stderr
    for path, line in zip(paths, run.stdout.splitlines()):
        data = json.loads(line)
        draw, gain = DRAW_EXAMPLES[path.stem]
        assert data["status"] == "optimal" and data["draw"] == draw and data["gain"] == gain, path.name
        assert len(data["options"]) >= 2 and data["seconds"] < 5, path.name
        assert data["after"] is not None and len(data["steps"]) > 2
    epic = json.loads(run.stdout.splitlines()[1])
    assert epic["options"][1]["from"] == "demand" and epic["options"][1]["value"] > 0.8 * epic["gain"]
