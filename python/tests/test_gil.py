"""The package's calls let other Python threads run while Rust works.

Where holding the GIL would deadlock (read_games waiting for a game that
the reading thread reads with a Python file's read(); filter_file reading
a pipe that a Python thread writes), the test runs in a child Python with
a deadline: held, it fails by timeout instead of hanging. filter and check
call no Python while they work: held, no other thread runs during the
call, and the test fails saying so."""

import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import ctlpgn
from conftest import REAL_GAMES

# Each child needs well under a second.
DEADLINE = 30

GOOD = b"[Variant \"C'escacs\"]\n[White \"Ada\"]\n[Black \"Bo\"]\n1. E7-E13, E21-E15\n2. F8-F12:\n*\n"


def run_child(script):
    """Runs `script` in a child Python (GOOD and ctlpgn at hand); its
    standard output. Fails past DEADLINE: a thread there waits for the GIL
    that Rust holds while it waits for that thread."""
    prelude = f"import ctlpgn\nGOOD = {GOOD!r}\n"
    try:
        p = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(script)],
                           capture_output=True, text=True, timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        pytest.fail(f"no answer in {DEADLINE} s: deadlocked, the GIL held while Rust waits")
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_the_wait_for_the_next_game_releases_the_gil():
    out = run_child("""
        import io, threading

        class Slow(io.RawIOBase):
            def __init__(self, data):
                self.data = io.BytesIO(data)

            def readable(self):
                return True

            def read(self, n=-1):
                threading.Event().wait(0.001)
                return self.data.read(min(n, 100))

        # The reading thread calls read(), Python code, while this thread
        # waits in __next__ for the game.
        print(len(list(ctlpgn.read_games(Slow(GOOD * 50)))))
    """)
    assert out.split() == ["50"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_filter_file_releases_the_gil_while_it_reads(tmp_path):
    pipe = tmp_path / "games.ctl-pgn"
    os.mkfifo(pipe)
    out = run_child(f"""
        import os, threading, time

        # Open for reading and writing here, the pipe has a writer, so
        # filter_file's open does not wait; once it is closed, the input ends.
        writer = os.open({str(pipe)!r}, os.O_RDWR)

        def write():
            for _ in range(100):
                os.write(writer, GOOD)
                time.sleep(0.001)
            os.close(writer)

        threading.Thread(target=write).start()
        # filter_file reads the games as this Python thread writes them.
        _, _, report = ctlpgn.filter_file({str(pipe)!r})
        print(report.games_written)
    """)
    assert out.split() == ["100"]



@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("call", ["ctlpgn.filter_file(PIPE)[2].games_written",
                                  "len(list(ctlpgn.read_games(PIPE)))"])
def test_opening_a_named_pipe_releases_the_gil_until_its_writer_comes(tmp_path, call):
    pipe = tmp_path / "games.ctl-pgn"
    os.mkfifo(pipe)
    out = run_child(f"""
        import threading

        PIPE = {str(pipe)!r}

        def write():
            with open(PIPE, "wb") as f:
                f.write(GOOD * 10)

        # The writer comes once the call waits in its open, for a writer.
        threading.Timer(0.2, write).start()
        print({call})
    """)
    assert out.split() == ["10"]

def ticks_amid(call):
    """The times another Python thread ran in the middle half of call(),
    and how long the call took."""
    ticks, stop = [], threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.0005)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        start = time.monotonic()
        call()
        end = time.monotonic()
    finally:
        stop.set()
        ticker.join()
    # Held, the other thread may still run at the call's edges, never amid.
    quarter = (end - start) / 4
    return sum(start + quarter < t < end - quarter for t in ticks), end - start


def assert_other_threads_run_during(call):
    # A few tries, for a machine too busy to run the other thread at all.
    for _ in range(3):
        ticks, took = ticks_amid(call)
        if ticks:
            return
    pytest.fail(f"no other thread ran while the call worked ({took:.3f} s): the GIL is held")


# About 20 MB: a tenth of a second's work or more for each call.
MANY_GAMES = b"".join(p.read_bytes() for p in REAL_GAMES) * 2400


def test_filter_releases_the_gil_while_it_works():
    assert_other_threads_run_during(lambda: ctlpgn.filter(MANY_GAMES))


def test_check_releases_the_gil_while_it_works():
    assert_other_threads_run_during(lambda: ctlpgn.check(MANY_GAMES))

