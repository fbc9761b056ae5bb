"""``python -m ktc``: the ``ktc`` command line (``ktc.tools.ktc``)."""

import sys

from ktc.tools.ktc import main

sys.exit(main())
