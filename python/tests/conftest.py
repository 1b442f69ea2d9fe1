"""What the tests share: the repository's corpus, and the command line
whose output the package must give back as objects."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
REAL_GAMES = sorted(CORPUS.glob("real-*.ctl-pgn"))


def cli_binary():
    """The ctlpgn-filter binary: $CTLPGN_FILTER, else the repository's
    release or debug build."""
    named = os.environ.get("CTLPGN_FILTER")
    candidates = [Path(named)] if named else [
        ROOT / "target" / "release" / "ctlpgn-filter",
        ROOT / "target" / "debug" / "ctlpgn-filter",
    ]
    for c in candidates:
        if c.is_file():
            return c
    pytest.fail("no ctlpgn-filter binary: run `cargo build --release` first, "
                "or name it in $CTLPGN_FILTER")


@pytest.fixture
def cli():
    """Runs the command line; returns (status, stdout, stderr) as text."""
    binary = cli_binary()

    def run(*args, input=None):
        p = subprocess.run([str(binary), *map(str, args)], input=input,
                           capture_output=True)
        return p.returncode, p.stdout.decode(), p.stderr.decode()

    return run
