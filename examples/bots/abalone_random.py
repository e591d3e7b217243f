#!/usr/bin/env python3
"""A random-legal Abalone bot, written from protocol.md alone (Python's standard library).

It keeps the board, applies every told move (in-line with pushes, and broadside), refuses
illegal ones, and plays a seeded random legal in-line move (1 to 3 marbles, pushing when the
rules allow). `hamle check` passes it:

    hamle check 'python3 examples/bots/abalone_random.py --seed 3' --game abalone
"""

import random
import sys

ROWS = "abcdefghi"
DIRECTIONS = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]
COLORS = {"b": "b", "black": "b", "w": "w", "white": "w"}
STARTS = {
    "standard": ("a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5",
                 "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7"),
    "belgian-daisy": ("a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9",
                      "a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6"),
    "german-daisy": ("b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9",
                     "b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5"),
}


def on_board(cell):
    r, d = cell
    return 0 <= r <= 8 and max(1, r - 3) <= d <= min(9, r + 5)


def parse(text):
    r, d = ROWS.index(text[0].lower()), int(text[1])
    if not on_board((r, d)):
        raise ValueError("unknown cell %s" % text)
    return (r, d)


def name(cell):
    return "%s%d" % (ROWS[cell[0]], cell[1])


def step(cell, direction, n=1):
    return (cell[0] + n * direction[0], cell[1] + n * direction[1])


class Game:
    def __init__(self, start="standard"):
        black, white = STARTS[start]
        self.board = {parse(c): "b" for c in black.split()}
        self.board.update({parse(c): "w" for c in white.split()})
        self.to_move, self.start = "b", start

    def inline(self, color, tail, direction):
        """The cells moved and pushed by an in-line move, or None when it is illegal."""
        line = [tail]
        while on_board(step(line[-1], direction)) and self.board.get(step(line[-1], direction)) == color:
            line.append(step(line[-1], direction))
        if self.board.get(tail) != color or len(line) > 3:
            return None
        front = step(line[-1], direction)
        pushed = []
        while on_board(front) and self.board.get(front) not in (None, color):
            pushed.append(front)
            front = step(front, direction)
        if pushed and (len(pushed) >= len(line) or (on_board(front) and self.board.get(front) == color)):
            return None
        if not pushed and not on_board(front):
            return None  # an own marble off the board
        return line + pushed

    def broadside(self, color, a, b, direction):
        """The group's cells when the broadside from ends a, b is legal, else None."""
        gap = (b[0] - a[0], b[1] - a[1])
        steps = max(abs(gap[0]), abs(gap[1]))
        if steps not in (1, 2):
            return None
        unit = (gap[0] // steps, gap[1] // steps)
        if (unit[0] * steps, unit[1] * steps) != gap or unit not in DIRECTIONS:
            return None
        if direction in (unit, (-unit[0], -unit[1])):
            return None
        group = [step(a, unit, k) for k in range(steps + 1)]
        for cell in group:
            to = step(cell, direction)
            if self.board.get(cell) != color or not on_board(to) or to in self.board:
                return None
        return group

    def play(self, color, text):
        """Plays text for color; False when the move is illegal."""
        cells = [parse(text[i:i + 2]) for i in range(0, len(text), 2)]
        if color != self.to_move or len(cells) not in (2, 3):
            return False
        direction = (cells[-1][0] - cells[0][0], cells[-1][1] - cells[0][1])
        if direction not in DIRECTIONS:
            return False
        moved = (self.inline(color, cells[0], direction) if len(cells) == 2
                 else self.broadside(color, cells[0], cells[1], direction))
        if moved is None:
            return False
        marbles = {cell: self.board.pop(cell) for cell in moved}
        for cell, owner in marbles.items():
            if on_board(step(cell, direction)):
                self.board[step(cell, direction)] = owner
        self.to_move = "w" if color == "b" else "b"
        return True

    def moves(self, color):
        return sorted(name(cell) + name(step(cell, d)) for cell, owner in self.board.items()
                      if owner == color for d in DIRECTIONS
                      if on_board(step(cell, d)) and self.inline(color, cell, d))


def main():
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    rng = random.Random(seed)
    game = Game()
    known = ["protocol_version", "name", "version", "known_command", "list_commands", "quit",
             "boardsize", "clear_board", "abalone-new_game", "play", "genmove",
             "set_random_seed", "time_settings", "kgs-time_settings", "time_left"]
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
                answer = "abalone-random"
            elif command == "version":
                answer = "1"
            elif command == "known_command":
                answer = "true" if args and args[0] in known else "false"
            elif command == "list_commands":
                answer = "\n".join(known)
            elif command == "set_random_seed":
                rng = random.Random(int(args[0]))
            elif command in ("time_settings", "kgs-time_settings", "time_left"):
                pass  # a random move takes no time
            elif command == "boardsize" and args != ["9"]:
                ok, answer = False, "unacceptable size"
            elif command in ("boardsize", "clear_board"):
                game = Game(game.start)
            elif command == "abalone-new_game":
                game = Game(args[0] if args else "standard")
            elif command == "play":
                if not game.play(COLORS[args[0].lower()], args[1].lower()):
                    ok, answer = False, "illegal move"
            elif command == "genmove":
                color = COLORS[args[0].lower()]
                moves = game.moves(color) if color == game.to_move else []
                if not moves:
                    ok, answer = False, "no legal move"
                else:
                    answer = rng.choice(moves)
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
