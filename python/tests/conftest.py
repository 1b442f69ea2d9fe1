"""What the tests share: the repository's corpus, and the command line
whose output the package must give back as objects."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
REAL_GAMES = sorted(CORPUS.glob("real-*.ctl-pgn"))


def corpus_files():
    """Every .ctl-pgn file under corpus/, at any depth, sorted: its top,
    errors/, split/, real-world/ and any folder added later. Each folder
    that holds games today must still hold some, so that one moved fails
    the tests instead of quietly leaving them."""
    files = sorted(CORPUS.rglob("*.ctl-pgn"))
    for folder in ("", "errors", "split", "real-world/html", "real-world/html-history"):
        assert any(f.parent == CORPUS / folder for f in files), f"no .ctl-pgn file in corpus/{folder}"
    return files


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
