"""The ``queens`` command line, from the wheel: the ``queens`` script and
``python -m queens_workbench`` run the same program as the Rust binary, ``queens serve`` and
its page included, with no Rust toolchain."""

from __future__ import annotations

import sys

from . import _queens


def main() -> int:
    """Runs ``queens`` on this process's arguments and answers its exit status.

    A Slurm count's tasks start the program again as ``python -m queens_workbench`` with this
    interpreter, so that every node runs the same installation."""
    own_command = [sys.executable, "-m", "queens_workbench"]
    return _queens.command_line(["queens", *sys.argv[1:]], own_command)
