"""Draughts (checkers) game records from Python, read by the ``pdn`` Rust library.

- ``read_games(path)``: the games of a file, a directory (``*.pdn``, ``*.pdn.gz``,
  recursively) or a gzip archive, as :class:`Game` objects (tags, variant, moves, result,
  findings), the same games ``pdn convert --to json`` writes.
- ``validate(path)``: the findings, as ``pdn validate --format json`` reports them.
- ``read_arrow(path, plies=False)``: the games table (or one row per ply) as an Arrow C
  stream (``__arrow_c_stream__``) that pyarrow, polars and DuckDB read directly; the columns
  are those of ``pdn convert --to parquet`` (docs/formats.md).
- ``search(path, material=..., moves=..., ...)``: the positions a query matches, as
  ``pdn search --format json`` finds them (its options as keyword arguments).

Reading runs on every core with the GIL released. An input that cannot be read raises
:class:`PdnError` (``.file`` and ``.line`` say where) when it is the one file read; found in
a directory or a list, it is listed in the iterator's ``unreadable`` with a
:class:`PdnWarning`, and reading goes on (``errors="raise"`` or ``"warn"`` chooses). A
missing path raises ``FileNotFoundError``.
"""

from __future__ import annotations

import json
import os
import warnings
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Union

from . import _pdn
from ._pdn import ArrowTable

__all__ = [
    "ArrowTable",
    "Finding",
    "Findings",
    "Game",
    "Games",
    "Matches",
    "Move",
    "PdnError",
    "PdnWarning",
    "Unreadable",
    "read_arrow",
    "read_games",
    "search",
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


class PdnWarning(UserWarning):
    """An input that could not be read (to its end) while reading others: reading went on
    (``warnings.simplefilter("error", pdn.PdnWarning)`` makes it an error)."""


class Unreadable(NamedTuple):
    """An input not read (to its end): its name, what was wrong, and the line of the last
    game read from it (``None`` if none was). The games before the damage were read."""

    file: str
    message: str
    line: Optional[int]


def _errors(path: Paths, errors: Optional[str]) -> str:
    """``raise`` for one file, ``warn`` for a directory or a list, unless ``errors`` says."""
    if errors is None:
        one_file = isinstance(path, (str, os.PathLike)) and not os.path.isdir(path)
        return "raise" if one_file else "warn"
    if errors not in ("raise", "warn"):
        raise ValueError(f'errors: "raise" or "warn", not {errors!r}')
    return errors


class _Lines:
    """The lines the native reader hands over, with what it could not read: with
    ``errors="warn"``, an unreadable input is listed in ``unreadable`` and a
    :class:`PdnWarning` issued, and reading goes on; with ``"raise"``, :class:`PdnError`."""

    def __init__(self, lines: Iterator[str], errors: str) -> None:
        self._lines = lines
        self._errors = errors
        #: The inputs not read (to their end), in order.
        self.unreadable: List[Unreadable] = []

    def _next_line(self) -> str:
        while True:
            try:
                return next(self._lines)
            except _pdn.PdnError as e:
                err = PdnError(*e.args)
                if self._errors == "raise" or not err.file:
                    raise err from None
                self.unreadable.append(Unreadable(err.file, str(err), err.line))
                warnings.warn(PdnWarning(f"not read (to its end): {err}"), stacklevel=3)


class Games(_Lines):
    """The games of :func:`read_games`, an iterator of :class:`Game`; ``unreadable`` lists
    the inputs it could not read (to their end)."""

    def __iter__(self) -> "Games":
        return self

    def __next__(self) -> Game:
        return Game(json.loads(self._next_line()))


def read_games(
    path: Paths, variant: Optional[str] = None, jobs: Optional[int] = None, errors: Optional[str] = None
) -> Games:
    """The games of ``path`` (a file, a directory, a gzip archive, or a list of them), in
    order, as :class:`Game` objects. ``variant`` forces the variant (as ``--variant``);
    ``jobs`` is the number of threads (every core by default).

    An input that cannot be read (to its end) — not PDN, binary, a cut archive, no
    permission — raises :class:`PdnError` after the games read before the damage when
    ``errors`` is ``"raise"`` (the default for one file); with ``"warn"`` (the default for a
    directory or a list) reading goes on with the next input, a :class:`PdnWarning` says
    which, and the iterator's ``unreadable`` lists them, as the command line's
    ``unreadable`` line does. A path given that does not exist raises FileNotFoundError."""
    mode = _errors(path, errors)
    try:
        return Games(_pdn.games_json(_paths(path), variant, jobs), mode)
    except _pdn.PdnError as e:
        _raise(e)
        raise  # unreachable


class _Records(_Lines):
    """JSON records, several to a line."""

    def __init__(self, lines: Iterator[str], errors: str, keep: Any) -> None:
        super().__init__(lines, errors)
        self._keep = keep
        self._ready: List[Dict[str, Any]] = []

    def __iter__(self) -> "_Records":
        return self

    def __next__(self) -> Dict[str, Any]:
        while not self._ready:
            chunk = self._next_line()
            self._ready = [d for d in (json.loads(l) for l in chunk.splitlines() if l) if self._keep(self, d)]
            self._ready.reverse()
        return self._ready.pop()


class Findings(_Records):
    """The findings of :func:`validate`, an iterator of dicts; ``unreadable`` lists the
    inputs it could not read (to their end)."""


def validate(
    path: Paths,
    variant: Optional[str] = None,
    records: bool = False,
    jobs: Optional[int] = None,
    errors: Optional[str] = None,
) -> Findings:
    """The findings of ``path`` as ``pdn validate --format json`` reports them: one dict per
    finding (``type`` ``diagnostic``: ``code``, ``severity``, ``file``, ``game``, ``line``,
    ``column``, ``ply``, ``move_number``, ``side``, ``move``, ``message``, ``rule``,
    ``legal``, ``in_variation``). With ``records``, the game records (``type`` ``game``)
    come too, as in the JSON output. ``errors`` as for :func:`read_games`."""
    mode = _errors(path, errors)
    try:
        lines = _pdn.validate_json(_paths(path), variant, jobs)
    except _pdn.PdnError as e:
        _raise(e)
    return Findings(lines, mode, lambda _, d: records or d.get("type") == "diagnostic")


class Matches(_Records):
    """The matches of :func:`search`, an iterator of dicts (the ``match`` records of
    ``pdn search --format json``). Once it is exhausted, ``summary`` is the search's
    ``summary`` record (games, plies searched, matches, games not searched and why);
    ``unreadable`` lists the inputs it could not read (to their end)."""

    def __init__(self, lines: Iterator[str], errors: str) -> None:
        super().__init__(lines, errors, Matches._keep_match)
        #: The summary record, once the matches are all read.
        self.summary: Optional[Dict[str, Any]] = None

    @staticmethod
    def _keep_match(self: "Matches", d: Dict[str, Any]) -> bool:
        if d.get("type") == "summary":
            self.summary = d
            return False
        return True

    def to_arrow(self) -> Any:
        """The remaining matches as a ``pyarrow.Table`` (needs pyarrow), one row per match,
        the columns of ``pdn search --format csv``."""
        import pyarrow as pa

        rows = list(self)
        columns = ["file", "game", "line", "ply", "move_number", "side", "fen", "white", "black", "result",
                   "event", "date", "variant", "move", "in_variation", "mirrored", "error_ply"]
        types = {"game": pa.uint32(), "line": pa.uint32(), "ply": pa.uint32(), "move_number": pa.uint32(),
                 "in_variation": pa.bool_(), "mirrored": pa.bool_(), "error_ply": pa.uint32()}
        return pa.table({c: pa.array([r.get(c, False if c in ("in_variation", "mirrored") else None) for r in rows],
                                     type=types.get(c, pa.string())) for c in columns})


def _list(v: Union[None, str, Sequence[str]]) -> List[str]:
    if v is None:
        return []
    if isinstance(v, str):
        return [v]
    return list(v)


def search(
    path: Paths,
    *,
    position: Optional[str] = None,
    any_side: bool = False,
    pieces: Union[None, str, Sequence[str]] = None,
    not_: Union[None, str, Sequence[str]] = None,
    empty: Union[None, str, Sequence[str]] = None,
    material: Optional[str] = None,
    moves: Optional[str] = None,
    side: Optional[str] = None,
    piece: Optional[str] = None,
    from_: Optional[str] = None,
    to: Optional[str] = None,
    captures: Optional[str] = None,
    promotion: bool = False,
    sacrifice: bool = False,
    mirror: bool = False,
    variant: Optional[str] = None,
    variations: bool = False,
    all_occurrences: bool = False,
    jobs: Optional[int] = None,
    errors: Optional[str] = None,
) -> Matches:
    """The positions of the games of ``path`` that a query matches, as ``pdn search``
    finds them (docs/formats.md): the keyword arguments are its options, with the same
    values (``not_`` is ``--not``, ``from_`` is ``--from``; ``pieces``, ``not_`` and
    ``empty`` take a string or a list, as the options repeated). Every part given must hold.

    ``search(path, material="wm=1-3,bk=1+")``, ``search(path, moves="32-28 19-23")``,
    ``search(path, pieces="W:W28:B19", side="white")``,
    ``search(path, piece="king", captures="3+")``.

    Returns an iterator of dicts, the ``match`` records of ``pdn search --format json``
    (``file``, ``game``, ``line``, ``ply``, ``move_number``, ``side``, ``fen``, the tags
    ``white``, ``black``, ``result``, ``event``, ``date``, ``variant``, and ``move`` for a
    manoeuvre); its ``summary`` once exhausted; ``to_arrow()`` for a table. A query that
    cannot be read or fits no board raises ValueError. ``errors`` as for
    :func:`read_games`."""
    mode = _errors(path, errors)
    try:
        lines = _pdn.search_json(
            _paths(path),
            position=position,
            any_side=any_side,
            pieces=_list(pieces),
            not_=_list(not_),
            empty=_list(empty),
            material=material,
            moves=moves,
            side=side,
            piece=piece,
            from_=from_,
            to=to,
            captures=captures,
            promotion=promotion,
            sacrifice=sacrifice,
            mirror=mirror,
            variant=variant,
            variations=variations,
            all_occurrences=all_occurrences,
            jobs=jobs,
        )
    except _pdn.PdnError as e:
        _raise(e)
    return Matches(lines, mode)


def read_arrow(
    path: Paths,
    plies: bool = False,
    variant: Optional[str] = None,
    jobs: Optional[int] = None,
    errors: Optional[str] = None,
) -> ArrowTable:
    """The games table of ``path`` (or, with ``plies``, one row per ply of the main
    lines) as an object with ``__arrow_c_stream__``: ``pyarrow.table(t)``,
    ``polars.DataFrame(t)``, ``duckdb.sql("select * from t")`` read it. Each read reads
    the inputs again, on every core.

    An input that cannot be read ends the stream with an error when ``errors`` is
    ``"raise"`` (the default for one file); with ``"warn"`` (the default for a directory or
    a list) the table goes on without it, with a :class:`PdnWarning`, and the object's
    ``unreadable`` lists the inputs the last read could not read (to their end). So is a
    game whose plies pass 1 GB of rows (about four million plies): the stream ends with
    an error naming the file and the game, or, with ``"warn"``, its plies past the limit
    are left out, warned of and listed."""
    mode = _errors(path, errors)
    try:
        return _pdn.read_arrow(_paths(path), plies, variant, jobs, mode)
    except _pdn.PdnError as e:
        _raise(e)
        raise  # unreachable
