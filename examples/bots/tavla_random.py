#!/usr/bin/env python3
"""A random-legal Tavla (backgammon) bot, written from protocol.md alone (Python's standard
library).

It keeps both sides' checkers, each side on its own points (1-24, 25 the bar, 0 off), lists
every legal play of the dice (as many dice as can be used, the larger when only one can),
plays a seeded random one, never doubles and takes every double. A forwarded play is legal
when it ends in the position of a legal play. `hamle check` passes it:

    hamle check 'python3 examples/bots/tavla_random.py --seed 3' --game tavla
"""

import random
import sys

SIDES = {"white": 0, "w": 0, "o": 0, "black": 1, "b": 1, "x": 1}
NAMES = ("white", "black")
START = {24: 2, 13: 5, 8: 3, 6: 5}


def start():
    return [[START.get(p, 0) for p in range(26)] for _ in range(2)]


def step(board, side, frm, to):
    """Moves one checker of side from frm to to (0: off), hitting a lone opponent there."""
    me, opp = list(board[side]), list(board[1 - side])
    if me[frm] == 0:
        raise ValueError("no checker on %d" % frm)
    me[frm], me[to] = me[frm] - 1, me[to] + 1
    if to and opp[25 - to] == 1:
        opp[25 - to], opp[25] = 0, opp[25] + 1
    return (me, opp) if side == 0 else (opp, me)


def single(board, side, die):
    """The one-checker moves of die for side: (from, to)."""
    me, opp = board[side], board[1 - side]
    home = me[25] == 0 and not any(me[7:25])
    for frm in [25] if me[25] else [p for p in range(1, 25) if me[p]]:
        to = frm - die
        if to >= 1 and opp[25 - to] < 2:
            yield frm, to
        elif to < 1 and home and (to == 0 or not any(me[frm + 1:7])):
            yield frm, 0


def plays(board, side, dice):
    """Every legal play: {position key: (board, steps)}."""
    orders = [dice * 2] if dice[0] == dice[1] else [dice, dice[::-1]]
    found = []

    def walk(board, rest, steps):
        moves = list(single(board, side, rest[0])) if rest else []
        if not moves:
            found.append((board, steps))
        for frm, to in moves:
            walk(step(board, side, frm, to), rest[1:], steps + [(frm, to)])

    for order in orders:
        walk(board, list(order), [])
    most = max(len(steps) for _, steps in found)
    found = [(b, s) for b, s in found if len(s) == most]
    if most == 1 and dice[0] != dice[1]:  # one die only: the larger if it can move
        big = [(b, s) for b, s in found if s[0] in single(board, side, max(dice))]
        found = big or found
    return {str(b): (b, s) for b, s in found}


def spell(steps):
    name = lambda p: "bar" if p == 25 else "off" if p == 0 else str(p)
    return " ".join("%s/%s" % (name(f), name(t)) for f, t in steps) or "none"


def apply_text(board, side, words):
    """The board after the play spelled in words (`24/18 13/7*/2 8/5(2) bar/22 6/off`)."""
    for word in words:
        if word.lower() in ("none", "pass"):
            continue
        count = 1
        if word.endswith(")") and "(" in word:
            word, count = word[:word.index("(")], int(word[word.index("(") + 1:-1])
        points = [25 if p == "bar" else 0 if p == "off" else int(p)
                  for p in word.replace("*", "").lower().split("/")]
        for _ in range(count):
            for frm, to in zip(points, points[1:]):
                board = step(board, side, frm, to)
    return board


def dice_of(word):
    if len(word) != 2 or not all(c in "123456" for c in word):
        raise ValueError("expected the dice, e.g. 63")
    return (int(word[0]), int(word[1]))


def main():
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    rng = random.Random(seed)
    board, dice, doubled = start(), [None, None], None
    known = ["protocol_version", "name", "version", "known_command", "list_commands", "quit",
             "new_match", "crawford", "new_game", "dice", "genmove", "genmove_cube", "play",
             "double", "take", "drop", "set_random_seed", "time_settings",
             "kgs-time_settings", "time_left"]
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
                answer = "tavla-random"
            elif command == "version":
                answer = "1"
            elif command == "known_command":
                answer = "true" if args and args[0] in known else "false"
            elif command == "list_commands":
                answer = "\n".join(known)
            elif command == "set_random_seed":
                rng = random.Random(int(args[0]))
            elif command in ("new_match", "crawford", "time_settings", "kgs-time_settings",
                             "time_left", "take", "drop"):
                doubled = None  # nothing to keep: no cube play, no clock
            elif command == "new_game":
                white, black = int(args[0]), int(args[1])
                if white == black:
                    raise ValueError("equal opening dice are thrown again")
                board, doubled = start(), None
                first = 0 if white > black else 1
                dice = [None, None]
                dice[first] = (max(white, black), min(white, black))
                answer = "%s %d%d" % ((NAMES[first],) + dice[first])
            elif command == "dice":
                side = SIDES[args[0].lower()]
                dice[side] = dice_of("".join(args[1:]))
            elif command == "double":
                doubled = SIDES[args[0].lower()]
            elif command == "genmove_cube":
                side = SIDES[args[0].lower()]
                answer = "take" if doubled is not None and doubled != side else "no_double"
                doubled = None
            elif command == "genmove":
                side = SIDES[args[0].lower()]
                if dice[side] is None:
                    dice[side] = (rng.randint(1, 6), rng.randint(1, 6))
                board, steps = rng.choice(sorted(plays(board, side, dice[side]).values()))
                answer = "%d%d %s" % (dice[side] + (spell(steps),))
                dice[side] = None
            elif command == "play":
                side, rest = SIDES[args[0].lower()], args[1:]
                if rest and rest[0].isdigit():
                    given = dice_of(rest.pop(0))
                    if dice[side] and sorted(dice[side]) != sorted(given):
                        raise ValueError("%s is to play other dice" % NAMES[side])
                    dice[side] = given
                if dice[side] is None:
                    raise ValueError("no dice to play")
                try:
                    after = apply_text(board, side, rest)
                except ValueError:
                    after = None
                if str(after) not in plays(board, side, dice[side]):
                    ok, answer = False, "illegal move"
                else:
                    board, dice[side] = after, None
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
