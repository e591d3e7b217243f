#!/usr/bin/env python3
"""gnubg's judgement of Tavla games: the error rate (mEMG per move) of each player.

Usage: examples/tavla_gnubg_analysis.py PLAYER MATFILE...

Each Jellyfish .mat file (written by `hamle tavla`'s `save_mat` or by `hamle match` for
Tavla) is imported into GNU Backgammon (Debian `gnubg`, run in tty mode), analysed at its
default settings, and the chequer-play and overall error totals of PLAYER (the name as it
stands in the .mat file) are summed. The rate printed is gnubg's: total error in
millipoints (mEMG) over the unforced moves, the figure gnubg rates as "expert" between 5
and 8 and "world class" below 5.
"""
import re
import subprocess
import sys

GNUBG = "/usr/games/gnubg"


def statistics(path):
    script = f"import mat {path}\nanalyse match\nshow statistics match\n"
    run = subprocess.run([GNUBG, "-t", "-q"], input=script, capture_output=True, text=True, timeout=3600)
    return run.stdout


def columns(text, label):
    """The two players' cells of the first table row starting with `label`."""
    for line in text.splitlines():
        if line.startswith(label):
            return re.split(r"\s{2,}", line[len(label):].strip())
    raise ValueError(f"gnubg printed no '{label}' row")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    player, files = sys.argv[1], sys.argv[2:]
    unforced = 0
    chequer_error = 0.0
    overall_error = 0.0
    decisions = 0
    analysed = 0
    for path in files:
        text = statistics(path)
        header = columns(text, "Player")
        if player not in header:
            print(f"{path}: no player '{player}' (players: {header})", file=sys.stderr)
            continue
        side = header.index(player)
        # Chequer play: the first "Error total EMG" row; overall: the last one.
        totals = [re.split(r"\s{2,}", l[len("Error total EMG (MWC)"):].strip())
                  for l in text.splitlines() if l.startswith("Error total EMG (MWC)")]
        unforced += int(columns(text, "Unforced moves")[side])
        decisions += int(columns(text, "Close or actual cube decisions")[side])
        chequer_error += float(totals[0][side].split()[0])
        overall_error += float(totals[-1][side].split()[0])
        analysed += 1
    if unforced == 0:
        sys.exit("nothing analysed")
    print(f"{analysed} matches, {unforced} unforced moves, {decisions} close cube decisions")
    print(f"chequer play: {1000 * chequer_error / unforced:+.1f} mEMG per unforced move")
    print(f"overall: {1000 * overall_error / (unforced + decisions):+.1f} mEMG per decision")


if __name__ == "__main__":
    main()
