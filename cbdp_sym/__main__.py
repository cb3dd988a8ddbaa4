import sys

from cbdp_sym.app.cli import main

sys.exit(main())
