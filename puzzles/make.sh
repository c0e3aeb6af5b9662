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

for rules in house-classic house-epic; do
  for kind in steal replace-meld meld-steal across; do
    tiers="easy:7 medium:7 hard:7 expert:5"
    [ "$kind" = across ] && tiers="medium:9 hard:9 expert:8"  # across is never easy
    for tc in $tiers; do
      rummy generate --rules "$rules" --kind "$kind" --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 \
        --time-limit 5 --out puzzles/house
    done
  done
done

for tc in easy:13 medium:13 hard:13 expert:13; do
  rummy generate --rules robber --kind steal --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 --out puzzles/robber
done

for rules in straight traditional; do
  for kind in go-out most-points; do
    for tc in easy:7 medium:7 hard:7 expert:5; do
      rummy generate --rules "$rules" --kind "$kind" --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 --out puzzles/layoff
    done
  done
done
