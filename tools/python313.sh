#!/usr/bin/env bash
# Print the directory of a working python3.13 (for `PATH="$(tools/python313.sh):$PATH"`):
# the one on PATH if it runs (a pyenv shim of an unselected version does not), else
# the newest 3.13.* that pyenv installed. Exit 1, saying so, when there is none.
set -euo pipefail

real_dir() {
  "$1" -c 'import os, sys; assert sys.version_info[:2] == (3, 13); print(os.path.dirname(sys.executable))' 2>/dev/null
}

if command -v python3.13 >/dev/null 2>&1 && real_dir python3.13; then
  exit 0
fi
if command -v pyenv >/dev/null 2>&1; then
  root="$(pyenv root)"
  for dir in $(ls -d "$root"/versions/3.13.*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/python3.13" ] && real_dir "$dir/python3.13"; then
      exit 0
    fi
  done
fi
echo "no python3.13 on PATH nor in pyenv (pyenv install 3.13): sam build needs it" >&2
exit 1
