"""Compressed files, read as the command line reads them: found by their
magic bytes, whatever their names."""

import bz2
import gzip
import lzma

import pytest

import ctlpgn
from conftest import REAL_GAMES

TEXT = b"".join(p.read_bytes() for p in REAL_GAMES)
COMPRESS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}


def moves(source):
    return [(g.tags, g.moves) for g in ctlpgn.read_games(source)]


@pytest.mark.parametrize("suffix", sorted(COMPRESS))
def test_a_compressed_file_reads_as_its_text(tmp_path, suffix):
    path = tmp_path / f"games.ctl-pgn.{suffix}"
    path.write_bytes(COMPRESS[suffix](TEXT))
    assert moves(path) == moves(TEXT)
    with open(path, "rb") as f:
        assert moves(f) == moves(TEXT)


def test_compression_is_found_by_the_magic_bytes_not_the_name(tmp_path):
    path = tmp_path / "games.ctl-pgn"
    path.write_bytes(gzip.compress(TEXT))
    assert moves(path) == moves(TEXT)


def test_filter_file_writes_what_the_cli_writes_for_a_compressed_file(cli, tmp_path):
    path = tmp_path / "games.ctl-pgn.xz"
    path.write_bytes(lzma.compress(TEXT))
    _, out, _ = cli(path)
    text, _, report = ctlpgn.filter_file(path)
    assert text == out and report.games_written == len(REAL_GAMES)


def test_a_truncated_file_yields_the_games_before_then_raises_the_cli_message(cli, tmp_path):
    data = gzip.compress(TEXT * 20)
    path = tmp_path / "cut.ctl-pgn.gz"
    path.write_bytes(data[: len(data) // 2])
    status, out, err = cli(path)
    games = ctlpgn.read_games(path)
    read = []
    with pytest.raises(OSError) as e:
        for g in games:
            read.append(g)
    assert f"ctlpgn-filter: {e.value}\n" in err
    assert str(e.value) == f"{path}: gzip data cut short: the file is truncated"
    written = [g for g in read if not g.rejected]
    assert "".join(g.text for g in written) == out and written
