"""``python -m queens_workbench ARGS``: the ``queens`` command line (``serve``, ``count``, ...)."""

import sys

from ._command import main

sys.exit(main())
