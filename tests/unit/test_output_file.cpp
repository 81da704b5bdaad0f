// The output path is written safely (src/output/output_file.h): regular files
// atomically in their real folder, links followed and kept, permissions
// kept, devices, FIFOs and sockets written directly and never replaced,
// folders refused, nothing left behind by a failure or an interrupt.
//
// Every case runs twice: as root and as an ordinary user (nobody, 65534),
// each in a child process, since as root a test may create device nodes in
// its own folder and some cases (a read-only file) differ for root. Not as
// root, the root variant skips and says so. The system's /dev is never used.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "output/output_file.h"
#include "test_support.h"
#include "twinvmaf/error.h"

namespace twinvmaf {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::write_file;

enum class User { kRoot, kNobody };
constexpr uid_t kNobody = 65534;

std::string user_name(User user) { return user == User::kRoot ? "root" : "nobody"; }

// What a child reports: "" when every check held, else the first failure.
using Body = std::function<std::string()>;

struct ChildResult {
    std::string failure;  // from the body, or how the child ended
    int signal = 0;       // the signal that ended it, if any
    std::string stderr_text;
};

// Runs body in a child process as `user` (root: as we are, which must be
// root; nobody: privileges dropped when we are root, else as we are).
ChildResult run_in_child(User user, const Body& body)
{
    int report[2], errors[2];
    if (::pipe(report) != 0 || ::pipe(errors) != 0) throw std::runtime_error("pipe");
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(report[0]);
        ::close(errors[0]);
        ::dup2(errors[1], STDERR_FILENO);
        std::string failure;
        if (user == User::kNobody && ::geteuid() == 0) {
            if (::setgroups(0, nullptr) != 0 || ::setresgid(kNobody, kNobody, kNobody) != 0 ||
                ::setresuid(kNobody, kNobody, kNobody) != 0)
                failure = "cannot become nobody";
        }
        if (failure.empty()) {
            try {
                failure = body();
            } catch (const std::exception& e) {
                failure = std::string("unexpected exception: ") + e.what();
            }
        }
        (void)!::write(report[1], failure.data(), failure.size());
        ::_exit(0);
    }
    ::close(report[1]);
    ::close(errors[1]);
    ChildResult result;
    char buf[4096];
    for (ssize_t n; (n = ::read(report[0], buf, sizeof buf)) > 0;) result.failure.append(buf, n);
    for (ssize_t n; (n = ::read(errors[0], buf, sizeof buf)) > 0;) result.stderr_text.append(buf, n);
    ::close(report[0]);
    ::close(errors[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) result.failure += " (child exit " + std::to_string(status) + ")";
    return result;
}

// A folder every user may write in (removed by the test, as root).
struct SharedDir {
    test::TempDir dir;
    SharedDir() { fs::permissions(dir.path(), fs::perms::all); }
    fs::path operator/(const std::string& name) const { return dir / name; }
    // A file of the test user's own (as root: made over to nobody, so that
    // both variants own what they write over).
    void own_file(const fs::path& path, const std::string& bytes) const
    {
        write_file(path, bytes);
        if (::geteuid() == 0) (void)!::lchown(path.c_str(), kNobody, kNobody);
    }
    std::vector<std::string> entries() const
    {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
};

// Writes `text` through the module; "" or the error's message.
std::string write_text(const fs::path& path, const std::string& text)
{
    try {
        write_output_bytes(path.string(), [&](const ByteSink& sink) { sink(text.data(), text.size()); });
        return "";
    } catch (const Error& e) {
        return e.what();
    }
}

std::string expect_equal(const std::string& what, const std::string& got, const std::string& want)
{
    return got == want ? "" : what + ": got '" + got + "', want '" + want + "'";
}

class OutputFile : public testing::TestWithParam<User> {
protected:
    void SetUp() override
    {
        if (GetParam() == User::kRoot && ::geteuid() != 0)
            GTEST_SKIP() << "not running as root: the root variant of this case did not run";
    }
    // Runs body as the test's user and fails the test with its report.
    void run(const Body& body)
    {
        const ChildResult r = run_in_child(GetParam(), body);
        EXPECT_EQ(r.failure, "") << "as " << user_name(GetParam());
        EXPECT_EQ(r.signal, 0) << r.stderr_text;
    }
};

TEST_P(OutputFile, NewFileIsCreatedWithNothingElseLeft)
{
    SharedDir dir;
    run([&] {
        if (auto f = write_text(dir / "out.json", "{}\n"); !f.empty()) return f;
        return expect_equal("content", read_file(dir / "out.json"), "{}\n");
    });
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.json"});
}

TEST_P(OutputFile, ExistingFileIsReplacedAndKeepsItsPermissions)
{
    SharedDir dir;
    dir.own_file(dir / "out.xml", std::string(100000, 'x'));
    fs::permissions(dir / "out.xml", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                                         fs::perms::others_write);  // 0642: a mode no umask gives
    run([&] {
        if (auto f = write_text(dir / "out.xml", "<VMAF/>\n"); !f.empty()) return f;
        if (auto f = expect_equal("content", read_file(dir / "out.xml"), "<VMAF/>\n"); !f.empty()) return f;
        struct stat st{};
        ::stat((dir / "out.xml").c_str(), &st);
        return expect_equal("mode", std::to_string(st.st_mode & 07777), std::to_string(0642));
    });
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.xml"});
}

TEST_P(OutputFile, SymbolicLinksAreFollowedAndStayLinks)
{
    SharedDir dir;
    fs::create_directory(dir / "real");
    fs::permissions(dir / "real", fs::perms::all);
    dir.own_file(dir / "real" / "scores.json", "old");
    fs::create_symlink("real/scores.json", dir / "link1");  // relative to the link's folder
    fs::create_symlink(dir / "link1", dir / "link2");       // a chain, absolute
    fs::create_symlink("real/new.json", dir / "dangling");  // target does not exist yet
    run([&] {
        if (auto f = write_text(dir / "link2", "via two links"); !f.empty()) return f;
        if (auto f = expect_equal("target", read_file(dir / "real" / "scores.json"), "via two links"); !f.empty())
            return f;
        if (auto f = write_text(dir / "dangling", "made"); !f.empty()) return f;
        return expect_equal("dangling target", read_file(dir / "real" / "new.json"), "made");
    });
    EXPECT_TRUE(fs::is_symlink(dir / "link1"));
    EXPECT_TRUE(fs::is_symlink(dir / "link2"));
    EXPECT_TRUE(fs::is_symlink(dir / "dangling"));
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"dangling", "link1", "link2", "real"}));
    std::vector<std::string> real;
    for (const auto& e : fs::directory_iterator(dir / "real")) real.push_back(e.path().filename().string());
    std::sort(real.begin(), real.end());
    EXPECT_EQ(real, (std::vector<std::string>{"new.json", "scores.json"}));
}

TEST_P(OutputFile, FolderIsAClearErrorAndUntouched)
{
    SharedDir dir;
    fs::create_directory(dir / "results");
    write_file(dir / "results" / "keep", "k");
    fs::create_symlink("results", dir / "link_to_folder");
    run([&] {
        const std::string a = write_text(dir / "results", "x");
        const std::string b = write_text(dir / "link_to_folder", "x");
        const std::string want_a = (dir / "results").string() + ": cannot write output: it is a folder; give a file name";
        const std::string want_b =
            (dir / "link_to_folder").string() + ": cannot write output: it is a folder; give a file name";
        if (auto f = expect_equal("folder", a, want_a); !f.empty()) return f;
        return expect_equal("link to a folder", b, want_b);
    });
    EXPECT_EQ(read_file(dir / "results" / "keep"), "k");
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"link_to_folder", "results"}));
}

TEST_P(OutputFile, MissingFolderIsAClearError)
{
    SharedDir dir;
    run([&] {
        return expect_equal("message", write_text(dir / "no" / "out.json", "x"),
                            (dir / "no" / "out.json").string() + ": cannot write output: folder " +
                                (dir / "no").string() + " does not exist (No such file or directory)");
    });
    EXPECT_TRUE(dir.entries().empty());
}

TEST_P(OutputFile, ReadOnlyFileIsRefusedForAnOrdinaryUser)
{
    SharedDir dir;
    dir.own_file(dir / "ro.json", "keep");
    fs::permissions(dir / "ro.json", fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    run([&] {
        const std::string got = write_text(dir / "ro.json", "new");
        if (::geteuid() == 0) {
            // Root may write any file (as with Netflix's CLI); the mode stays.
            if (!got.empty()) return got;
            return expect_equal("content", read_file(dir / "ro.json"), "new");
        }
        return expect_equal("message", got, (dir / "ro.json").string() + ": cannot write output: Permission denied");
    });
    struct stat st{};
    ::stat((dir / "ro.json").c_str(), &st);
    EXPECT_EQ(st.st_mode & 07777, 0444u);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"ro.json"});
}

TEST_P(OutputFile, WritableFileInAFolderWeCannotWriteIsWrittenInPlace)
{
    // A folder only its owner may write, with a file everyone may: there is
    // no room for a temporary file, so the file is written in place.
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to make a folder the test user cannot write";
    SharedDir dir;
    fs::create_directory(dir / "locked");
    write_file(dir / "locked" / "out.csv", "old contents, longer than the new");
    fs::permissions(dir / "locked" / "out.csv", fs::perms::all);
    fs::permissions(dir / "locked", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                        fs::perms::others_read | fs::perms::others_exec);
    if (GetParam() == User::kRoot) GTEST_SKIP() << "root may write the folder; the case is an ordinary user's";
    run([&] {
        if (auto f = write_text(dir / "locked" / "out.csv", "new\n"); !f.empty()) return f;
        return expect_equal("content", read_file(dir / "locked" / "out.csv"), "new\n");
    });
}

TEST_P(OutputFile, FailedRenderLeavesTheOldFileAndNothingElse)
{
    SharedDir dir;
    dir.own_file(dir / "out.json", "previous run");
    run([&] {
        try {
            write_output_bytes((dir / "out.json").string(), [](const ByteSink& sink) {
                sink("partial", 7);
                throw Error("scoring failed");
            });
            return std::string("no error");
        } catch (const Error& e) {
            return expect_equal("message", e.what(), "scoring failed");
        }
    });
    EXPECT_EQ(read_file(dir / "out.json"), "previous run");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.json"});
}

TEST_P(OutputFile, InterruptWhileWritingRemovesTheTemporaryFile)
{
    SharedDir dir;
    dir.own_file(dir / "out.json", "previous run");
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        const ChildResult r = run_in_child(GetParam(), [&] {
            install_interrupt_cleanup();
            write_output_bytes((dir / "out.json").string(), [&](const ByteSink& sink) {
                sink("half of it", 10);
                ::raise(sig);  // as if the user pressed ^C now
            });
            return std::string("the signal did not end the process");
        });
        EXPECT_EQ(r.signal, sig) << r.failure;
        EXPECT_NE(r.stderr_text.find("twinvmaf: interrupted by SIG"), std::string::npos) << r.stderr_text;
        EXPECT_NE(r.stderr_text.find("no output written"), std::string::npos) << r.stderr_text;
        EXPECT_EQ(read_file(dir / "out.json"), "previous run");
        EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.json"});
    }
}

TEST_P(OutputFile, FifoIsWrittenDirectlyAndStaysAFifo)
{
    SharedDir dir;
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0666), 0);
    fs::permissions(fifo, fs::perms::all);
    std::string received;
    std::thread reader([&] { received = read_file(fifo); });  // opening blocks until the writer opens
    run([&] { return write_text(fifo, std::string(200000, 'f')); });
    reader.join();
    EXPECT_EQ(received, std::string(200000, 'f'));
    EXPECT_TRUE(fs::is_fifo(fifo));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"pipe"});
}

TEST_P(OutputFile, SocketIsConnectedToAndStaysASocket)
{
    SharedDir dir;
    const fs::path path = dir / "scores.sock";
    const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    fs::permissions(path, fs::perms::all);
    ASSERT_EQ(::listen(listener, 1), 0);
    std::string received;
    std::thread reader([&] {
        const int peer = ::accept(listener, nullptr, nullptr);
        char buf[65536];
        for (ssize_t n; (n = ::read(peer, buf, sizeof buf)) > 0;) received.append(buf, n);
        ::close(peer);
    });
    run([&] { return write_text(path, "over a socket\n"); });
    reader.join();
    ::close(listener);
    EXPECT_EQ(received, "over a socket\n");
    EXPECT_TRUE(fs::is_socket(path));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"scores.sock"});
}

TEST_P(OutputFile, DeviceNodesAreWrittenThroughAndAWriteErrorSaysWhy)
{
    // Our own nodes with the numbers of /dev/null (1,3) and /dev/full (1,7).
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to make device nodes (mknod)";
    SharedDir dir;
    ASSERT_EQ(::mknod((dir / "null").c_str(), S_IFCHR | 0666, makedev(1, 3)), 0) << std::strerror(errno);
    ASSERT_EQ(::mknod((dir / "full").c_str(), S_IFCHR | 0666, makedev(1, 7)), 0);
    // mknod applies the umask; the test user must be able to open them.
    for (const char* name : {"null", "full"}) fs::permissions(dir / name, static_cast<fs::perms>(0666));
    fs::create_symlink("null", dir / "null_link");
    run([&] {
        if (auto f = write_text(dir / "null", "discarded"); !f.empty()) return f;
        if (auto f = write_text(dir / "null_link", "discarded"); !f.empty()) return f;
        return expect_equal("full", write_text(dir / "full", "no room"),
                            (dir / "full").string() + ": cannot write output: No space left on device");
    });
    for (const char* name : {"null", "full"}) {
        struct stat st{};
        ASSERT_EQ(::lstat((dir / name).c_str(), &st), 0);
        EXPECT_TRUE(S_ISCHR(st.st_mode)) << name << " is no longer a character device";
    }
    EXPECT_TRUE(fs::is_symlink(dir / "null_link"));
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"full", "null", "null_link"}));
}

TEST_P(OutputFile, KernelFilesAreRefusedBeforeAnythingIsWritten)
{
    // Only resolved, never written: resolving opens nothing of /proc for writing
    // but the existing file (without truncating), which changes nothing.
    run([&] {
        for (const char* path : {"/proc/version", "/proc/self/new_file", "/sys/kernel/new_file"}) {
            try {
                resolve_output_target(path);
                return std::string(path) + ": no error";
            } catch (const Error& e) {
                const std::string m = e.what();
                if (m.rfind(std::string(path) + ": cannot write output: ", 0) != 0) return m;
            }
        }
        return std::string();
    });
}

TEST_P(OutputFile, StandardStreamPathsAreTheProcessDescriptors)
{
    run([&] {
        const OutputTarget a = resolve_output_target("/dev/stdout");
        const OutputTarget b = resolve_output_target("-");
        const OutputTarget c = resolve_output_target("/proc/self/fd/2");
        if (a.kind != OutputTarget::Kind::kDescriptor || a.fd != 1) return std::string("/dev/stdout");
        if (b.kind != OutputTarget::Kind::kDescriptor || b.fd != 1) return std::string("-");
        if (c.kind != OutputTarget::Kind::kDescriptor || c.fd != 2) return std::string("/proc/self/fd/2");
        try {
            resolve_output_target("/dev/fd/987");
            return std::string("/dev/fd/987: no error");
        } catch (const Error& e) {
            return expect_equal("closed descriptor", e.what(),
                                "/dev/fd/987: cannot write output: descriptor 987 is not open");
        }
    });
}

INSTANTIATE_TEST_SUITE_P(AsRootAndAsNobody, OutputFile, testing::Values(User::kRoot, User::kNobody),
                         [](const auto& info) { return user_name(info.param); });

}  // namespace
}  // namespace twinvmaf
