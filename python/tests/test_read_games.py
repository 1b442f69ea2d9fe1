"""ctlpgn.read_games: games as objects, streamed."""

import io
import json
import subprocess
import sys
import threading

import pytest

import ctlpgn
from conftest import CORPUS, REAL_GAMES, ROOT, corpus_files

GOOD = b"[Variant \"C'escacs\"]\n[White \"Ada\"]\n[Black \"Bo\"]\n1. E7-E13, E21-E15\n2. F8-F12:\n*\n"
BAD = b"[Variant \"C'escacs\"]\n[White \"Cy\"]\n1. E13xF16:\n*\n"


def test_the_real_games_read_into_objects_whose_tags_and_moves_equal_the_cli_output(cli):
    for path in REAL_GAMES:
        status, out, _ = cli("--format", "ndjson", path)
        assert status == 0, path
        assert_games_equal(path, out)


def test_the_written_games_of_every_corpus_file_equal_the_cli_output(cli):
    for path in corpus_files():
        _, out, err = cli("--format", "ndjson", path)
        if "skipped: a binary file" in err:
            continue
        written = [g for g in ctlpgn.read_games(path) if not g.rejected]
        expected = [json.loads(line) for line in out.splitlines()]
        assert [(g.tags, g.tag_list, g.moves, g.pdtl, g.line) for g in written] == [
            (w["tags"], [tuple(t) for t in w["tag_list"]], [m["move"] for m in w["moves"]],
             w["start"], w["line"]) for w in expected], path


def assert_games_equal(path, ndjson):
    expected = [json.loads(line) for line in ndjson.splitlines()]
    games = list(ctlpgn.read_games(path))
    assert len(games) == len(expected), path
    for game, want in zip(games, expected):
        assert not game.rejected
        assert game.tags == want["tags"]
        assert list(game.tags) == list(want["tags"])
        assert game.tag_list == [tuple(t) for t in want["tag_list"]]
        assert game.moves == [m["move"] for m in want["moves"]]
        assert game.pdtl == want["start"]
        assert game.line == want["line"]


def test_each_game_text_is_what_the_cli_writes_for_it(cli):
    for path in REAL_GAMES:
        _, out, _ = cli(path)
        assert "".join(g.text for g in ctlpgn.read_games(path)) == out, path


def test_a_rejected_game_text_is_its_bytes_as_read(cli, tmp_path):
    path = CORPUS / "errors" / "movetext.ctl-pgn"
    rejects = tmp_path / "rejects"
    cli("--rejects", rejects, "-o", tmp_path / "out", path)
    games = list(ctlpgn.read_games(path))
    assert "".join(g.text for g in games if g.rejected) == rejects.read_text()


def test_a_bad_game_is_yielded_with_its_diagnostics():
    good, bad = ctlpgn.read_games(GOOD + BAD)
    assert not good.rejected and good.diagnostics == []
    assert bad.rejected
    [d] = bad.diagnostics
    assert (d.severity, d.kind, d.line, d.column) == ("error", "move syntax", 9, 7)
    assert d.message == "the letter x is not a capture sign in CTL-AN: write × or *"
    assert d.render("g.ctl-pgn").startswith(
        "g.ctl-pgn:9:7: error: the letter x is not a capture sign")


def test_diagnostics_are_the_cli_diagnostics_of_each_game(cli):
    for path in corpus_files():
        _, _, err = cli("--all-diagnostics", "-o", "/dev/null", path)
        if "skipped: a binary file" in err:
            continue  # read_games reads it (see the guide); the command skips it
        headers = [line for line in err.splitlines()
                   if line.startswith(f"{path}:") and ": final position" not in line]
        name = str(path)
        rendered = [d.render(name).splitlines()[0]
                    for g in ctlpgn.read_games(path) for d in g.diagnostics]
        assert rendered == headers, path


def test_strict_raises_on_the_first_game_with_an_error():
    games = ctlpgn.read_games(GOOD + BAD, strict=True)
    assert next(games).tags["White"] == "Ada"
    with pytest.raises(ctlpgn.GameError) as e:
        next(games)
    assert str(e.value) == ("<bytes>:9:7: error: the letter x is not a capture sign in CTL-AN: "
                            "write × or *")
    assert e.value.game.tags["White"] == "Cy"
    assert [d.line for d in e.value.diagnostics] == [9]


def test_strict_makes_a_warning_an_error_as_the_cli_strict_does():
    no_variant = b"1. E7-E13:\n*\n"
    [game] = ctlpgn.read_games(no_variant)
    assert not game.rejected and game.diagnostics[0].severity == "warning"
    with pytest.raises(ctlpgn.GameError):
        list(ctlpgn.read_games(no_variant, strict=True))


def test_tags_keep_their_input_order_and_moves_are_canonical():
    [game] = ctlpgn.read_games("[Variant \"C'escacs\"]\n[Zeta \"1\"]\n[Alpha \"2\"]\n"
                               "1. E7‐E13 ?!, E21-E15\n2. E13×F16:\n3-0\n".encode())
    assert list(game.tags) == ["Variant", "Zeta", "Alpha"]
    assert game.moves == ["E7-E13", "E21-E15", "E13*F16"]
    assert game.result == "3-0"


def test_final_pdtl_when_asked():
    [plain] = ctlpgn.read_games(GOOD)
    assert plain.final_pdtl is None
    [game] = ctlpgn.read_games(GOOD, final_pdtl=True)
    assert game.final_pdtl.endswith(" b RKRrkr F12@10 0 2")


def test_final_pdtl_replays_as_verify_does_an_incoherent_game_is_rejected():
    [game] = ctlpgn.read_games(b"[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. G7-E13:\n*\n",
                               final_pdtl=True)
    assert game.rejected and game.final_pdtl is None
    assert game.diagnostics[0].kind == "incoherent move"


def test_a_path_a_file_object_and_bytes_read_the_same(tmp_path):
    path = tmp_path / "g.ctl-pgn"
    path.write_bytes(GOOD + BAD)
    as_path = [g.moves for g in ctlpgn.read_games(path)]
    assert [g.moves for g in ctlpgn.read_games(str(path))] == as_path
    with open(path, "rb") as f:
        assert [g.moves for g in ctlpgn.read_games(f)] == as_path
    assert [g.moves for g in ctlpgn.read_games(io.BytesIO(GOOD + BAD))] == as_path
    assert [g.moves for g in ctlpgn.read_games(bytearray(GOOD + BAD))] == as_path


def test_a_missing_file_raises_the_cli_message():
    with pytest.raises(FileNotFoundError) as e:
        ctlpgn.read_games("/no/such/games.ctl-pgn")
    assert str(e.value) == "/no/such/games.ctl-pgn: No such file or directory"
    assert e.value.errno == 2


def test_the_report_counts_the_run_once_the_games_are_read():
    games = ctlpgn.read_games(GOOD + BAD)
    assert games.report is None
    list(games)
    r = games.report
    assert (r.games_read, r.games_written, r.games_rejected) == (2, 1, 1)


def test_an_iterator_dropped_half_way_stops_its_reading_thread():
    before = threading.active_count()
    for _ in range(20):
        games = ctlpgn.read_games(GOOD * 10_000)
        next(games)
        del games
    # Each thread ends once it finds nobody wants its games.
    for _ in range(100):
        if threading.active_count() <= before and _reading_threads() == 0:
            break
        import time
        time.sleep(0.05)
    assert _reading_threads() == 0


def _reading_threads():
    """Threads named ctlpgn-read in this process (Linux)."""
    import os
    if not os.path.isdir("/proc/self/task"):
        pytest.skip("needs /proc")
    names = []
    for t in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{t}/comm") as f:
                names.append(f.read().strip())
        except OSError:
            pass  # a thread that ended since the listing
    return names.count("ctlpgn-read")


def test_two_threads_read_two_files_at_once(tmp_path):
    one, two = tmp_path / "one.ctl-pgn", tmp_path / "two.ctl-pgn"
    one.write_bytes(GOOD * 5000)
    two.write_bytes(BAD * 5000)
    results = {}
    started = threading.Barrier(2)

    def read(path):
        started.wait()
        results[path] = [(g.rejected, len(g.moves)) for g in ctlpgn.read_games(path)]

    threads = [threading.Thread(target=read, args=(p,)) for p in (one, two)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[one] == [(False, 3)] * 5000
    assert results[two] == [(True, 0)] * 5000


LARGE = r"""
import resource, sys, ctlpgn
games = moves = 0
for g in ctlpgn.read_games(sys.argv[1]):
    games += 1
    moves += len(g.moves)
print(games, moves, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def peak_mb_reading(path, copies, games):
    """The peak resident memory, in MB, of a Python that reads `copies`
    times `games` into `path` with read_games."""
    with open(path, "wb") as f:
        for _ in range(copies):
            f.write(games)
    out = subprocess.run([sys.executable, "-c", LARGE, str(path)], check=True,
                         capture_output=True, text=True).stdout
    n, _, peak_mb = map(int, out.split())
    assert n == copies * len(REAL_GAMES)
    return peak_mb


def test_a_large_file_is_read_in_bounded_memory(tmp_path):
    games = b"".join(p.read_bytes() for p in REAL_GAMES)
    small = peak_mb_reading(tmp_path / "small.ctl-pgn", (4 << 20) // len(games), games)
    large = peak_mb_reading(tmp_path / "large.ctl-pgn", (100 << 20) // len(games), games)
    # 96 MB more input, and the same few games in flight.
    assert large - small < 16, (small, large)
