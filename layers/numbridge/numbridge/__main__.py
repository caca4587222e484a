import sys

from numbridge.cli import main

sys.exit(main())
