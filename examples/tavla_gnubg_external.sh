#!/usr/bin/env bash
# Plays a match of GNU Backgammon (player 0) against `hamle tavla` as gnubg's external
# player 1, over gnubg's external-player socket. Usage: examples/tavla_gnubg_external.sh [LENGTH] [PORT]
set -euo pipefail
length="${1:-3}"
port="${2:-31777}"
hamle="${HAMLE:-target/release/hamle}"
"$hamle" tavla --listen "$port" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
sleep 0.5
printf 'set player 1 external localhost:%s\nset player 0 gnubg\nnew match %s\nshow score\n' \
  "$port" "$length" | /usr/games/gnubg -t -q
wait "$server" || true
