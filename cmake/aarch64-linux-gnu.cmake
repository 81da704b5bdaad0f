# Cross-compiles twinvmaf for 64-bit Arm Linux with Debian's cross compiler
# (g++-aarch64-linux-gnu) against Debian's arm64 packages installed beside
# the host's (multiarch: libhwy-dev:arm64, libgtest-dev:arm64), and runs what
# it built under qemu-user-static (scripts/aarch64-test.sh; README, "aarch64").
#
#   cmake -B build/aarch64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#
# qemu's CPU comes from the environment (QEMU_CPU, e.g.
# max,sve-default-vector-length=32 for 256-bit SVE, or max,sve=off for NEON
# only), so one build runs under every CPU model.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Debian's multiarch directories: /usr/lib/aarch64-linux-gnu (libhwy, gtest
# and their CMake packages), never the host's /usr/lib/x86_64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# Runs the test binaries (gtest_discover_tests, add_test) and, through the
# launcher tests/CMakeLists.txt writes, every CLI a test starts. The arm64
# loader and libc come from libc6:arm64 (/lib/ld-linux-aarch64.so.1), so qemu
# needs no -L.
find_program(TWINVMAF_QEMU_AARCH64 qemu-aarch64-static REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${TWINVMAF_QEMU_AARCH64})
