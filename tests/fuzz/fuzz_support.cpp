#include "fuzz_support.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>

namespace twinvmaf::fuzz {

namespace {

[[noreturn]] void fail(const char* what)
{
    std::perror(what);
    std::abort();
}

void write_all(int fd, std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t done = ::write(fd, bytes.data(), bytes.size());
        if (done <= 0) fail("fuzz: write");
        bytes.remove_prefix(static_cast<std::size_t>(done));
    }
}

}  // namespace

InputBytes::InputBytes(std::string_view bytes, bool pipe)
{
    if (pipe && bytes.size() <= kMaxPipeBytes) {
        int ends[2];
        if (::pipe2(ends, O_CLOEXEC) != 0) fail("fuzz: pipe");
        if (bytes.size() > 65536 && ::fcntl(ends[1], F_SETPIPE_SZ, static_cast<int>(kMaxPipeBytes)) < 0)
            fail("fuzz: F_SETPIPE_SZ");
        write_all(ends[1], bytes);
        ::close(ends[1]);
        fd_ = ends[0];
    } else {
        fd_ = ::memfd_create("twinvmaf-fuzz", MFD_CLOEXEC);
        if (fd_ < 0) fail("fuzz: memfd_create");
        write_all(fd_, bytes);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
}

InputBytes::~InputBytes()
{
    ::close(fd_);
}

void InputBytes::resize(std::uint64_t size)
{
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) fail("fuzz: ftruncate");
}

void check_message(const char* what)
{
    const std::size_t length = std::strlen(what);
    // The longest legitimate messages list every built-in model or feature.
    constexpr std::size_t kMaxMessage = 1024;
    if (length == 0 || length > kMaxMessage || std::strchr(what, '\n')) {
        std::fprintf(stderr, "fuzz: bad error message (%zu bytes): %.2000s\n", length, what);
        std::abort();
    }
}

std::uint64_t take(const std::uint8_t*& data, std::size_t& size, unsigned bytes)
{
    std::uint64_t value = 0;
    for (unsigned i = 0; i < bytes; ++i) {
        if (size) {
            value |= std::uint64_t{*data} << (8 * i);
            ++data;
            --size;
        }
    }
    return value;
}

}  // namespace twinvmaf::fuzz
