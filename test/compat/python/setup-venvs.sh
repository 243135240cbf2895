#!/usr/bin/env bash
# Creates (or reuses) one Python virtual environment per file in requirements/, for the compat suite's Python
# clients: <repo>/.python-venvs/<name>/ (git-ignored). A venv whose requirements file is unchanged since its last
# successful install is reused as it is, without asking PyPI anything.
#
# Exit 0: every venv is ready. Exit 3: they cannot be had on this machine (no python3 with venv, or the package
# index is unreachable); the reason is on stderr and the compat test skips with it. Any other exit: a real failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
venvs=${GANNET_PYTHON_VENVS:-$root/.python-venvs}
python=${GANNET_PYTHON:-python3}

if ! command -v "$python" >/dev/null 2>&1; then
  echo "python3 not found (install Python 3.8 or newer with its venv module)" >&2
  exit 3
fi
if ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  echo "$python has no venv/ensurepip module (Debian: apt-get install python3-venv)" >&2
  exit 3
fi

# Can pip reach its package index? Asked only when something must be installed.
index_reachable() {
  "$python" - <<'PY' >/dev/null 2>&1
import os, subprocess, urllib.request
url = os.environ.get("PIP_INDEX_URL")
if not url:
    try:
        url = subprocess.run(["pip", "config", "get", "global.index-url"], capture_output=True, text=True).stdout.strip()
    except OSError:
        url = ""
url = (url or "https://pypi.org/simple").rstrip("/") + "/pip/"
urllib.request.urlopen(url, timeout=20).read(1)
PY
}

# One venv per requirements file, built in parallel (each is mostly waiting on downloads); no .pyc compilation at
# install time (Python compiles the few modules a script imports when it first runs). Writes its outcome
# (ready, unreachable, failed) to $venv.outcome; the summary below turns those into the exit code.
build_venv() {
  local requirements=$1 name venv stamp
  name=$(basename "$requirements" .txt)
  venv="$venvs/$name"
  stamp="$venv/.requirements"
  if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && cmp -s "$requirements" "$stamp"; then
    echo ready >"$venv.outcome"
    return
  fi
  rm -rf "$venv"
  if ! "$python" -m venv "$venv"; then
    echo "failed: could not create the venv $venv" >"$venv.outcome"
    return
  fi
  if ! "$venv/bin/pip" install --quiet --disable-pip-version-check --no-compile -r "$requirements" >"$venv/pip.log" 2>&1; then
    if ! index_reachable; then
      rm -rf "$venv"
      echo "unreachable: the Python package index is not reachable from here, so the Python clients cannot be installed" >"$venv.outcome"
    else
      echo "failed: pip could not install $requirements into $venv: $(tail -5 "$venv/pip.log" | tr '\n' ' ')" >"$venv.outcome"
    fi
    return
  fi
  cp "$requirements" "$stamp"
  echo "python venv ready: $venv ($("$venv/bin/pip" freeze --disable-pip-version-check | grep -iE '^(elasticsearch|opensearch-py)==' | tr '\n' ' '))"
  echo ready >"$venv.outcome"
}

mkdir -p "$venvs"
for requirements in "$here"/requirements/*.txt; do
  rm -f "$venvs/$(basename "$requirements" .txt).outcome"
  build_venv "$requirements" &
done
wait
status=0
messages=""
for requirements in "$here"/requirements/*.txt; do
  outcome_file="$venvs/$(basename "$requirements" .txt).outcome"
  outcome=$(cat "$outcome_file" 2>/dev/null || echo "failed: no outcome for $requirements")
  rm -f "$outcome_file"
  case "$outcome" in
    ready) ;;
    unreachable:*) messages+="${outcome#unreachable: }"$'\n'; [ $status -eq 0 ] && status=3 ;;
    *) messages+="${outcome#failed: }"$'\n'; status=1 ;;
  esac
done
printf '%s' "$messages" | sort -u >&2
exit $status
