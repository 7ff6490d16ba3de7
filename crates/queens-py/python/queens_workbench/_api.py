"""The Python API of the workbench: what ``queens_workbench`` exports, loaded on first use (so
that the ``queens`` command starts without importing NumPy). See the package's own docstring.
Each function is a thin wrapper: it reads its arguments (``_values``), asks the native module,
and builds its result (``_results``)."""

from __future__ import annotations

import json
import os
import sys
import warnings
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _queens

from ._results import (
    RECORD_MAX,
    Analysis,
    Count,
    Rows,
    Solution,
    Verification,
)
from ._values import (
    MAX_SEED,
    Square,
    SquareLike,
    _integer,
    _optional_whole,
    _seconds,
    _side,
    _size,
    _squares,
    _whole,
    _whole_numbers,
)

__version__: str = _queens.__version__
"""The version of the workbench this module was built from (its crates' version)."""

# The workbench's limits and defaults, from the one table the command line and the server read.
_TABLE: dict = json.loads(_queens.limits())
_DEFAULTS: dict = _TABLE["defaults"]
_LIMITS: dict = _TABLE["limits"]


def _tabled(function: Callable) -> Callable:
    """``function`` with the limits and defaults its docstring names (``{solve_max_nodes}``)
    filled in from the table, so that no docstring holds a copy."""
    function.__doc__ = (function.__doc__ or "").format_map({**_LIMITS, **_DEFAULTS})
    return function


def solvers() -> list[dict]:
    """Every solver's descriptor: name, summary, explanation, score, shapes, parameters."""
    return json.loads(_queens.solvers())


def devices() -> list[dict]:
    """The GPUs ``count(engine="gpu", device=I)`` can use, as ``queens devices --json`` lists
    them: index, name, type (discrete, integrated, software, ...), backend, driver, PCI
    address (``pci_bus``, where the driver gives it), limits."""
    return json.loads(_queens.devices())


@_tabled
@_whole_numbers
def solve(
    n: Union[int, str],
    *,
    solver: Optional[str] = None,
    seed: Optional[int] = None,
    fix: Union[str, Iterable[SquareLike]] = (),
    blocked: Union[str, Iterable[SquareLike]] = (),
    queen_count: Optional[int] = None,
    params: Optional[Mapping[str, float]] = None,
    max_iters: Optional[int] = None,
    max_nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    on_event: Optional[Callable[[dict], Any]] = None,
    record: bool = False,
) -> Solution:
    """One solution of ``n`` (a side, or ``"RxC"``), as ``queens solve`` finds it.

    ``fix`` lists queens every solution holds, ``blocked`` squares no queen may take (the
    exhaustive solvers keep off them; the others refuse them). ``params`` sets the solver's
    parameters by name (``solvers()`` lists them, with their ranges). ``max_nodes`` caps a
    tree search's nodes ({solve_max_nodes:,} by default; the completion search has no cap by
    default, as it decides positions). ``on_event`` receives every event of the run as a dict, in the web stream's shape
    (``started`` with the start board, ``place``, ``remove``, ``move``, ``step``, ``solution``,
    ``finished``); an exception it raises stops the run and is raised here. ``record=True``
    keeps the events (the first ``RECORD_MAX``) in ``Solution.events``, and the solution then
    shows in a notebook as a player of the run (``Solution.replay()``).
    """
    callback = None
    events: Optional[list] = [] if record else None
    if on_event is not None or events is not None:

        def callback(text: str) -> None:
            event = json.loads(text)
            if events is not None and len(events) < RECORD_MAX:
                events.append(event)
            if on_event is not None:
                on_event(event)

    document, perm_bytes = _search(
        n,
        solver=solver,
        seed=seed,
        fix=fix,
        blocked=blocked,
        queen_count=queen_count,
        params=[(str(k), float(v)) for k, v in (params or {}).items()],
        max_iters=max_iters,
        max_nodes=max_nodes,
        time_limit=time_limit,
        callback=callback,
    )
    perm = np.frombuffer(perm_bytes, dtype="<u4") if perm_bytes is not None else None
    return Solution(
        solved=document["solved"],
        status=document["status"],
        solver=document["solver"],
        seed=document["seed"],
        iterations=document["iterations"],
        nodes=document["nodes"],
        elapsed_ms=document["elapsed_ms"],
        rows=document["rows"],
        cols=document["cols"],
        perm=perm,
        _document=document,
        events=events,
    )


@_tabled
@_whole_numbers
def solutions(
    n: Union[int, str],
    *,
    solver: Optional[str] = None,
    fix: Union[str, Iterable[SquareLike]] = (),
    blocked: Union[str, Iterable[SquareLike]] = (),
    queen_count: Optional[int] = None,
    limit: Optional[int] = None,
    max_nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    unique: bool = False,
) -> list[list[Square]]:
    """Every solution of ``n`` (a side, or ``"RxC"``), as ``queens solve --all`` lists them:
    each a list of ``(row, col)`` queens, sorted, checked by the validator, in the order the
    search finds them (``len(solutions(8))`` is 92).

    The search is an exhaustive one: ``solver`` names it (brute-force, row-brute-force,
    backtracking or forward-checking; one that finds a single solution is a ``ValueError``),
    by default forward checking, or brute force where a row may hold no queen. ``fix`` and
    ``blocked`` are kept as ``solve`` keeps them; ``limit`` stops at the first so many;
    ``max_nodes`` caps the search ({solve_max_nodes:,} by default) and ``time_limit`` its time:
    a search stopped by either returns the solutions it found, with a ``RuntimeWarning`` that
    says it stopped. Ctrl-C raises ``KeyboardInterrupt`` as every call does, and the solutions
    found before it are its ``solutions`` attribute.

    ``unique=True`` lists each solution once up to turning and mirroring the board, as ``solve
    --all --unique`` does: the least of each kind (its queens, sorted, before any turn's or
    mirror's), the first a rank-by-rank search finds, so ``len(solutions(8, unique=True))`` is
    12 (OEIS A002562). With ``fix``, ``blocked`` or a rectangle, the turns and mirrors that keep
    them. It takes no ``limit``: the search must see every solution.
    """
    found: list[list[Square]] = []

    def collect(text: str) -> None:
        event = json.loads(text)
        if event["type"] == "found":
            found.append([(q["row"], q["col"]) for q in event["queens"]])

    if unique and limit is not None:
        raise ValueError(
            "unique lists the least of each kind among every solution, so the search must see "
            "them all: it takes no limit"
        )
    params = [] if limit is None else [("solutions", float(_whole(limit, "limit", 1)))]
    try:
        document, _ = _search(
            n,
            solver=solver,
            fix=fix,
            blocked=blocked,
            queen_count=queen_count,
            params=params,
            max_nodes=max_nodes,
            time_limit=time_limit,
            callback=collect,
            every=True,
            unique=bool(unique),
        )
    except KeyboardInterrupt as interrupt:
        # Ctrl-C ends the call as it ends every call; what was found goes with it.
        interrupt.solutions = found
        raise
    if document["status"] == "stopped":
        warnings.warn(
            f"the search stopped ({document['stop_reason']}) after {len(found)} solutions, "
            "which are listed; raise max_nodes or time_limit to list them all",
            RuntimeWarning,
            stacklevel=3,
        )
    return found


def _search(
    n: Union[int, str],
    *,
    solver: Optional[str],
    fix: Union[str, Iterable[SquareLike]],
    blocked: Union[str, Iterable[SquareLike]],
    queen_count: Optional[int],
    params: list[Tuple[str, float]],
    max_nodes: Optional[int],
    time_limit: Optional[float],
    callback: Optional[Callable[[str], Any]],
    seed: Optional[int] = None,
    max_iters: Optional[int] = None,
    every: bool = False,
    unique: bool = False,
) -> Tuple[dict, Optional[bytes]]:
    """The native search of ``solve`` and ``solutions`` on their arguments, each read and
    checked as their docstrings say: the run's document, and its permutation's bytes."""
    document_text, perm_bytes = _queens.solve(
        _size(n),
        solver,
        _optional_whole(seed, "seed", 0, MAX_SEED),
        _squares(fix),
        _optional_whole(queen_count, "queen_count", bits=32),
        params,
        _optional_whole(max_iters, "max_iters="),
        _optional_whole(max_nodes, "max_nodes="),
        _seconds(time_limit, "time_limit"),
        callback,
        _squares(blocked),
        every,
        unique,
    )
    return json.loads(document_text), perm_bytes


#: The largest row of any board: the sides go up to 2³² − 1.
MAX_ROW = 2**32 - 2


def _matrix_squares(rows: list, array: bool = False) -> Optional[list[Square]]:
    """The queens of a 0/1 matrix (``rows[r][c]`` is 1 for a queen on row ``r``, column
    ``c``), or ``None`` when ``rows`` are pairs, which are squares. A 2-D NumPy ``array`` is
    always a matrix; in a list, pairs are squares (so a 2×2 matrix comes as an array) and rows
    of any other equal length are a matrix, whose entries are 0 or 1."""
    lengths = {len(row) for row in rows}
    if lengths == {2} and not array:
        return None
    if len(lengths) != 1:
        raise ValueError(
            "a 0/1 matrix has rows of one length; a list of squares has (row, col) pairs: "
            f"got rows of lengths {sorted(lengths)[:5]}"
        )
    squares: list[Square] = []
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if isinstance(value, (bool, np.bool_)):
                value = int(value)
            if value not in (0, 1):
                raise ValueError(f"a 0/1 matrix holds 0 and 1 only, got {value!r} at ({r}, {c})")
            if value:
                squares.append((r, c))
    return squares


@_tabled
@_whole_numbers
def verify(
    board: Any,
    *,
    n: Union[int, str, None] = None,
    queen_count: Optional[int] = None,
    limit: int = _LIMITS["shown_conflicts"],
) -> Verification:
    """Checks ``board``: a :class:`Verification` with its attacking pairs (at most ``limit``,
    {shown_conflicts:,} by default, with their exact count), true only for a solution.

    ``board`` is a permutation (the row of each column; a sequence or a NumPy array, ``None``
    for an empty column), a list of ``(row, col)`` squares, a :class:`Solution`, or text in any
    format ``queens verify`` reads. ``n`` (or ``"RxC"``) places it on a larger board;
    ``queen_count`` is the queens a solution holds (as ``solve`` takes it; one per row or
    column by default).
    """
    columns: Optional[bytes] = None
    rows32: Optional[bytes] = None
    text = ""
    if isinstance(board, Solution):
        # Judged by the problem it was solved for: its shape, queen count, fixed and blocked
        # squares. A plain N-queens permutation goes as numbers (fast for millions of queens).
        document = board._document
        plain = (
            board.perm is not None
            and board.rows == board.cols == len(board.perm)
            and document.get("queen_count", board.rows) == board.rows
            and not document.get("fixed")
            and not document.get("blocked")
        )
        board = board.perm if plain else json.dumps(board.to_dict())
    if isinstance(board, np.ndarray) and board.ndim == 2:
        board = _matrix_squares(board.tolist(), array=True)
    if isinstance(board, str):
        text = board
    elif isinstance(board, np.ndarray) and board.ndim != 1:
        raise ValueError(
            f"a board is a permutation (1-D), a list of squares or a 0/1 matrix (2-D); "
            f"an array of {board.ndim} dimensions is none of them"
        )
    elif isinstance(board, np.ndarray) and board.dtype == np.uint32:
        # solve's own kind of array: its memory as it is, 4 bytes a queen.
        rows32 = np.ascontiguousarray(board, dtype="<u4").tobytes()
    elif isinstance(board, np.ndarray) and board.dtype.kind in "iu":
        # The array's own memory, as 64-bit integers: no text in between, and no row that
        # would wrap (an unsigned 64-bit row past 2⁶³ would read as negative).
        if board.size and (int(board.max()) > MAX_ROW or int(board.min()) < -1):
            raise ValueError(
                f"a permutation's rows are whole numbers from 0 to {MAX_ROW} (-1 for an empty "
                f"column), got {int(board.max()) if int(board.max()) > MAX_ROW else int(board.min())}"
            )
        columns = np.ascontiguousarray(board, dtype="<i8").tobytes()
    elif isinstance(board, np.ndarray) and board.dtype.kind not in "OU":
        raise ValueError(
            f"a permutation's rows are whole numbers: an array of {board.dtype} is not one"
        )
    else:
        items = list(board)
        if items and all(isinstance(item, (list, tuple, np.ndarray)) for item in items):
            matrix = _matrix_squares(items)
            squares = matrix if matrix is not None else _squares(items)
            text = json.dumps([{"row": r, "col": c} for r, c in squares])
        elif items and all(isinstance(item, (str, tuple, list)) for item in items):
            squares = _squares(items)
            text = json.dumps([{"row": r, "col": c} for r, c in squares])
        else:
            rows = [-1 if item is None else _integer(item, "a permutation's row") for item in items]
            if any(item is not None and not 0 <= row <= MAX_ROW for item, row in zip(items, rows)):
                raise ValueError(f"a permutation's rows are whole numbers from 0 to {MAX_ROW}, "
                                 "None for an empty column")
            columns = np.asarray(rows, dtype="<i8").tobytes()
    queen_count = _optional_whole(queen_count, "queen_count", bits=32)
    limit = _whole(limit, "limit")
    size = None if n is None else _size(n)
    document = json.loads(_queens.verify(text, columns, size, queen_count, limit, rows32))
    return Verification(document)


@_tabled
@_whole_numbers
def count(
    n: int,
    *,
    threads: Optional[int] = None,
    shard: Union[str, Tuple[int, int], None] = None,
    engine: str = "auto",
    memory: Union[int, str, None] = None,
    time_limit: Optional[float] = None,
    max_estimate: float = _DEFAULTS["max_estimate_seconds"],
    progress: Union[bool, Callable[[int, int], Any]] = False,
    fix: Union[str, Iterable[SquareLike]] = (),
    blocked: Union[str, Iterable[SquareLike]] = (),
    device: Union[int, str, None] = None,
    checkpoint: Union[str, "os.PathLike[str]", None] = None,
    checkpoint_every: Optional[float] = None,
) -> Count:
    """All and unique solutions of the N×N board, on all cores (or ``threads``), as ``queens
    count`` counts them; with ``fix`` or ``blocked``, the completions of that position.

    ``engine`` is ``"auto"``, ``"join"``, ``"backtracking"`` or ``"gpu"`` (for a position: the
    completion search, or ``"backtracking"`` row by row); ``device`` picks the GPU by its index
    in ``queens devices`` or its PCI address there (``"0000:3b:00.0"``, as ``nvidia-smi``
    shows it too; by default the GPU a job scheduler assigned, such as Slurm's
    ``SLURM_JOB_GPUS``, else the first hardware GPU, with a ``RuntimeWarning`` where the
    scheduler named a GPU not found here; without one, ``engine="gpu"``
    raises ``ValueError`` saying what is missing); ``memory`` caps the join (bytes, or ``"8G"``;
    {count_memory_bytes:,} bytes by default);
    ``shard`` (``"I/M"`` or ``(I, M)``) counts one part of M. A count whose estimate on these
    threads is longer than ``max_estimate`` seconds ({max_estimate_seconds:g} by default) is refused with the
    estimate rather than started; ``time_limit`` stops a count, which then holds what it
    counted (``complete == False``). ``checkpoint`` (a file path) keeps the finished parts of
    a board's count or a shard's: saved every ``checkpoint_every`` seconds
    ({checkpoint_every_seconds:g} by default), at a stop and on Ctrl-C, and the same call
    resumes from it, as ``queens count --checkpoint`` does (the file is that command's: either
    resumes the other's; a save that fails is a ``RuntimeWarning`` and the count goes on).
    ``progress=True`` shows a bar (tqdm where installed); a callable is called with (parts
    finished, parts). ``to_dict()`` is the document ``queens
    count --json`` prints, with where it was counted (``counted_on``).
    """
    if isinstance(shard, tuple):
        shard = f"{shard[0]}/{shard[1]}"
    if isinstance(memory, int) and not isinstance(memory, bool):
        memory = str(memory)
    callback = None
    if progress is True:
        callback = _progress_bar(None, "part")
    elif callable(progress):
        callback = progress
    document = json.loads(
        _queens.count(
            _side(n),
            _optional_whole(threads, "threads=", most=_LIMITS["max_threads"]),
            shard,
            engine,
            memory,
            _seconds(time_limit, "time_limit"),
            _seconds(max_estimate, "max_estimate"),
            callback,
            _squares(fix),
            _squares(blocked),
            _device(device),
            _path(checkpoint, "checkpoint"),
            _seconds(checkpoint_every, "checkpoint_every"),
        )
    )
    return Count._of(document)


def merge(
    shards: Iterable[Union[Count, Mapping[str, Any], str, "os.PathLike[str]"]],
    *,
    recount: Iterable[Union[Count, Mapping[str, Any], str, "os.PathLike[str]"]] = (),
) -> Count:
    """The whole count, with its unique count, added up from its shards as ``queens merge``
    adds them: each shard a ``Count`` from ``count(n, shard=...)``, its ``to_dict()``, or the
    path of a report ``queens count --shard I/M --dir DIR`` wrote, on any machine and engine.
    Missing, duplicate and foreign shards, a shard that stopped before its end and a report
    whose checksum fails are a ``ValueError`` naming them (``shards[2]``, or the file). As the
    command reads its files, a name with a ``*`` that is no file stands for the files of its
    directory that it matches (``"reports/shard-*-of-12.json"``), and a file named twice (by a
    pattern and by its name, by two names, or through a link) is read once. Each of
    ``recount`` (the same shards counted again, elsewhere) must equal its shard. The result's
    ``to_dict()`` is the document ``queens merge --json`` prints."""
    document = json.loads(_queens.merge(_reports(shards, "shards"), _reports(recount, "recount")))
    return Count._of(document)


def _reports(given: Any, what: str) -> list[Tuple[str, Optional[str]]]:
    """Shard reports as the native ``merge`` takes them: ``(path, None)`` for a file, ``(name,
    json)`` for a document, named by its place in ``what``."""
    if isinstance(given, (str, os.PathLike, Count, Mapping)):
        raise ValueError(f"{what} must be a list of shards, got one: {given!r}")
    reports: list[Tuple[str, Optional[str]]] = []
    for index, shard in enumerate(given):
        if isinstance(shard, Count):
            reports.append((f"{what}[{index}]", json.dumps(shard.to_dict())))
        elif isinstance(shard, Mapping):
            reports.append((f"{what}[{index}]", json.dumps(dict(shard))))
        elif isinstance(shard, (str, os.PathLike)):
            reports.append((_path(shard, f"{what}[{index}]"), None))  # type: ignore[arg-type]
        else:
            raise ValueError(
                f"{what}[{index}] must be a Count, its to_dict() or a report's path, "
                f"got {shard!r}"
            )
    return reports


def _path(path: Union[str, "os.PathLike[str]", None], what: str) -> Optional[str]:
    """A file path as the native module takes it: a ``str`` or an ``os.PathLike``; anything
    else, or an empty path, is a ``ValueError`` naming ``what``."""
    if path is None:
        return None
    if isinstance(path, (str, os.PathLike)):
        text = os.fspath(path)
        if isinstance(text, str) and text:
            return text
    raise ValueError(f"{what} must be a file path, got {path!r}")


def _device(device: Union[int, str, None]) -> Optional[str]:
    """A GPU as ``count`` passes it on: an index (a whole number, checked here) or a PCI
    address (a text, read by the engine's own parser, which words any refusal)."""
    if device is None or isinstance(device, str):
        return device
    return str(_whole(device, "device"))


@_tabled
@_whole_numbers
def configure(
    n: int,
    queens: Union[str, Iterable[SquareLike]] = (),
    blocked: Union[str, Iterable[SquareLike]] = (),
    *,
    engine: str = "auto",
    max_nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
) -> Analysis:
    """The configurator's analysis of the position: which squares can still complete it,
    which queens are forced, how many completions each square has, and why the others cannot
    take a queen. ``blocked`` squares take no queen (an n-Queens Completion problem).
    ``engine`` is ``"auto"``, ``"bdd"`` (the diagram of all solutions) or ``"search"``, as
    ``queens configure --engine`` takes it; ``max_nodes`` ({configure_max_nodes:,} by default)
    and ``time_limit`` bound the search, and a square they leave undecided is ``"unknown"``."""
    document = json.loads(
        _queens.configure(
            _side(n),
            _squares(queens),
            _squares(blocked),
            engine,
            _optional_whole(max_nodes, "max_nodes="),
            _seconds(time_limit, "time_limit"),
        )
    )
    return Analysis(
        n=document["n"],
        solvable=document["solvable"],
        completions=document.get("completions"),
        forced=[(q["row"], q["col"]) for q in document["forced"]],
        blocked=[(q["row"], q["col"]) for q in document.get("blocked", [])],
        cells=document["cells"],
        _document=document,
    )


def _progress_bar(total: Optional[int], unit: str = "run") -> Callable[[int, int], None]:
    try:
        from tqdm.auto import tqdm  # type: ignore[import-not-found]

        bar = tqdm(total=total, unit=unit)

        def update(done: int, of: int) -> None:
            if bar.total != of:
                bar.total = of
            bar.update(done - bar.n)
            if done >= of:
                bar.close()

        return update
    except ImportError:
        shown = [-1]

        def text(done: int, of: int) -> None:
            percent = 100 * done // max(of, 1)
            if percent != shown[0]:
                shown[0] = percent
                end = "\n" if done >= of else ""
                print(f"\r{done}/{of} {unit}s ({percent} %)", end=end, file=sys.stderr,
                      flush=True)

        return text


@_whole_numbers
def experiment(
    solvers: Union[str, Sequence[str]],
    sizes: Union[int, Sequence[int]],
    runs: int,
    *,
    seed: int = _DEFAULTS["seed"],
    max_iters: Optional[int] = None,
    sweep: Optional[Mapping[str, Sequence[float]]] = None,
    progress: bool = False,
) -> "Rows":
    """Every combination of solvers, sizes and swept parameter values, ``runs`` times each, on
    all cores with the GIL released: the rows of ``queens experiment --json``
    (``pandas.DataFrame(rows)`` makes a table of them). Run i of every cell is seeded from
    (``seed``, i), so the same call gives the same rows."""
    if isinstance(solvers, str):
        solvers = [solvers]
    if isinstance(sizes, int):
        sizes = [sizes]
    sweep_list = [(str(k), [float(v) for v in values]) for k, values in (sweep or {}).items()]
    callback = None
    if progress:
        total = len(solvers or [None] * 7) * len(sizes) * _whole(runs, "runs=")
        for _, values in sweep_list:
            total *= max(len(values), 1)
        callback = _progress_bar(total)
    rows = Rows(json.loads(
        _queens.experiment(
            list(solvers),
            [_side(s, "a size") for s in sizes],
            _whole(runs, "runs="),
            _whole(seed, "seed", 0, MAX_SEED),
            _optional_whole(max_iters, "max_iters="),
            sweep_list,
            callback,
        )
    ))
    return rows


@_tabled
@_whole_numbers
def challenge(
    n: int = _DEFAULTS["side"],
    solvers: Union[str, Sequence[str], None] = None,
    *,
    max_nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    progress: bool = False,
) -> dict:
    """The Queen's Challenge: for every square of an N×N board as the locked queen, the boards
    or placements each tree search examines (brute force, one-queen-per-row brute force and
    backtracking by default) until it finds a solution or proves there is none. The table
    ``queens challenge --json`` prints: ``rows`` (one per solver: runs, solved, min, median, mean
    and max nodes; ``Rows(table["rows"]).to_pandas()`` makes a table of them), ``locks`` (every
    run), ``planned``, ``finished`` and ``stopped``. ``max_nodes`` caps each run (its figures are
    then lower bounds) and ``time_limit`` the whole table, which keeps the runs that finished."""
    if isinstance(solvers, str):
        solvers = [solvers]
    names = list(solvers or [])
    n = _side(n)
    callback = _progress_bar(None, "run") if progress else None
    return json.loads(
        _queens.challenge(
            n,
            names,
            _optional_whole(max_nodes, "max_nodes="),
            _seconds(time_limit, "time_limit"),
            callback,
        )
    )
