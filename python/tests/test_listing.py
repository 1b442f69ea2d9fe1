"""ctlpgn.count and ctlpgn.listing: --count and --format tsv as Python
values, and the result each game is written with everywhere."""

import json
import re

import pytest

import ctlpgn
from conftest import CORPUS, REAL_GAMES, ROOT, corpus_files

COLUMNS = "White,Black,Date,Event,Round,Id,Result,result,plies,file,line"


def readable(cli, path):
    """Whether the command line reads `path` (it skips a binary file,
    which the package reads as text)."""
    _, _, err = cli("-q", "--count", path)
    return "skipped: a binary file" not in err


def tsv(value):
    """A listing's value as --format tsv writes it."""
    if value is None:
        return ""
    return (str(value).replace("\\", "\\\\").replace("\t", "\\t")
            .replace("\n", "\\n").replace("\r", "\\r"))


def test_the_result_of_each_game_is_ndjson_s_on_every_corpus_file(cli):
    for path in corpus_files():
        _, out, err = cli("--format", "ndjson", path)
        if "skipped: a binary file" in err:
            continue
        written = [g.result for g in ctlpgn.read_games(path) if not g.rejected]
        assert written == [json.loads(line)["result"] for line in out.splitlines()], path
    # A game with no result line, ended by a mate, and a rejected game.
    games = list(ctlpgn.read_games(REAL_GAMES[0]))
    assert [type(g.result) for g in games] == [str] * len(games)


def test_the_readme_python_example_prints_the_real_results():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("\n## Python\n"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    # The first loop, and what the README says it prints.
    loop = code.split("\nout, ")[0]
    said = re.search(r"# prints (.*)", loop).group(1)
    import contextlib
    import io
    import os
    printed = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(printed):
            exec(loop, {})
    finally:
        os.chdir(cwd)
    assert printed.getvalue() == said + "\n"
    assert said == "Ros, Xus - Sasal, Cesc 100 0-3"


@pytest.mark.parametrize("options, args", [
    ({}, []),
    ({"player": "sasal"}, ["--player", "sasal"]),
    ({"result": "white", "dedup": True}, ["--result", "white", "--dedup"]),
])
def test_count_is_the_cli_count_on_every_corpus_file(cli, options, args):
    counted = 0
    for path in corpus_files():
        if not readable(cli, path):
            continue
        _, out, _ = cli("--count", *args, path)
        n = ctlpgn.count(path, **options)
        assert n == int(out), path
        counted += n
    assert counted > 0


@pytest.mark.parametrize("columns", [None, COLUMNS, COLUMNS.split(",")])
def test_the_listing_is_the_cli_tsv_on_every_corpus_file(cli, columns):
    listed = 0
    for path in corpus_files():
        if not readable(cli, path):
            continue
        args = ["--columns", COLUMNS] if columns else []
        _, out, _ = cli("--format", "tsv", *args, path)
        header, *lines = out.splitlines()
        rows = ctlpgn.listing(path, columns=columns)
        assert [list(r) for r in rows] == [header.split("\t")] * len(rows), path
        assert ["\t".join(tsv(v) for v in r.values()) for r in rows] == lines, path
        for r in rows:
            assert type(r["line"]) is int and type(r["plies"]) is int
        listed += len(rows)
    assert listed > 0


def test_a_missing_tag_is_none_an_empty_one_empty():
    game = b"[Variant \"C'escacs\"]\n[Event \"\"]\n[Round \"3\"]\n1. E7-E13, E21-E15\n2. F8-F12#\n"
    [row] = ctlpgn.listing(game, columns="Event,Site,Round,result,plies,line,file")
    assert row == {"Event": "", "Site": None, "Round": "3", "result": "3-0", "plies": 3,
                   "line": 1, "file": ""}


def test_the_listing_takes_the_selections_and_refuses_a_bad_column(cli):
    path = REAL_GAMES[1]
    assert ctlpgn.listing(path, player="nobody") == []
    with pytest.raises(ValueError) as e:
        ctlpgn.listing(path, columns="a b")
    _, _, err = cli("--format", "tsv", "--columns", "a b", path)
    assert str(e.value) == err.split("\n\n")[0].removeprefix("error: ")


@pytest.mark.parametrize("fmt", ["tsv", "csv"])
def test_filter_writes_a_listing_with_its_header_once(cli, fmt):
    data = b"".join(p.read_bytes() for p in REAL_GAMES)
    path = CORPUS / "results.ctl-pgn"
    _, out, _ = cli("--format", fmt, "--columns", "White,result,plies", path)
    text, _, _ = ctlpgn.filter_file(path, format=fmt, columns="White,result,plies")
    assert text == out and text.count("White") == 1
    text, _, _ = ctlpgn.filter(data, format=fmt)
    assert text.splitlines()[0].replace('"', "").split("," if fmt == "csv" else "\t") == [
        "White", "Black", "Date", "result", "plies", "file", "line"]
    assert len(text.splitlines()) == 1 + len(REAL_GAMES)


def test_the_report_counts_games_left_out_by_result_and_date(cli):
    data = b"\n".join(p.read_bytes() for p in REAL_GAMES)
    _, _, report = ctlpgn.filter(data, result="black", date="2022..")
    left = report.left_out
    assert left["result"] > 0 and left["date_unknown"] > 0 and left["date"] > 0
    assert report.games_read == report.games_written + report.games_rejected + sum(left.values())
