#include "output/output_file.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <string_view>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <random>

#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& cause)
{
    throw Error(path + ": cannot write output: " + cause);
}

[[noreturn]] void fail_errno(const std::string& path, int error) { fail(path, std::strerror(error)); }

std::string directory_of(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string file_name_of(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The kernel's own file systems: their "files" are settings and reports of
// the running system (writing /sys/... as root changes it), never a place
// for scores.
const char* kernel_file_system(const std::string& directory)
{
    struct statfs fs{};
    if (::statfs(directory.c_str(), &fs) != 0) return nullptr;
    switch (static_cast<unsigned long>(fs.f_type)) {
    case 0x9fa0: return "proc";           // PROC_SUPER_MAGIC
    case 0x62656572: return "sysfs";      // SYSFS_MAGIC
    case 0x27e0eb: return "cgroup";       // CGROUP_SUPER_MAGIC
    case 0x63677270: return "cgroup2";    // CGROUP2_SUPER_MAGIC
    case 0x64626720: return "debugfs";    // DEBUGFS_MAGIC
    case 0x74726163: return "tracefs";    // TRACEFS_MAGIC
    case 0x73636673: return "securityfs"; // SECURITYFS_MAGIC
    case 0x62656570: return "configfs";   // CONFIGFS_MAGIC
    case 0xcafe4a11: return "bpf";        // BPF_FS_MAGIC
    default: return nullptr;
    }
}

// The descriptor that /dev/stdout, /dev/stderr, /dev/fd/N and
// /proc/self/fd/N name for this process, or -1. Written to directly, as a
// shell does: reopening them would start at offset 0 of a redirected file.
int descriptor_path(const std::string& path)
{
    if (path == "/dev/stdout") return STDOUT_FILENO;
    if (path == "/dev/stderr") return STDERR_FILENO;
    for (const std::string_view prefix : {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/")}) {
        if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0) continue;
        int fd = 0;
        const char* first = path.data() + prefix.size();
        const char* last = path.data() + path.size();
        const auto [end, ec] = std::from_chars(first, last, fd);
        if (ec == std::errc() && end == last) return fd;
    }
    return -1;
}

// Writes all of [data, data + size) to fd, retrying short writes and EINTR;
// returns 0 or the errno.
int write_all(int fd, const char* data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return 0;
}

// An errno from a write, carried out of render() through the sink.
struct WriteFailure {
    int error;
};

ByteSink fd_sink(int fd)
{
    return [fd](const char* data, std::size_t size) {
        if (const int error = write_all(fd, data, size)) throw WriteFailure{error};
    };
}

// ---------------------------------------------------------------------------
// Interrupt cleanup. The handler may run on any thread, so the state is a
// lock-free atomic and the path a fixed buffer written before the state says
// "writing".

enum WriteState : int { kIdle = 0, kWritingTemporary = 1, kRenaming = 2 };

std::atomic<int> g_state{kIdle};
std::atomic<int> g_pending_signal{0};
char g_temporary[4096];
std::atomic<bool> g_handlers_installed{false};

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

const char* signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    default: return "a signal";
    }
}

void die_by(int sig)
{
    // Only async-signal-safe calls: write, unlink, sigaction, raise.
    const char* name = signal_name(sig);
    const char prefix[] = "twinvmaf: interrupted by ";
    const char suffix[] = "; no output written\n";
    (void)!::write(STDERR_FILENO, prefix, sizeof prefix - 1);
    (void)!::write(STDERR_FILENO, name, std::strlen(name));
    (void)!::write(STDERR_FILENO, suffix, sizeof suffix - 1);
    struct sigaction dfl{};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
    ::raise(sig);
}

void on_interrupt(int sig)
{
    const int state = g_state.load();
    if (state == kRenaming) {
        // The complete output is being put in place; the writer re-raises
        // the signal right after the rename.
        g_pending_signal.store(sig);
        return;
    }
    if (state == kWritingTemporary) ::unlink(g_temporary);
    die_by(sig);
}

// A new file with a unique name, registered with the interrupt handler
// until it has been renamed over the target or removed.
class TemporaryFile {
public:
    // fd() < 0 and error() set when no file could be made.
    TemporaryFile(const std::string& directory, const std::string& name)
    {
        std::random_device random;
        for (int attempt = 0; attempt < 100; ++attempt) {
            path_ = directory + "/." + name + ".twinvmaf-" + std::to_string(::getpid()) + "-" +
                    std::to_string(random());
            if (path_.size() >= sizeof g_temporary) {
                error_ = ENAMETOOLONG;
                return;
            }
            // Registered before it exists, so that no signal can leave it.
            std::memcpy(g_temporary, path_.c_str(), path_.size() + 1);
            g_state.store(kWritingTemporary);
            fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
            if (fd_ >= 0) {
                pending_ = true;
                return;
            }
            error_ = errno;
            g_state.store(kIdle);
            if (error_ != EEXIST) return;
        }
    }
    ~TemporaryFile()
    {
        if (fd_ >= 0) ::close(fd_);
        if (pending_) {
            ::unlink(path_.c_str());
            g_state.store(kIdle);
        }
    }
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;

    int fd() const { return fd_; }
    int error() const { return error_; }

    // Closes the file; returns 0 or the errno.
    int close()
    {
        const int result = ::close(fd_);
        fd_ = -1;
        return result == 0 ? 0 : errno;
    }

    // Renames the finished file over `target` (or removes it if that fails);
    // returns 0 or the errno. A signal that arrives meanwhile is re-raised
    // once the file is in place.
    int rename_to(const std::string& target)
    {
        g_state.store(kRenaming);
        const int error = ::rename(path_.c_str(), target.c_str()) == 0 ? 0 : errno;
        if (error) ::unlink(path_.c_str());
        pending_ = false;
        g_state.store(kIdle);
        if (const int sig = g_pending_signal.exchange(0)) die_by(sig);
        return error;
    }

private:
    std::string path_;
    int fd_ = -1;
    int error_ = 0;
    bool pending_ = false;  // made and not yet renamed or removed
};

// Gives an existing file's permissions (and, where we may, its owner and
// group) to the file that replaces it. Owner changes need privileges; a
// failure to keep them is not an error (the data is what the user asked for).
void keep_attributes(int fd, const OutputTarget& target)
{
    if (!target.exists) return;
    // Owner first: changing it clears set-user-ID bits, which fchmod restores.
    const bool root = ::geteuid() == 0;
    if (root || ::getegid() != target.gid)
        (void)!::fchown(fd, root ? static_cast<uid_t>(target.uid) : static_cast<uid_t>(-1), target.gid);
    (void)!::fchmod(fd, target.mode);
}

void render_to(int fd, const std::string& path, const std::function<void(const ByteSink&)>& render)
{
    try {
        render(fd_sink(fd));
    } catch (const WriteFailure& failure) {
        fail_errno(path, failure.error);
    }
}

void write_atomically(const OutputTarget& target, const std::function<void(const ByteSink&)>& render)
{
    const std::string directory = directory_of(target.path);
    TemporaryFile temp(directory, file_name_of(target.path));
    if (temp.fd() < 0) {
        const int error = temp.error();
        // A writable file in a folder where we may not create one (e.g. a
        // shared, root-owned folder): write it in place, as Netflix does,
        // from the finished output in memory, so only a write error (not a
        // failure while rendering) can leave it partial.
        if (target.exists && (error == EACCES || error == EPERM)) {
            std::string bytes;
            render([&bytes](const char* data, std::size_t size) { bytes.append(data, size); });
            const int fd = ::open(target.path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
            if (fd < 0) fail_errno(target.path, errno);
            int write_error = write_all(fd, bytes.data(), bytes.size());
            if (!write_error && ::fsync(fd) != 0) write_error = errno;
            if (::close(fd) != 0 && !write_error) write_error = errno;
            if (write_error) fail_errno(target.path, write_error);
            return;
        }
        fail(target.path, "cannot create a temporary file in " + directory + " (" + std::strerror(error) + ")");
    }
    keep_attributes(temp.fd(), target);
    render_to(temp.fd(), target.path, render);
    if (::fsync(temp.fd()) != 0) fail_errno(target.path, errno);
    if (const int error = temp.close()) fail_errno(target.path, error);
    if (const int error = temp.rename_to(target.path)) fail_errno(target.path, error);
}

void write_directly(int fd, const std::string& path, const std::function<void(const ByteSink&)>& render)
{
    try {
        render_to(fd, path, render);
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0 && errno != EINTR) fail_errno(path, errno);
}

int connect_socket(const std::string& path)
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    for (int type : {SOCK_STREAM, SOCK_SEQPACKET}) {
        const int fd = ::socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
        if (fd < 0) return -1;
        if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) return fd;
        const int error = errno;
        ::close(fd);
        errno = error;
        if (error != EPROTOTYPE) return -1;
    }
    return -1;
}

}  // namespace

OutputTarget resolve_output_target(const std::string& path)
{
    OutputTarget target;
    target.path = path;
    if (path.empty()) fail("''", "the output path is empty");
    if (path == "-") {
        target.kind = OutputTarget::Kind::kDescriptor;
        target.fd = STDOUT_FILENO;
        return target;
    }

    // Follow symbolic links ourselves, so that the temporary file is made
    // beside the real target and the rename replaces it, not the link.
    std::string current = path;
    for (int hops = 0;; ++hops) {
        if (hops > 40) fail_errno(path, ELOOP);
        if (const int fd = descriptor_path(current); fd >= 0) {
            target.kind = OutputTarget::Kind::kDescriptor;
            target.fd = fd;
            if (::fcntl(fd, F_GETFD) < 0) fail(path, "descriptor " + std::to_string(fd) + " is not open");
            return target;
        }
        struct stat st{};
        if (::lstat(current.c_str(), &st) != 0) {
            const int error = errno;
            if (error != ENOENT) fail_errno(path, error);
            // A new file: its folder must exist.
            const std::string directory = directory_of(current);
            struct stat dir{};
            if (::stat(directory.c_str(), &dir) != 0)
                fail(path, "folder " + directory + " does not exist (" + std::strerror(errno) + ")");
            if (!S_ISDIR(dir.st_mode)) fail(path, directory + " is not a folder");
            target.kind = OutputTarget::Kind::kAtomic;
            target.path = current;
            break;
        }
        if (S_ISLNK(st.st_mode)) {
            std::string link(4096, '\0');
            const ssize_t n = ::readlink(current.c_str(), link.data(), link.size());
            if (n < 0) fail_errno(path, errno);
            link.resize(static_cast<std::size_t>(n));
            if (link.empty()) fail_errno(path, ENOENT);
            // The kernel's "magic" links (/proc/<pid>/fd/N -> "pipe:[123]")
            // name no path: use what they open.
            if (link.front() != '/' && kernel_file_system(directory_of(current))) {
                if (::stat(current.c_str(), &st) != 0) fail_errno(path, errno);
                if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
                    fail(path, "it is a link of the kernel's to something that is not a device or a FIFO");
                target.kind = OutputTarget::Kind::kDevice;
                target.path = current;
                return target;
            }
            current = link.front() == '/' ? link : directory_of(current) + "/" + link;
            continue;
        }
        if (S_ISDIR(st.st_mode)) fail(path, "it is a folder; give a file name");
        target.path = current;
        if (S_ISREG(st.st_mode)) {
            target.kind = OutputTarget::Kind::kAtomic;
            target.exists = true;
            target.mode = st.st_mode & 07777;
            target.uid = st.st_uid;
            target.gid = st.st_gid;
            // Opening for writing (no truncation) tells whether we may.
            const int fd = ::open(current.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
            if (fd < 0) fail_errno(path, errno);
            ::close(fd);
        } else if (S_ISSOCK(st.st_mode)) {
            target.kind = OutputTarget::Kind::kSocket;
        } else {
            target.kind = OutputTarget::Kind::kDevice;  // character or block device, FIFO
        }
        break;
    }
    if (target.kind == OutputTarget::Kind::kAtomic) {
        if (const char* fs = kernel_file_system(directory_of(target.path)))
            fail(path, std::string("it is on the kernel's ") + fs + " file system, not a place for scores");
    }
    return target;
}

void write_output_bytes(const std::string& path, const std::function<void(const ByteSink&)>& render)
{
    const OutputTarget target = resolve_output_target(path);
    switch (target.kind) {
    case OutputTarget::Kind::kDescriptor:
        render_to(target.fd, path, render);
        return;
    case OutputTarget::Kind::kAtomic:
        write_atomically(target, render);
        return;
    case OutputTarget::Kind::kDevice: {
        // Never O_CREAT or O_TRUNC: if the node went away meanwhile, fail.
        const int fd = ::open(target.path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) fail_errno(path, errno);
        write_directly(fd, path, render);
        return;
    }
    case OutputTarget::Kind::kSocket: {
        const int fd = connect_socket(target.path);
        if (fd < 0) fail(path, std::string("cannot connect to the socket (") + std::strerror(errno) + ")");
        write_directly(fd, path, render);
        return;
    }
    }
}

void install_interrupt_cleanup()
{
    if (g_handlers_installed.exchange(true)) return;
    struct sigaction action{};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    for (int sig : kCleanupSignals) sigaddset(&action.sa_mask, sig);
    for (int sig : kCleanupSignals) ::sigaction(sig, &action, nullptr);
}

}  // namespace twinvmaf
