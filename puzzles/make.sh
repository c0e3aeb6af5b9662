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

# A steal is beyond the easy rung: Robber's steal puzzles are medium and up. Hard and expert deals plant
# traps for the greedy player (docs/generate.md); the spread rule keeps each theme on half of a run at most.
# Counts by yield: once going-out and partner-play are on half of the expert run, an expert needs the rare
# steal-chain theme, so the expert run stops after its first 907 candidates (13 puzzles), and two more hard
# puzzles with steal-chain (seed 2) make 51; hard and expert together: each theme on at most half of 34.
for tc in medium:17 hard:19; do
  rummy generate --rules robber --kind steal --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 --jobs 1 \
    --out puzzles/robber
done
rummy generate --rules robber --kind steal --count 15 --difficulty expert --seed 1 --jobs 1 --max-candidates 907 \
  --out puzzles/robber
rummy generate --rules robber --kind steal --count 2 --difficulty hard --seed 2 --theme steal-chain --jobs 1 \
  --out puzzles/robber

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
