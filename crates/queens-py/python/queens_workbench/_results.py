"""What the workbench's Python functions return: a solution, a count, an analysis, a
verification and an experiment's rows, each built from its JSON document, with its text and
notebook (HTML) forms."""

from __future__ import annotations

import functools
import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any, Optional, Tuple

import numpy as np

from . import _queens

from ._values import Square, SquareLike, _squares


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


def _pandas() -> Any:
    """pandas, or an ``ImportError`` that says how to install it: it comes with the
    ``notebook`` extra."""
    try:
        import pandas  # type: ignore[import-not-found]
    except ImportError as missing:
        raise ImportError(
            "to_pandas() needs pandas: pip install 'queens-workbench[notebook]' (or pip install "
            "pandas)"
        ) from missing
    return pandas


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
        """The queens as (row, col), by row then column, as the command line lists them."""
        if self.perm is not None:
            by_row = np.argsort(self.perm, kind="stable")
            return [(int(self.perm[col]), int(col)) for col in by_row]
        return [(q["row"], q["col"]) for q in self._document.get("queens") or []]

    @property
    def stop_reason(self) -> Optional[str]:
        return self._document.get("stop_reason")

    @property
    def solutions(self) -> Optional[int]:
        """Solutions found, where the solver counts them (the exhaustive searches): one, or with
        ``params={"solutions": 0}`` every one (``queens`` is then the first); ``None`` for the
        others."""
        return self._document.get("solutions")

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
            + (f", {self.solutions} solutions" if (self.solutions or 0) > 1 else "")
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
        descriptor = next(
            (d for d in json.loads(_queens.solvers()) if d["name"] == self.solver), None)
        return _player_html(self.events, descriptor, truncated=len(self.events) >= RECORD_MAX)


def _engine_of(document: dict) -> str:
    """The engine that counted: the document's ``engine``, or for a shard's report (which has
    none) the one its ``counted_on`` names last (``"…, 2 threads (backtracking engine)"``)."""
    if "engine" in document:
        return document["engine"]
    found = re.search(r"\((\w+) engine\)$", document.get("counted_on") or "")
    return found.group(1) if found else "unknown"


@dataclass(frozen=True)
class Count:
    """A count: all and unique solutions of the N×N board, or the completions of a position
    (``fixed`` queens placed, ``blocked`` squares kept free), as ``queens count`` prints them.

    ``unique`` is ``None`` for a shard (the unique count exists only once every shard is
    merged), for a position and for a stopped count. A count stopped by ``time_limit`` or
    Ctrl-C inside a callback is ``complete == False``: ``total`` then holds what its finished
    parts counted, a lower bound, ``stop_reason`` says why and ``to_dict()``'s ``finished`` and
    ``parts`` how far it got, in the document ``queens count --json`` prints for it. A count
    added up from its shards by ``merge`` has ``engine == "merged"`` and the document ``queens
    merge --json`` prints (``shards``, ``nodes``, ``counted_on``: every place that counted).
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
        merged = "fingerprint" in document and "shard" not in document
        unique = document.get("unique")
        return cls(
            n=document["n"],
            total=int(document["completions"] if position else document["total"]),
            unique=int(unique) if unique is not None and not position else None,
            complete=document.get("complete", True),
            engine="merged" if merged else _engine_of(document),
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
        if self.engine == "merged":
            shards = self._document["shards"]
            return f"Count({self._what()}; merged from {shards:,} shard{'s' * (shards != 1)})"
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
        if self.engine == "merged":
            rows.append(("merged from", f"{self._document['shards']:,} shards"))
        else:
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
        pd = _pandas()

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


class Rows(list):
    """An experiment's rows (dicts, as ``queens experiment --json`` prints them), with
    ``to_pandas()`` (one column a field, each swept parameter a column of its own) and a table
    in notebooks."""

    def to_pandas(self) -> Any:
        """The rows as a table: one column a field, each swept parameter a column of its own."""
        pd = _pandas()
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
