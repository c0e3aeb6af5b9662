#!/usr/bin/env bash
# Regenerates the shipped puzzle collections (docs/generate.md): the same
# commands, seeds and counts that made them. Run from the repository root
# with `rummy` installed; each folder gets its puzzles and index.json.
set -euo pipefail

# generate never overwrites a puzzle file: the collections are remade from
# empty folders (the old ones are kept aside as *.old until this succeeds).
for folder in puzzles/tiles puzzles/house puzzles/robber puzzles/layoff; do
  rm -rf "$folder.old"
  [ -d "$folder" ] && mv "$folder" "$folder.old"
done

# Every tile preset: 15 puzzles of each kind (60 a kind over the four presets).
for rules in rummikub-lenient rummikub tiles50 yourturnmyturn; do
  for kind in play-all max; do
    for tc in easy:4 medium:4 hard:4 expert:3; do
      rummy generate --rules "$rules" --kind "$kind" --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 --out puzzles/tiles
    done
  done
done

# House kinds are never easy (every answer steals or replaces a joker: beyond the easy rung). Expert
# replace-meld and meld-steal deals (an unmelded mover, three traps, a meld: 15-20 hand cards) take
# minutes a puzzle, so those two kinds make one expert puzzle a preset and more of the others.
for rules in house-classic house-epic; do
  for kind in steal replace-meld meld-steal across; do
    tiers="medium:10 hard:12 expert:3"
    case "$kind" in replace-meld|meld-steal) tiers="medium:12 hard:12 expert:1" ;; esac
    for tc in $tiers; do
      rummy generate --rules "$rules" --kind "$kind" --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 \
        --time-limit 5 --out puzzles/house
    done
  done
done

# A steal is beyond the easy rung: Robber's steal puzzles are medium and up.
for tc in medium:17 hard:17 expert:17; do
  rummy generate --rules robber --kind steal --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 --out puzzles/robber
done

# Lay-off rummy has no expert tier (its lookahead searches the whole turn within a budget no turn comes
# near), and go-out no hard one (its hard turns all play a joker: one theme, layoff-choice). Hard
# most-points deals play the sources' joker variations (docs/generate.md, "Lay-off rummy").
# Easy runs ask for an idea (a card that fits two places, mostly), not the plain-play fallback.
ideas=(--theme layoff-choice --theme warm-or-hot-card --theme keep-a-card --theme sacrifice)
for rules in straight traditional; do
  for tc in easy:13 medium:13; do
    extra=(); [ "${tc%%:*}" = easy ] && extra=("${ideas[@]}")
    rummy generate --rules "$rules" --kind go-out --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 \
      --jobs 1 "${extra[@]}" --out puzzles/layoff
  done
  for tc in easy:8 medium:10 hard:10; do
    extra=(); [ "${tc%%:*}" = easy ] && extra=("${ideas[@]}")
    rummy generate --rules "$rules" --kind most-points --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 \
      --jobs 1 "${extra[@]}" --out puzzles/layoff
  done
done

# Puzzles mined from self-played games (docs/generate.md "Puzzles mined from games"), House and tile
# rummy, into one folder; any tier the ladder gives (never easy). They are mined from the hands rummy played
# against itself, kept in games/PRESET/ (one hand a record, played by
#   rummy selfplay --rules PRESET --players P --seed N --time-limit T --out games/PRESET/PRESET-gNNN.json
# House: 3 players (in four, partners' spaces score alike: rarely unique), T 0.5; tiles: 2 + N % 3 players,
# T 1). Playing them again would
# not give the same hands (House turns stop at the limit), mining them does: the same puzzles everywhere.
rm -rf puzzles/mined.old
[ -d puzzles/mined ] && mv puzzles/mined puzzles/mined.old
for rc in house-classic:14 house-epic:10; do
  rummy generate --rules "${rc%%:*}" --kind mined --games "games/${rc%%:*}" --count "${rc##*:}" --seed 1 \
    --time-limit 5 --out puzzles/mined
done
# More Classic hands, played while the first were mined (--seed 2 only names the puzzles apart).
rummy generate --rules house-classic --kind mined --games games/house-classic-more --count 6 --seed 2 --time-limit 5 \
  --out puzzles/mined
# Tile rummy: Rummikub's own rules gave no puzzle in its first hands (not unique, no theme); the lenient ones do.
rummy generate --rules rummikub-lenient --kind mined --games games/rummikub-lenient --count 13 --seed 1 --out puzzles/mined
