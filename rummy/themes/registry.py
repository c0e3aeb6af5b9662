"""The themes a puzzle can be tagged with: the ideas its best turn needs (docs/themes.md).

A theme's ``idea`` is what ``rummy hint --level 1`` says: it teaches the idea without
naming a card, a play or a count, so the hint never gives the answer away.
"""

from __future__ import annotations

from dataclasses import dataclass

PLAIN_PLAY = "plain-play"  # the theme of a turn that needs no other idea


@dataclass(frozen=True)
class Theme:
    name: str  # kebab-case, as written in [puzzle] themes and the index
    title: str  # a few words: "steal chain"
    idea: str  # one sentence that teaches the idea without giving the answer


_ALL = (
    Theme("joker-reuse", "joker reuse",
          "A joker already on the table can be freed and laid again where it is worth more."),
    Theme("fixed-joker-swap", "fixed joker swap",
          "A joker that stands for one tile is freed by that tile from your rack, and then must be played again."),
    Theme("runs-into-groups", "runs into groups",
          "Cards of one rank from different runs can come together as a group: take the runs apart to build it."),
    Theme("groups-into-runs", "groups into runs",
          "Cards of one suit (one colour of tiles) from different groups can make a run: take the groups apart."),
    Theme("split-and-insert", "split and insert",
          "A long run can be split in two, or lose a middle card, and both halves still stand."),
    Theme("steal-chain", "steal chain",
          "Steals can depend on each other: what one steal takes or leaves decides whether the next can stand."),
    Theme("sacrifice", "sacrifice",
          "The best turn gives something up now, points or a sure play, to gain more in the whole turn."),
    Theme("going-out", "going out",
          "Every card can leave your hand this turn, if the plays are chosen to fit together."),
    Theme("round-the-corner", "round the corner",
          "The ace joins the king and the two: a run may turn the corner through K-A-2."),
    Theme("warm-or-hot-card", "warm or hot card",
          "A card you just drew carries a rule: a hot card must be played, a warm one may not be discarded."),
    Theme("first-out-bonus", "first-out bonus",
          "Going out first earns a bonus big enough to decide what the turn should do."),
    Theme("meld-steal", "meld and steal",
          "Once your meld is down you may steal in the same turn: meld so that the steals can follow."),
    Theme("into-their-space", "into their space",
          "Cards may be played into another player's space when that makes the whole turn better."),
    Theme("keep-a-card", "keep a card",
          "A card that fits now can be worth more kept in the hand than played at once."),
    Theme("layoff-choice", "lay-off choice",
          "A card that fits in two places goes where it leaves the rest of the hand the most to do."),
    Theme("take-the-pile", "take the pile",
          "The discard pile can be worth more than a fresh card: count what its cards let you play."),
    Theme("buried-card", "a buried card",
          "A card under the discard pile's top is the one the turn needs: read the whole pile, not its top alone."),
    Theme("pile-junk", "junk in the pile",
          "The pile brings cards that stay in your hand: it is worth taking when what the rest wins outweighs them."),
    Theme("pile-discard", "the pile's discard",
          "A card the pile brings and nothing takes can be the turn's discard: then it costs nothing."),
    Theme("partner-play", "partner play",
          "Your partner's plays are yours to use: they can take cards or give them."),
    # The fallback: given alone, to a turn none of the themes above fits (an easy puzzle's idea).
    Theme(PLAIN_PLAY, "plain play",
          "No trick is needed: each card goes where it fits, so look over every play on the table."),
)

# In the order themes are listed everywhere (themes_of, statements, reports).
THEMES: dict[str, Theme] = {theme.name: theme for theme in _ALL}
