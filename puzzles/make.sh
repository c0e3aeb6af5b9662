#!/usr/bin/env bash
# Regenerates the shipped puzzle collections (docs/generate.md): the same
# commands, seeds and counts that made them. Run from the repository root
# with `rummy` installed; each folder gets its puzzles and index.json.
set -euo pipefail

# generate never overwrites a puzzle file: the collections are remade from
# empty folders (the old ones are kept aside as *.old until this succeeds).
for folder in puzzles/tiles puzzles/house puzzles/robber puzzles/robber-draw puzzles/layoff; do
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

# House kinds are never easy (every answer steals or replaces a joker: beyond the easy rung). Issue 29: graded
# by insight (the lookahead rung is hard, docs/ladder.md), hard and expert deals built around one idea (a gift,
# three trades, a gift-shift, a double-shift: docs/generate.md), every puzzle themed, no theme on more than half
# of a run's hard and expert puzzles. Each run stops at its --max-candidates (a deterministic bound): where a
# run makes fewer puzzles than asked, it keeps what it made (the counts made are in docs/generate.md).
# Each item: kind:tier:count:max-candidates. Unmelded expert deals (replace-meld) take 5-10 s a candidate,
# so that kind asks for fewer; it offers no hard tier (house_kinds.py).
for rules in house-classic house-epic; do
  for spec in steal:medium:14:80 steal:hard:10:120 steal:expert:5:80 \
              replace-meld:medium:14:80 replace-meld:expert:3:20 \
              meld-steal:medium:14:60 meld-steal:hard:10:60 meld-steal:expert:5:50 \
              across:medium:14:60 across:hard:10:60 across:expert:5:50; do
    IFS=: read -r kind tier count most <<< "$spec"
    rummy generate --rules "$rules" --kind "$kind" --count "$count" --difficulty "$tier" --seed 1 \
      --time-limit 5 --jobs 1 --max-candidates "$most" --out puzzles/house || true
  done
  # Small hands often go out: more steal puzzles built on the other ideas (a theme of these is asked for).
  rummy generate --rules "$rules" --kind steal --count 6 --difficulty hard --seed 2 \
    --theme into-their-space --theme split-and-insert --theme warm-or-hot-card --theme round-the-corner \
    --theme sacrifice --theme steal-chain --theme partner-play --theme runs-into-groups --theme groups-into-runs \
    --theme joker-reuse --time-limit 5 --jobs 1 --max-candidates 80 --out puzzles/house || true
done
# More medium puzzles (seed 2) so that the folder keeps 200 or more: hard and expert yields are low (docs/generate.md).
for rules in house-classic house-epic; do
  for spec in across:medium:10:300 steal:medium:8:80 meld-steal:medium:8:80 replace-meld:medium:6:60; do
    IFS=: read -r kind tier count most <<< "$spec"
    rummy generate --rules "$rules" --kind "$kind" --count "$count" --difficulty "$tier" --seed 2 \
      --time-limit 5 --jobs 1 --max-candidates "$most" --out puzzles/house || true
  done
done
# More hard and expert puzzles built on ideas other than going out or giving a card (seed 3), and more
# replace-meld (it offers no hard tier: its deals past steal-and-shift are past the lookahead's budget).
for rules in house-classic house-epic; do
  rummy generate --rules "$rules" --kind replace-meld --count 6 --difficulty medium --seed 3 \
    --time-limit 5 --jobs 1 --max-candidates 60 --out puzzles/house || true
done
IDEAS=(--theme split-and-insert --theme warm-or-hot-card --theme round-the-corner --theme sacrifice
       --theme steal-chain --theme partner-play --theme runs-into-groups --theme groups-into-runs --theme joker-reuse)
for spec in house-classic:meld-steal:hard:4:40 house-classic:across:hard:4:40 house-classic:steal:expert:3:40 \
            house-classic:across:expert:3:40 house-epic:meld-steal:hard:4:40 house-epic:across:hard:4:40 \
            house-epic:steal:expert:3:40 house-epic:across:expert:3:40 house-classic:meld-steal:expert:3:30 \
            house-epic:meld-steal:expert:3:30 house-epic:replace-meld:expert:2:20; do
  IFS=: read -r rules kind tier count most <<< "$spec"
  rummy generate --rules "$rules" --kind "$kind" --count "$count" --difficulty "$tier" --seed 3 "${IDEAS[@]}" \
    --time-limit 5 --jobs 1 --max-candidates "$most" --out puzzles/house || true
done
# Runs that stopped short may hold a theme on more than half of what they made: the spread across runs.
python3 puzzles/spread.py puzzles/house
# The spread took kinds under 50 puzzles and tiers away: a last round (as it was run), then the spread again.
for spec in house-classic:meld-steal:medium:4:40:3 house-epic:meld-steal:medium:4:40:3 \
            house-classic:across:medium:5:150:3 house-epic:across:medium:5:150:3; do
  IFS=: read -r rules kind tier count most seed <<< "$spec"
  rummy generate --rules "$rules" --kind "$kind" --count "$count" --difficulty "$tier" --seed "$seed" \
    --time-limit 5 --jobs 1 --max-candidates "$most" --out puzzles/house || true
done
rummy generate --rules house-classic --kind meld-steal --count 2 --difficulty hard --seed 4 "${IDEAS[@]}" \
  --time-limit 5 --jobs 1 --max-candidates 25 --out puzzles/house || true
rummy generate --rules house-classic --kind replace-meld --count 2 --difficulty expert --seed 4 "${IDEAS[@]}" \
  --time-limit 5 --jobs 1 --max-candidates 15 --out puzzles/house || true
python3 puzzles/spread.py puzzles/house

# A steal is beyond the easy rung: Robber's steal puzzles are medium and up. Hard and expert deals plant
# traps for the greedy player (docs/generate.md); the spread rule keeps each theme on half of a run at most.
# Counts by yield: once going-out and partner-play are on half of the expert run, an expert needs the rare
# steal-chain theme, so the expert run stops after its first 907 candidates (13 puzzles); the cascades below
# (seeds 2 and 3) and the spread make 59; hard and expert together: each theme on at most half of 42.

for tc in medium:17 hard:19; do
  rummy generate --rules robber --kind steal --count "${tc##*:}" --difficulty "${tc%%:*}" --seed 1 --jobs 1 \
    --out puzzles/robber
done
rummy generate --rules robber --kind steal --count 15 --difficulty expert --seed 1 --jobs 1 --max-candidates 907 \
  --out puzzles/robber
# Issue 29, second round: cascades (asking for steal-chain deals them: every trap shares its run with another,
# the steals compete; docs/generate.md). Hard: two pairs; expert: two pairs and a lone trap past lookahead's
# budget, rare (one in 300 candidates).
rummy generate --rules robber --kind steal --count 10 --difficulty hard --seed 2 --theme steal-chain --jobs 1 \
  --out puzzles/robber
rummy generate --rules robber --kind steal --count 3 --difficulty expert --seed 3 --theme steal-chain --jobs 1 \
  --max-candidates 300 --out puzzles/robber
# The runs together put going-out on 22 of 43: the spread takes one hard cascade away (59 puzzles).
python3 puzzles/spread.py puzzles/robber
# Robber's draw (issue 29 §3, kind draw-or-pile): the stock or the whole pile, graded by the draw rungs
# (docs/ladder.md "Draw or pile"). Every answer takes the pile: the kind's question, so never its theme. The
# themes are what the pile's cards do (a buried card played, junk kept, junk discarded: docs/themes.md); hard
# deals nearly all discard a card of the pile, so the spread rule keeps few hard puzzles; easy deals are rare
# (the turn after must need no steal past the top card's).
for spec in medium:34:300 hard:25:200 easy:2:120; do
  IFS=: read -r tier count most <<< "$spec"
  rummy generate --rules robber --kind draw-or-pile --count "$count" --difficulty "$tier" --seed 1 \
    --jobs 1 --max-candidates "$most" --out puzzles/robber-draw || true
done
python3 puzzles/spread.py puzzles/robber-draw

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
# The shipped folder was mined while the ladder's lookahead rung was being added, then graded again with the
# final ladder (a no-op on a folder just made): positions, answers and themes do not depend on the ladder.
python -m rummy.generator.regrade puzzles/mined --drop-greedy
# Runs into one folder (three House runs) may together hold a theme on more than half of a kind: the spread.
python3 puzzles/spread.py puzzles/mined
