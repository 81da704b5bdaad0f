#!/usr/bin/env bash
# `make install` (cmake --install) puts the Python package where Debian's
# python3 finds it: into a scratch prefix, then imported from there by a
# python3 that knows nothing of the build tree, used to score numpy frames,
# and twinvmaf-report run from PREFIX/bin. With PREFIX=/usr/local (make
# install's default) that folder is already on Debian's sys.path.
# Then Python where the user is (issue 30): a venv without Debian's packages
# first on PATH says at import that numpy is missing and how to get it; and
# installed for a venv's interpreter (TWINVMAF_PYTHON, what `make install
# PYTHON=...` sets), the package lands in that venv's site-packages, imported
# there with no PYTHONPATH, and twinvmaf-report runs with that interpreter.
# Usage: install_check.sh BUILD_DIR SCRATCH_DIR PYTHON
set -euo pipefail
build=$1
scratch=$2
python=$3
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null

init=$(find "$prefix" -path '*/twinvmaf/__init__.py')
test -n "$init" || { echo "no twinvmaf/__init__.py installed under $prefix"; exit 1; }
site=$(dirname "$(dirname "$init")")
relative=${site#"$prefix"/}
ls "$site"/twinvmaf/_twinvmaf*.so >/dev/null
test -x "$prefix/bin/twinvmaf-report" || { echo "no bin/twinvmaf-report installed"; exit 1; }

"$python" - "/usr/local/$relative" <<'PY'
import sys
assert sys.argv[1] in sys.path, f"{sys.argv[1]} (make install's default) is not on {sys.executable}'s sys.path"
PY

cd "$scratch"
env -u PYTHONPATH PYTHONPATH="$site" "$python" - "$prefix" <<'PY'
import sys
import numpy as np
import twinvmaf
assert twinvmaf.__file__.startswith(sys.argv[1]), twinvmaf.__file__
frames = [(np.full((36, 64), 16 + 3 * i, np.uint8), np.full((18, 32), 128, np.uint8),
           np.full((18, 32), 128, np.uint8)) for i in range(3)]
noisy = [(f[0] + np.uint8(2) * (np.arange(64, dtype=np.uint8) % 3), f[1], f[2]) for f in frames]
scores = twinvmaf.Engine(backend="cpu", threads=1).score(frames, noisy, features=["psnr"], progress=False)
scores.write("installed.json", precision="max")
print(f"installed twinvmaf {twinvmaf.__version__}: {scores!r}")
PY
env -u PYTHONPATH "$prefix/bin/twinvmaf-report" installed.json -o installed.html
grep -q '<svg class="chart"' installed.html

# A venv without system site packages (so without numpy), first on PATH.
"$python" -m venv --without-pip "$scratch/bare"
if env -u PYTHONPATH PATH="$scratch/bare/bin:$PATH" PYTHONPATH="$site" python3 -c 'import twinvmaf' 2>bare.err; then
  echo "twinvmaf imported in a venv without numpy"; exit 1
fi
tail -n 1 bare.err
grep -q "^ImportError: twinvmaf needs numpy, which $scratch/bare/bin/python3 (Python [0-9.]*) cannot import" bare.err
grep -qF "\`$scratch/bare/bin/python3 -m pip install numpy\`" bare.err

# make install PYTHON=<a venv's interpreter>: into the venv, whatever PREFIX.
"$python" -m venv --system-site-packages --without-pip "$scratch/venv"
TWINVMAF_PYTHON="$scratch/venv/bin/python" cmake --install "$build" --prefix "$scratch/venv_prefix" >install.log
grep "twinvmaf: the Python package" install.log
venv_site=$("$scratch/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')
ls "$venv_site"/twinvmaf/_twinvmaf*.so "$venv_site"/twinvmaf/__init__.py >/dev/null
test -z "$(find "$scratch/venv_prefix" -name '__init__.py' -path '*twinvmaf*')" || {
  echo "the package went under PREFIX, where the venv does not look"; exit 1; }
env -u PYTHONPATH "$scratch/venv/bin/python" - "$venv_site" <<'PY'
import sys
import twinvmaf
assert twinvmaf.__file__.startswith(sys.argv[1]), twinvmaf.__file__
print(f"venv: {twinvmaf.__file__}")
PY
head -n 1 "$scratch/venv_prefix/bin/twinvmaf-report" | grep -qx "#!$scratch/venv/bin/python"
env -u PYTHONPATH "$scratch/venv_prefix/bin/twinvmaf-report" installed.json -o venv.html
grep -q '<svg class="chart"' venv.html
