"""``rulebook lsp``: a language server over stdio (pygls) for ruleset and variant files.

Diagnostics come from the real pipeline each time a file is opened, changed or saved (the same
messages and positions as ``rulebook validate``); hover, completion and go to definition read the
last analysis of the file (see :mod:`interpreter.lsp.analysis`).  LSP positions count lines and
characters from 0, rulebook's from 1.
"""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from . import analysis as an

SOURCE = "rulebook"


class RulebookServer(LanguageServer):
    def __init__(self):
        super().__init__("rulebook", "0.1", text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.analyses: dict = {}  # uri -> the last Analysis with a document (for hover and friends)

    def check(self, uri: str) -> None:
        document = self.workspace.get_text_document(uri)
        path = to_fs_path(uri) or uri
        result = an.analyse(document.source, path)
        if result.doc is not None or uri not in self.analyses:
            self.analyses[uri] = result
        lines = document.source.splitlines()
        diagnostics = [_diagnostic(error, path, lines) for error in result.errors]
        diagnostics += [_diagnostic(note, path, lines, lsp.DiagnosticSeverity.Information) for note in result.notes]
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=document.version))

    def analysis(self, uri: str):
        if uri not in self.analyses:
            self.check(uri)
        return self.analyses[uri]


def _diagnostic(error, path: str, lines: list, severity=lsp.DiagnosticSeverity.Error) -> lsp.Diagnostic:
    """An error (or a note, with severity Information) at its position in this file; one in another
    file (the base of a variant) is shown on the first line, with its file and line in the message."""
    position = error.position
    here = position is not None and _same_file(position.file, path)
    message = an.problem_text(error) if here else str(error)
    line = position.line - 1 if here else 0
    start = position.column - 1 if here else 0
    text = lines[line] if 0 <= line < len(lines) else ""
    end = _marked_end(text, start)
    return lsp.Diagnostic(range=lsp.Range(lsp.Position(line, start), lsp.Position(line, max(end, start))),
                          message=message, severity=severity, source=SOURCE)


def _marked_end(text: str, start: int) -> int:
    """Where the mark of an error at ``start`` of a line ends: a quoted value at its closing quote,
    a name at its end, anything else after one character."""
    quote = text[start:start + 1]
    if quote in ("'", '"') and text.find(quote, start + 1) > start:
        return text.find(quote, start + 1) + 1
    word = an.WORD.match(text, start) if start < len(text) else None
    return word.end() if word else min(len(text), start + 1) if text else start


def _same_file(a: str, b: str) -> bool:
    return Path(a).resolve() == Path(b).resolve()


def _line(server: RulebookServer, uri: str, number: int) -> str:
    lines = server.workspace.get_text_document(uri).source.splitlines()
    return lines[number] if number < len(lines) else ""


def _name_at(server: RulebookServer, params):
    """The name under the cursor of a request, whether it is written ``builtin.NAME``, and the
    analysis of its file."""
    uri = params.text_document.uri
    line = _line(server, uri, params.position.line)
    name, start = an.word_at(line, params.position.character + 1)
    return name, an.builtin_qualified(line, start), server.analysis(uri)


server = RulebookServer()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulebookServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.check(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulebookServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.check(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulebookServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.check(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: RulebookServer, params: lsp.HoverParams):
    name, qualified, analysis = _name_at(ls, params)
    text = an.hover(analysis, name, qualified) if name else None
    if text is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


KINDS = {"key": lsp.CompletionItemKind.Property, "attribute": lsp.CompletionItemKind.Field,
         "name": lsp.CompletionItemKind.Variable, "function": lsp.CompletionItemKind.Function,
         "effect": lsp.CompletionItemKind.Method}


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
def completion(ls: RulebookServer, params: lsp.CompletionParams):
    uri = params.text_document.uri
    line = _line(ls, uri, params.position.line)
    items = an.completions(ls.analysis(uri), line, params.position.character + 1)
    return lsp.CompletionList(is_incomplete=False, items=[
        lsp.CompletionItem(label=label, kind=KINDS[kind], detail=detail) for label, kind, detail in items])


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulebookServer, params: lsp.DefinitionParams):
    name, qualified, analysis = _name_at(ls, params)
    found = an.definition(analysis, name) if name and not qualified else None
    if found is None:
        return None
    start = lsp.Position(found.line - 1, found.column - 1)
    return lsp.Location(uri=from_fs_path(str(Path(found.file).resolve())),
                        range=lsp.Range(start, lsp.Position(start.line, start.character + len(name))))


def main() -> int:
    """Serve over stdin and stdout until the client says exit."""
    server.start_io()
    return 0
