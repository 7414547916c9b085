"""The language reference is generated from the registries and kept up to date."""
from interpreter.runtime import docgen
from dsl.registry import EFFECTS, FUNCTIONS


def test_builtin_reference_is_up_to_date():
    assert docgen.main(["--check"]) == 0, "run: python -m interpreter.runtime.docgen"


def test_every_builtin_is_documented():
    text = docgen.DOC.read_text(encoding="utf-8")
    for registry in (FUNCTIONS, EFFECTS):
        for name in registry.names():
            entry = registry.get(name)
            assert entry.doc.strip(), name
            assert f"`{entry.signature()}`" in text, name
