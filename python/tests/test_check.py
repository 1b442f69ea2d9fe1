"""ctlpgn.check: the verdict of --check, and the move that does not fit."""

import ctlpgn
from conftest import CORPUS, REAL_GAMES

INCOHERENT = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. G7-E13:\n*\n"


def test_an_incoherent_game_names_its_move_and_why():
    [verdict] = ctlpgn.check(INCOHERENT)
    assert not verdict and not verdict.coherent
    assert verdict.incoherent_move == "G7-E13"
    assert verdict.message == ("move 2 (White) G7-E13: E13 is occupied by a White pawn (P): "
                               "a move without capture lands on an empty hex")


def test_the_verdicts_and_messages_are_those_of_the_cli_check(cli):
    for path in REAL_GAMES + sorted(CORPUS.glob("verify-*.ctl-pgn")):
        status, _, err = cli("--check", "--all-diagnostics", path)
        verdicts = ctlpgn.check(path.read_bytes())
        assert status == (0 if all(verdicts) else 1), path
        for v in verdicts:
            if v.message:
                assert f": error: {v.message}" in err, path


def test_a_coherent_game_has_its_final_position_as_check_final_pdtl_prints_it(cli):
    path = REAL_GAMES[0]
    _, _, err = cli("--check", "--final-pdtl", path)
    [verdict] = ctlpgn.check(path.read_text())
    assert verdict and verdict.incoherent_move is None
    assert f"final position: {verdict.final_pdtl}\n" in err


def test_a_game_read_is_checked_from_its_text():
    game = next(ctlpgn.read_games(INCOHERENT.encode()))
    assert not game.rejected  # read without a replay
    verdict = ctlpgn.check(game)
    assert verdict.incoherent_move == "G7-E13"
    assert ctlpgn.check(next(ctlpgn.read_games(REAL_GAMES[0])))


def test_a_malformed_game_fails_with_its_moves_coherent():
    [verdict] = ctlpgn.check(b"[Variant \"C'escacs\"]\n1. E13xF16:\n*\n")
    assert not verdict and verdict.coherent and verdict.message is None
    assert verdict.diagnostics[0].kind == "move syntax"
