# Type stubs of the pdn package (python/pdn/__init__.py and the native module pdn._pdn).
import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

Paths = Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]]]

__version__: str

class PdnError(Exception):
    @property
    def file(self) -> Optional[str]: ...
    @property
    def line(self) -> Optional[int]: ...

class Finding:
    code: str
    severity: str
    line: Optional[int]
    column: Optional[int]
    ply: Optional[int]
    move: Optional[str]
    message: str
    in_variation: bool
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
    @property
    def headers(self) -> Dict[str, str]: ...
    def mainline_moves(self) -> List[str]: ...

class ArrowTable:
    @property
    def plies(self) -> bool: ...
    @property
    def files(self) -> List[str]: ...
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

def read_games(
    path: Paths, variant: Optional[str] = None, jobs: Optional[int] = None
) -> Iterator[Game]: ...
def validate(
    path: Paths,
    variant: Optional[str] = None,
    records: bool = False,
    jobs: Optional[int] = None,
) -> Iterator[Dict[str, Any]]: ...
def read_arrow(
    path: Paths, plies: bool = False, variant: Optional[str] = None, jobs: Optional[int] = None
) -> ArrowTable: ...
