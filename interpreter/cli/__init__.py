"""The ``rulebook`` command line: one module per group of commands, and the terminal rendering of views."""
from .main import main

__all__ = ["main"]
