"""The data rulebook ships: the rulesets (with their variants, examples and classics), the JSON Schemas
and the documents that commands and rulesets point to; and the installed version.

In the repository they stay at the top level (``rulesets/``, ``schemas/``, ``docs/``); this package holds
a symbolic link to each, so that the same package resources exist in a checkout, in an editable install
and in a wheel or sdist (which the build fills with copies of the linked files, see pyproject.toml).
Code finds them here, through :mod:`importlib.resources`, never through paths relative to its own file.

Why links: the wheel's package data must sit inside a package, and the repository keeps the folders at
its top. Links need no build step (a build-time copy would leave an editable install or a plain
checkout without the data) and no second copy in git. A checkout needs a git that makes symbolic
links (on Windows: ``core.symlinks``).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path


def package_folder(package: str) -> Path:
    """The folder of a package's resources (this one's, ``dsl``'s grammar, the web table's static
    files) as a file system path: installed wheels are unpacked folders."""
    try:
        from importlib.resources import files
    except ImportError:  # Python < 3.9, which rulebook does not support: the module's own folder
        import importlib
        return Path(importlib.import_module(package).__file__).resolve().parent
    return Path(str(files(package)))


ROOT = package_folder(__name__)
# resolved: in a checkout the links lead to the top-level folders, and paths are shown as those
RULESETS = (ROOT / "rulesets").resolve()
SCHEMAS = (ROOT / "schemas").resolve()
DOCS = (ROOT / "docs").resolve()


@lru_cache(maxsize=None)
def rulebook_version() -> str:
    """The installed version of rulebook, from the package metadata (``rulebook --version``; logs and
    saved game records note it beside the ruleset's hash); ``unknown`` in a checkout never installed."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("rulebook")
    except PackageNotFoundError:
        return "unknown"
