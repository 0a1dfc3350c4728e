# Type stubs of the native module pdn._pdn (python/src/lib.rs); the package's API is pdn.
from typing import Iterator, List, Optional, Sequence, Tuple, Union
import os

_Paths = Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]]]

__version__: str

class PdnError(Exception): ...

class JsonLines(Iterator[str]):
    def __iter__(self) -> JsonLines: ...
    def __next__(self) -> str: ...

class ArrowTable:
    @property
    def plies(self) -> bool: ...
    @property
    def files(self) -> List[str]: ...
    @property
    def unreadable(self) -> List[Tuple[str, str, Optional[int]]]: ...
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

def games_json(path: _Paths, variant: Optional[str] = None, jobs: Optional[int] = None) -> JsonLines: ...
def validate_json(path: _Paths, variant: Optional[str] = None, jobs: Optional[int] = None) -> JsonLines: ...
def search_json(
    path: _Paths,
    position: Optional[str] = None,
    any_side: bool = False,
    pieces: Sequence[str] = ...,
    not_: Sequence[str] = ...,
    empty: Sequence[str] = ...,
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
) -> JsonLines: ...
def read_arrow(
    path: _Paths,
    plies: bool = False,
    variant: Optional[str] = None,
    jobs: Optional[int] = None,
    errors: str = "raise",
    chunk_text: Optional[int] = None,
) -> ArrowTable: ...
