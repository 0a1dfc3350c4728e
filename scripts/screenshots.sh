#!/usr/bin/env bash
# The pictures of the README, made again: three diagrams drawn by `pdn diagram` and screenshots
# of the HTML report taken by its browser test in headless Chromium (PDN_SCREENSHOTS=docs).
# Needs chromium (apt-get install -y chromium) and the shared corpus (../shared/corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${PDN_CORPUS:-../shared/corpus}"
cargo build --release -q
pdn=target/release/pdn
# PDN 3.0's diagram 1: a king takes four, the route written in full.
"$pdn" diagram fixtures/validate/international.pdn --game 5 --ply 1 --numbers --size 420 \
    -o docs/diagram-international.svg
# Tinsley's games (English checkers, Black at the top): a king takes two.
"$pdn" diagram "$corpus/english/checkerboard-tinsley.pdn" --game 295 --ply 29 --numbers --size 360 \
    -o docs/diagram-english.png
# Canadian draughts, 12x12 at 480 pixels: the square numbers still read (issue 36).
"$pdn" diagram fixtures/validate/canadian.pdn --game 1 --ply 3 --numbers --size 480 \
    -o docs/diagram-canadian.png
PDN_SCREENSHOTS=docs cargo test -q --test it -- report::browser_replays_a_game_and_draws_findings
