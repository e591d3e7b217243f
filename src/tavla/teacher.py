# hamle's bridge to its teacher, GNU Backgammon's net (PyPI gnubg-nn), run by
# `hamle tavla label --teacher gnubg:PLIES` as `python3 -c THIS PLIES`: reads gnubg Position
# IDs (the side on roll as gnubg's player on roll), one a line, and answers each with gnubg's
# five probabilities for that side before its roll at PLIES, or `error WHAT`.
import sys

try:
    import gnubg_nn as gnubg
except ImportError as error:
    print(f"missing {error}", flush=True)
    sys.exit(3)

plies = int(sys.argv[1])
print("ready", flush=True)
for line in sys.stdin:
    try:
        board = gnubg.board_from_position_id(line.strip())
        probs = gnubg.probabilities(board, plies)
        print(" ".join(f"{p:.6f}" for p in probs), flush=True)
    except Exception as error:  # the answer names it; hamle refuses it
        print(f"error {error}", flush=True)
