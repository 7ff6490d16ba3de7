"""The ``queens`` command line, from the wheel: the ``queens`` script and
``python -m queens_workbench`` run the same program as the Rust binary, ``queens serve`` and
its page included, with no Rust toolchain."""

from __future__ import annotations

import os
import signal
import sys

from . import _queens


def main() -> int:
    """Runs ``queens`` on this process's arguments and answers its exit status.

    A Slurm count's tasks start the program again as ``python -m queens_workbench`` with this
    interpreter, so that every node runs the same installation. Ctrl-C is the command's, as in
    the binary: Python's own handler, which the server's handler would call after its own (and
    end in a ``KeyboardInterrupt`` traceback), gives way to the default."""
    _mark_a_closed_stdout()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    own_command = [sys.executable, "-m", "queens_workbench"]
    return _queens.command_line(["queens", *sys.argv[1:]], own_command)


def _mark_a_closed_stdout() -> None:
    """Gives a closed standard output the mark the binary sees: the Rust runtime opens
    ``/dev/null`` read-write on a descriptor closed at start, Python leaves it closed (and
    ``sys.stdout`` None), so the same is done here and the command refuses to print its answer
    nowhere, as the binary does."""
    if sys.stdout is not None:
        return
    try:
        os.fstat(1)
        return
    except OSError:
        pass
    null = os.open(os.devnull, os.O_RDWR)
    if null != 1:
        os.dup2(null, 1)
        os.close(null)
