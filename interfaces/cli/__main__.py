"""``python -m interfaces.cli``: the ``teenpatti`` command."""

import sys

from interfaces.cli import main

sys.exit(main())
