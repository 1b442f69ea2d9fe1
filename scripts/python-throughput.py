#!/usr/bin/env python3
"""Wall-time throughput of the Python package beside the command line and
python-chess, taken in alternation (medians), as issue 46 asks:

  ctlpgn.read_games over the author's seven real games repeated (about
  6 MB), the command line (`-q --jobs 1`) over the same file, and
  python-chess's `chess.pgn.read_game` over a standard PGN file of the same
  size, made of random legal games (seed 1).

    pip install ./python chess
    python3 scripts/python-throughput.py [target/release/ctlpgn-filter]
        [--times N] [--no-chess]

--times: how many times the seven games are repeated (700 by default, about
6 MB; 6000 for the 50 MB of issue 54); --no-chess leaves python-chess out
(and needs no chess package).

Wall time drifts on a shared machine: read the ratios, run by run.
"""
import os
import random
import subprocess
import sys
import tempfile
import time

import argparse

import ctlpgn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNS = 7


def real_games_repeated(path, times=700):
    games = sorted(
        os.path.join(ROOT, "corpus", f)
        for f in os.listdir(os.path.join(ROOT, "corpus"))
        if f.startswith("real-") and f.endswith(".ctl-pgn")
    )
    with open(path, "wb") as out:
        for _ in range(times):
            for g in games:
                data = open(g, "rb").read()
                out.write(data if data.endswith(b"\n") else data + b"\n")
                out.write(b"\n")


def standard_pgn(path, size):
    import chess
    import chess.pgn

    rng = random.Random(1)
    with open(path, "w") as out:
        n = 0
        while out.tell() < size:
            board, game = chess.Board(), chess.pgn.Game()
            game.headers.update(Event="Random", White=f"W{n}", Black=f"B{n}")
            node = game
            for _ in range(rng.randint(20, 120)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                move = rng.choice(moves)
                node = node.add_variation(move)
                board.push(move)
            game.headers["Result"] = board.result(claim_draw=True)
            print(game, file=out, end="\n\n")
            n += 1


def timed(run):
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cli", nargs="?", default=os.path.join(ROOT, "target/release/ctlpgn-filter"))
    parser.add_argument("--times", type=int, default=700)
    parser.add_argument("--no-chess", action="store_true")
    args = parser.parse_args()
    cli = args.cli
    with tempfile.TemporaryDirectory() as tmp:
        real, std = os.path.join(tmp, "real.ctl-pgn"), os.path.join(tmp, "standard.pgn")
        real_games_repeated(real, args.times)
        if not args.no_chess:
            standard_pgn(std, os.path.getsize(real))

        def python_chess():
            import chess.pgn

            with open(std) as f:
                while chess.pgn.read_game(f) is not None:
                    pass

        readers = {
            "ctlpgn.read_games": (real, lambda: sum(1 for _ in ctlpgn.read_games(real))),
            "ctlpgn-filter -q --jobs 1": (
                real,
                lambda: subprocess.run([cli, "-q", "--jobs", "1", real], stdout=subprocess.DEVNULL),
            ),
            "python-chess read_game": (std, python_chess),
        }
        if args.no_chess:
            del readers["python-chess read_game"]
        times = {name: [] for name in readers}
        for k in range(RUNS):
            for name, (_, run) in readers.items():
                # python-chess takes about a minute a run: three are enough.
                if name.startswith("python-chess") and k >= 3:
                    continue
                times[name].append(timed(run))
        speed = {}
        for name, (path, _) in readers.items():
            t = sorted(times[name])
            mb = os.path.getsize(path) / 1e6
            speed[name] = mb / t[len(t) // 2]
            print(f"{name:28s} {mb:5.1f} MB  median {t[len(t) // 2]:7.3f} s  {speed[name]:7.1f} MB/s")
        print(f"read_games / command line: {speed['ctlpgn.read_games'] / speed['ctlpgn-filter -q --jobs 1']:.2f}x")


if __name__ == "__main__":
    main()
