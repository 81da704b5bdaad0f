// The CLI's -o end to end: what output/output_file.h promises, through the
// command (the module's own cases are tests/unit/test_output_file.cpp):
// a folder fails before any input is read, links are written through,
// a write error (ENOSPC) says why and leaves nothing, and SIGINT / SIGTERM
// during a run end it with a message and without any file. As root the
// cases also run as an ordinary user (setpriv to nobody).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace twinvmaf::test;

namespace {

// A tiny 8-bit 4:2:0 Y4M of `frames` frames.
std::string y4m_clip(unsigned frames, unsigned seed)
{
    const unsigned w = 32, h = 18;
    std::string text = "YUV4MPEG2 W32 H18 F25:1 Ip C420jpeg\n";
    const std::size_t frame = w * h + 2 * (w / 2) * (h / 2);
    for (unsigned f = 0; f < frames; ++f) {
        text += "FRAME\n";
        for (std::size_t i = 0; i < frame; ++i) text += static_cast<char>((i * 7 + seed * 13 + f * 3) & 0xff);
    }
    return text;
}

std::vector<std::string> entries(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// Opens a FIFO for writing once its reader has opened it (for at most 10 s,
// so that a CLI which never opens it fails the test instead of hanging it).
int open_fifo_writer(const fs::path& fifo)
{
    for (int tries = 0; tries < 1000; ++tries) {
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) {
            ::fcntl(fd, F_SETFL, 0);  // blocking writes from here on
            return fd;
        }
        if (errno != ENXIO) return -1;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
}

// The prefix that runs the CLI as nobody (only when we are root).
std::string as_user(bool nobody)
{
    return nobody ? "setpriv --reuid=65534 --regid=65534 --clear-groups -- " : "";
}

class CliOutput : public testing::TestWithParam<bool> {
protected:
    void SetUp() override
    {
        nobody_ = GetParam();
        if (nobody_ && ::geteuid() != 0)
            GTEST_SKIP() << "not running as root: the ordinary-user variant runs as the current user already";
        fs::permissions(dir_.path(), fs::perms::all);
        write_file(dir_ / "ref.y4m", y4m_clip(3, 1));
        write_file(dir_ / "dis.y4m", y4m_clip(3, 2));
    }

    CommandResult run(const std::string& output)
    {
        const std::string args = "-r " + shell_quote(dir_ / "ref.y4m") + " -d " + shell_quote(dir_ / "dis.y4m") +
                                 " -n --feature psnr --json -o " + shell_quote(output) + " --threads 1";
        return run_cli_as(as_user(nobody_), args);
    }

    // run_cli with a prefix before the command (setpriv ...).
    static CommandResult run_cli_as(const std::string& prefix, const std::string& args)
    {
        if (prefix.empty()) return run_cli(args);
        // run_cli quotes the CLI itself; a prefix goes through the shell.
        TempDir tmp;
        fs::permissions(tmp.path(), fs::perms::all);
        const std::string command = prefix + shell_quote(TWINVMAF_CLI) + " " + args + " >" +
                                    shell_quote(tmp / "out") + " 2>" + shell_quote(tmp / "err") + " </dev/null";
        const int status = std::system(command.c_str());
        CommandResult r;
        r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        r.stdout_text = read_file(tmp / "out");
        r.stderr_text = read_file(tmp / "err");
        return r;
    }

    TempDir dir_;
    bool nobody_ = false;
};

TEST_P(CliOutput, LinkIsWrittenThroughAndStaysALink)
{
    fs::create_directory(dir_ / "results");
    fs::permissions(dir_ / "results", fs::perms::all);
    fs::create_symlink("results/psnr.json", dir_ / "latest.json");
    const auto linked = run((dir_ / "latest.json").string());
    ASSERT_EQ(linked.exit_code, 0) << linked.stderr_text;
    EXPECT_TRUE(fs::is_symlink(dir_ / "latest.json"));
    const auto direct = run((dir_ / "direct.json").string());
    ASSERT_EQ(direct.exit_code, 0) << direct.stderr_text;
    const auto without_fps = [](std::string text) {
        const auto at = text.find("\"fps\"");
        return text.erase(at, text.find('\n', at) - at);
    };
    EXPECT_EQ(without_fps(read_file(dir_ / "results" / "psnr.json")), without_fps(read_file(dir_ / "direct.json")));
    EXPECT_EQ(entries(dir_ / "results"), std::vector<std::string>{"psnr.json"});
}

TEST_P(CliOutput, FolderFailsBeforeAnyInputIsRead)
{
    // The inputs are FIFOs nobody writes: reading them would block forever,
    // so a quick, clear failure shows the path was checked first.
    fs::remove(dir_ / "ref.y4m");
    fs::remove(dir_ / "dis.y4m");
    ASSERT_EQ(::mkfifo((dir_ / "ref.y4m").c_str(), 0666), 0);
    ASSERT_EQ(::mkfifo((dir_ / "dis.y4m").c_str(), 0666), 0);
    fs::create_directory(dir_ / "out");
    const auto start = std::chrono::steady_clock::now();
    const auto r = run((dir_ / "out").string());
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.stderr_text, "twinvmaf: error: " + (dir_ / "out").string() +
                                 ": cannot write output: it is a folder; give a file name\n");
    EXPECT_TRUE(fs::is_empty(dir_ / "out"));
}

TEST_P(CliOutput, FullDeviceSaysWhyAndStaysADevice)
{
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to make a device node like /dev/full (mknod)";
    ASSERT_EQ(::mknod((dir_ / "full").c_str(), S_IFCHR | 0666, makedev(1, 7)), 0) << std::strerror(errno);
    fs::permissions(dir_ / "full", static_cast<fs::perms>(0666));
    const auto r = run((dir_ / "full").string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.stderr_text, "twinvmaf: error: " + (dir_ / "full").string() +
                                 ": cannot write output: No space left on device\n");
    struct stat st{};
    ASSERT_EQ(::lstat((dir_ / "full").c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
    EXPECT_EQ(entries(dir_.path()), (std::vector<std::string>{"dis.y4m", "full", "ref.y4m"}));
}

TEST_P(CliOutput, InterruptDuringARunLeavesNoFileAndSaysWhy)
{
    // The inputs are FIFOs fed with a header and one frame, then held open:
    // the run has started scoring and waits for the next frame when the
    // signal comes.
    for (int sig : {SIGINT, SIGTERM}) {
        TempDir run_dir;
        fs::permissions(run_dir.path(), fs::perms::all);
        const fs::path ref = run_dir / "ref.y4m", dis = run_dir / "dis.y4m", out = run_dir / "out.json";
        ASSERT_EQ(::mkfifo(ref.c_str(), 0666), 0);
        ASSERT_EQ(::mkfifo(dis.c_str(), 0666), 0);
        fs::permissions(ref, fs::perms::all);
        fs::permissions(dis, fs::perms::all);
        const std::string command = "exec " + as_user(nobody_) + shell_quote(TWINVMAF_CLI) + " -r " +
                                    shell_quote(ref) + " -d " + shell_quote(dis) + " -n --feature psnr -o " +
                                    shell_quote(out) + " 2>" + shell_quote(run_dir / "err");
        const pid_t pid = ::fork();
        if (pid == 0) {
            ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        const std::string clip = y4m_clip(2, 1);
        const std::string one_frame = clip.substr(0, clip.size() - (clip.size() - 36) / 2);
        // The CLI opens (and reads the header of) the reference first.
        const auto feed = [&](const fs::path& fifo) {
            const int fd = open_fifo_writer(fifo);
            if (fd >= 0 && ::write(fd, one_frame.data(), one_frame.size()) != static_cast<ssize_t>(one_frame.size())) {
                ::close(fd);
                return -1;
            }
            return fd;
        };
        const int ref_writer = feed(ref);
        const int dis_writer = ref_writer < 0 ? -1 : feed(dis);
        const bool fed = ref_writer >= 0 && dis_writer >= 0;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        ASSERT_EQ(::kill(pid, sig), 0);
        int status = 0;
        ::waitpid(pid, &status, 0);
        ::close(ref_writer);
        ::close(dis_writer);
        ASSERT_TRUE(fed) << "the CLI did not open its inputs: " << read_file(run_dir / "err");
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "status " << status;
        EXPECT_EQ(read_file(run_dir / "err"),
                  std::string("twinvmaf: interrupted by ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") +
                      "; no output written\n");
        EXPECT_EQ(entries(run_dir.path()), (std::vector<std::string>{"dis.y4m", "err", "ref.y4m"}));
    }
}

INSTANTIATE_TEST_SUITE_P(AsInvokedAndAsNobody, CliOutput, testing::Values(false, true),
                         [](const auto& info) { return info.param ? "nobody" : "invoking_user"; });

}  // namespace
