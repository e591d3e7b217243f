#!/usr/bin/env python3
"""Where a Go bot loses its games: Pachi judges every position of a `hamle match` folder.

Usage: examples/go_pachi_judge.py PACHI MATCH_DIR BOT [--playouts N] [--all] [--top K] [--save FILE]

PACHI is a Pachi binary (built by hand outside the repository; none is shipped). For each
game BOT lost in MATCH_DIR (every game with --all), Pachi searches every position at
N playouts (default 8,000) and gives the win rate of the side to move. A move's drop is
what the mover's win rate lost with it: its rate before the move less its rate after
(one less the opponent's). The report lists BOT's largest drops, with Pachi's own move
beside the one played, and the mean drop by phase of the game of BOT's moves and, beside
them, of its opponents' (which show the judge's own noise and horizon), over positions whose
mover Pachi gives 25 to 75 %.

Pachi's rates at a few thousand playouts are noisy (a few points), and a drop can be
Pachi's horizon as much as the move's fault: read the large ones on a board. The game's
size, komi and rules come from each SGF record; Pachi is told not to resign.

--save FILE writes every judged position as a problem for examples/go_pachi_problems.py, a
tab-separated line each: record, move number, size, komi, rules, the mover (b or w), the
move played, Pachi's move, Pachi's rate before the move and after it (for the mover), and
the moves that led there (`b:D4 w:pass …`).
"""
import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict

MAX_RECORD_BYTES = 1 << 20
COLUMNS = "abcdefghjklmnopqrstuvwxyz"


def read_capped(path, cap):
    if not os.path.isfile(path):
        sys.exit(f"{path}: not a regular file")
    if os.path.getsize(path) > cap:
        sys.exit(f"{path}: larger than {cap} bytes")
    with open(path, encoding="utf-8") as f:
        return f.read()


def lost_games(match_dir, bot, everything):
    """(record file, the bot's colour) of the games to judge, from results.tsv."""
    games = []
    text = read_capped(os.path.join(match_dir, "results.tsv"), 64 << 20)
    for line in text.splitlines():
        field = dict(kv.split("=", 1) for kv in line.split("\t") if "=" in kv)
        # A game of other bots, or one left without a record, has nothing to judge.
        if bot not in (field.get("first"), field.get("second")) or "record" not in field:
            continue
        colour = "B" if field["first"] == bot else "W"
        winner = field.get("winner")
        lost = winner in ("first", "second") and field[winner] != bot
        if everything or lost:
            games.append((field["record"], colour))
    return games


def gtp_vertex(sgf_point, size):
    if sgf_point in ("", "tt"):
        return "pass"
    return f"{COLUMNS[ord(sgf_point[0]) - 97]}{size - (ord(sgf_point[1]) - 97)}"


def game_settings(record):
    """(size, komi, rules, [(colour, GTP vertex)]) of an SGF record."""
    size = int((re.search(r"SZ\[(\d+)\]", record) or [0, 19])[1])
    komi = (re.search(r"KM\[([-\d.]+)\]", record) or [0, "7.5"])[1]
    rules = "japanese" if re.search(r"RU\[Japanese\]", record, re.I) else "chinese"
    moves = [(c, gtp_vertex(m, size)) for c, m in re.findall(r";([BW])\[([a-z]{0,2})\]", record)]
    return size, komi, rules, moves


def pachi_searches(pachi, rules, playouts, commands, timeout):
    """(Pachi's move, its win rate for the side to move) for each genmove in `commands`:
    Pachi at a fixed number of playouts, one thread, told not to resign, run from its own
    folder (where its pattern files are)."""
    run = subprocess.run(
        [pachi, "--rules", rules, "-s", "11", "-t", f"={playouts}", "threads=1,resign_threshold=0"],
        input="\n".join(commands + ["quit"]) + "\n",
        capture_output=True,
        text=True,
        cwd=os.path.dirname(os.path.abspath(pachi)),
        timeout=timeout,
    )
    found = re.findall(r"\*\*\* WINNER is (\S+) with score ([\d.]+)%", run.stderr)
    return [(best, float(rate)) for best, rate in found]


def judge(pachi, record, playouts):
    """[(colour, move played, Pachi's move, Pachi's win rate for the side to move)]."""
    size, komi, rules, moves = game_settings(record)
    commands = [f"boardsize {size}", "clear_board", f"komi {komi}"]
    for colour, move in moves:
        commands += [f"genmove {colour.lower()}", "undo", f"play {colour.lower()} {move}"]
    rates = pachi_searches(pachi, rules, playouts, commands, timeout=3600)
    if len(rates) < len(moves):
        print(f"  Pachi judged {len(rates)} of {len(moves)} positions", file=sys.stderr)
    return [(c, m, best, rate) for (c, m), (best, rate) in zip(moves, rates)]


def save_problem(out, name, record, judged, k):
    """One judged position as a problem line (see --save)."""
    size, komi, rules, _ = game_settings(record)
    mover, played, best, before = judged[k]
    after = 100.0 - judged[k + 1][3]
    line = " ".join(f"{c.lower()}:{m}" for c, m, _, _ in judged[:k])
    fields = [name, k + 1, size, komi, rules, mover.lower(), played, best, before, after, line]
    out.write("\t".join(str(f) for f in fields) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pachi")
    parser.add_argument("match_dir")
    parser.add_argument("bot")
    parser.add_argument("--playouts", type=int, default=8000)
    parser.add_argument("--all", action="store_true", help="judge won games as well")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--save", help="write every judged position to this file")
    args = parser.parse_args()
    saved = open(args.save, "w", encoding="utf-8") if args.save else None
    drops = []
    # Per phase: the drops of BOT's moves, then of its opponents'.
    by_phase = defaultdict(lambda: ([], []))
    games = lost_games(args.match_dir, args.bot, args.all)
    for number, (name, colour) in enumerate(games, 1):
        print(f"{number}/{len(games)} {name}", file=sys.stderr)
        record = read_capped(os.path.join(args.match_dir, "games", name), MAX_RECORD_BYTES)
        judged = judge(args.pachi, record, args.playouts)
        for k in range(len(judged) - 1):
            mover, played, best, before = judged[k]
            drop = before - (100.0 - judged[k + 1][3])
            if mover == colour:
                drops.append((drop, name, k + 1, played, best, before))
            if 25.0 <= before <= 75.0:
                by_phase[min(k // 10, 6)][mover != colour].append(drop)
            if saved:
                save_problem(saved, name, record, judged, k)
    if saved:
        saved.close()
    drops.sort(reverse=True)
    print(f"{args.bot}: {len(drops)} moves judged in {len(games)} games, Pachi at {args.playouts} playouts")
    print("largest drops (win rate points): game, move number, played, Pachi's move, rate before")
    for drop, name, number, played, best, before in drops[: args.top]:
        print(f"  {drop:5.1f}  {name} move {number:3}  {played:5} {best:5} {before:5.1f}")
    print(f"by phase (movers at 25-75 %): moves and mean drop of {args.bot}'s, then its opponents'")
    for phase in sorted(by_phase):
        label = f"{phase * 10 + 1}-{phase * 10 + 10}" if phase < 6 else "61-"
        cells = [f"{len(v):4} {sum(v) / len(v):5.1f}" if v else "   0     -" for v in by_phase[phase]]
        print(f"  moves {label:>6}: {cells[0]}   {cells[1]}")


if __name__ == "__main__":
    main()
