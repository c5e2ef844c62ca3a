# Sourced by run.sh and test.sh: make .venv (python3 -m venv) and install the project into it.
# Reinstalls only when pyproject.toml changed since the last install, so a second run is quick.
extras="${TABLECTL_EXTRAS:-}"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
stamp=".venv/.tablectl-installed"
want="$(cat pyproject.toml | cksum)-$extras"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    if [ -n "$extras" ]; then
        .venv/bin/python -m pip install --quiet -e ".[$extras]"
    else
        .venv/bin/python -m pip install --quiet -e .
    fi
    echo "$want" > "$stamp"
fi
