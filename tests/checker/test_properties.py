"""Property tests of the checker (rules.md §4-§6).

Every generated turn is legal by construction and must be judged legal;
one corruption of it must be judged illegal with the expected breach code.
Positions are dealt from a real deck (tests/support/strategies.py), so they fit it.
Every verdict is also checked for consistency (legal exactly when there is
no breach) and for not depending on the order of the plays after the turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from rummy.cards import JOKER, SUITS, Card
from rummy.checker import Verdict, check
from rummy.family import HOUSE
from rummy.plays import Play, readings
from rummy.position import Player, Position, Replacement, Turn
from rummy.rules import Ruleset, preset
from tests.support.strategies import (
    MOVER,
    Pool,
    draw_background,
    draw_book,
    draw_from,
    draw_loose,
    draw_play,
    draw_run,
    house_opponent,
    house_position,
    maybe_joker,
    next_rank,
    plays_of,
    run_extensions,
    shuffled,
    tile_after,
    tile_position,
    whole,
    with_player,
)

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


def checker_property(test: Callable[[st.DataObject], None]) -> Callable[..., None]:
    """A property of the checker: Hypothesis runs ``test(data)`` under SETTINGS, drawing from ``data``."""
    return SETTINGS(given(st.data())(test))

LENIENT = preset("rummikub-lenient")
TILE_PRESETS = ("rummikub-lenient", "rummikub", "tiles50", "yourturnmyturn")
FIXED_PRESETS = ("rummikub", "tiles50")
HOUSE_PRESETS = ("house-classic", "house-epic")


# ------------------------------------------------------------------ judging
def pair_text(before: Position, after: Position) -> str:
    return f"--- before\n{before.to_toml()}--- after\n{after.to_toml()}"


def reorder_plays(data, position: Position) -> Position:
    """The same end state with the plays, and the cards in each, listed in another order."""

    def reordered(plays):
        return tuple(Play(tuple(shuffled(data, play.cards))) for play in shuffled(data, plays))

    if position.rules.table == "shared":
        return replace(position, table=reordered(position.table))
    players = tuple(replace(p, plays=reordered(p.plays)) for p in position.players)
    return replace(position, players=players)


def judge(data, before: Position, after: Position) -> Verdict:
    note(pair_text(before, after))
    verdict = check(before, after)
    note(f"verdict: {verdict.codes} {verdict.reading}")
    assert verdict.legal == (not verdict.breaches)
    again = check(before, reorder_plays(data, after))
    assert again.legal == verdict.legal, f"reordering the plays changed the verdict: {again.codes} vs {verdict.codes}"
    return verdict


def assert_legal(data, before: Position, after: Position) -> None:
    # The generator must deal consistent positions: both read back strictly.
    Position.from_toml(before.to_toml())
    Position.from_toml(after.to_toml())
    verdict = judge(data, before, after)
    assert verdict.legal, f"judged illegal: {[(b.code, b.message) for b in verdict.breaches]}\n{pair_text(before, after)}"


def assert_breach(data, before: Position, after: Position, *codes: str) -> Verdict:
    """Illegal, with (at least one of) ``codes`` among the breaches."""
    Position.from_toml(before.to_toml())
    verdict = judge(data, before, after)
    assert not verdict.legal, f"judged legal, expected {codes}\n{pair_text(before, after)}"
    assert set(codes) & set(verdict.codes), (
        f"expected {codes}, got {[(b.code, b.message) for b in verdict.breaches]}\n{pair_text(before, after)}"
    )
    return verdict


def without(cards, *removed: Card) -> tuple[Card, ...]:
    """``cards`` minus one copy of each removed card."""
    left = list(cards)
    for card in removed:
        left.remove(card)
    return tuple(left)


def draw_discarding(data, pool: Pool, low: int, high: int, jokers: bool = True):
    """Loose hand cards and the one of them the turn discards: ``(extras, discard, the extras kept)``."""
    extras = draw_loose(data, pool, low, high, jokers)
    discard = draw_from(data, extras, "discard")
    return extras, discard, without(extras, discard)


def tile_value(cards) -> int:
    return sum(c.rank for c in cards)


# --------------------------------------------------------------- tile rummy
@checker_property
def test_tile_rack_play_laid_as_new_play(data):
    rules, pool = LENIENT, Pool(LENIENT)
    long_run = draw_run(data, pool, range(4, 9))
    background = draw_background(data, pool, 0, 4)
    laid = maybe_joker(data, pool, draw_play(data, pool))
    extras = draw_loose(data, pool, 0, 5)
    table = [long_run] + background
    before = tile_position(data, rules, pool, table, tuple(shuffled(data, laid + extras)))
    assert_legal(data, before, tile_after(before, table + [laid], extras))

    corruption = data.draw(st.sampled_from(["vanish", "appear", "table-to-hand"]))
    if corruption == "vanish":
        if extras:
            after = tile_after(before, table + [laid], extras[1:])
        else:
            after = tile_after(before, table + [laid[1:]], extras)
        assert_breach(data, before, after, "conservation")
    elif corruption == "appear":
        (stray,) = draw_loose(data, pool, 1, 1)
        assert_breach(data, before, tile_after(before, table + [laid], extras + (stray,)), "conservation")
    else:
        # A twin of the taken tile in the laid play would make the turn legal (tiles are interchangeable).
        taken = draw_from(data, [c for c in (long_run[0], long_run[-1]) if c not in laid], "taken")
        after = tile_after(before, [without(long_run, taken)] + background + [laid], extras + (taken,))
        assert_breach(data, before, after, "table-card-to-hand")


@checker_property
def test_tile_lay_off_on_run_and_group(data):
    rules, pool = LENIENT, Pool(LENIENT)
    run = draw_run(data, pool, range(3, 10))
    (extension,) = pool.deal([draw_from(data, [c for c in run_extensions(run, rules) if pool.has([c])])])
    group = draw_book(data, pool, (3,))
    colours = {c.suit for c in group}
    same_number = [Card(group[0].rank, s) for s in SUITS if pool.has([Card(group[0].rank, s)])]
    (fourth,) = pool.deal([draw_from(data, [c for c in same_number if c.suit not in colours], "fourth")])
    (repeat,) = pool.deal([draw_from(data, [c for c in same_number if c.suit in colours], "repeat")])
    background = draw_background(data, pool, 0, 3)
    extras = draw_loose(data, pool, 0, 4)
    rack = tuple(shuffled(data, (extension, fourth, repeat) + extras))
    before = tile_position(data, rules, pool, [run, group] + background, rack)
    after = tile_after(before, [run + (extension,), group + (fourth,)] + background, (repeat,) + extras)
    assert_legal(data, before, after)

    # The second copy of a colour already in the group: not a group any more.
    after = tile_after(before, [run + (extension,), group + (repeat,)] + background, (fourth,) + extras)
    assert_breach(data, before, after, "not-whole")


@checker_property
def test_tile_split_long_run(data):
    rules, pool = LENIENT, Pool(LENIENT)
    long_run = draw_run(data, pool, range(6, 14))
    cut = data.draw(st.integers(3, len(long_run) - 3), label="cut")
    background = draw_background(data, pool, 0, 3)
    laid = draw_play(data, pool)
    extras = draw_loose(data, pool, 0, 4)
    before = tile_position(data, rules, pool, [long_run] + background, tuple(shuffled(data, laid + extras)))
    after = tile_after(before, [long_run[:cut], long_run[cut:], laid] + background, extras)
    assert_legal(data, before, after)

    if data.draw(st.booleans(), label="short part"):
        cut = data.draw(st.sampled_from([1, 2, len(long_run) - 2, len(long_run) - 1]))
        after = tile_after(before, [long_run[:cut], long_run[cut:], laid] + background, extras)
        assert_breach(data, before, after, "not-whole")
    else:
        # (A twin of the tile in the laid play would make the turn legal: tiles are interchangeable.)
        taken = draw_from(data, [c for c in (long_run[0], long_run[-1]) if c not in laid], "taken")
        parts = [without(part, taken) if taken in part else part for part in (long_run[:cut], long_run[cut:])]
        after = tile_after(before, parts + [laid] + background, extras + (taken,))
        assert_breach(data, before, after, "table-card-to-hand")


def joker_pair_options(pool: Pool, rules, avoid: Card) -> list[tuple[Card, Card]]:
    """Two rack tiles that make a whole play with a joker, in which the joker cannot stand for ``avoid``."""
    options = []
    for rank in range(1, 14):
        for i, a in enumerate(SUITS):
            for b in SUITS[i + 1:]:
                pair = (Card(rank, a), Card(rank, b))
                if rank != avoid.rank and pool.has(pair):
                    options.append(pair)
    for suit in SUITS:
        if suit == avoid.suit:
            continue
        for rank in range(1, 13):
            for gap in (1, 2):
                if rank + gap <= 13:
                    pair = (Card(rank, suit), Card(rank + gap, suit))
                    if pool.has(pair):
                        options.append(pair)
    return options


def joker_play(pair, rules) -> tuple[Card, ...]:
    """The pair with a joker; a fixed joker carries its stand-in where it would be ambiguous."""
    if rules.joker_mode != "fixed":
        return pair + (JOKER,)
    stand_in = readings(pair + (JOKER,), rules)[0].joker_stand_ins()[0]
    return pair + (Card.joker(stand_in),)


def run_with_end_joker(data, pool: Pool, rules, lengths):
    """A natural run and a joker at one of its ends: (naturals, stand-in, table joker)."""
    naturals = draw_run(data, pool, lengths)
    suit = naturals[0].suit
    ends = [Card(r, suit) for r in (next_rank(naturals[0].rank, -1, rules), next_rank(naturals[-1].rank, 1, rules))
            if r is not None]
    stand_in = draw_from(data, ends, "stand-in")
    pool.deal([JOKER])
    joker = Card.joker(stand_in) if rules.joker_mode == "fixed" else JOKER
    return naturals, stand_in, joker


@checker_property
def test_tile_joker_moved_into_new_play(data):
    """Flexible jokers move freely; a fixed one only once a rack tile has freed it."""
    rules = preset(data.draw(st.sampled_from(("rummikub-lenient",) + FIXED_PRESETS), label="preset"))
    fixed = rules.joker_mode == "fixed"
    pool = Pool(rules)
    naturals, stand_in, joker = run_with_end_joker(data, pool, rules, range(3, 7))
    assume(pool.has([stand_in]))
    pool.deal([stand_in])
    pair = draw_from(data, joker_pair_options(pool, rules, stand_in), "pair")
    pool.deal(pair)
    background = draw_background(data, pool, 0, 3, fixed=fixed)
    extras = draw_loose(data, pool, 0, 3, jokers=False)
    rack = tuple(shuffled(data, pair + (stand_in,) + extras))
    before = tile_position(data, rules, pool, [naturals + (joker,)] + background, rack)
    new_play = joker_play(pair, rules)

    # The rack tile the joker stands for takes its place; the joker goes to a new play.
    after = tile_after(before, [naturals + (stand_in,), new_play] + background, extras)
    assert_legal(data, before, after)

    moved_alone = tile_after(before, [naturals, new_play] + background, (stand_in,) + extras)
    if fixed:
        assert_breach(data, before, moved_alone, "joker-not-freed")
    else:
        assert_legal(data, before, moved_alone)
        to_rack = tile_after(before, [naturals] + background, pair + (stand_in, JOKER) + extras)
        assert_breach(data, before, to_rack, "table-card-to-hand")


@checker_property
def test_tile_take_from_play_holding_a_joker(data):
    """Lenient: any tile may leave a play with a joker. Fixed: an unreplaced joker locks its play."""
    rules = preset(data.draw(st.sampled_from(("rummikub-lenient",) + FIXED_PRESETS), label="preset"))
    pool = Pool(rules)
    naturals, stand_in, joker = run_with_end_joker(data, pool, rules, range(4, 8))
    # The tile at the far end from the joker leaves, so the joker keeps standing for the same tile.
    taken = naturals[0] if stand_in.rank == next_rank(naturals[-1].rank, 1, rules) else naturals[-1]
    suits = [s for s in SUITS if s != taken.suit and pool.has([Card(taken.rank, s)])]
    assume(len(suits) >= 2)
    chosen = data.draw(st.lists(st.sampled_from(suits), min_size=2, max_size=2, unique=True), label="group suits")
    pair = pool.deal(Card(taken.rank, s) for s in chosen)
    background = draw_background(data, pool, 0, 3, fixed=rules.joker_mode == "fixed")
    extras = draw_loose(data, pool, 0, 3, jokers=False)
    joker_run = naturals + (joker,)
    before = tile_position(data, rules, pool, [joker_run] + background, tuple(shuffled(data, pair + extras)))
    after = tile_after(before, [without(joker_run, taken), (taken,) + pair] + background, extras)
    if rules.joker_mode == "fixed":
        assert_breach(data, before, after, "joker-locked-play")
    else:
        assert_legal(data, before, after)


@checker_property
def test_tile_yourturnmyturn_plays_at_most_12_tiles(data):
    rules = preset("yourturnmyturn")
    pool = Pool(rules)
    plays = []
    while sum(map(len, plays)) < 13:
        plays.append(draw_play(data, pool))
    fitting = max(k for k in range(1, len(plays) + 1) if sum(map(len, plays[:k])) <= 12)
    count = data.draw(st.integers(1, fitting), label="plays laid")
    background = draw_background(data, pool, 0, 3)
    extras = draw_loose(data, pool, 0, 3)
    rack = tuple(shuffled(data, [c for p in plays for c in p] + list(extras)))
    before = tile_position(data, rules, pool, background, rack)
    kept = tuple(c for p in plays[count:] for c in p) + extras
    assert_legal(data, before, tile_after(before, background + plays[:count], kept))

    everything = tile_after(before, background + plays, extras)
    assert_breach(data, before, everything, "too-many-cards")
    # The same turn has no limit in the other presets.
    lenient_before = replace(before, rules=LENIENT)
    assert_legal(data, lenient_before, replace(everything, rules=LENIENT))


def draw_initial_meld(data, pool: Pool, rules, max_tiles: int | None) -> list[tuple[Card, ...]]:
    """New plays of natural rack tiles worth at least the initial-meld threshold."""
    threshold = rules.meld_threshold()
    meld: list[tuple[Card, ...]] = []
    while sum(tile_value(p) for p in meld) < threshold:
        meld.append(draw_play(data, pool, where=lambda cards: tile_value(cards) >= 12, run_lengths=range(3, 6)))
    if max_tiles is not None:
        assume(sum(map(len, meld)) <= max_tiles)
    return meld


@checker_property
def test_tile_initial_meld_threshold(data):
    rules = preset(data.draw(st.sampled_from(TILE_PRESETS), label="preset"))
    threshold = rules.meld_threshold()
    pool = Pool(rules)
    meld = draw_initial_meld(data, pool, rules, rules.max_cards_per_turn)
    small = draw_play(data, pool, where=lambda cards: tile_value(cards) < threshold)
    background = draw_background(data, pool, 0, 4, fixed=rules.joker_mode == "fixed")
    extras = draw_loose(data, pool, 0, 3)
    rack = tuple(shuffled(data, [c for p in meld + [small] for c in p] + list(extras)))
    before = tile_position(data, rules, pool, background, rack, melded=False)
    declare = data.draw(st.booleans(), label="declare meld")

    def laying(plays, kept):
        after = tile_after(before, background + plays, kept, **({"meld": plays_of(plays)} if declare else {}))
        return with_player(after, MOVER, melded=True)

    assert_legal(data, before, laying(meld, small + extras))
    too_small = laying([small], tuple(c for p in meld for c in p) + extras)
    assert_breach(data, before, too_small, "meld-too-small")


@checker_property
def test_tile_unmelded_mover_leaves_the_table_alone(data):
    rules = preset(data.draw(st.sampled_from(TILE_PRESETS), label="preset"))
    pool = Pool(rules)
    run = draw_run(data, pool, range(3, 10))
    (extension,) = pool.deal([draw_from(data, [c for c in run_extensions(run, rules) if pool.has([c])])])
    limit = rules.max_cards_per_turn
    meld = draw_initial_meld(data, pool, rules, None if limit is None else limit - 1)  # room for the extension
    background = draw_background(data, pool, 0, 3, fixed=rules.joker_mode == "fixed")
    extras = draw_loose(data, pool, 0, 3)
    meld_tiles = tuple(c for p in meld for c in p)
    # A meld play equal to the run would let the grown run read as a new play of rack tiles (a legal turn).
    assume(not Counter(run) <= Counter(meld_tiles))
    rack = tuple(shuffled(data, meld_tiles + (extension,) + extras))
    before = tile_position(data, rules, pool, [run] + background, rack, melded=False)
    turn = {"meld": plays_of(meld)} if data.draw(st.booleans(), label="declare meld") else {}
    after = tile_after(before, [run] + background + meld, (extension,) + extras, **turn)
    assert_legal(data, before, with_player(after, MOVER, melded=True))

    if data.draw(st.booleans(), label="with the meld"):
        after = tile_after(before, [run + (extension,)] + background + meld, extras, **turn)
        assert_breach(data, before, after, "rearranged-on-initial-meld", "touched-before-meld")
    else:
        after = tile_after(before, [run + (extension,)] + background, meld_tiles + extras)
        assert_breach(data, before, after, "touched-before-meld")


# -------------------------------------------------------------- House Rummy
def house_deal(data) -> tuple[Ruleset, Pool]:
    """A House preset and a full deck to deal from."""
    rules = preset(data.draw(st.sampled_from(HOUSE_PRESETS), label="preset"))
    return rules, Pool(rules)


def draw_opponents(data, pool: Pool, plays_of_first: list) -> list[Player]:
    """1-2 opponents; the first holds the given plays in its space."""
    count = data.draw(st.integers(1, 2), label="opponents")
    opponents = [house_opponent(data, pool, "bob", plays_of_first)]
    if count == 2:
        opponents.append(house_opponent(data, pool, "cat", []))
    return opponents


def swap_play(player: Player, old, new) -> Player:
    """The player with one play (matched by its cards) replaced by ``new`` (a list of plays)."""
    plays = list(player.plays)
    index = plays.index(Play(tuple(old)))
    return replace(player, plays=tuple(plays[:index]) + plays_of(new) + tuple(plays[index + 1:]))


def house_after(before: Position, hand, own_plays=None, discard: Card | None = None, declare: bool = True,
                melded: bool | None = None, **turn) -> Position:
    """The mover's side of the turn: new hand, own space, discard on the pile."""
    changes = {"hand": tuple(hand), "hot": (), "warm": ()}  # temperatures are this turn's
    if own_plays is not None:
        changes["plays"] = plays_of(own_plays)
    if melded is not None:
        changes["melded"] = melded
    after = with_player(before, MOVER, **changes)
    if discard is not None:
        after = replace(after, discard_pile=before.discard_pile + (discard,))
    if declare:
        after = replace(after, turn=Turn(discard=discard, discard_declared=True, **turn))
    elif turn:
        after = replace(after, turn=Turn(**turn))
    return after


@checker_property
def test_house_lay_a_play_and_discard(data):
    rules, pool = house_deal(data)
    laid = maybe_joker(data, pool, draw_play(data, pool, run_lengths=range(3, 6)))
    extras = draw_loose(data, pool, 2, 5)
    own = draw_background(data, pool, 0, 2)
    opponents = draw_opponents(data, pool, [])
    hot = tuple(data.draw(st.lists(st.sampled_from([c for c in laid if not c.is_joker]), max_size=1), label="hot"))
    all_warm = data.draw(st.booleans(), label="all warm")
    if all_warm:
        discard, warm = None, extras
        kept = extras
    else:
        discard = draw_from(data, extras, "discard")
        kept = without(extras, discard)
        warm = tuple(data.draw(st.lists(st.sampled_from(kept), max_size=2, unique=True), label="warm"))
    mover = Player(MOVER, MOVER, True, tuple(shuffled(data, laid + extras)), None, hot, warm, plays_of(own))
    before = house_position(data, rules, pool, mover, opponents)
    declare = data.draw(st.booleans(), label="declare discard")
    after = house_after(before, kept, own + [laid], discard, declare)
    assert_legal(data, before, after)

    if all_warm:
        # Only warm cards left: none of them may go to the pile. A warm joker
        # with a twin in the laid play is no example: the twin can be read as
        # the warm one, played, and the discarded joker as the cold one.
        lone = [c for c in extras if not (c.is_joker and JOKER in laid)]
        if lone:
            pile = lone[0]
            assert_breach(data, before, house_after(before, without(extras, pile), own + [laid], pile, declare),
                          "warm-discard")
        return
    # With two jokers in the hand, either can be read as the hot or warm one: mark only cards without a twin.
    single = [c for c in laid + extras if not c.is_joker or (laid + extras).count(JOKER) == 1]
    corruptions = ["no-discard", "vanish"] + (["warm", "hot"] if discard in single else [])
    corruptions += ["hot-kept"] if any(c in single for c in kept) else []
    corruption = data.draw(st.sampled_from(corruptions), label="corruption")
    if corruption == "warm":
        assert_breach(data, with_player(before, MOVER, warm=warm + (discard,)), after, "warm-discard")
    elif corruption == "hot":
        assert_breach(data, with_player(before, MOVER, hot=hot + (discard,)), after, "hot-discard")
    elif corruption == "hot-kept":
        card = draw_from(data, [c for c in kept if c in single], "hot kept")
        hot_before = with_player(before, MOVER, hot=hot + (card,), warm=tuple(c for c in warm if c != card))
        assert_breach(data, hot_before, after, "hot-card-unplayed")
    elif corruption == "no-discard":
        after = house_after(before, extras, own + [laid], None, declare)
        assert_breach(data, before, after, "missing-discard")
    else:
        after = house_after(before, kept[1:], own + [laid], discard, declare)
        assert_breach(data, before, after, "conservation")


@checker_property
def test_house_give_a_card_to_an_opponent(data):
    rules, pool = house_deal(data)
    target = draw_play(data, pool, book_sizes=(3,), run_lengths=range(3, 9))
    if target[0].rank == target[1].rank:
        fits = [Card(target[0].rank, s) for s in SUITS if s not in {c.suit for c in target}]
    else:
        fits = run_extensions(target, rules)
    (gift,) = pool.deal([draw_from(data, [c for c in fits if pool.has([c])], "gift")])
    extras, discard, kept = draw_discarding(data, pool, 2, 4, jokers=False)
    opponents = draw_opponents(data, pool, [target])
    own = draw_background(data, pool, 0, 2)
    mover = Player(MOVER, MOVER, True, tuple(shuffled(data, (gift,) + extras)), None, plays=plays_of(own))
    before = house_position(data, rules, pool, mover, opponents)
    bob = before.player("bob")
    after = house_after(before, kept, None, discard, data.draw(st.booleans(), label="declare"))
    given_after = after.replace_player(swap_play(bob, target, [target + (gift,)]))
    assert_legal(data, before, given_after)

    if data.draw(st.booleans(), label="misfit"):
        misfit = draw_from(data, [c for c in kept if not whole(target + (gift, c), rules)], "misfit")
        after = house_after(before, without(kept, misfit), None, discard)
        after = after.replace_player(swap_play(bob, target, [target + (gift, misfit)]))
        assert_breach(data, before, after, "not-whole")
    else:
        if bob.hand is not None:
            hand = bob.hand[1:] if bob.hand else draw_loose(data, pool, 1, 1)
            changed = replace(swap_play(bob, target, [target + (gift,)]), hand=hand)
        else:
            count = bob.hand_count + 1 if bob.hand_count == 0 else bob.hand_count - 1
            changed = replace(swap_play(bob, target, [target + (gift,)]), hand_count=count)
        assert_breach(data, before, given_after.replace_player(changed), "opponent-hand-changed")


def rank_cards(suit: str, first: int, step: int, count: int, rules) -> tuple[Card, ...]:
    """``count`` cards of ``suit`` going from ``first`` by ``step`` (±1), circular in House."""
    return tuple(Card(next_rank(first, step * i, rules), suit) for i in range(count))


@checker_property
def test_house_steal_a_run_end(data):
    rules, pool = house_deal(data)
    victim = draw_run(data, pool, range(4, 9))
    top = data.draw(st.booleans(), label="steal the top end")
    stolen = victim[-1] if top else victim[0]
    step = 1 if top else -1
    mode = data.draw(st.sampled_from(["new-book", "new-run", "own-run"]), label="mode")
    own_play: tuple[Card, ...] = ()
    if mode == "new-book":
        suits = [s for s in SUITS if s != stolen.suit and pool.has([Card(stolen.rank, s)])]
        assume(len(suits) >= 2)
        chosen = data.draw(st.lists(st.sampled_from(suits), min_size=2, max_size=3, unique=True), label="suits")
        payment = pool.deal(Card(stolen.rank, s) for s in chosen)
    elif mode == "new-run":
        payment = rank_cards(stolen.suit, next_rank(stolen.rank, step, rules), step, data.draw(st.integers(2, 3)), rules)
        assume(pool.has(payment))
        pool.deal(payment)
    else:
        length = data.draw(st.integers(3, 4), label="own run")
        beyond = rank_cards(stolen.suit, next_rank(stolen.rank, step, rules), step, length + 1, rules)
        assume(pool.has(beyond))
        pool.deal(beyond)
        own_play, payment = beyond[:-1], beyond[-1:]
    extras, discard, kept = draw_discarding(data, pool, 1, 3)
    opponents = draw_opponents(data, pool, [victim])
    own = draw_background(data, pool, 0, 1) + ([own_play] if own_play else [])
    mover = Player(MOVER, MOVER, True, tuple(shuffled(data, payment + extras)), None, plays=plays_of(own))
    before = house_position(data, rules, pool, mover, opponents)
    bob_after = swap_play(before.player("bob"), victim, [without(victim, stolen)])
    own_after = [p for p in own if p != own_play] + [own_play + (stolen,) + payment]
    after = house_after(before, kept, own_after, discard).replace_player(bob_after)
    assert_legal(data, before, after)

    if mode == "own-run":
        # The stolen card goes onto the mover's play, but no hand card pays for it.
        own_after = [p for p in own if p != own_play] + [own_play + (stolen,)]
        after = house_after(before, payment + kept, own_after, discard).replace_player(bob_after)
        assert_breach(data, before, after, "unpaid-steal")
    else:
        # A card from inside the run instead: what is left of the run is not whole.
        inner = victim[data.draw(st.integers(1, len(victim) - 2), label="inner")]
        robbed = swap_play(before.player("bob"), victim, [without(victim, inner)])
        after = house_after(before, kept, own + [payment + (inner,)], discard).replace_player(robbed)
        assert_breach(data, before, after, "not-whole")


def book_and_run_beyond(data, pool: Pool, rules, label: str) -> tuple[tuple[Card, ...], Card, tuple[Card, ...], Card]:
    """A book of 4, one of its cards (``label``), a run of 3-5 of that card's suit going on from it
    either way, and the card beyond that run: all dealt."""
    book = draw_book(data, pool, (4,))
    card = draw_from(data, book, label)
    step = data.draw(st.sampled_from([1, -1]), label="direction")
    length = data.draw(st.integers(3, 5), label="run")
    beyond = rank_cards(card.suit, next_rank(card.rank, step, rules), step, length + 1, rules)
    assume(pool.has(beyond))
    pool.deal(beyond)
    return book, card, beyond[:-1], beyond[-1]


@checker_property
def test_house_steal_from_a_book_of_four(data):
    """Book of 4 -> book of 3 loses 10 points: allowed for one stolen card, if it is paid."""
    rules, pool = house_deal(data)
    book, card, own_play, payment = book_and_run_beyond(data, pool, rules, "stolen")
    extras, discard, kept = draw_discarding(data, pool, 1, 3)
    opponents = draw_opponents(data, pool, [book])
    own = draw_background(data, pool, 0, 1) + [own_play]
    mover = Player(MOVER, MOVER, True, tuple(shuffled(data, (payment,) + extras)), None, plays=plays_of(own))
    before = house_position(data, rules, pool, mover, opponents)
    bob_after = swap_play(before.player("bob"), book, [without(book, card)])
    others = own[:-1]
    after = house_after(before, kept, others + [own_play + (card, payment)], discard).replace_player(bob_after)
    assert_legal(data, before, after)

    unpaid = house_after(before, (payment,) + kept, others + [own_play + (card,)], discard).replace_player(bob_after)
    verdict = assert_breach(data, before, unpaid, "unpaid-steal")
    assert "spite" not in verdict.codes, "one stolen card may cost its space 10 points"


@checker_property
def test_house_rearrange_inside_an_opponent_space(data):
    """Book of 4 -> book of 3 inside the space loses 5 points net: spite, unless a gift makes up for it.

    With a paid steal from another book of 4 in that space (-10, the most one stolen card may cost),
    the space may lose 10 in all: the rearrangement still needs the gift.
    """
    rules, pool = house_deal(data)
    book, card, run, gift = book_and_run_beyond(data, pool, rules, "moved")
    bob_plays = [book, run]
    steal: tuple = ()
    if data.draw(st.booleans(), label="with a steal"):
        other = draw_book(data, pool, (4,))
        taken = draw_from(data, other, "stolen")
        payment = rank_cards(taken.suit, next_rank(taken.rank, 1, rules), 1, 2, rules)
        assume(pool.has(payment))
        pool.deal(payment)
        bob_plays.append(other)
        steal = (other, taken, payment)
    extras, discard, kept = draw_discarding(data, pool, 1, 3)
    opponents = draw_opponents(data, pool, bob_plays)
    own = draw_background(data, pool, 0, 2)
    paying = steal[2] if steal else ()
    mover = Player(MOVER, MOVER, True, tuple(shuffled(data, (gift,) + paying + extras)), None, plays=plays_of(own))
    before = house_position(data, rules, pool, mover, opponents)
    bob = swap_play(before.player("bob"), book, [without(book, card)])
    own_after = own
    if steal:
        other, taken, payment = steal
        bob = swap_play(bob, other, [without(other, taken)])
        own_after = own + [(taken,) + payment]
    after = house_after(before, kept, own_after, discard).replace_player(swap_play(bob, run, [run + (card, gift)]))
    assert_legal(data, before, after)

    after = house_after(before, (gift,) + kept, own_after, discard).replace_player(swap_play(bob, run, [run + (card,)]))
    assert_breach(data, before, after, "spite")


def draw_meld_cost(data, rules, first: int) -> tuple[int, int]:
    """A hand number from ``first`` to 6 and what a meld must be worth in it."""
    hand_number = data.draw(st.integers(first, 6), label="hand number")
    return hand_number, rules.meld_threshold(hand_number)


def draw_meld(data, pool: Pool, rules, cost: int) -> tuple[Card, ...]:
    """A play worth at least ``cost``, dealt."""
    return draw_play(data, pool, where=lambda cards: HOUSE.play_score(cards, rules) >= cost)


@checker_property
def test_house_rearranging_needs_a_meld(data):
    """Splitting an opponent's run in place: fine once melded (or melding this turn), not before."""
    rules, pool = house_deal(data)
    hand_number, cost = draw_meld_cost(data, rules, first=1)
    long_run = draw_run(data, pool, range(6, 13))
    cut = data.draw(st.integers(3, len(long_run) - 3), label="cut")
    variant = data.draw(st.sampled_from(["melded", "melding"]), label="variant")
    meld = draw_meld(data, pool, rules, cost) if variant == "melding" else ()
    extras, discard, kept = draw_discarding(data, pool, 1, 4)
    opponents = draw_opponents(data, pool, [long_run])
    own = draw_background(data, pool, 0, 2) if variant == "melded" else []
    mover = Player(MOVER, MOVER, variant == "melded", tuple(shuffled(data, meld + extras)), None, plays=plays_of(own))
    before = house_position(data, rules, pool, mover, opponents, hand_number)
    split = swap_play(before.player("bob"), long_run, [long_run[:cut], long_run[cut:]])
    turn = {"meld": plays_of([meld])} if meld else {}
    after = house_after(before, kept, own + ([meld] if meld else []), discard, melded=True, **turn).replace_player(split)
    assert_legal(data, before, after)

    # The same split by a mover who has not melded and lays no meld (the cards they would use stay undealt).
    unmelded = with_player(before, MOVER, melded=False, hand=tuple(shuffled(data, extras)), plays=())
    unmelded = replace(unmelded, stock=before.stock + len(meld) + sum(map(len, own)))
    after = house_after(unmelded, kept, [], discard).replace_player(split)
    assert_breach(data, unmelded, after, "touched-before-meld")


@checker_property
def test_house_meld_must_reach_the_cost(data):
    rules, pool = house_deal(data)
    hand_number, cost = draw_meld_cost(data, rules, first=3)
    meld = draw_meld(data, pool, rules, cost)
    small = draw_play(data, pool, where=lambda cards: HOUSE.play_score(cards, rules) < cost, run_lengths=(3,))
    extras, discard, kept = draw_discarding(data, pool, 1, 3)
    opponents = draw_opponents(data, pool, [])
    mover = Player(MOVER, MOVER, False, tuple(shuffled(data, meld + small + extras)))
    before = house_position(data, rules, pool, mover, opponents, hand_number)
    declare = data.draw(st.booleans(), label="declare meld")
    turn = {"meld": plays_of([meld])} if declare else {}
    after = house_after(before, small + kept, [meld], discard, declare or data.draw(st.booleans()), melded=True, **turn)
    assert_legal(data, before, after)

    too_small = house_after(before, meld + kept, [small], discard, True, melded=True, meld=plays_of([small]))
    assert_breach(data, before, too_small, "meld-too-small")
    undeclared = house_after(before, meld + kept, [small], discard, True, melded=True)
    assert_breach(data, before, undeclared, "meld-too-small", "touched-before-meld")


@checker_property
def test_house_joker_replacement_before_melding(data):
    """Unmelded: a joker may be swapped for a hand card that keeps its play whole. Melded: it is stolen, not swapped."""
    rules, pool = house_deal(data)
    run = draw_run(data, pool, range(3, 7))
    index = data.draw(st.integers(0, len(run) - 1), label="joker index")
    natural = run[index]
    pool.deal([JOKER])
    joker_run = run[:index] + (JOKER,) + run[index + 1:]
    extras = draw_loose(data, pool, 1, 3, jokers=False)
    opponents = draw_opponents(data, pool, [joker_run])
    hot = (natural,) if data.draw(st.booleans(), label="hot") else ()  # a hot card put in for a joker is played
    mover = Player(MOVER, MOVER, False, tuple(shuffled(data, (natural,) + extras)), None, hot)
    before = house_position(data, rules, pool, mover, opponents)
    bob = before.player("bob")
    play_name = f"bob/{list(bob.plays).index(Play(joker_run)) + 1}"
    discard = draw_from(data, extras + (JOKER,), "discard")  # a released joker is cold
    hand = without(extras + (JOKER,), discard)
    turn = {"replaced": (Replacement(play_name, natural),)} if data.draw(st.booleans(), label="declare") else {}
    replaced = swap_play(bob, joker_run, [run])
    after = house_after(before, hand, None, discard, **turn).replace_player(replaced)
    assert_legal(data, before, after)

    melded_before = with_player(before, MOVER, melded=True)
    assert_breach(data, melded_before, after, "joker-replaced-after-meld", "table-card-to-hand")


# ----------------------------------------------------------- any end state
def scramble(data, after: Position, moves: int) -> Position:
    """``after`` with ``moves`` random cards moved between plays, new plays, the hand and the pile."""
    shared = after.rules.table == "shared"
    owners = ["table"] if shared else [p.name for p in after.players]
    plays = {owner: [list(p.cards) for p in (after.table if shared else after.player(owner).plays)] for owner in owners}
    hand = list(after.mover.hand or ())
    pile = list(after.discard_pile)
    for _ in range(moves):
        sources = ([("hand", "", 0)] if hand else []) + [
            ("play", owner, i) for owner in owners for i, cards in enumerate(plays[owner]) if cards
        ]
        kind, owner, i = draw_from(data, sources, "from")
        bag = hand if kind == "hand" else plays[owner][i]
        card = bag.pop(data.draw(st.integers(0, len(bag) - 1), label="card"))
        targets = [("hand", "", 0), ("pile", "", 0)] + [("new", owner, 0) for owner in owners] + [
            ("play", owner, j) for owner in owners for j in range(len(plays[owner]))
        ]
        kind, owner, j = draw_from(data, targets, "to")
        if kind == "hand":
            hand.append(card)
        elif kind == "pile":
            pile.append(card)
        elif kind == "new":
            plays[owner].append([card])
        else:
            plays[owner][j].append(card)
    result = with_player(after, MOVER, hand=tuple(hand))
    result = replace(result, discard_pile=tuple(pile), turn=None)
    if shared:
        return replace(result, table=plays_of(p for p in plays["table"] if p))
    for owner in owners:
        result = with_player(result, owner, plays=plays_of(p for p in plays[owner] if p))
    return result


@checker_property
def test_checker_judges_any_end_state(data):
    """Random edits of a legal turn: the checker answers (never raises), consistently, whatever the play order."""
    rules = preset(data.draw(st.sampled_from(TILE_PRESETS + HOUSE_PRESETS), label="preset"))
    pool = Pool(rules)
    fixed = rules.joker_mode == "fixed"
    laid = maybe_joker(data, pool, draw_play(data, pool), fixed=fixed)
    extras = draw_loose(data, pool, 1, 4)
    melded = data.draw(st.booleans(), label="melded")
    if rules.family == "tile":
        table = draw_background(data, pool, 1, 4, fixed=fixed)
        before = tile_position(data, rules, pool, table, tuple(shuffled(data, laid + extras)), melded=melded)
        after = tile_after(before, table + [laid], extras)
    else:
        opponents = draw_opponents(data, pool, [])
        own = draw_background(data, pool, 0, 2) if melded else []
        mover = Player(MOVER, MOVER, melded, tuple(shuffled(data, laid + extras)), None, plays=plays_of(own))
        before = house_position(data, rules, pool, mover, opponents)
        after = house_after(before, extras[1:], own + [laid], extras[0], melded=True)
    judge(data, before, scramble(data, after, data.draw(st.integers(1, 3), label="moves")))


@checker_property
def test_tile_borrow_from_a_group_of_four(data):
    """A melded mover may take a tile from a group of 4 into a new run with rack tiles; a group of 3 cannot spare one."""
    rules = preset(data.draw(st.sampled_from(TILE_PRESETS), label="preset"))
    pool = Pool(rules)
    group = draw_book(data, pool, (4,))
    taken = draw_from(data, group, "taken")
    partners = draw_from(data, [
        pair for pair in (
            (next_rank(taken.rank, 1, rules), next_rank(taken.rank, 2, rules)),
            (next_rank(taken.rank, -1, rules), next_rank(taken.rank, 1, rules)),
            (next_rank(taken.rank, -2, rules), next_rank(taken.rank, -1, rules)),
        ) if None not in pair and pool.has([Card(r, taken.suit) for r in pair])
    ], "run partners")
    rack_run = pool.deal(Card(r, taken.suit) for r in partners)
    background = draw_background(data, pool, 0, 3, fixed=rules.joker_mode == "fixed")
    extras = draw_loose(data, pool, 0, 3)
    before = tile_position(data, rules, pool, [group] + background, tuple(shuffled(data, rack_run + extras)))
    after = tile_after(before, [without(group, taken), (taken,) + rack_run] + background, extras)
    assert_legal(data, before, after)

    # The same turn when the group held only 3 tiles (the fourth still unseen): a group of 2 is left.
    rest = without(group, taken)
    dropped = draw_from(data, list(rest), "left out of the group")
    small = replace(before, table=plays_of([without(group, dropped)] + background), stock=before.stock + 1)
    after = tile_after(small, [without(rest, dropped), (taken,) + rack_run] + background, extras)
    assert_breach(data, small, after, "not-whole")


@checker_property
def test_house_meld_then_steal(data):
    """An unmelded mover may meld and then steal, paying with hand cards that are not part of the meld."""
    rules, pool = house_deal(data)
    victim = draw_run(data, pool, range(4, 8))
    top = data.draw(st.booleans(), label="steal the top end")
    stolen, step = (victim[-1], 1) if top else (victim[0], -1)
    length = data.draw(st.integers(3, 5), label="meld run")
    beyond = rank_cards(stolen.suit, next_rank(stolen.rank, step, rules), step, length + 1, rules)
    assume(pool.has(beyond))
    pool.deal(beyond)
    meld, payment = beyond[:-1], beyond[-1]
    hand_number = draw_from(data, [n for n in range(1, 7) if rules.meld_threshold(n) <= HOUSE.play_score(meld, rules)],
                            "hand number")
    extras, discard, kept = draw_discarding(data, pool, 1, 3)
    opponents = draw_opponents(data, pool, [victim])
    mover = Player(MOVER, MOVER, False, tuple(shuffled(data, meld + (payment,) + extras)))
    before = house_position(data, rules, pool, mover, opponents, hand_number)
    robbed = swap_play(before.player("bob"), victim, [without(victim, stolen)])
    declared = {"meld": plays_of([meld])}
    after = house_after(before, kept, [meld + (stolen, payment)], discard, melded=True, **declared)
    assert_legal(data, before, after.replace_player(robbed))

    # Only meld cards in the play the stolen card went to: nothing paid for it.
    after = house_after(before, (payment,) + kept, [meld + (stolen,)], discard, melded=True, **declared)
    assert_breach(data, before, after.replace_player(robbed), "unpaid-steal", "meld-card-as-payment")
