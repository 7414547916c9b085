"""The front end of rulebook: reading and checking rulesets, one module per stage.

YAML with positions (``yaml_loader``) → JSON Schema (``schema``) → expressions parsed (``parser``,
``parse_tree``, ``rules.lark``) → names resolved and types checked (``resolver``, ``checker``) →
the checked ruleset (``ir``).  Variants are merged here too (``variants``); ``errors`` holds the
error classes of every stage, ``registry`` the signatures of the built-ins."""
