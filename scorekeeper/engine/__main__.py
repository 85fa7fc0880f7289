"""`python -m scorekeeper.engine rulesets|round|game|bench`."""

import sys

from .cli import main

sys.exit(main())
