"""Entry point of `python -m lib`."""

import sys

from .cli import main

sys.exit(main())
