#!/usr/bin/env python3
"""A random-legal Kulami bot, written from protocol.md alone (Python's standard library).

It reads the layout of `kulami-new_game LAYOUT` (rows top first, joined by `/`), keeps the
marbles, and plays a seeded random legal hole: in the row or column of the opponent's last
marble, on neither player's last tile. `hamle check` passes it:

    hamle check 'python3 examples/bots/kulami_random.py --seed 3' --game kulami
"""

import random
import sys

COLUMNS = "ABCDEFGHJK"  # GTP's letters: no I
COLORS = {"b": 0, "black": 0, "r": 1, "red": 1, "w": 1, "white": 1}
MARBLES = 28


class Game:
    def __init__(self, layout):
        rows = [row.replace(" ", "") for row in layout.split("/") if row.strip(" .")]
        # Empty border columns are dropped too, so that the board starts at A1.
        left = min(len(row) - len(row.lstrip(".")) for row in rows) if rows else 0
        rows = [row[left:] for row in rows]
        height = len(rows)
        self.tile = {}  # "D5" -> tile letter
        for r, row in enumerate(rows):
            for c, letter in enumerate(row):
                if letter != ".":
                    self.tile["%s%d" % (COLUMNS[c], height - r)] = letter.upper()
        if not self.tile:
            raise ValueError("invalid layout")
        self.marbles, self.last, self.to_move, self.placed = {}, [None, None], 0, [0, 0]

    def legal(self, color):
        if color != self.to_move or self.placed[color] >= MARBLES:
            return []
        mine, theirs = self.last[color], self.last[1 - color]
        closed = {self.tile[cell] for cell in (mine, theirs) if cell}
        holes = []
        for cell, tile in self.tile.items():
            if cell in self.marbles or tile in closed:
                continue
            if theirs and cell[0] != theirs[0] and cell[1:] != theirs[1:]:
                continue
            holes.append(cell)
        return sorted(holes)

    def play(self, color, cell):
        self.marbles[cell] = color
        self.last[color] = cell
        self.placed[color] += 1
        self.to_move = 1 - color


def main():
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    rng = random.Random(seed)
    layout = "AABBCCDD/EEBBFFFG/EEHHFFFG/EEHHIIIJ/KKHHIIIJ/KKLMNNNJ/OOLMPPQQ/OOLMPPQQ"
    game = Game(layout)
    known = ["protocol_version", "name", "version", "known_command", "list_commands", "quit",
             "kulami-new_game", "clear_board", "komi", "play", "genmove", "set_random_seed",
             "time_settings", "kgs-time_settings", "time_left"]
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
                answer = "kulami-random"
            elif command == "version":
                answer = "1"
            elif command == "known_command":
                answer = "true" if args and args[0] in known else "false"
            elif command == "list_commands":
                answer = "\n".join(known)
            elif command == "set_random_seed":
                rng = random.Random(int(args[0]))
            elif command in ("komi", "time_settings", "kgs-time_settings", "time_left"):
                pass  # no komi in Kulami; a random move takes no time
            elif command == "kulami-new_game":
                if args in ([], ["random"]) or args[0] == "random":
                    raise ValueError("only given layouts or default")
                if args != ["default"]:
                    layout = "/".join(args)
                game = Game(layout)
                answer = layout
            elif command == "clear_board":
                game = Game(layout)
            elif command == "play":
                color, cell = COLORS[args[0].lower()], args[1].upper()
                if cell == "PASS" and not game.legal(color):
                    pass
                elif cell not in game.legal(color):
                    ok, answer = False, "illegal move"
                else:
                    game.play(color, cell)
            elif command == "genmove":
                color = COLORS[args[0].lower()]
                holes = game.legal(color)
                answer = rng.choice(holes) if holes else "pass"
                if holes:
                    game.play(color, answer)
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
