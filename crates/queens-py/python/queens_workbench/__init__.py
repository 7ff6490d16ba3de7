"""The queens N-Queens workbench, from Python (distributed as ``queens-workbench``).

Solve any board with any of the workbench's solvers, verify boards, count all and unique
solutions, analyse positions with the configurator, and run reproducible experiments — the same
engines, names, limits and messages as the ``queens`` command and its web page.

>>> import queens_workbench as qw
>>> solution = qw.solve(8, solver="backtracking", fix=["d1"])
>>> solution.solved, len(solution.queens)
(True, 8)
>>> qw.count(8).total
92

Squares are ``(row, col)`` pairs, 0-based, row 0 the bottom rank; names such as ``"d1"`` and
``"r20c30"`` are accepted wherever squares are. Bad input raises :class:`ValueError` with the
command line's sentence; a budget that runs out is a result (``status == "stopped"``), not an
exception. Long calls release the GIL and answer Ctrl-C with :class:`KeyboardInterrupt` within a
second.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._queens import __version__

__all__ = [
    "Analysis",
    "Count",
    "Rows",
    "Solution",
    "Verification",
    "challenge",
    "configure",
    "count",
    "devices",
    "experiment",
    "merge",
    "solutions",
    "solve",
    "solvers",
    "verify",
]

if TYPE_CHECKING:
    from ._api import *  # noqa: F403  (what type checkers see; at run time, __getattr__)


def __getattr__(name: str) -> Any:
    """The API, imported on first use: ``import queens_workbench`` stays cheap for the
    ``queens`` command, which needs none of it."""
    # `_api` itself too: the import system asks for it before importing it.
    if name.startswith("__") or name == "_api":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    api = importlib.import_module(f"{__name__}._api")
    try:
        return getattr(api, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def __dir__() -> list[str]:
    """The module's own names, exactly ``__all__`` (not the helpers it imports)."""
    return sorted(__all__)
