"""Read, check and filter CTL-PGN (C'escacs game records) with the reader
of ctlpgn-filter."""

import os
from typing import IO, Iterator, Literal, Optional, Sequence, Union, overload

__version__: str

_Path = Union[str, "os.PathLike[str]"]
_Strings = Union[str, Sequence[str]]

class Error(Exception):
    """The base of the errors this package raises (file errors are OSError's)."""

class GameError(Error):
    """A game with an error, read with strict=True."""
    game: Game
    diagnostics: list[Diagnostic]

class InternalError(Error):
    """A fault of this package (a Rust panic, caught): please report it."""

class Diagnostic:
    """One message about the input, with its place."""
    severity: Literal["error", "warning", "note"]
    kind: str
    line: int
    column: int
    message: str
    source: str
    def render(self, file: str = "<input>") -> str:
        """As the command line prints it: `FILE:LINE:COLUMN: error: MESSAGE`,
        the source line, a caret."""

class Report:
    """The counts of a run, as --stats prints them."""
    games_read: int
    games_written: int
    games_rejected: int
    left_out: dict[
        Literal["duplicates", "tag", "result", "date", "date_unknown", "plies", "position",
                "other", "inverted"],
        int,
    ]
    warnings: int
    half_moves: int
    comments_dropped: int
    variations_dropped: int
    variations_written: int
    variations_rejected: int
    ratings_dropped: int

class Game:
    """One game, as the filter reads it."""
    tags: dict[str, str]
    tag_list: list[tuple[str, str]]
    moves: list[str]
    result: Literal["3-0", "0-3", "1-1", "2-1", "1-2", "*"]
    pdtl: Optional[str]
    final_pdtl: Optional[str]
    diagnostics: list[Diagnostic]
    rejected: bool
    line: int
    text: str

class Games(Iterator[Game]):
    """The iterator read_games returns."""
    @property
    def report(self) -> Optional[Report]:
        """The run's counts, once every game has been read; else None."""
    def __iter__(self) -> Games: ...
    def __next__(self) -> Game: ...

class Verdict:
    """The verdict of check on one game, as --check gives it."""
    ok: bool
    coherent: bool
    incoherent_move: Optional[str]
    message: Optional[str]
    final_pdtl: Optional[str]
    diagnostics: list[Diagnostic]
    line: int
    def __bool__(self) -> bool: ...

def read_games(
    source: Union[_Path, bytes, bytearray, IO[bytes]],
    *,
    strict: bool = False,
    final_pdtl: bool = False,
) -> Games:
    """The games of a path, a binary file object or bytes, one at a time."""

def filter(
    text: Union[str, bytes],
    *,
    keep_comments: bool = ...,
    keep_variations: bool = ...,
    keep_ratings: bool = ...,
    split_variations: bool = ...,
    max_depth: int = ...,
    skip_pass: _Strings = ...,
    verify: bool = ...,
    strict: bool = ...,
    fix_result: bool = ...,
    format: Literal["ctl-pgn", "ndjson", "tsv", "csv"] = ...,
    columns: _Strings = ...,
    count: bool = ...,
    typographic: bool = ...,
    dedup: bool = ...,
    dedup_result: bool = ...,
    tag: _Strings = ...,
    player: _Strings = ...,
    result: _Strings = ...,
    date: Optional[str] = ...,
    invert: bool = ...,
    plies: Union[int, str, None] = ...,
    reaches: Optional[str] = ...,
    stop_after: Optional[int] = ...,
    max_line_bytes: Union[int, str] = ...,
    quiet: bool = ...,
    fail_fast: bool = ...,
) -> tuple[str, list[Diagnostic], Report]:
    """Filters text as ctlpgn-filter does, its options named as the
    command line's long options."""

@overload
def filter_file(
    path: _Path, out: None = None, **options: object
) -> tuple[str, list[Diagnostic], Report]: ...
@overload
def filter_file(path: _Path, out: _Path, **options: object) -> tuple[list[Diagnostic], Report]: ...

_Source = Union[_Path, bytes, bytearray, IO[bytes]]

def count(source: _Source, **options: object) -> int:
    """The number of games the filter writes with `options` (those of
    filter), as --count prints it."""

def listing(
    source: _Source, columns: Optional[_Strings] = None, **options: object
) -> list[dict[str, Union[str, int, None]]]:
    """One dict a game written, its columns as --format tsv lists them
    (White, Black, Date, result, plies, file, line by default): a tag's
    first value or None, line and plies ints."""

@overload
def check(game_or_text: Game) -> Verdict: ...
@overload
def check(game_or_text: Union[str, bytes]) -> list[Verdict]: ...
