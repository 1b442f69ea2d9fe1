"""ctlpgn.filter: the command line's filter, on text in memory."""

import json

import pytest

import ctlpgn
from conftest import CORPUS, REAL_GAMES


def test_filter_gives_the_cli_output_diagnostics_and_counts(cli):
    for path in REAL_GAMES + [CORPUS / "errors" / "movetext.ctl-pgn"]:
        _, out, err = cli("--all-diagnostics", "--stats", path)
        text, diagnostics, report = ctlpgn.filter(path.read_bytes())
        assert text == out, path
        rendered = "".join(d.render(str(path)) for d in diagnostics)
        assert err.startswith(rendered), path
        summary = err.splitlines()[-1]
        assert summary.startswith(f"ctlpgn-filter: {report.games_read} game")
        assert f", {report.games_rejected} rejected, " in summary


def test_options_are_named_as_the_cli_long_options(cli):
    path = CORPUS / "comments-and-variations.ctl-pgn"
    _, out, _ = cli("--keep-comments", "--keep-variations", "--format", "ndjson", path)
    text, _, _ = ctlpgn.filter(path.read_text(), keep_comments=True, keep_variations=True,
                               format="ndjson")
    # Text in memory has no file name: ndjson's "file" is empty.
    assert [{**json.loads(line), "file": None} for line in text.splitlines()] == [
        {**json.loads(line), "file": None} for line in out.splitlines()]


def test_a_repeated_option_is_a_list(cli):
    path = REAL_GAMES[0].parent / "real-2022-08-14.1.ctl-pgn"
    _, out, _ = cli("--player", "Ros*", "--player", "Nobody", path)
    text, _, report = ctlpgn.filter(path.read_bytes(), player=["Ros*", "Nobody"])
    assert text == out and report.games_written > 0


def test_str_and_bytes_filter_the_same():
    game = "[Variant \"C'escacs\"]\n[Site \"Moià\"]\n1. E7-E13:\n*\n"
    assert ctlpgn.filter(game)[0] == ctlpgn.filter(game.encode())[0]


def test_games_left_out_are_counted_by_reason():
    game = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n"
    _, diagnostics, report = ctlpgn.filter(game * 3, dedup=True)
    assert report.games_written == 1 and report.left_out["duplicates"] == 2
    assert diagnostics[0].message.startswith("a duplicate of the game at line 1")


def test_a_bad_option_value_raises_the_cli_message():
    with pytest.raises(ValueError) as e:
        ctlpgn.filter("", plies="ten")
    assert str(e.value) == ("invalid value 'ten' for '--plies <MIN..MAX>': \"ten\": write "
                            "MIN..MAX (half-moves, both included), MIN.., ..MAX or N")
    with pytest.raises(ValueError, match=r"^invalid value 'x' for '--format <FORMAT>'"):
        ctlpgn.filter("", format="x")


def test_an_unknown_option_is_a_type_error():
    with pytest.raises(TypeError, match="unexpected keyword argument 'keep_everything'"):
        ctlpgn.filter("", keep_everything=True)


def test_quiet_counts_warnings_without_their_messages():
    _, diagnostics, report = ctlpgn.filter("1. E7-E13:\n*\n", quiet=True)
    assert diagnostics == [] and report.warnings == 1


def test_filter_file_writes_what_the_cli_writes_to_its_output(cli, tmp_path):
    path = CORPUS / "errors" / "movetext.ctl-pgn"
    cli("-o", tmp_path / "cli.ctl-pgn", path)
    diagnostics, report = ctlpgn.filter_file(path, tmp_path / "py.ctl-pgn")
    assert (tmp_path / "py.ctl-pgn").read_text() == (tmp_path / "cli.ctl-pgn").read_text()
    assert report.games_rejected > 0 and diagnostics


def test_filter_file_without_out_returns_the_output(cli):
    path = REAL_GAMES[0]
    _, out, _ = cli("--format", "ndjson", path)
    text, _, report = ctlpgn.filter_file(path, format="ndjson")
    assert text == out and report.games_written == 1


def test_filter_file_on_a_missing_file_raises_the_cli_message():
    with pytest.raises(FileNotFoundError, match=r"^nope\.ctl-pgn: No such file or directory$"):
        ctlpgn.filter_file("nope.ctl-pgn")

