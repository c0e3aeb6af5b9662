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

# House kinds are never easy (every answer steals or replaces a joker: beyond the easy rung). Issue 29: graded
# by insight (the lookahead rung is hard, docs/ladder.md), hard and expert deals built around one idea (a gift,
# three trades, a gift-shift, a double-shift: docs/generate.md), every puzzle themed, no theme on more than half
# of a run's hard and expert puzzles. Each run stops at its --max-candidates (a deterministic bound): where a
# run makes fewer puzzles than asked, it keeps what it made (the counts made are in docs/generate.md).
for rules in house-classic house-epic; do
  for kind in steal replace-meld meld-steal across; do
    for tc in medium:14:80 hard:10:120 expert:5:80; do
      IFS=: read -r tier count most <<< "$tc"
      rummy generate --rules "$rules" --kind "$kind" --count "$count" --difficulty "$tier" --seed 1 \
        --time-limit 5 --jobs 1 --max-candidates "$most" --out puzzles/house || true
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
