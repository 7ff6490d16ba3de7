"""The native half of :mod:`queens_workbench`: JSON and bytes in, JSON and bytes out."""

from typing import Any, Callable, Optional

__version__: str

def solvers() -> str: ...
def devices() -> str: ...
def limits() -> str: ...
def parse_squares(text: str) -> list[tuple[int, int]]: ...
def square_name(row: int, col: int, cols: int) -> str: ...
def file_letters(cols: int) -> Optional[str]: ...
def solve(
    size: str,
    solver: Optional[str],
    seed: Optional[int],
    fix: list[tuple[int, int]],
    queen_count: Optional[int],
    params: list[tuple[str, float]],
    max_iters: Optional[int],
    max_nodes: Optional[int],
    time_limit: Optional[float],
    on_event: Optional[Callable[[str], Any]],
    blocked: list[tuple[int, int]] = ...,
    every: bool = ...,
    unique: bool = ...,
) -> tuple[str, Optional[bytes]]: ...
def verify(
    text: str,
    columns: Optional[bytes] = None,
    size: Optional[str] = None,
    queen_count: Optional[int] = None,
    limit: int = 1000,
    rows32: Optional[bytes] = None,
) -> str: ...
def count(
    n: str,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    engine: Optional[str] = None,
    memory: Optional[str] = None,
    time_limit: Optional[float] = None,
    max_estimate: Optional[float] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
    fix: list[tuple[int, int]] = ...,
    blocked: list[tuple[int, int]] = ...,
    device: Optional[str] = None,
    checkpoint: Optional[str] = None,
    checkpoint_every: Optional[float] = None,
) -> str: ...
def merge(
    shards: list[tuple[str, Optional[str]]],
    recount: list[tuple[str, Optional[str]]] = ...,
) -> str: ...
def configure(
    n: str,
    queens: list[tuple[int, int]],
    blocked: list[tuple[int, int]],
    engine: Optional[str],
    max_nodes: Optional[int],
    time_limit: Optional[float],
) -> str: ...
def experiment(
    solvers: list[str],
    sizes: list[str],
    runs: int,
    seed: int,
    max_iters: Optional[int],
    sweep: list[tuple[str, list[float]]],
    progress: Optional[Callable[[int, int], Any]],
) -> str: ...
def challenge(
    n: str,
    solvers: list[str],
    max_nodes: Optional[int],
    time_limit: Optional[float],
    progress: Optional[Callable[[int, int], Any]],
) -> str: ...
def page_assets() -> tuple[list[tuple[str, str]], str]: ...
def command_line(args: list[str], own_command: list[str]) -> int: ...
