"""``python -m teenpatti_env``: the ``teenpatti`` command.

The command line lives in the top layer (:mod:`interfaces.cli`); this entry point is the
one module of ``teenpatti_env`` allowed to reach it (the layering contract names it as
its only exception), and nothing imports it.
"""

import sys

from interfaces.cli import main

sys.exit(main())
