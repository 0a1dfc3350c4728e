# Type stubs of the pdn package (python/pdn/__init__.py and the native module pdn._pdn).
import os
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

Paths = Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]]]
Squares = Union[None, str, Sequence[str]]

__version__: str
__all__: List[str]

class PdnError(Exception):
    @property
    def file(self) -> Optional[str]: ...
    @property
    def line(self) -> Optional[int]: ...

class PdnWarning(UserWarning): ...

class Unreadable(NamedTuple):
    file: str
    message: str
    line: Optional[int]

class Finding:
    code: str
    severity: str
    line: Optional[int]
    column: Optional[int]
    ply: Optional[int]
    move: Optional[str]
    message: str
    in_variation: bool
    def __init__(self, d: Dict[str, Any]) -> None: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Move:
    number: Optional[int]
    side: Optional[str]
    move: Optional[str]
    text: Optional[str]
    strength: Optional[str]
    nags: List[int]
    comments: List[str]
    variations: List[List[Move]]
    before: List[str]
    setups: List[str]
    def __init__(self, d: Dict[str, Any]) -> None: ...

class Game:
    json: Dict[str, Any]
    file: str
    index: int
    tags: Dict[str, str]
    variant: Optional[str]
    fen: Optional[str]
    moves: List[Move]
    result: Optional[str]
    plies: int
    errors: int
    warnings: int
    findings: List[Finding]
    def __init__(self, d: Dict[str, Any]) -> None: ...
    @property
    def headers(self) -> Dict[str, str]: ...
    def mainline_moves(self) -> List[str]: ...

class Games(Iterator[Game]):
    unreadable: List[Unreadable]
    def __iter__(self) -> Games: ...
    def __next__(self) -> Game: ...

class Findings(Iterator[Dict[str, Any]]):
    unreadable: List[Unreadable]
    def __iter__(self) -> Findings: ...
    def __next__(self) -> Dict[str, Any]: ...

class Matches(Iterator[Dict[str, Any]]):
    unreadable: List[Unreadable]
    summary: Optional[Dict[str, Any]]
    def __iter__(self) -> Matches: ...
    def __next__(self) -> Dict[str, Any]: ...
    def to_arrow(self) -> Any: ...

class ArrowTable:
    @property
    def plies(self) -> bool: ...
    @property
    def files(self) -> List[str]: ...
    @property
    def unreadable(self) -> List[Tuple[str, str, Optional[int]]]: ...
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

def read_games(
    path: Paths,
    variant: Optional[str] = None,
    jobs: Optional[int] = None,
    errors: Optional[str] = None,
) -> Games: ...
def validate(
    path: Paths,
    variant: Optional[str] = None,
    records: bool = False,
    jobs: Optional[int] = None,
    errors: Optional[str] = None,
) -> Findings: ...
def search(
    path: Paths,
    *,
    position: Optional[str] = None,
    any_side: bool = False,
    pieces: Squares = None,
    not_: Squares = None,
    empty: Squares = None,
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
) -> Matches: ...
def read_arrow(
    path: Paths,
    plies: bool = False,
    variant: Optional[str] = None,
    jobs: Optional[int] = None,
    errors: Optional[str] = None,
) -> ArrowTable: ...
