"""The Python API of the workbench: what ``queens_workbench`` exports, loaded on first use (so
that the ``queens`` command starts without importing NumPy). See the package's own docstring."""

from __future__ import annotations

import functools
import json
import re
import sys
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _queens

__version__: str = _queens.__version__

# The workbench's limits and defaults, from the one table the command line and the server read.
_TABLE: dict = json.loads(_queens.limits())
_DEFAULTS: dict = _TABLE["defaults"]
"""The version of the workbench this module was built from (its crates' version)."""


def _whole_numbers(function: Callable) -> Callable:
    """Bad integers (negative, or too large for the engine) are a ``ValueError`` like every
    other bad value, not the ``OverflowError`` of the native conversion."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except OverflowError as error:
            raise ValueError(
                f"a number is out of range (a whole number from 0 up, within the limits "
                f"the command line states, was expected): {error}"
            ) from None

    return call


Square = Tuple[int, int]
SquareLike = Union[str, Sequence[int]]


def _whole(value: Any, what: str) -> int:
    """``value`` as a whole number, as the command line reads one: an ``int`` (a NumPy integer
    too) or a float with no fraction; ``8.7``, ``True`` or ``"8"`` is a ``ValueError`` naming
    ``what``, never silently rounded."""
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{what} must be a whole number, got {value!r}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return int(value)
    raise ValueError(f"{what} must be a whole number, got {value!r}")


def _optional_whole(value: Any, what: str) -> Optional[int]:
    """``None`` as it is, anything else as :func:`_whole` reads it."""
    return None if value is None else _whole(value, what)


def _seconds(value: Any, what: str) -> Optional[float]:
    """A number of seconds: an ``int`` or a ``float`` (NumPy's too); ``True`` or ``"5"`` is a
    ``ValueError`` naming ``what``, as every other bad value is. ``None`` as it is."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        raise ValueError(f"{what} must be a number of seconds, got {value!r}")
    return float(value)


def _squares(squares: Union[str, Iterable[SquareLike]]) -> list[Square]:
    """Squares from names (``"d1"``, ``"r20c30"``, or one comma-separated string) or pairs."""
    if isinstance(squares, str):
        return [tuple(s) for s in _queens.parse_squares(squares)]  # type: ignore[misc]
    result: list[Square] = []
    for square in squares:
        if isinstance(square, str):
            result.extend(tuple(s) for s in _queens.parse_squares(square))  # type: ignore[misc]
        else:
            row, col = square
            row, col = _whole(row, "a square's row"), _whole(col, "a square's column")
            if row < 0 or col < 0:
                raise ValueError(f"a square is (row, col) with both at least 0, got {square!r}")
            result.append((row, col))
    return result


def _size(n: Union[int, str]) -> str:
    if isinstance(n, str):
        return n
    try:
        return str(_whole(n, "n"))
    except ValueError:
        raise ValueError(f'n is a board side or "RxC", got {n!r}') from None


def _files_line(cols: int) -> list[str]:
    """The line of file letters under a diagram, as ``queens configure`` draws it: none on a
    board wider than 26 columns, whose squares are named ``rRcC``."""
    letters = _queens.file_letters(cols)
    return ["    " + letters] if letters is not None else []


def _on_board(square: Square, n: int) -> Square:
    row, col = square
    if row >= n or col >= n:
        raise ValueError(f"square {_name(square, max(n, row + 1, col + 1))} is off the {n}×{n} board")
    return square


def _name(square: Square, n: int) -> str:
    """A square's name on an N×N board, from the workbench's one naming rule: ``d1`` up to 26
    files, ``r1c4`` beyond."""
    row, col = square
    return _queens.square_name(row, col, n)


def _escape(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("'", "&#39;").replace('"', "&quot;"))


# The configurator's statuses as the page draws them: their order in a summary, and the page's
# CSS variables for each on a light and a dark square (read from the page's own stylesheet).
_STATUS_ORDER = ["queen", "forced", "open", "attacked", "dead", "blocked", "unknown"]
_STATUS_VARIABLES = {
    "queen": ("--light", "--dark"),
    "forced": ("--forced", "--forced"),
    "open": ("--open", "--open-dark"),
    "attacked": ("--attacked", "--attacked-dark"),
    "dead": ("--dead", "--dead"),
    "blocked": ("--blocked", "--blocked"),
    "unknown": ("--unknown", "--unknown"),
}


@functools.lru_cache(maxsize=1)
def _page_colours() -> dict:
    """The page's colour variables (``--open: #cfe8d2;`` …), from its stylesheet."""
    _, css = _queens.page_assets()
    return dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{3,8})\s*;", css))


def _status_colour(status: str, light: bool) -> str:
    variables = _STATUS_VARIABLES.get(status, ("--light", "--dark"))
    return _page_colours()[variables[0 if light else 1]]


_SYMBOL = {"queen": "Q", "forced": "F", "open": ".", "attacked": "x", "dead": "#",
           "blocked": "-", "unknown": "?"}
_GLYPH = {"queen": "♛", "forced": "♛", "dead": "×", "open": "·", "unknown": "?"}
# The glyphs' colours: the page's queen variables, and the literal colours its rules give the
# dead square's cross, the open square's dot and the unknown square's mark.
_GLYPH_COLOUR = {"queen": "--queen", "forced": "--forced-queen", "dead": "#f3dcd2",
                 "open": "#2e6b34", "unknown": "#6d5b00"}
_LEGEND = {
    "queen": "a queen you placed",
    "forced": "forced: in every completion",
    "open": "open: in some completion",
    "attacked": "attacked by a queen",
    "dead": "dead: in no completion",
    "blocked": "blocked: no queen may stand here",
    "unknown": "unknown: not decided in time",
}


@dataclass(frozen=True)
class Solution:
    """What a solver found.

    ``queens`` lists the squares as ``(row, col)``; ``perm`` is the row of each column as a
    read-only NumPy array when the board holds one queen per column (made from one copy of the
    solver's rows, however many queens). For a run that stopped (``status == "stopped"``), they
    are the board it ended on where the solver keeps one — a local search's last position,
    where hill climbing got stuck — and ``verify`` says what is wrong with it.
    """

    solved: bool
    status: str
    solver: str
    seed: Optional[int]
    iterations: Optional[int]
    nodes: Optional[int]
    elapsed_ms: float
    rows: int
    cols: int
    perm: Optional[np.ndarray]
    _document: dict = field(repr=False)
    events: Optional[list] = field(default=None, repr=False)
    """The run's events, with ``record=True``: the first ``RECORD_MAX`` of them."""

    @property
    def queens(self) -> list[Square]:
        if self.perm is not None:
            return [(int(row), col) for col, row in enumerate(self.perm)]
        return [(q["row"], q["col"]) for q in self._document.get("queens") or []]

    @property
    def stop_reason(self) -> Optional[str]:
        return self._document.get("stop_reason")

    def to_dict(self) -> dict:
        """The document ``queens solve --format json`` prints."""
        document = dict(self._document)
        if document.get("queens") is None and self.perm is not None:
            document["queens"] = [{"row": r, "col": c} for r, c in self.queens]
        return document

    def diagram(self) -> str:
        """The board as text, top rank first, with coordinates."""
        on = set(self.queens)
        lines = []
        for row in reversed(range(self.rows)):
            cells = " ".join("Q" if (row, col) in on else "." for col in range(self.cols))
            lines.append(f"{row + 1:>3} {cells}")
        lines += _files_line(self.cols)
        return "\n".join(lines)

    def __repr__(self) -> str:
        head = (
            f"Solution({self.solver}, {self.rows}×{self.cols}, {self.status}"
            + (f", {self.iterations} iterations" if self.iterations is not None else "")
            + (f", {self.nodes} nodes" if self.nodes is not None else "")
            + f", {self.elapsed_ms:.2f} ms)"
        )
        # A solution, or the board a stopped local search ended on (where it got stuck).
        if self.queens and max(self.rows, self.cols) <= 32:
            return head + "\n" + self.diagram()
        return head

    def _repr_svg_(self) -> Optional[str]:
        if max(self.rows, self.cols) > 200:
            return None
        size = 24 if max(self.rows, self.cols) <= 32 else 6
        width, height = self.cols * size, self.rows * size
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">'
        ]
        for row in range(self.rows):
            for col in range(self.cols):
                colour = "#eeeed2" if (row + col) % 2 else "#769656"
                y = (self.rows - 1 - row) * size
                parts.append(
                    f'<rect x="{col * size}" y="{y}" width="{size}" height="{size}" '
                    f'fill="{colour}"/>'
                )
        radius = size * 0.35
        for row, col in self.queens:
            cx, cy = col * size + size / 2, (self.rows - 1 - row) * size + size / 2
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="#b5213b"/>')
        parts.append("</svg>")
        return "".join(parts)

    def _repr_html_(self) -> Optional[str]:
        if self.events:
            return self.replay()
        svg = self._repr_svg_()
        caption = f"<div>{self.solver}: {self.status}</div>"
        return svg + caption if svg else None

    def replay(self) -> str:
        """The recorded run (``record=True``) as a self-contained HTML player: the page's board,
        a step slider, play and speed, each step's narration and the score chart, built from
        the page's own modules. It needs no server, no widget and no network, in a notebook
        and in the HTML a notebook exports."""
        if not self.events:
            raise ValueError("this run was not recorded: solve it with record=True")
        descriptor = next((d for d in solvers() if d["name"] == self.solver), None)
        return _player_html(self.events, descriptor, truncated=len(self.events) >= RECORD_MAX)


@dataclass(frozen=True)
class Count:
    """A count: all and unique solutions of the N×N board, or the completions of a position
    (``fixed`` queens placed, ``blocked`` squares kept free), as ``queens count`` prints them.

    ``unique`` is ``None`` for a shard (the unique count exists only once every shard is
    merged), for a position and for a stopped count. A count stopped by ``time_limit`` or
    Ctrl-C inside a callback is ``complete == False``: ``total`` then holds what its finished
    parts counted, a lower bound, ``stop_reason`` says why and ``to_dict()``'s ``finished`` and
    ``parts`` how far it got, in the document ``queens count --json`` prints for it.
    """

    n: int
    total: int
    unique: Optional[int]
    complete: bool
    engine: str
    elapsed_ms: float
    fixed: list[Square]
    blocked: list[Square]
    stop_reason: Optional[str]
    _document: dict = field(repr=False)

    @classmethod
    def _of(cls, document: dict) -> "Count":
        position = "completions" in document
        unique = document.get("unique")
        return cls(
            n=document["n"],
            total=int(document["completions"] if position else document["total"]),
            unique=int(unique) if unique is not None and not position else None,
            complete=document.get("complete", True),
            engine=document.get("engine", "join"),
            elapsed_ms=document.get("elapsed_ms", 0.0),
            # A shard's report has a "fixed" of its own: Burnside's fixed-point term.
            fixed=[(q["row"], q["col"]) for q in document["fixed"]] if position else [],
            blocked=[(q["row"], q["col"]) for q in document["blocked"]] if position else [],
            stop_reason=document.get("stop_reason"),
            _document=document,
        )

    @property
    def status(self) -> str:
        """``"complete"`` or ``"stopped"``."""
        return "complete" if self.complete else "stopped"

    def to_dict(self) -> dict:
        """The document ``queens count --json`` prints (a shard's report for a shard)."""
        return dict(self._document)

    def _what(self) -> str:
        if "completions" in self._document:
            return (f"N = {self.n}, {len(self.fixed)} placed, {len(self.blocked)} blocked: "
                    f"{self.total:,} completion{'s' * (self.total != 1)}")
        unique = f", {self.unique:,} unique" if self.unique is not None else ""
        return f"N = {self.n}: {self.total:,} solution{'s' * (self.total != 1)}{unique}"

    def __repr__(self) -> str:
        if not self.complete:
            done = self._document["finished"]
            parts = self._document["parts"]
            return (f"Count({self._what().replace(': ', ': at least ', 1)}; stopped "
                    f"({self.stop_reason}) after {done:,} of {parts:,} parts)")
        return f"Count({self._what()}; {self.engine} engine, {self.elapsed_ms:,.1f} ms)"

    def _repr_html_(self) -> str:
        rows = [("N", self.n)]
        if "completions" in self._document:
            rows += [("placed", len(self.fixed)), ("blocked", len(self.blocked)),
                     ("completions", f"{self.total:,}")]
        else:
            rows.append(("solutions", f"{self.total:,}"))
            if self.unique is not None:
                rows.append(("unique", f"{self.unique:,}"))
        rows += [("engine", self.engine), ("time", f"{self.elapsed_ms:,.1f} ms")]
        if not self.complete:
            rows.append(("stopped", f"{self.stop_reason}: a lower bound"))
        cells = "".join(f"<tr><th style='text-align:left'>{_escape(str(k))}</th>"
                        f"<td style='text-align:right'>{_escape(str(v))}</td></tr>"
                        for k, v in rows)
        return f"<table>{cells}</table>"


@dataclass(frozen=True)
class Analysis:
    """The configurator's analysis of a position (``queens configure --json``)."""

    n: int
    solvable: Optional[bool]
    completions: Optional[int]
    forced: list[Square]
    blocked: list[Square]
    cells: list[dict]
    _document: dict = field(repr=False)

    def to_dict(self) -> dict:
        return dict(self._document)

    def status(self, square: SquareLike) -> str:
        """The status of one square: queen, forced, open, attacked, dead, blocked or unknown."""
        row, col = _on_board(_squares([square])[0], self.n)
        return self.cells[row * self.n + col]["status"]

    def reason(self, square: SquareLike) -> Optional[str]:
        """Why a square cannot take a queen, as a sentence (``None`` for the others)."""
        row, col = _on_board(_squares([square])[0], self.n)
        reason = self.cells[row * self.n + col].get("reason")
        return reason["text"] if reason else None

    def summary(self) -> str:
        """One line: solvable or not, the completions, and how many squares of each status."""
        counts: dict = {}
        for cell in self.cells:
            counts[cell["status"]] = counts.get(cell["status"], 0) + 1
        verdict = {True: "solvable", False: "no completion", None: "undecided"}[self.solvable]
        parts = [f"{self.n}×{self.n}, {verdict}"]
        if self.completions is not None:
            parts.append(f"{self.completions:,} completion{'s' * (self.completions != 1)}")
        parts += [f"{counts[s]} {s}{'s' * (s == 'queen' and counts[s] != 1)}"
                  for s in _STATUS_ORDER if counts.get(s)]
        return ", ".join(parts)

    def diagram(self) -> str:
        """The board, top rank first, one symbol a square (``queens configure``'s symbols)."""
        lines = []
        for row in reversed(range(self.n)):
            cells = self.cells[row * self.n:(row + 1) * self.n]
            lines.append(f"{row + 1:>3} " + " ".join(_SYMBOL[c["status"]] for c in cells))
        lines += _files_line(self.n)
        return "\n".join(lines)

    def to_pandas(self) -> Any:
        """The squares as a table: row, col, name, status, completions, reason."""
        import pandas as pd  # type: ignore[import-not-found]

        return pd.DataFrame(
            {
                "row": c["row"],
                "col": c["col"],
                "square": _name((c["row"], c["col"]), self.n),
                "status": c["status"],
                "completions": c.get("completions"),
                "reason": (c.get("reason") or {}).get("text"),
            }
            for c in self.cells
        )

    def __repr__(self) -> str:
        head = f"Analysis({self.summary()})"
        return head + "\n" + self.diagram() if self.n <= 32 else head

    def _repr_html_(self) -> str:
        """The board in the page's colours, each square's reason as its tooltip, and a legend."""
        size = 28 if self.n <= 16 else 14 if self.n <= 48 else 6
        squares = []
        for row in reversed(range(self.n)):
            for col in range(self.n):
                cell = self.cells[row * self.n + col]
                status = cell["status"]
                colour = _status_colour(status, light=(row + col) % 2 == 1)
                ink = _GLYPH_COLOUR.get(status, "--queen")
                ink = _page_colours()[ink] if ink.startswith("--") else ink
                glyph = _GLYPH.get(status, "")
                title = f"{_name((row, col), self.n)}: {status}"
                if cell.get("completions") is not None and status not in ("blocked",):
                    title += (f", in {cell['completions']:,} completion"
                              f"{'s' * (cell['completions'] != 1)}")
                if cell.get("reason"):
                    title += f": {cell['reason']['text']}"
                squares.append(
                    f"<div title='{_escape(title)}' style='background:{colour};display:flex;"
                    f"align-items:center;justify-content:center;font-size:{size * 0.7:.0f}px;"
                    f"color:{ink}'>{glyph if size >= 14 else ''}</div>")
        grid = (f"<div style='display:grid;grid-template-columns:repeat({self.n},{size}px);"
                f"grid-auto-rows:{size}px;border:2px solid #1b2230;width:max-content'>"
                + "".join(squares) + "</div>")
        present = {c["status"] for c in self.cells}
        legend = "".join(
            f"<span style='display:inline-flex;align-items:center;margin-right:0.8em'>"
            f"<span style='display:inline-block;width:0.9em;height:0.9em;margin-right:0.3em;"
            f"background:{_status_colour(s, light=True)};border:1px solid #aeb6c3'></span>"
            f"{_LEGEND[s]}</span>"
            for s in _STATUS_ORDER if s in present)
        return (f"<div style='font-family:system-ui,sans-serif'><div>{_escape(self.summary())}</div>"
                f"{grid}<div style='margin-top:0.4em;font-size:0.85em'>{legend}</div></div>")


RECORD_MAX = 200_000
"""The most events ``record=True`` keeps (the web page's own cap on a watched run): a longer
run plays its first steps."""


def _player_html(events: list, descriptor: Optional[dict], truncated: bool) -> str:
    """A player of `events`: the page's modules inlined, loaded as blob URLs (each module's
    relative imports pointed at the others'), mounted in a shadow root that holds the page's
    stylesheet, so that neither the notebook's styles nor the player's leak into the other."""
    modules, css = _queens.page_assets()
    element = f"queens-replay-{uuid.uuid4().hex}"
    data = json.dumps({
        "modules": dict(modules),
        "css": css.replace(":root", ":host"),
        "events": events,
        "solver": descriptor,
    }).replace("</", "<\\/")
    note = (f"<p style='font:0.85em system-ui,sans-serif'>The first {len(events):,} events of the "
            f"run are recorded.</p>" if truncated else "")
    return f"""<div id="{element}" class="queens-replay"></div>{note}
<script type="module">
const data = {data};
const host = document.getElementById("{element}");
const root = host.attachShadow({{ mode: "open" }});
const style = document.createElement("style");
style.textContent = data.css + " .controls input[type=range] {{ flex: 1 1 12rem; }}";
const box = document.createElement("div");
box.style.padding = "0.5rem";
root.append(style, box);
const urls = {{}};
const load = (name) => {{
  if (!urls[name]) {{
    const source = data.modules[name].replace(/from "\\.\\/([\\w-]+\\.js)"/g, (_, dep) => `from "${{load(dep)}}"`);
    urls[name] = URL.createObjectURL(new Blob([source], {{ type: "text/javascript" }}));
  }}
  return urls[name];
}};
const {{ mountReplay }} = await import(load("notebook.js"));
const mounted = mountReplay(box, data.events, data.solver);
host.dataset.frames = mounted ? String(mounted.player.length) : "0";
</script>"""


def solvers() -> list[dict]:
    """Every solver's descriptor: name, summary, explanation, score, shapes, parameters."""
    return json.loads(_queens.solvers())


def devices() -> list[dict]:
    """The GPUs ``count(engine="gpu", device=I)`` can use, as ``queens devices --json`` lists
    them: index, name, type (discrete, integrated, software, ...), backend, driver, limits."""
    return json.loads(_queens.devices())


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
    parameters by name (``solvers()`` lists them, with their ranges). ``on_event`` receives every event of the run as a dict, in the web stream's shape
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

    document_text, perm_bytes = _queens.solve(
        _size(n),
        solver,
        _optional_whole(seed, "seed"),
        _squares(fix),
        _optional_whole(queen_count, "queen_count"),
        [(str(k), float(v)) for k, v in (params or {}).items()],
        _optional_whole(max_iters, "max_iters"),
        _optional_whole(max_nodes, "max_nodes"),
        _seconds(time_limit, "time_limit"),
        callback,
        _squares(blocked),
    )
    document = json.loads(document_text)
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


class Verification:
    """What the validator found on a board, read from the document ``queens verify --json``
    prints. It is true only for a solution: ``if qw.verify(board):`` means every queen is placed
    and none attacks another (an unfinished board has no attacking pair, and is false).

    ``pairs`` are the first attacking pairs, ``((row, col), (row, col), line)``, at most the
    ``limit`` ``verify`` was given; ``pair_count`` is their exact number however many are listed
    (``truncated`` says whether some were left out; ``None`` for a permutation too long to hold,
    checked as it streamed). ``collisions`` counts, for every line, its queens after the first.
    ``missing`` is how many queens short of ``expected`` (``queen_count``, or one per row or
    column) the board is. ``to_dict()`` is the document itself.
    """

    __slots__ = (
        "rows", "cols", "queens", "expected", "valid", "peaceful", "missing", "pair_count",
        "truncated", "collisions", "pairs", "_document",
    )

    rows: int
    cols: int
    queens: int
    expected: int
    valid: bool
    peaceful: bool
    missing: int
    pair_count: Optional[int]
    truncated: bool
    collisions: int
    pairs: Tuple[Tuple[Square, Square, str], ...]

    def __init__(self, document: dict):
        self.pairs = tuple(
            (
                (pair["a"]["row"], pair["a"]["col"]),
                (pair["b"]["row"], pair["b"]["col"]),
                pair["line"],
            )
            for pair in document["conflicts"]
        )
        self.rows = document["rows"]
        self.cols = document["cols"]
        self.queens = document["queens"]
        self.expected = document["expected"]
        self.valid = document["valid"]
        self.peaceful = document["peaceful"]
        self.missing = document["missing"]
        self.pair_count = document["conflict_count"]
        self.truncated = document["conflicts_truncated"]
        self.collisions = document["collisions"]
        self._document = document

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Verification):
            return NotImplemented
        return self._document == other._document

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        return self.valid

    def __repr__(self) -> str:
        if self.valid:
            verdict = "a solution"
        else:
            problems = []
            if self.missing:
                problems.append(f"{self.missing} missing")
            if self.queens > self.expected:
                problems.append(f"{self.queens - self.expected} too many")
            if self.pair_count:
                problems.append(f"{self.pair_count} attacking pair{'s' * (self.pair_count != 1)}")
            elif self.pair_count is None and self.collisions:
                problems.append(f"{self.collisions} collision{'s' * (self.collisions != 1)}")
            verdict = "not a solution: " + ", ".join(problems)
        return f"Verification({self.rows}×{self.cols} board, {self.queens} queens: {verdict})"

    def to_dict(self) -> dict:
        """The document ``queens verify --json`` prints."""
        return dict(self._document)


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


@_whole_numbers
def verify(
    board: Any,
    *,
    n: Union[int, str, None] = None,
    queen_count: Optional[int] = None,
    limit: int = 1000,
) -> Verification:
    """Checks ``board``: a :class:`Verification` with its attacking pairs (at most ``limit``,
    with their exact count), true only for a solution.

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
            rows = [-1 if item is None else _whole(item, "a permutation's row") for item in items]
            if any(item is not None and not 0 <= row <= MAX_ROW for item, row in zip(items, rows)):
                raise ValueError(f"a permutation's rows are whole numbers from 0 to {MAX_ROW}, "
                                 "None for an empty column")
            columns = np.asarray(rows, dtype="<i8").tobytes()
    queen_count = _optional_whole(queen_count, "queen_count")
    limit = _whole(limit, "limit")
    if limit < 0:
        raise ValueError(f"limit must be a whole number of at least 0, got {limit!r}")
    size = None if n is None else _size(n)
    document = json.loads(_queens.verify(text, columns, size, queen_count, limit, rows32))
    return Verification(document)


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
    device: Optional[int] = None,
) -> Count:
    """All and unique solutions of the N×N board, on all cores (or ``threads``), as ``queens
    count`` counts them; with ``fix`` or ``blocked``, the completions of that position.

    ``engine`` is ``"auto"``, ``"join"``, ``"backtracking"`` or ``"gpu"`` (for a position: the
    completion search, or ``"backtracking"`` row by row); ``device`` picks the GPU by its index
    in ``queens devices`` (by default the first hardware GPU; without one, ``engine="gpu"``
    raises ``ValueError`` saying what is missing); ``memory`` caps the join (bytes, or ``"8G"``);
    ``shard`` (``"I/M"`` or ``(I, M)``) counts one part of M. A count whose estimate on these
    threads is longer than ``max_estimate`` seconds (an hour by default) is refused with the
    estimate rather than started; ``time_limit`` stops a count, which then holds what it
    counted (``complete == False``). ``progress=True`` shows a bar (tqdm where installed);
    a callable is called with (parts finished, parts).
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
            _whole(n, "n"),
            _optional_whole(threads, "threads"),
            shard,
            engine,
            memory,
            _seconds(time_limit, "time_limit"),
            _seconds(max_estimate, "max_estimate"),
            callback,
            _squares(fix),
            _squares(blocked),
            _optional_whole(device, "device"),
        )
    )
    return Count._of(document)


@_whole_numbers
def configure(
    n: int,
    queens: Union[str, Iterable[SquareLike]] = (),
    blocked: Union[str, Iterable[SquareLike]] = (),
) -> Analysis:
    """The configurator's analysis of the position: which squares can still complete it,
    which queens are forced, how many completions each square has, and why the others cannot
    take a queen. ``blocked`` squares take no queen (an n-Queens Completion problem)."""
    document = json.loads(
        _queens.configure(_whole(n, "n"), _squares(queens), _squares(blocked))
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


class Rows(list):
    """An experiment's rows (dicts, as ``queens experiment --json`` prints them), with
    ``to_pandas()`` (one column a field, each swept parameter a column of its own) and a table
    in notebooks."""

    def to_pandas(self) -> Any:
        import pandas as pd  # type: ignore[import-not-found]

        flat = []
        for row in self:
            entry = {k: v for k, v in row.items() if k != "params"}
            entry.update(row.get("params") or {})
            flat.append(entry)
        return pd.DataFrame(flat)

    def _repr_html_(self) -> str:
        try:
            return self.to_pandas()._repr_html_()
        except ImportError:
            head = "".join(f"<th>{_escape(k)}</th>" for k in (self[0] if self else {}))
            body = "".join(
                "<tr>" + "".join(f"<td>{_escape(str(v))}</td>" for v in row.values()) + "</tr>"
                for row in self)
            return f"<table><tr>{head}</tr>{body}</table>"


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
        total = len(solvers or [None] * 7) * len(sizes) * _whole(runs, "runs")
        for _, values in sweep_list:
            total *= max(len(values), 1)
        callback = _progress_bar(total)
    rows = Rows(json.loads(
        _queens.experiment(
            list(solvers),
            [_whole(s, "a size") for s in sizes],
            _whole(runs, "runs"),
            _whole(seed, "seed"),
            _optional_whole(max_iters, "max_iters"),
            sweep_list,
            callback,
        )
    ))
    return rows
