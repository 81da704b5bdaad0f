// Writing the output path safely: nothing but the output is ever touched.
//
//   "-", /dev/stdout, /dev/fd/N  that descriptor of this process (1, N),
//   and /proc/self/fd/N         written directly.
//   a regular file, or a path   written atomically: a temporary file in the
//   that does not exist yet     directory of the real target (symbolic links
//                               are followed and stay links), then renamed
//                               over it; an existing file keeps its
//                               permissions (and, for root, its owner).
//   a character or block        written directly (opened, never created,
//   device, a FIFO, a socket    renamed over or unlinked); a socket is
//                               connected to (AF_UNIX stream).
//   a directory                 an error.
//
// A writable regular file in a folder where no file can be made is written
// in place, as Netflix does (only a write error can then leave it partial).
//
// A failed run leaves no temporary file and no partial output file; with
// install_interrupt_cleanup() (the CLI calls it first thing), SIGINT,
// SIGTERM, SIGHUP and SIGQUIT also remove the temporary file, say so on
// stderr and end the process by the same signal.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace twinvmaf {

// How a path will be written. Resolved when asked: the CLI checks the path
// before scoring (so a directory or a missing folder fails in milliseconds,
// not after an hour of scoring) and resolves it again when it writes.
struct OutputTarget {
    enum class Kind {
        kDescriptor,  // "-" (standard output), /dev/stdout, /dev/fd/N: write to `fd`
        kAtomic,   // temporary file beside `path`, then rename
        kDevice,   // character/block device or FIFO: open and write
        kSocket,   // AF_UNIX socket: connect and write
    } kind = Kind::kAtomic;
    std::string path;  // the real target (symbolic links followed)
    int fd = -1;       // kDescriptor
    bool exists = false;
    unsigned mode = 0;  // an existing regular file's permission bits
    unsigned uid = 0, gid = 0;
};

// Throws twinvmaf::Error "<path>: cannot write output: <real cause>".
OutputTarget resolve_output_target(const std::string& path);

using ByteSink = std::function<void(const char* data, std::size_t size)>;

// Calls render(sink) and puts what it hands to sink at `path`, as above.
// On any failure (render throwing, a write error such as ENOSPC, the rename)
// nothing is left behind and Error names the path and the cause.
void write_output_bytes(const std::string& path, const std::function<void(const ByteSink&)>& render);

// Signal handlers that remove a temporary output file that is being written,
// print "twinvmaf: interrupted by SIG...; no output written" and re-raise the
// signal. For programs (the CLI), not libraries: it replaces the handlers.
void install_interrupt_cleanup();

}  // namespace twinvmaf
