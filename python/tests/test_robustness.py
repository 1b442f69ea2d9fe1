"""No input makes a Rust panic cross into Python, nor any exception: every
file of the corpus, the fuzz findings among them, and hostile inputs."""

import random

import ctlpgn
from conftest import CORPUS, corpus_files


def hostile_inputs():
    rng = random.Random(46)
    yield b"(" * 100_000 + b"\n"
    yield b"{" * 50_000
    yield b"[" * 10_000 + b"]" * 10_000
    yield b"1. " + b"E7-E13, " * 50_000 + b":\n"
    yield b"[PDTL \"" + b"/" * 10_000 + b"\"]\n1. E7-E13:\n"
    yield b"\x00\xff\xfe" * 1000
    yield "[Variant \"C'escacs\"]\n1. \u202eE7-E13\u0000:\n".encode()
    alphabet = b"[]{}()\"\\ \n\r\t.,:;*x#+=@&?!$0123456789EFGJKNRVDPHLM-\xc3\x97\xe2\x80\x90"
    for _ in range(300):
        yield bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 400)))
    # Real games cut at random places and spliced.
    real = b"".join(p.read_bytes() for p in sorted(CORPUS.glob("*.ctl-pgn")))
    for _ in range(100):
        a, b = sorted(rng.randrange(len(real)) for _ in range(2))
        c = rng.randrange(len(real))
        yield real[a:b] + real[c:c + rng.randrange(2000)]


def inputs():
    for path in corpus_files():
        yield path.read_bytes()
    yield from hostile_inputs()


def test_every_input_is_filtered_read_and_checked_without_an_exception():
    for data in inputs():
        for options in ({}, {"keep_comments": True, "keep_variations": True},
                        {"split_variations": True, "verify": True, "strict": True},
                        {"format": "ndjson", "typographic": True, "dedup": True}):
            _, _, report = ctlpgn.filter(data, **options)
            assert report.games_read == report.games_written + report.games_rejected + sum(
                report.left_out.values())
        games = list(ctlpgn.read_games(data, final_pdtl=True))
        assert all(isinstance(g.text, str) for g in games)
        ctlpgn.check(data)
