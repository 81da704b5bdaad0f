#!/usr/bin/env bash
# Build a minimal FFmpeg 7.1 with NVDEC and the libvmaf / libvmaf_cuda
# filters, linked against whichever libvmaf pkg-config finds (twinvmaf's
# libvmaf.so.3 or another, e.g. Netflix's CUDA build), for
# checking twinvmaf as a drop-in under FFmpeg on the GPU machine. That machine
# has no Debian packages and no network: everything comes from .device/
# (tools/pack_device_inputs.py --ffmpeg) or the arguments.
#
#   tools/build_ffmpeg.sh [--src FFMPEG_TARBALL_OR_DIR] [--nv-headers DIR_OR_TARBALL]
#                         [--prefix PREFIX] [--jobs N] [--build-dir DIR]
#                         [--libvmaf-pc DIR] [--nvccflags FLAGS]
#
# --src         FFmpeg 7.1 source: a tarball (.tar.xz/.tar.gz/.tar) or an
#               unpacked tree (env FFMPEG_SRC; default
#               .device/ffmpeg_7.1.5.orig.tar.xz, Debian trixie's orig tarball,
#               sha256 de668509caf9e35e3cd162473441fdb29538c6d96ed080292b3cf9e6fc5d558f).
# --nv-headers  nv-codec-headers (ffnvcodec): a tree, or a tarball of one
#               (env NV_CODEC_HEADERS; default
#               .device/nv-codec-headers_12.1.14.0.orig.tar.xz, Debian
#               trixie's orig tarball, sha256
#               0ca1a0c85b149646fa6ce4d600584507fdccf5a23d58e668d8701e89cee0c3fb).
#               Installed into PREFIX first (make PREFIX=PREFIX install).
#               12.1.14.0 is the oldest FFmpeg 7.1's configure takes in the 12
#               series (ffnvcodec >= 12.1.14.0; it needs a Linux driver >= 530,
#               the GPU machine has 580).
# --prefix      where FFmpeg goes (env PREFIX; default /tmp/ffmpeg-7.1): bin/
#               ffmpeg, ffprobe, lib/libav*.so.*, include/, lib/pkgconfig/. The
#               binaries get a run path to PREFIX/lib and to the folder of the
#               libvmaf.so.3 they were configured against; LD_LIBRARY_PATH
#               comes before it and swaps in another libvmaf.so.3.
# --jobs        make -j (env JOBS; default nproc).
# --build-dir   where the source is unpacked and built (env BUILD_DIR;
#               default PREFIX.build). A second run reuses the unpacked tree
#               and the objects, and configures again only when the options
#               or the libvmaf found change; delete it to start afresh.
# --libvmaf-pc  a folder holding libvmaf.pc, put first on PKG_CONFIG_PATH
#               (env LIBVMAF_PC; e.g. /tmp/tv/lib/pkgconfig for twinvmaf,
#               /tmp/nflx/prefix/lib/pkgconfig for Netflix's). PKG_CONFIG_PATH
#               from the environment is kept after it. Where pkg-config finds no
#               libvmaf >= 2.0.0 the filters libvmaf and libvmaf_cuda are left
#               out (said on stderr); libvmaf_cuda also needs libvmaf_cuda.h
#               (the check of FFmpeg's configure: check_pkg_config libvmaf_cuda
#               "libvmaf >= 2.0.0" libvmaf_cuda.h vmaf_cuda_state_init), which
#               only a CUDA build of a libvmaf installs.
# --nvccflags   the flags for FFmpeg's CUDA filters (scale_cuda, ...) that nvcc
#               compiles to PTX (env NVCCFLAGS; default
#               "-gencode arch=compute_75,code=sm_75 -O2"). FFmpeg's default,
#               compute_30 and then compute_60, is gone from nvcc 13 (its
#               oldest is compute_75). PTX of compute_75 runs on any GPU from
#               Turing on, H100/H200 included; "-gencode
#               arch=compute_90,code=sm_90 -O2" targets Hopper only. PTX of
#               nvcc 13 needs a 580 driver or newer to be loaded.
#
# What: shared libraries (--enable-shared --disable-static), no docs or debug
# info, --disable-everything --disable-autodetect and then only: ffnvcodec,
# NVDEC, CUDA filters compiled with nvcc (--enable-cuda-nvcc, which is why
# --enable-nonfree: such a build is not redistributable); decoders h264 hevc
# vp9 av1 mpeg2video, rawvideo (what the yuv4mpegpipe and rawvideo demuxers'
# packets need), and libdav1d where pkg-config finds dav1d (FFmpeg's own av1
# decoder decodes only through a hwaccel: without libdav1d, AV1 needs
# -hwaccel cuda); hwaccels
# h264/hevc/vp9/av1/mpeg2 _nvdec; parsers h264 hevc vp9 av1 mpegvideo;
# demuxers mov matroska ivf mpegts yuv4mpegpipe rawvideo h264 hevc; bsfs
# vp9_superframe_split (the vp9 decoder's) and h264/hevc_mp4toannexb;
# protocols file pipe; filters libvmaf libvmaf_cuda scale scale_cuda
# hwupload_cuda hwdownload format null (plus those fftools/ffmpeg always
# selects); muxers null yuv4mpegpipe rawvideo; encoders rawvideo
# wrapped_avframe. At the end it checks that `ffmpeg -hwaccels` lists cuda and
# `ffmpeg -filters` the filters that configure enabled, and prints them.
#
# Needs: a C compiler, make, nvcc (CUDA 11 or newer on PATH; not
# the driver: nothing runs on the GPU here), python3 (tarballs are unpacked
# with its tarfile: the machine may have no xz), pkg-config where there is
# one (else a Python stand-in in BUILD_DIR/bin, enough for ffnvcodec.pc and
# libvmaf.pc). nasm where there is one;
# without it the x86 assembly is off (--disable-x86asm), which only slows
# software decoding and scaling.
# Time: about 7 minutes with 2 cores (configure ~1 min, make ~6 min; the Debian
# 12 dev machine), about 1.5 minutes with 16.
set -euo pipefail

say() { printf 'build_ffmpeg: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
src=${FFMPEG_SRC:-$root/.device/ffmpeg_7.1.5.orig.tar.xz}
nvh=${NV_CODEC_HEADERS:-$root/.device/nv-codec-headers_12.1.14.0.orig.tar.xz}
prefix=${PREFIX:-/tmp/ffmpeg-7.1}
jobs=${JOBS:-$(nproc)}
build_dir=${BUILD_DIR:-}
libvmaf_pc=${LIBVMAF_PC:-}
nvccflags=${NVCCFLAGS:--gencode arch=compute_75,code=sm_75 -O2}

while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || die "$1 needs a value (see the header of $0)"
  case $1 in
    --src) src=$2 ;;
    --nv-headers) nvh=$2 ;;
    --prefix) prefix=$2 ;;
    --jobs) jobs=$2 ;;
    --build-dir) build_dir=$2 ;;
    --libvmaf-pc) libvmaf_pc=$2 ;;
    --nvccflags) nvccflags=$2 ;;
    *) die "unknown argument $1 (see the header of $0)" ;;
  esac
  shift 2
done

for tool in cc make nvcc python3; do
  command -v "$tool" >/dev/null || die "needs '$tool' on PATH"
done
[ -e "$src" ] || die "no FFmpeg source at $src (--src)"
[ -e "$nvh" ] || die "no nv-codec-headers at $nvh (--nv-headers)"
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
build_dir=${build_dir:-$prefix.build}
mkdir -p "$build_dir"
build_dir=$(cd "$build_dir" && pwd)
start=$(date +%s)

if ! command -v pkg-config >/dev/null; then
  # What FFmpeg's configure and this script ask of pkg-config (--exists with
  # version bounds, --modversion, --cflags, --cflags-only-I, --libs,
  # --variable), for .pc files without Requires.private, as ffnvcodec's and
  # libvmaf's (Netflix's and twinvmaf's) are.
  mkdir -p "$build_dir/bin"
  cat >"$build_dir/bin/pkg-config" <<'PY'
#!/usr/bin/env python3
"""build_ffmpeg.sh's stand-in for pkg-config, on a machine without one."""
import operator, os, re, sys

DEFAULT_PATH = ["/usr/local/lib/pkgconfig", "/usr/local/share/pkgconfig",
                "/usr/lib/x86_64-linux-gnu/pkgconfig", "/usr/lib/pkgconfig", "/usr/share/pkgconfig"]
OPS = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt, "=": operator.eq, "!=": operator.ne}


def version_key(text):
    return [int(part) for part in re.findall(r"\d+", text)]


def load(name):
    folders = [d for d in os.environ.get("PKG_CONFIG_PATH", "").split(":") if d] + DEFAULT_PATH
    for folder in folders:
        path = os.path.join(folder, name + ".pc")
        if os.path.isfile(path):
            break
    else:
        return None
    variables = {"pcfiledir": os.path.dirname(path)}
    fields = {}
    expand = lambda text: re.sub(r"\$\{(\w+)\}", lambda m: variables.get(m.group(1), ""), text)
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        match = re.match(r"^([\w.]+)\s*([=:])\s*(.*)$", line)
        if not match:
            continue
        if match.group(2) == "=":
            variables[match.group(1)] = expand(match.group(3))
        else:
            fields[match.group(1).lower()] = expand(match.group(3))
    return variables, fields


def parse(words):
    """[(name, op, version)] from 'a >= 1 b < 2' split into words."""
    tokens = re.findall(r">=|<=|!=|[<>=]|[^\s<>=!,]+", " ".join(words))
    wanted, i = [], 0
    while i < len(tokens):
        if i + 2 < len(tokens) and tokens[i + 1] in OPS:
            wanted.append((tokens[i], tokens[i + 1], tokens[i + 2]))
            i += 3
        else:
            wanted.append((tokens[i], None, None))
            i += 1
    return wanted


def main():
    options = [a for a in sys.argv[1:] if a.startswith("--")]
    wanted = parse([a for a in sys.argv[1:] if not a.startswith("--")])
    if "--version" in options:
        print("0.29.2")
        return 0
    out, seen = [], []

    def visit(name, op=None, version=None, top=True):
        package = load(name)
        if package is None:
            raise LookupError("Package %s was not found in the pkg-config search path." % name)
        variables, fields = package
        if op and not OPS[op](version_key(fields.get("version", "")), version_key(version)):
            raise LookupError("Requested '%s %s %s' but version of %s is %s"
                              % (name, op, version, name, fields.get("version", "")))
        if name in seen:
            return
        seen.append(name)
        for option in options:
            if option.startswith("--variable="):
                if top:
                    out.append(variables.get(option.split("=", 1)[1], ""))
            elif option == "--modversion":
                if top:
                    out.append(fields.get("version", ""))
            elif option in ("--cflags", "--cflags-only-I"):
                flags = fields.get("cflags", "").split()
                out.extend(f for f in flags if option == "--cflags" or f.startswith("-I"))
            elif option == "--libs":
                out.extend(fields.get("libs", "").split())
        for required in parse([fields.get("requires", "")]):
            visit(*required, top=False)

    try:
        for name, op, version in wanted:
            visit(name, op, version)
    except LookupError as error:
        if "--print-errors" in options or "--exists" not in options:
            print(error, file=sys.stderr)
        return 1
    if out:
        print(("\n" if "--modversion" in options else " ").join(out))
    return 0


sys.exit(main())
PY
  chmod +x "$build_dir/bin/pkg-config"
  export PATH=$build_dir/bin:$PATH
  say "no pkg-config: using the stand-in $build_dir/bin/pkg-config"
fi

# Unpacks a tarball into a folder with Python's tarfile; prints the folder
# that holds FILE (a name the tree has at its top, e.g. configure).
untar_tree() {
  python3 - "$1" "$2" "$3" <<'PY'
import os, sys, tarfile
archive, dest, marker = sys.argv[1:]
with tarfile.open(archive) as tar:
    kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
    tar.extractall(dest, **kwargs)
for top in [dest] + sorted(os.path.join(dest, d) for d in os.listdir(dest)):
    if os.path.isfile(os.path.join(top, marker)):
        print(top)
        break
PY
}

# nv-codec-headers into the prefix.
if [ -d "$nvh" ]; then
  nvh_tree=$nvh
else
  rm -rf "$build_dir/nv-codec-headers" && mkdir -p "$build_dir/nv-codec-headers"
  nvh_tree=$(untar_tree "$nvh" "$build_dir/nv-codec-headers" Makefile)
fi
[ -n "$nvh_tree" ] && [ -f "$nvh_tree/include/ffnvcodec/dynlink_loader.h" ] ||
  die "$nvh holds no nv-codec-headers tree"
make -C "$nvh_tree" PREFIX="$prefix" install >/dev/null
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
if [ -n "$libvmaf_pc" ]; then
  [ -f "$libvmaf_pc/libvmaf.pc" ] || die "no libvmaf.pc in $libvmaf_pc (--libvmaf-pc)"
  PKG_CONFIG_PATH=$libvmaf_pc:$PKG_CONFIG_PATH
fi
say "ffnvcodec $(pkg-config --modversion ffnvcodec) installed into $prefix"

# FFmpeg's source.
if [ -d "$src" ]; then
  ff_src=$(cd "$src" && pwd)
else
  ff_src=$(find "$build_dir/src" -mindepth 2 -maxdepth 2 -name configure 2>/dev/null | head -1 || true)
  if [ -z "$ff_src" ]; then
    say "unpacking $src"
    mkdir -p "$build_dir/src"
    ff_src=$(untar_tree "$src" "$build_dir/src" configure)
  else
    ff_src=$(dirname "$ff_src")
  fi
fi
[ -n "$ff_src" ] && [ -x "$ff_src/configure" ] || die "no FFmpeg source tree from $src"
grep -q '^7\.1' "$ff_src/RELEASE" 2>/dev/null || say "warning: $ff_src/RELEASE is $(cat "$ff_src/RELEASE" 2>/dev/null), not 7.1.x"

# What pkg-config finds decides the libvmaf filters and libdav1d.
filters="scale scale_cuda hwupload_cuda hwdownload format null"
extra=()
if pkg-config --exists 'libvmaf >= 2.0.0'; then
  say "libvmaf $(pkg-config --modversion libvmaf) from $(pkg-config --variable=libdir libvmaf)"
  extra+=(--enable-libvmaf)
  filters="libvmaf libvmaf_cuda $filters"
else
  say "pkg-config finds no libvmaf >= 2.0.0: building without the libvmaf filters"
fi
decoders="h264 hevc vp9 av1 mpeg2video rawvideo"
if pkg-config --exists dav1d; then
  extra+=(--enable-libdav1d)
  decoders="$decoders libdav1d"
fi
if ! command -v nasm >/dev/null; then
  say "no nasm: building without FFmpeg's x86 assembly"
  extra+=(--disable-x86asm)
fi
list() { local IFS=,; echo "$*"; }

# The binaries' run path: PREFIX/lib, then the folder of the libvmaf
# configured against, so that ffmpeg runs as built; LD_LIBRARY_PATH comes
# first and swaps in another libvmaf.so.3.
rpath=$prefix/lib
if pkg-config --exists libvmaf; then
  rpath=$rpath:$(pkg-config --variable=libdir libvmaf)
fi

# shellcheck disable=SC2054 # the commas are FFmpeg's lists
config=(--prefix="$prefix"
  --enable-shared --disable-static --disable-doc --disable-debug
  --disable-everything --disable-autodetect
  --enable-ffnvcodec --enable-nvdec --enable-cuda-nvcc --enable-nonfree
  --nvcc=nvcc --nvccflags="$nvccflags"
  --extra-ldflags="-Wl,-rpath,$rpath"
  "${extra[@]}"
  --enable-decoder="$(list $decoders)"
  --enable-hwaccel=h264_nvdec,hevc_nvdec,vp9_nvdec,av1_nvdec,mpeg2_nvdec
  --enable-parser=h264,hevc,vp9,av1,mpegvideo
  --enable-demuxer=mov,matroska,ivf,mpegts,yuv4mpegpipe,rawvideo,h264,hevc
  --enable-bsf=vp9_superframe_split,h264_mp4toannexb,hevc_mp4toannexb
  --enable-protocol=file,pipe
  --enable-filter="$(list $filters)"
  --enable-muxer=null,yuv4mpegpipe,rawvideo
  --enable-encoder=rawvideo,wrapped_avframe)

obj=$build_dir/obj
mkdir -p "$obj"
cd "$obj"
# Configured again only when the options (or what pkg-config found) change.
stamp="$ff_src ${config[*]} libvmaf $(pkg-config --modversion libvmaf 2>/dev/null || true)"
if [ ! -f ffbuild/config.mak ] || [ "$(cat configure.stamp 2>/dev/null)" != "$stamp" ]; then
  say "configuring in $obj"
  rm -f configure.stamp
  "$ff_src/configure" "${config[@]}" >"$build_dir/configure.log" 2>&1 ||
    { tail -30 "$build_dir/configure.log" >&2; die "configure failed: $build_dir/configure.log, $obj/ffbuild/config.log"; }
  printf '%s' "$stamp" >configure.stamp
fi

make -j "$jobs" >"$build_dir/make.log" 2>&1 || { tail -40 "$build_dir/make.log" >&2; die "make failed: $build_dir/make.log"; }
make install >"$build_dir/install.log" 2>&1 || { tail -20 "$build_dir/install.log" >&2; die "make install failed"; }

# Checks: the hwaccel and every filter that configure enabled.
ff=$prefix/bin/ffmpeg
hwaccels=$("$ff" -hide_banner -hwaccels | tail -n +2 | xargs)
case " $hwaccels " in *" cuda "*) ;; *) die "ffmpeg -hwaccels lists no cuda: $hwaccels" ;; esac
enabled() { sed -n "s/^#define CONFIG_\(.*\)_$1 1\$/\1/p" "$obj/config_components.h" | tr 'A-Z' 'a-z' | xargs; }
have_filters=$("$ff" -hide_banner -filters | awk 'NF >= 3 && $1 ~ /^[.TSC]+$/ {print $2}' | xargs)
for f in $(enabled FILTER); do
  case " $have_filters " in *" $f "*) ;; *) die "filter $f is enabled but not listed by ffmpeg -filters" ;; esac
done
for f in $filters; do
  case " $(enabled FILTER) " in *" $f "*) ;; *) say "filter $f was asked for but left out by configure (its dependencies are missing)" ;; esac
done
say "built $("$ff" -hide_banner -version | head -1) into $prefix in $(( $(date +%s) - start )) s"
say "  hwaccels: $hwaccels"
say "  filters:  $(enabled FILTER)"
say "  decoders: $(enabled DECODER)"
say "  hwaccels (config): $(enabled HWACCEL)"
say "  libvmaf:  $(pkg-config --modversion libvmaf 2>/dev/null || echo none) ($(ldd "$prefix/lib/libavfilter.so" | awk '/libvmaf/ {print $3}'))"
