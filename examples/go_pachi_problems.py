#!/usr/bin/env python3
"""Score a Go engine on positions Pachi has judged: a quick A/B test against Pachi's eye.

Usage: examples/go_pachi_problems.py [options] PACHI PROBLEMS COMMAND...
       examples/go_pachi_problems.py --compare CHOICES_A CHOICES_B

PROBLEMS is a file written by `go_pachi_judge.py ... --all --save FILE`: judge every game of
a match, won and lost. A set from the lost games alone favours any change to the engine that
lost them (its choices there lost; a change moves it away from them), as protocol.md shows.
The engine COMMAND (a GTP
engine, e.g. `hamle go --rules chinese --playouts 5000 --seed 1 --reuse off`) is asked
`reg_genmove` in every position whose move number lies in --moves (default 11-46) and whose
mover Pachi rates within --band (default 25-75 %), and Pachi at --playouts (default 8,000)
judges each move it chose: the move's drop is the mover's rate before it less its rate after
it. The played move's and every earlier judgement are reused (--cache, default PROBLEMS with
`.cache` added), so a second engine costs Pachi only the moves the first did not choose.
(Pachi's rates vary by a few points from run to run even with its seed fixed, so the cache,
which keeps the first judgement of each move, is what makes two engines' runs comparable.)
It prints the mean drop with its standard error and, with --choices FILE, writes each
position's move and drop; --compare then gives the mean paired difference of two such files
with a 95 % interval, the figure to read (a change of seed alone moves it by its interval).

Give the engine a fixed playout budget: the test compares moves at equal playouts, so a
change that costs speed needs a match at equal time as well. The engine's rules are its
own command line's; Pachi is run with each problem's rules.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the examples folder
from go_pachi_judge import pachi_searches, read_capped  # noqa: E402 (beside this script)

MAX_PROBLEMS_BYTES = 64 << 20
MAX_CACHE_BYTES = 256 << 20


def load_problems(path, first, last, low, high):
    problems = []
    for number, line in enumerate(read_capped(path, MAX_PROBLEMS_BYTES).splitlines(), 1):
        fields = line.split("\t")
        if len(fields) != 11:
            sys.exit(f"{path}:{number}: expected 11 tab-separated fields, found {len(fields)}")
        name, move, size, komi, rules, mover, played, best, before, after, moves = fields
        try:
            problem = dict(
                key=f"{name}:{move}", move=int(move), size=int(size), komi=float(komi),
                rules=rules, mover=mover, played=played.upper(), best=best.upper(),
                before=float(before), after_played=float(after),
                moves=[tuple(m.split(":")) for m in moves.split()],
            )
        except ValueError as e:
            sys.exit(f"{path}:{number}: {e}")
        if any(len(m) != 2 or m[0] not in ("b", "w") for m in problem["moves"]) or mover not in ("b", "w"):
            sys.exit(f"{path}:{number}: moves are written colour:vertex, e.g. b:D4, and colours b or w")
        if first <= problem["move"] <= last and low <= problem["before"] <= high:
            problems.append(problem)
    return problems


def setup(problem):
    commands = [f"boardsize {problem['size']}", "clear_board", f"komi {problem['komi']}"]
    return commands + [f"play {colour} {vertex}" for colour, vertex in problem["moves"]]


def gtp_answers(text):
    """Each answer as (succeeded, text)."""
    blocks = [block.strip() for block in text.split("\n\n")]
    return [(block[0] == "=", block[1:].strip()) for block in blocks if block[:1] in ("=", "?")]


def engine_moves(command, problems):
    """The engine's reg_genmove answer in each problem, in one run of the engine."""
    commands, asked = [], []
    for problem in problems:
        commands += setup(problem)
        asked.append(len(commands))
        commands.append(f"reg_genmove {problem['mover']}")
    run = subprocess.run(command, input="\n".join(commands + ["quit"]) + "\n",
                         capture_output=True, text=True, timeout=24 * 3600)
    answers = gtp_answers(run.stdout)
    if len(answers) < len(commands):
        sys.exit(f"the engine answered {len(answers)} of {len(commands)} commands: "
                 f"{run.stderr.strip()[-500:]}")
    for problem, i in zip(problems, asked):
        succeeded, move = answers[i]
        if not succeeded or not re.fullmatch(r"[A-Za-z]\d{1,2}|pass|PASS", move):
            sys.exit(f"{problem['key']}: the engine answered reg_genmove with '{move}'")
    return [answers[i][1].upper() for i in asked]


def pachi_rates(pachi, playouts, rules, items):
    """Pachi's rate for the mover after each (problem, move): one less the opponent's."""
    commands = []
    for problem, move in items:
        other = "w" if problem["mover"] == "b" else "b"
        commands += setup(problem) + [f"play {problem['mover']} {move}", f"genmove {other}"]
    rates = pachi_searches(pachi, rules, playouts, commands, timeout=24 * 3600)
    if len(rates) != len(items):
        sys.exit(f"Pachi judged {len(rates)} of {len(items)} moves")
    return [100.0 - rate for _, rate in rates]


def shards(items, count):
    return [items[i::count] for i in range(count) if items[i::count]]


def mean_and_error(values):
    mean = sum(values) / len(values)
    spread = (sum((v - mean) ** 2 for v in values) / max(len(values) - 1, 1)) ** 0.5
    return mean, spread / len(values) ** 0.5


def compare(path_a, path_b):
    def load(path):
        rows = [line.split("\t") for line in read_capped(path, MAX_PROBLEMS_BYTES).splitlines()]
        return {row[0]: float(row[2]) for row in rows if len(row) == 3}
    a, b = load(path_a), load(path_b)
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        sys.exit("fewer than two positions in common")
    mean, error = mean_and_error([b[k] - a[k] for k in common])
    print(f"{path_b} less {path_a}: mean drop {mean:+.2f} ± {1.96 * error:.2f} (95 %) "
          f"over {len(common)} positions")


def score(args):
    problems = load_problems(args.problems, *args.moves, *args.band)
    if not problems:
        sys.exit("no problem lies in --moves and --band")
    cache_path = args.cache or args.problems + ".cache"
    cache = json.loads(read_capped(cache_path, MAX_CACHE_BYTES)) if os.path.exists(cache_path) else {}
    for p in problems:
        cache.setdefault(f"{p['key']}:{p['played']}", p["after_played"])
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        parts = shards(problems, args.jobs)
        chosen = {}
        for part, moves in zip(parts, pool.map(lambda s: engine_moves(args.command, s), parts)):
            chosen.update((p["key"], m) for p, m in zip(part, moves))
        todo = [(p, chosen[p["key"]]) for p in problems if f"{p['key']}:{chosen[p['key']]}" not in cache]
        for rules in sorted({p["rules"] for p, _ in todo}):
            parts = shards([item for item in todo if item[0]["rules"] == rules], args.jobs)
            judge = lambda s, rules=rules: pachi_rates(args.pachi, args.playouts, rules, s)
            for part, rates in zip(parts, pool.map(judge, parts)):
                cache.update((f"{p['key']}:{m}", r) for (p, m), r in zip(part, rates))
    with open(cache_path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(cache, f)
    os.replace(cache_path + ".tmp", cache_path)
    drops = [(p, chosen[p["key"]], p["before"] - cache[f"{p['key']}:{chosen[p['key']]}"]) for p in problems]
    if args.choices:
        with open(args.choices, "w", encoding="utf-8") as f:
            f.writelines(f"{p['key']}\t{m}\t{d:.1f}\n" for p, m, d in drops)
    mean, error = mean_and_error([d for _, _, d in drops])
    pachi_best = sum(m == p["best"] for p, m, _ in drops)
    print(f"{len(problems)} positions: mean drop {mean:.2f} (standard error {error:.2f}); "
          f"Pachi's own move {pachi_best} times; {len(todo)} moves judged anew")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", nargs=2, metavar=("CHOICES_A", "CHOICES_B"))
    parser.add_argument("pachi", nargs="?")
    parser.add_argument("problems", nargs="?")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    parser.add_argument("--moves", nargs=2, type=int, default=[11, 46], metavar=("FIRST", "LAST"))
    parser.add_argument("--band", nargs=2, type=float, default=[25.0, 75.0], metavar=("LOW", "HIGH"))
    parser.add_argument("--playouts", type=int, default=8000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache")
    parser.add_argument("--choices")
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if not (args.pachi and args.problems and args.command):
        parser.error("PACHI, PROBLEMS and the engine COMMAND are needed (or --compare)")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    score(args)


if __name__ == "__main__":
    main()
