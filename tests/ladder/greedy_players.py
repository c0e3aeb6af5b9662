"""Simple one-pass greedy players, written apart from rummy.ladder on purpose (issue 29): the ladder's greedy
rungs must do at least as well as each of them, and none of them may reach the optimum of a shipped hard or
expert puzzle. One module a family (they were written side by side); this one names them all."""

from tests.ladder.greedy_house import house_greedy_best, house_players
from tests.ladder.greedy_layoff import LAYOFF_PLAYERS
from tests.ladder.greedy_robber import ROBBER_PLAYERS, ROBBER_SEEDED
from tests.ladder.greedy_tiles import TILE_PLAYERS, tile_best_now, tile_biggest_play_first, tile_first_fit

__all__ = ["LAYOFF_PLAYERS", "ROBBER_PLAYERS", "ROBBER_SEEDED", "TILE_PLAYERS", "house_greedy_best", "house_players", "tile_best_now", "tile_biggest_play_first", "tile_first_fit"]
