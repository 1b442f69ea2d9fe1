"""The keyword options are the command line's, read by the library's one
mapping of them: each gives the output the command line gives with its
flag, and a bad value the command line's words."""

import pytest

import ctlpgn
from conftest import CORPUS, REAL_GAMES

# keyword: (its value in Python, the command line's arguments).
OPTIONS = {
    "keep_comments": (True, ["--keep-comments"]),
    "keep_variations": (True, ["--keep-variations"]),
    "keep_ratings": (True, ["--keep-ratings"]),
    "skip_pass": (["fan", "ascii"], ["--skip-pass", "fan", "--skip-pass", "ascii"]),
    "split_variations": (True, ["--split-variations"]),
    "max_depth": (1, ["--max-depth", "1"]),
    "max_line_bytes": ("60", ["--max-line-bytes", "60"]),
    "strict": (True, ["--strict"]),
    "quiet": (True, ["--quiet"]),
    "fix_result": (True, ["--fix-result"]),
    "fail_fast": (True, ["--fail-fast"]),
    "format": ("ndjson", ["--format", "ndjson"]),
    "columns": ("White,result,plies,line", ["--columns", "White,result,plies,line"]),
    "count": (True, ["--count"]),
    "typographic": (True, ["--typographic"]),
    "tag": (["Event=cg", "Site=*Catalunya*"], ["--tag", "Event=cg", "--tag", "Site=*Catalunya*"]),
    "player": ("sasal", ["--player", "sasal"]),
    "result": (["white", "1-1"], ["--result", "white", "--result", "1-1"]),
    "date": ("2022..", ["--date", "2022.."]),
    "plies": ("10..100", ["--plies", "10..100"]),
    "reaches": (None, None),  # a position of the real games: below
    "invert": (True, ["--invert"]),
    "dedup": (True, ["--dedup"]),
    "dedup_result": (True, ["--dedup-result"]),
    "stop_after": (3, ["--stop-after", "3"]),
    "verify": (True, ["--verify"]),
}

# What an option needs beside it to be taken.
NEEDS = {
    "columns": {"format": "tsv"},
    "invert": {"player": "sasal"},
}

# A bad value of each option that takes one.
BAD = {
    "skip_pass": "x",
    "max_depth": 0,
    "max_line_bytes": "0",
    "format": "x",
    "columns": "a b",
    "tag": "Event",
    "player": "[",
    "result": "4-0",
    "date": "2022-13",
    "plies": "ten",
    "reaches": "x",
    "stop_after": 0,
}


def mixed(tmp_path):
    """Games of every sort: the real ones, comments, variations,
    ratings, every result, errors, and a duplicate."""
    files = REAL_GAMES + [CORPUS / f for f in (
        "comments-and-variations.ctl-pgn", "ratings-and-indicators.ctl-pgn",
        "results.ctl-pgn", "errors/movetext.ctl-pgn")] + REAL_GAMES[:1]
    path = tmp_path / "mixed.ctl-pgn"
    path.write_bytes(b"".join(f.read_bytes().rstrip(b"\n") + b"\n\n" for f in files))
    return path


def args(name, value):
    """The command line's arguments for keyword `name`."""
    python, cli = OPTIONS[name]
    if cli is None:
        cli = [f"--{name.replace('_', '-')}", value]
    return cli


def test_the_table_names_every_option_the_package_takes():
    with pytest.raises(TypeError) as e:
        ctlpgn.filter("", no_such_option=True)
    taken = str(e.value).split("(its options: ")[1].rstrip(")").split(", ")
    assert sorted(taken) == sorted(OPTIONS)
    assert sorted(BAD) == sorted(n for n in OPTIONS if OPTIONS[n][0] is not True)


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_each_option_gives_the_cli_output_with_its_flag(cli, tmp_path, name):
    path = mixed(tmp_path)
    value = OPTIONS[name][0]
    if name == "reaches":
        # The position after a real game's first move.
        first = next(ctlpgn.read_games(REAL_GAMES[1])).moves[0]
        [verdict] = ctlpgn.check(f"[Variant \"C'escacs\"]\n1. {first}:\n")
        value = verdict.final_pdtl
    kwargs = {name: value, **NEEDS.get(name, {})}
    cli_args = args(name, value)
    for k, v in NEEDS.get(name, {}).items():
        cli_args += [f"--{k}", v]
    _, out, err = cli("--all-diagnostics", *cli_args, path)
    text, diagnostics, report = ctlpgn.filter_file(path, **kwargs)
    assert text == out
    rendered = "".join(d.render(str(path)) for d in diagnostics)
    assert err.startswith(rendered)
    # The option does something to these games: the test says something.
    plain = ctlpgn.filter_file(path, **NEEDS.get(name, {}))
    assert (text, rendered, repr(report)) != (plain[0], "".join(
        d.render(str(path)) for d in plain[1]), repr(plain[2])), name


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_value_raises_the_cli_words_for_it(cli, name):
    value = BAD[name]
    status, _, err = cli(f"--{name.replace('_', '-')}", str(value), REAL_GAMES[0])
    assert status == 2
    said = err.split("\n\n")[0].removeprefix("error: ")
    with pytest.raises(ValueError) as e:
        ctlpgn.filter("", **{name: value})
    assert str(e.value) == said


@pytest.mark.parametrize("kwargs, cli_args", [
    ({"split_variations": True, "keep_variations": True},
     ["--split-variations", "--keep-variations"]),
    ({"invert": True}, ["--invert"]),
    ({"columns": "White"}, ["--columns", "White"]),
])
def test_options_that_do_not_go_together_raise_the_cli_words(cli, kwargs, cli_args):
    status, _, err = cli(*cli_args, REAL_GAMES[0])
    assert status == 2
    with pytest.raises(ValueError) as e:
        ctlpgn.filter("", **kwargs)
    assert str(e.value) == err.split("\n\n")[0].removeprefix("error: ")
