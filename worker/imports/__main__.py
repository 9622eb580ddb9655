"""`python -m worker.imports FOLDER`: see worker/imports/cli.py."""

import sys

from worker.imports.cli import main

sys.exit(main())
