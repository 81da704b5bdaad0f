#!/usr/bin/env bash
# `cmake --install` (what `make install PREFIX=...` runs) into a scratch
# prefix, then a program written for Netflix's libvmaf - its two include
# styles, <libvmaf.h> as FFmpeg writes it and <libvmaf/libvmaf.h> - built
# with nothing but `pkg-config --cflags --libs libvmaf`, and run.
# Usage: install_check.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build=$1
scratch=$2
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null

pc=$(find "$prefix" -name libvmaf.pc)
test -n "$pc" || { echo "no libvmaf.pc installed"; exit 1; }
for header in libvmaf.h model.h picture.h feature.h version.h twinvmaf.h; do
  test -f "$prefix/include/libvmaf/$header" || { echo "missing include/libvmaf/$header"; exit 1; }
done
test -f "$prefix/include/twinvmaf/engine.h" || { echo "missing include/twinvmaf/engine.h"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
cflags=$(pkg-config --cflags libvmaf)
case " $cflags " in
  *" -I$prefix/include "*"-I$prefix/include/libvmaf "*) ;;
  *) echo "libvmaf.pc Cflags should give -I\${includedir} and -I\${includedir}/libvmaf: $cflags"; exit 1 ;;
esac
test "$(pkg-config --modversion libvmaf)" = 3.2.0 || { echo "libvmaf.pc version is not 3.2.0"; exit 1; }

cat >"$scratch/netflix_style.c" <<'C'
#include <libvmaf.h>
#include <libvmaf/libvmaf.h>
#include <libvmaf/version.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_ERROR, .n_threads = 1};
    VmafContext *vmaf;
    VmafModel *model;
    VmafModelConfig model_cfg = {.name = "vmaf"};
    if (vmaf_init(&vmaf, cfg) || vmaf_model_load(&model, &model_cfg, "vmaf_v0.6.1") ||
        vmaf_use_features_from_model(vmaf, model))
        return 1;
    for (unsigned i = 0; i < 3; i++) {
        VmafPicture ref, dis;
        if (vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, 64, 36) ||
            vmaf_picture_alloc(&dis, VMAF_PIX_FMT_YUV420P, 8, 64, 36))
            return 1;
        for (unsigned y = 0; y < 36; y++)
            for (unsigned x = 0; x < 64; x++) {
                ((unsigned char *)ref.data[0])[y * ref.stride[0] + x] = (unsigned char)(x * 3 + y + i);
                ((unsigned char *)dis.data[0])[y * dis.stride[0] + x] = (unsigned char)(x * 3 + y + i + x % 4);
            }
        if (vmaf_read_pictures(vmaf, &ref, &dis, i)) return 1;
    }
    double score;
    if (vmaf_read_pictures(vmaf, NULL, NULL, 0) ||
        vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &score, 0, 2))
        return 1;
    printf("libvmaf %s (API %d.%d.%d): VMAF score: %f\n", vmaf_version(), VMAF_API_VERSION_MAJOR,
           VMAF_API_VERSION_MINOR, VMAF_API_VERSION_PATCH, score);
    vmaf_model_destroy(model);
    return vmaf_close(vmaf);
}
C
cc -std=c99 -Wall -Werror "$scratch/netflix_style.c" $cflags $(pkg-config --libs libvmaf) -o "$scratch/netflix_style"
LD_LIBRARY_PATH=$(pkg-config --variable=libdir libvmaf) "$scratch/netflix_style"

# The C++ API the same way: installed headers and libtwinvmaf.a.
cat >"$scratch/cpp_api.cpp" <<'CPP'
#include <twinvmaf/engine.h>

#include <cstdio>
#include <cstring>

int main()
{
    twinvmaf::Engine engine({.threads = 2});
    twinvmaf::Session session = engine.open({.models = {twinvmaf::Model::builtin("vmaf_v0.6.1")},
                                             .features = {{"psnr", {}}}});
    const twinvmaf::VideoFormat format{64, 36, twinvmaf::ChromaFormat::k420, 8};
    session.start(format);
    for (int i = 0; i < 3; ++i) {
        auto ref = session.picture(), dis = session.picture();
        for (std::size_t b = 0; b < ref->size_bytes(); ++b) {
            ref->bytes()[b] = static_cast<unsigned char>(b * 3 + i);
            dis->bytes()[b] = static_cast<unsigned char>(b * 3 + i + b % 4);
        }
        session.push(std::move(ref), std::move(dis));
    }
    const twinvmaf::Scores scores = session.finish();
    std::printf("C++ API: %llu frames, vmaf %f, psnr_y %f\n", static_cast<unsigned long long>(scores.frames()),
                *scores.pooled("vmaf", twinvmaf::PoolMethod::kMean), *scores.pooled("psnr_y", twinvmaf::PoolMethod::kMean));
    try {
        engine.open({.features = {{"no_such_feature", {}}}});
    } catch (const twinvmaf::Error& e) {
        return std::strstr(e.what(), "no_such_feature") ? 0 : 1;
    }
    return 1;
}
CPP
c++ -Wall -Werror "$scratch/cpp_api.cpp" $(pkg-config --cflags --libs twinvmaf) -o "$scratch/cpp_api"
"$scratch/cpp_api"
