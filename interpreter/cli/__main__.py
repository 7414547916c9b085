"""``python -m interpreter.cli ARGS`` runs the ``rulebook`` command without installing it."""
import sys

from .main import main

sys.exit(main())
