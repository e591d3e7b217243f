#!/usr/bin/env python3
"""A random-legal Go bot, written from protocol.md alone (Python's standard library).

It keeps the board (captures, no suicide, no repeated position), plays a seeded random
legal point that does not fill one of its own eyes, and passes when none is left, so that a
game ends and is counted by area. `hamle check` passes it:

    hamle check 'python3 examples/bots/go_random.py --seed 3'
"""

import random
import sys

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP's letters: no I
COLORS = {"b": 1, "black": 1, "w": 2, "white": 2}


class Board:
    def __init__(self, size):
        self.size, self.points = size, [0] * (size * size)
        self.seen = {tuple(self.points)}

    def neighbours(self, p):
        x, y = p % self.size, p // self.size
        if x > 0:
            yield p - 1
        if x < self.size - 1:
            yield p + 1
        if y > 0:
            yield p - self.size
        if y < self.size - 1:
            yield p + self.size

    def chain_without_liberty(self, points, p):
        """The chain at p if it has no liberty, else None."""
        color, chain, todo = points[p], {p}, [p]
        while todo:
            for n in self.neighbours(todo.pop()):
                if points[n] == 0:
                    return None
                if points[n] == color and n not in chain:
                    chain.add(n)
                    todo.append(n)
        return chain

    def after(self, color, p):
        """The points after color plays p, or None when it is illegal (occupied, suicide)."""
        if self.points[p]:
            return None
        points = list(self.points)
        points[p] = color
        for n in self.neighbours(p):
            if points[n] == 3 - color:
                dead = self.chain_without_liberty(points, n)
                for q in dead or ():
                    points[q] = 0
        if self.chain_without_liberty(points, p):
            return None
        return points

    def play(self, color, p):
        points = self.after(color, p)
        if points is None:
            return False
        self.points = points
        self.seen.add(tuple(points))
        return True

    def vertex(self, p):
        return "%s%d" % (COLUMNS[p % self.size], p // self.size + 1)

    def point(self, text):
        column, row = COLUMNS.index(text[0].upper()), int(text[1:]) - 1
        if not (0 <= column < self.size and 0 <= row < self.size):
            raise ValueError("%s is off the board" % text)
        return row * self.size + column

    def genmove(self, color, rng):
        empty = [p for p in range(len(self.points)) if self.points[p] == 0]
        rng.shuffle(empty)
        for p in empty:
            if all(self.points[n] == color for n in self.neighbours(p)):
                continue  # one of its own eyes
            points = self.after(color, p)
            if points is not None and tuple(points) not in self.seen:
                self.play(color, p)
                return self.vertex(p)
        return "pass"


def main():
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    rng = random.Random(seed)
    board = Board(9)
    known = ["protocol_version", "name", "version", "known_command", "list_commands", "quit",
             "boardsize", "clear_board", "komi", "play", "genmove", "set_random_seed",
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
                answer = "go-random"
            elif command == "version":
                answer = "1"
            elif command == "known_command":
                answer = "true" if args and args[0] in known else "false"
            elif command == "list_commands":
                answer = "\n".join(known)
            elif command == "set_random_seed":
                rng = random.Random(int(args[0]))
            elif command in ("komi", "time_settings", "kgs-time_settings", "time_left"):
                pass  # the count is the arena's; a random move takes no time
            elif command == "boardsize":
                if not 2 <= int(args[0]) <= 25:
                    raise ValueError("unacceptable size")
                board = Board(int(args[0]))
            elif command == "clear_board":
                board = Board(board.size)
            elif command == "play":
                color = COLORS[args[0].lower()]
                if args[1].lower() != "pass" and not board.play(color, board.point(args[1])):
                    ok, answer = False, "illegal move"
            elif command == "genmove":
                answer = board.genmove(COLORS[args[0].lower()], rng)
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
