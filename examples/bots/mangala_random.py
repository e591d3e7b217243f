#!/usr/bin/env python3
"""A random-legal Mangala bot, written from protocol.md alone (Python's standard library).

It keeps the board (the arena's `set_position` starts every set), sows every move by the
Turkish rules and plays a seeded random non-empty pit. `hamle check` passes it:

    hamle check 'python3 examples/bots/mangala_random.py --seed 3' --game mangala
"""

import random
import sys

# Cells in sowing order: South's pits 0-5, South's store 6, North's pits 7-12, North's store 13.
SIDES = {"south": 0, "s": 0, "b": 0, "black": 0, "north": 1, "n": 1, "w": 1, "white": 1}


class Set:
    def __init__(self, stones=4):
        self.cells = ([stones] * 6 + [0]) * 2
        self.to_move = 0

    def set_position(self, text):
        rows = text.split("/")
        cells = [int(x) for row in rows[:2] for x in row.split(",")]
        if len(rows) != 3 or len(cells) != 14 or rows[2] not in ("s", "n"):
            raise ValueError("syntax error: bad position")
        self.cells, self.to_move = cells, (0 if rows[2] == "s" else 1)

    def legal(self, side):
        start = 7 * side
        if side != self.to_move:
            return []
        return [p for p in range(1, 7) if self.cells[start + p - 1] > 0]

    def sow(self, side, pit):
        """Plays pit 1-6 of side (checked legal by the caller)."""
        cells, before = self.cells, list(self.cells)
        own_store, other_store = 7 * side + 6, 7 * (1 - side) + 6
        pos = 7 * side + pit - 1
        n, cells[pos] = cells[pos], 0
        if n > 1:  # the first stone goes back into the pit it came from
            cells[pos], n = 1, n - 1
        while n:
            pos = (pos + 1) % 14
            if pos != other_store:
                cells[pos] += 1
                n -= 1
        if pos == own_store:
            return  # the same side moves again
        own_row = 7 * side <= pos < 7 * side + 6
        if not own_row and cells[pos] % 2 == 0:
            cells[own_store] += cells[pos]
            cells[pos] = 0
        elif own_row and before[pos] == 0 and cells[pos] == 1 and cells[12 - pos] > 0:
            cells[own_store] += cells[12 - pos] + 1
            cells[pos] = cells[12 - pos] = 0
        self.to_move = 1 - side


def main():
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    rng = random.Random(seed)
    game = Set()
    stones = 4
    known = ["protocol_version", "name", "version", "known_command", "list_commands", "quit",
             "boardsize", "clear_board", "mangala-rules", "mangala-stones", "set_position",
             "play", "genmove", "set_random_seed", "time_settings", "kgs-time_settings",
             "time_left"]
    for line in sys.stdin:
        words = line.split("#")[0].split()
        if not words:
            continue
        ident = words.pop(0) if words[0].isdigit() else ""
        command, args = (words[0], words[1:]) if words else ("", [])
        ok, answer = True, ""
        try:
            if command == "protocol_version":
                answer = "2"
            elif command == "name":
                answer = "mangala-random"
            elif command == "version":
                answer = "1"
            elif command == "known_command":
                answer = "true" if args and args[0] in known else "false"
            elif command == "list_commands":
                answer = "\n".join(known)
            elif command == "set_random_seed":
                rng = random.Random(int(args[0]))
            elif command in ("time_settings", "kgs-time_settings", "time_left"):
                pass  # a random move takes no time: the clock changes nothing
            elif command in ("boardsize", "clear_board"):
                game = Set(stones)
            elif command == "mangala-rules":
                ok, answer = (True, "") if args in ([], ["turkish"]) else (False, "only turkish")
            elif command == "mangala-stones":
                stones = int(args[0])
                game = Set(stones)
            elif command == "set_position":
                game.set_position(args[0])
            elif command == "play":
                side, pit = SIDES[args[0].lower()], int(args[1])
                if pit not in game.legal(side):
                    ok, answer = False, "illegal move"
                else:
                    game.sow(side, pit)
            elif command == "genmove":
                side = SIDES[args[0].lower()]
                pits = game.legal(side)
                if not pits:
                    ok, answer = False, "the set is over or it is not this side's turn"
                else:
                    pit = rng.choice(pits)
                    game.sow(side, pit)
                    answer = str(pit)
            elif command != "quit":
                ok, answer = False, "unknown command"
        except (ValueError, IndexError, KeyError) as error:
            ok, answer = False, "syntax error: %s" % error
        sys.stdout.write("%s%s %s\n\n" % ("=" if ok else "?", ident, answer))
        sys.stdout.flush()
        if command == "quit":
            break


if __name__ == "__main__":
    main()
