#!/usr/bin/env bash
# Build the sdist and, from it, the wheel (python -m build); install the wheel into fresh virtual
# environments outside the checkout and run .ci/smoke_installed.py from an empty folder: CPython with
# the web and lsp extras, then PyPy with the core only (when pypy3 is there, as in .ci/run).
#   .ci/smoke_wheel.sh [PYTHON]     (default python3)
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
python="${1:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/rulebook-wheel.XXXXXX")"
trap 'rm -rf "$work"' EXIT

"$python" -m venv "$work/build-env"
"$work/build-env/bin/pip" install -q build
"$work/build-env/bin/python" -m build -q --outdir "$work/dist" "$checkout" >/dev/null
wheel="$(ls "$work"/dist/rulebook-*.whl)"
echo "built $(basename "$wheel") and $(cd "$work/dist" && ls rulebook-*.tar.gz) (${SECONDS} s)"

"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$wheel[web,lsp]"
echo "installed with the web and lsp extras (${SECONDS} s)"
(cd "$work" && "$work/venv/bin/python" "$checkout/.ci/smoke_installed.py" "$work/venv/bin")

if command -v pypy3 >/dev/null 2>&1; then
    pypy3 -m venv "$work/venv-pypy"
    "$work/venv-pypy/bin/pip" install -q "$wheel"
    echo "installed into PyPy (${SECONDS} s)"
    (cd "$work" && "$work/venv-pypy/bin/python" "$checkout/.ci/smoke_installed.py" "$work/venv-pypy/bin" --core)
elif [ "${CI:-}" = true ]; then
    echo "pypy3 is missing" >&2
    exit 1
fi
echo "wheel smoke test done (${SECONDS} s)"
