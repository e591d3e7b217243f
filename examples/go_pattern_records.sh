#!/usr/bin/env bash
# Game records for `hamle go learn-patterns`: GNU Go self-play (level 6 against level 8) on
# a SIZE board (default 9), each pair of games starting from its own two random stones (one
# each, from the third line to the third line from the other edge) so that the games differ. The same SEED gives the same openings
# and the same games: the arena hands each GNU Go its `--seed`, derived from SEED and the
# game number. One game at a time: one CPU core.
#
#   examples/go_pattern_records.sh OUT_DIR [PAIRS] [SEED] [SIZE]
#
# The records land in OUT_DIR/games/*.sgf; the trainer skips the two random moves
# (`--skip-moves 2`).
set -euo pipefail
out=${1:?usage: go_pattern_records.sh OUT_DIR [PAIRS] [SEED] [SIZE]}
pairs=${2:-300}
seed=${3:-1}
size=${4:-9}
hamle=${HAMLE:-hamle}
gnugo=${GNUGO:-/usr/games/gnugo}
mkdir -p "$out"
openings="$out/openings.txt"
# Two distinct points of the (SIZE - 4)² from the third line in (C3..G7 on 9x9) per line,
# drawn by the Park-Miller generator (exact in awk's doubles, so every awk draws the same
# lines).
awk -v n="$pairs" -v seed="$seed" -v size="$size" 'function draw() { x = (x * 16807) % 2147483647; return x % (w * w) }
BEGIN {
    x = seed % 2147483646 + 1; w = size - 4; cols = substr("CDEFGHJKLMNOPQR", 1, w)
    for (i = 0; i < n; i++) {
        a = draw(); do { b = draw() } while (b == a)
        printf "%s%d %s%d\n", substr(cols, a % w + 1, 1), int(a / w) + 3, substr(cols, b % w + 1, 1), int(b / w) + 3
    }
}' > "$openings"
mkdir -p "$out/bots"
for level in 6 8; do
    cat > "$out/bots/gnugo-l$level.toml" <<BOT
name = "gnugo-l$level"
game = "go"
command = ["$gnugo", "--mode", "gtp", "--level", "$level", "--chinese-rules", "--capture-all-dead"]
seed_arg = "--seed"
BOT
done
"$hamle" match gnugo-l6 gnugo-l8 --bots "$out/bots" \
    --game go --size "$size" --komi 7.5 --rules chinese --openings "$openings" \
    --pairs "$pairs" --seed "$seed" --quiet --out "$out/match"
