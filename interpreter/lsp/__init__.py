"""The language server for ruleset and variant files (``rulebook lsp``; needs the ``[lsp]`` extra)."""
