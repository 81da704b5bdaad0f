#!/usr/bin/env bash
# FFmpeg's libvmaf filter on twinvmaf's libvmaf.so (make ffmpeg-check).
#
# Builds a minimal FFmpeg from Debian's source package of ffmpeg (Debian 12:
# FFmpeg 5.1, whose own binary has no libvmaf filter), configured with
# --enable-libvmaf against twinvmaf's libvmaf.pc and only what the check
# needs, then scores fixture pairs (Y4M and raw) with
#   ffmpeg -i DIS -i REF -lavfi libvmaf=log_fmt=json:log_path=... -f null -
# (the default model, a v1.0.16 model, feature=name=psnr|name=float_ssim
# style options, n_threads, n_subsample) and demands that FFmpeg's JSON log
# equal the twinvmaf CLI's output value for value - at Netflix's default
# precision and at %.17g (TWINVMAF_PRECISION=max, the exact doubles) - and
# that the "VMAF score:" FFmpeg prints be the CLI's pooled mean.
#
# FFmpeg is built once under build/ffmpeg (a minute or two on 2 cores) and
# reused; it needs root for apt-get (a deb-src line is added when missing)
# and network access to Debian's mirror. Environment: TWINVMAF_BUILD (the
# twinvmaf build, default build/release), TWINVMAF_FIXTURES, JOBS.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TWINVMAF_BUILD:-$root/build/release}
work=$root/build/ffmpeg
fixtures=${TWINVMAF_FIXTURES:-$root/../shared/fixtures}
jobs=${JOBS:-2}
cli=$build/twinvmaf
prefix=$work/prefix

say() { printf 'ffmpeg-check: %s\n' "$*"; }

# --- twinvmaf installed as a user would: make install PREFIX=... ----------
test -x "$cli" || { say "no $cli: build twinvmaf first (make build)"; exit 2; }
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
say "twinvmaf installed in $prefix: libvmaf $(pkg-config --modversion libvmaf), $(pkg-config --cflags libvmaf)"

# --- FFmpeg from Debian's source package ------------------------------------
add_deb_src() {
  local codename
  codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
  local list=/etc/apt/sources.list.d/twinvmaf-deb-src.sources
  say "adding deb-src lines for $codename ($list)"
  cat >"$list" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $codename $codename-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: $codename-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  apt-get update -qq
}

ffmpeg=$work/bin/ffmpeg
if [ ! -x "$ffmpeg" ]; then
  command -v dpkg-source >/dev/null || { say "needs dpkg-dev (apt-get install dpkg-dev)"; exit 2; }
  # (grep reads all of it: grep -q would stop apt-cache with SIGPIPE, a failure under pipefail)
  apt-cache showsrc ffmpeg 2>/dev/null | grep '^Package: ffmpeg' >/dev/null || add_deb_src
  rm -rf "$work/src"
  mkdir -p "$work/src"
  (cd "$work/src" && apt-get source -qq ffmpeg >/dev/null 2>&1 || apt-get source ffmpeg)
  src=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d -name 'ffmpeg-*' | head -1)
  test -n "$src" || { say "apt-get source ffmpeg gave no source tree"; exit 2; }
  say "building $(basename "$src") with --enable-libvmaf (once; a minute or two on 2 cores)"
  (
    cd "$src"
    ./configure --prefix="$work" --disable-everything --disable-autodetect --disable-doc --disable-debug \
      --disable-network --disable-x86asm --disable-ffplay --disable-ffprobe \
      --enable-libvmaf --enable-filter=libvmaf,format,null,scale,buffer,buffersink \
      --enable-protocol=file,pipe --enable-demuxer=rawvideo,yuv4mpegpipe \
      --enable-decoder=rawvideo --enable-encoder=wrapped_avframe --enable-muxer=null \
      --extra-ldflags="-Wl,-rpath,$prefix/lib" >"$work/configure.log" 2>&1 ||
      { tail -20 "$work/configure.log"; tail -40 ffbuild/config.log; exit 1; }
    nice make -j"$jobs" >"$work/make.log" 2>&1 || { tail -40 "$work/make.log"; exit 1; }
    make install >/dev/null
  )
fi
"$ffmpeg" -hide_banner -filters 2>/dev/null | grep -q ' libvmaf ' || { say "$ffmpeg has no libvmaf filter"; exit 1; }
linked=$(ldd "$ffmpeg" | awk '/libvmaf/ {print $3}')
say "$("$ffmpeg" -hide_banner -version | head -1), libvmaf from $linked"
case "$linked" in "$prefix"/*) ;; *) say "ffmpeg does not use twinvmaf's libvmaf.so"; exit 1 ;; esac

# --- the runs ----------------------------------------------------------------
out=$work/runs
rm -rf "$out"
mkdir -p "$out"
failures=0

# Y4M of a raw fixture, written by the shell (header + FRAME per frame).
to_y4m() {  # raw W H CHROMA BYTES_PER_FRAME OUT
  local tag=420jpeg
  [ "$4" = 444 ] && tag=444
  [ "$4" = 422 ] && tag=422
  python3 - "$1" "$2" "$3" "$tag" "$5" "$6" <<'PY'
import sys
raw, w, h, tag, frame, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6]
with open(raw, "rb") as f, open(out, "wb") as o:
    o.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C{tag}\n".encode())
    while True:
        data = f.read(frame)
        if len(data) < frame:
            break
        o.write(b"FRAME\n" + data)
PY
}

# check NAME FIXTURE y4m|raw FILTER_OPTIONS CLI_OPTIONS [MODEL_NAMES]
# FILTER_OPTIONS go into the filtergraph as written: a ':' inside an option's
# value is "\:" within single quotes, as FFmpeg's documentation writes it.
check() {
  local name=$1 fixture=$fixtures/$2 kind=$3 filter=$4 cli_options=$5 models=${6:-vmaf}
  local w h p frame
  w=$(python3 -c "import json;print(json.load(open('$fixture/fixture.json'))['width'])")
  h=$(python3 -c "import json;print(json.load(open('$fixture/fixture.json'))['height'])")
  p=$(python3 -c "import json;print(json.load(open('$fixture/fixture.json'))['pixel_format'])")
  frame=$(python3 -c "import json;print(json.load(open('$fixture/fixture.json'))['frame_size_bytes'])")
  local ref=$fixture/ref.yuv dis=$fixture/dis.yuv inputs cli_inputs
  if [ "$kind" = y4m ]; then
    ref=$out/$name.ref.y4m
    dis=$out/$name.dis.y4m
    to_y4m "$fixture/ref.yuv" "$w" "$h" "$p" "$frame" "$ref"
    to_y4m "$fixture/dis.yuv" "$w" "$h" "$p" "$frame" "$dis"
    inputs=(-i "$dis" -i "$ref")
    cli_inputs=(-r "$ref" -d "$dis")
  else
    local fmt=yuv${p}p
    inputs=(-f rawvideo -pix_fmt "$fmt" -s "${w}x$h" -i "$dis" -f rawvideo -pix_fmt "$fmt" -s "${w}x$h" -i "$ref")
    cli_inputs=(-r "$ref" -d "$dis" -w "$w" -h "$h" -p "$p" -b 8)
  fi
  say "$name: $2 ($kind), libvmaf=$filter"
  local precision ok=1
  for precision in legacy max; do
    local log=$out/$name.ffmpeg.$precision.json cli_json=$out/$name.cli.$precision.json
    # shellcheck disable=SC2086
    "$cli" "${cli_inputs[@]}" $cli_options --json --precision "$precision" -q -o "$cli_json"
    TWINVMAF_PRECISION=$precision "$ffmpeg" -nostdin -hide_banner -loglevel info "${inputs[@]}" \
      -lavfi "[0:v][1:v]libvmaf=log_fmt=json:log_path=$log${filter:+:$filter}" -f null - \
      >"$out/$name.ffmpeg.$precision.txt" 2>&1 || { cat "$out/$name.ffmpeg.$precision.txt"; ok=0; continue; }
    printf '  %-6s ' "$precision:"
    python3 "$root/tools/compare_vmaf_logs.py" "$log" "$cli_json" --ffmpeg-log "$out/$name.ffmpeg.$precision.txt" \
      --models "$models" || ok=0
  done
  [ $ok = 1 ] || failures=$((failures + 1))
}

check default_y4m vtest_576x324_420p8 y4m "" ""
check default_raw_features megamind_720x528_420p8 raw "feature=name=psnr|name=float_ssim" \
  "--feature psnr --feature float_ssim"
check v1_model_raw megamind_720x528_420p8 raw "model=version=vmaf_v1.0.16_3d0h" "--model version=vmaf_v1.0.16_3d0h"
check v1_model_y4m_444 cup_640x480_444p8 y4m "model=version=vmaf_v1.0.16_3d0h:n_threads=2" \
  "--model version=vmaf_v1.0.16_3d0h --threads 2"
check options_odd_size noise_257x145_420p8 raw "'feature=name=psnr\:enable_chroma=false|name=psnr_hvs':n_subsample=2" \
  "--feature psnr=enable_chroma=false --feature psnr_hvs --subsample 2"
check two_models_1080p checker_1920x1080_420p8 y4m "'model=version=vmaf_float_v0.6.1|version=vmaf_v0.6.1neg\:name=neg'" \
  "--model version=vmaf_float_v0.6.1 --model version=vmaf_v0.6.1neg:name=neg" vmaf,neg

if [ $failures = 0 ]; then
  say "all runs: FFmpeg's libvmaf filter on twinvmaf gives the CLI's scores, value for value"
else
  say "$failures run(s) differ"
  exit 1
fi
