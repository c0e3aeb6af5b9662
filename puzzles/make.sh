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

# Every tile preset, both kinds: easy 4, medium 4, then hard and expert (issue 29: graded by the lookahead
# rung). Hard and expert counts are even: nearly every hard or expert deal turns runs into groups or groups
# into runs (tile_motifs), and the spread rule lets a theme cover at most half of a run's puzzles. Expert
# deals are slow to make (a few hundred candidates for two, docs/generate.md), so the fixed-joker presets
# make hard 4 (hard and expert: 28 a kind over the four presets, as before issue 29).
for rules in rummikub-lenient rummikub tiles50 yourturnmyturn; do
  hard=6
  case "$rules" in rummikub|tiles50) hard=4 ;; esac
  for kind in play-all max; do
    for tc in easy:4 medium:4 hard:$hard expert:2; do
      rummy generate --rules "$rules" --kind "$kind" --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 \
        --jobs 1 --out puzzles/tiles
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

# Lay-off rummy has no expert tier (its top rung searches the whole turn), and going out is never hard.
for rules in straight traditional; do
  for tc in easy:13 medium:13; do
    rummy generate --rules "$rules" --kind go-out --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 --out puzzles/layoff
  done
  for tc in easy:9 medium:9 hard:8; do
    rummy generate --rules "$rules" --kind most-points --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 --out puzzles/layoff
  done
done
