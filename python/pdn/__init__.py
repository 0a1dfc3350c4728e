"""Draughts (checkers) game records from Python, read by the ``pdn`` Rust library.

- ``read_games(path)``: the games of a file, a directory (``*.pdn``, ``*.pdn.gz``,
  recursively) or a gzip archive, as :class:`Game` objects (tags, variant, moves, result,
  findings), the same games ``pdn convert --to json`` writes.
- ``validate(path)``: the findings, as ``pdn validate --format json`` reports them.
- ``read_arrow(path, plies=False)``: the games table (or one row per ply) as an Arrow C
  stream (``__arrow_c_stream__``) that pyarrow, polars and DuckDB read directly; the columns
  are those of ``pdn convert --to parquet`` (docs/formats.md).

Reading runs on every core with the GIL released. An input that cannot be read raises
:class:`PdnError` (``.file`` and ``.line`` say where); a missing path ``FileNotFoundError``.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

from . import _pdn
from ._pdn import ArrowTable

__all__ = [
    "ArrowTable",
    "Finding",
    "Game",
    "Move",
    "PdnError",
    "read_arrow",
    "read_games",
    "validate",
]

__version__: str = _pdn.__version__

Paths = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]


class PdnError(_pdn.PdnError):
    """An input that could not be read (to its end).

    ``file`` is the input's name; ``line`` the line of the last game read from it before
    the failure (``None`` if none was).
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""

    @property
    def file(self) -> Optional[str]:
        return self.args[1] if len(self.args) > 1 else None

    @property
    def line(self) -> Optional[int]:
        return self.args[2] if len(self.args) > 2 else None


def _raise(e: _pdn.PdnError) -> None:
    raise PdnError(*e.args) from None


def _paths(path: Paths) -> Union[str, List[str]]:
    if isinstance(path, (str, os.PathLike)):
        return os.fspath(path)
    return [os.fspath(p) for p in path]


class Finding:
    """One finding of ``pdn validate`` on a game: ``code``, ``severity`` (``error``,
    ``warning``, ``info``), ``line``, ``column``, ``ply``, ``move``, ``message``,
    ``in_variation`` (the keys of the JSON output)."""

    __slots__ = ("code", "severity", "line", "column", "ply", "move", "message", "in_variation")

    def __init__(self, d: Dict[str, Any]) -> None:
        self.code: str = d["code"]
        self.severity: str = d["severity"]
        self.line: Optional[int] = d.get("line")
        self.column: Optional[int] = d.get("column")
        self.ply: Optional[int] = d.get("ply")
        self.move: Optional[str] = d.get("move")
        self.message: str = d["message"]
        self.in_variation: bool = d.get("in_variation", False)

    def to_dict(self) -> Dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}

    def __repr__(self) -> str:
        at = f" line {self.line}" if self.line is not None else ""
        return f"<Finding {self.severity} {self.code}{at}: {self.message}>"


class Move:
    """A move of a line: ``number``, ``side`` (``white``/``black``), ``move`` (canonical
    notation), ``text`` (as written), ``strength``, ``nags``, ``comments``, ``variations``
    (lists of :class:`Move`, alternatives to this move). An entry that ends a line without
    a move (comments after the last move) has ``move`` ``None``."""

    __slots__ = ("number", "side", "move", "text", "strength", "nags", "comments", "variations", "before", "setups")

    def __init__(self, d: Dict[str, Any]) -> None:
        self.number: Optional[int] = d.get("number")
        self.side: Optional[str] = d.get("side")
        self.move: Optional[str] = d.get("move")
        self.text: Optional[str] = d.get("text")
        self.strength: Optional[str] = d.get("strength")
        self.nags: List[int] = d.get("nags", [])
        self.comments: List[str] = d.get("comments", [])
        self.variations: List[List[Move]] = [[Move(m) for m in line] for line in d.get("variations", [])]
        self.before: List[str] = d.get("before", [])
        self.setups: List[str] = d.get("setups", [])

    def __str__(self) -> str:
        return self.move or ""

    def __repr__(self) -> str:
        return f"<Move {self.number}{'.' if self.side == 'white' else '...'} {self.move}>"


class Game:
    """A game as ``pdn convert --to json`` writes it.

    ``file``, ``index`` (1-based, in its file), ``tags`` (a dict in file order; a name
    given again is ``Name (2)``), ``variant``, ``fen`` (start position), ``moves`` (the
    main line, :class:`Move` objects), ``result``, ``plies`` (main-line plies replayed),
    ``errors``, ``warnings``, ``findings`` (:class:`Finding` objects). ``headers`` is
    ``tags`` under python-chess's name; ``mainline_moves()`` the moves in canonical
    notation; ``json`` the object as the CLI writes it.
    """

    __slots__ = ("json", "file", "index", "tags", "variant", "fen", "moves", "result", "plies", "errors", "warnings", "findings")

    def __init__(self, d: Dict[str, Any]) -> None:
        self.json: Dict[str, Any] = d
        self.file: str = d["file"]
        self.index: int = d["game"]
        self.tags: Dict[str, str] = d["tags"]
        self.variant: Optional[str] = d["variant"]
        self.fen: Optional[str] = d["fen"]
        self.moves: List[Move] = [Move(m) for m in d["moves"]]
        self.result: Optional[str] = d["result"]
        self.plies: int = d["plies"]
        self.errors: int = d["errors"]
        self.warnings: int = d["warnings"]
        self.findings: List[Finding] = [Finding(f) for f in d["diagnostics"]]

    @property
    def headers(self) -> Dict[str, str]:
        return self.tags

    def mainline_moves(self) -> List[str]:
        return [m.move for m in self.moves if m.move is not None]

    def __repr__(self) -> str:
        white = self.tags.get("White", "?")
        black = self.tags.get("Black", "?")
        return f"<Game {self.file}#{self.index} {white} - {black} {self.result or '*'} ({self.variant}, {self.plies} plies)>"


def read_games(path: Paths, variant: Optional[str] = None, jobs: Optional[int] = None) -> Iterator[Game]:
    """The games of ``path`` (a file, a directory, a gzip archive, or a list of them), in
    order, as :class:`Game` objects. ``variant`` forces the variant (as ``--variant``);
    ``jobs`` is the number of threads (every core by default)."""
    try:
        lines = _pdn.games_json(_paths(path), variant, jobs)
    except _pdn.PdnError as e:
        _raise(e)
    while True:
        try:
            line = next(lines)
        except StopIteration:
            return
        except _pdn.PdnError as e:
            _raise(e)
        yield Game(json.loads(line))


def validate(
    path: Paths, variant: Optional[str] = None, records: bool = False, jobs: Optional[int] = None
) -> Iterator[Dict[str, Any]]:
    """The findings of ``path`` as ``pdn validate --format json`` reports them: one dict per
    finding (``type`` ``diagnostic``: ``code``, ``severity``, ``file``, ``game``, ``line``,
    ``column``, ``ply``, ``move_number``, ``side``, ``move``, ``message``, ``rule``,
    ``legal``, ``in_variation``). With ``records``, the game records (``type`` ``game``)
    come too, as in the JSON output."""
    try:
        lines = _pdn.validate_json(_paths(path), variant, jobs)
    except _pdn.PdnError as e:
        _raise(e)
    while True:
        try:
            chunk = next(lines)
        except StopIteration:
            return
        except _pdn.PdnError as e:
            _raise(e)
        for line in chunk.splitlines():
            if not line:
                continue
            d = json.loads(line)
            if records or d.get("type") == "diagnostic":
                yield d


def read_arrow(path: Paths, plies: bool = False, variant: Optional[str] = None, jobs: Optional[int] = None) -> ArrowTable:
    """The games table of ``path`` (or, with ``plies``, one row per ply of the main
    lines) as an object with ``__arrow_c_stream__``: ``pyarrow.table(t)``,
    ``polars.DataFrame(t)``, ``duckdb.sql("select * from t")`` read it. Each read reads
    the inputs again, on every core."""
    try:
        return _pdn.read_arrow(_paths(path), plies, variant, jobs)
    except _pdn.PdnError as e:
        _raise(e)
        raise  # unreachable
