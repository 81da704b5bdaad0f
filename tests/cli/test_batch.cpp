// twinvmaf --batch LIST: many pairs in one process, each output the bytes of
// a single run of that pair (apart from fps), a failing pair reported and
// skipped, the exit status nonzero when any failed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <regex>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace twinvmaf::test;

namespace {

std::string y4m(unsigned w, unsigned h, unsigned frames, unsigned seed)
{
    std::string text = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 Ip C420jpeg\n";
    const std::size_t frame = std::size_t{w} * h + 2 * std::size_t{(w + 1) / 2} * ((h + 1) / 2);
    for (unsigned f = 0; f < frames; ++f) {
        std::string bytes(frame, '\0');
        for (std::size_t i = 0; i < frame; ++i) bytes[i] = static_cast<char>((i * 7 + f * 3 + seed * (i % 5)) & 0xff);
        text += "FRAME\n" + bytes;
    }
    return text;
}

struct Entry {
    std::string line;          // of the list
    std::string single_args;   // the same pair as a single run ("" for a pair that fails)
    fs::path output;
};

class Batch : public testing::Test {
protected:
    void SetUp() override
    {
        const fs::path f = fixtures_dir();
        if (!fs::exists(f / "vtest_576x324_420p8" / "ref.yuv")) GTEST_SKIP() << "no fixtures at " << f;
        write_file(dir / "ref.y4m", y4m(48, 34, 4, 1));
        write_file(dir / "dis.y4m", y4m(48, 34, 4, 2));
        auto raw = [&](const std::string& fixture, const std::string& geometry, const std::string& out) {
            const std::string ref = shell_quote((f / fixture / "ref.yuv").string());
            const std::string dis = shell_quote((f / fixture / "dis.yuv").string());
            return Entry{ref + " " + dis + " " + geometry + " output=" + shell_quote((dir / out).string()),
                         "-r " + ref + " -d " + dis + " " + cli_geometry(geometry), dir / out};
        };
        entries = {
            raw("vtest_576x324_420p8", "width=576 height=324 pixel_format=420 bitdepth=8", "vtest.json"),
            raw("noise_33x33_420p10", "w=33 h=33 p=420 b=10", "noise.json"),
            Entry{shell_quote((dir / "missing.yuv").string()) + " " + shell_quote((dir / "dis.y4m").string()) +
                      " output=" + shell_quote((dir / "missing.json").string()),
                  "", dir / "missing.json"},
            Entry{shell_quote((dir / "ref.y4m").string()) + " " + shell_quote((dir / "dis.y4m").string()) +
                      " output=" + shell_quote((dir / "y4m.json").string()),
                  "-r " + shell_quote((dir / "ref.y4m").string()) + " -d " + shell_quote((dir / "dis.y4m").string()),
                  dir / "y4m.json"},
            Entry{"a.yuv b.yuv w=4", "", dir / "none"},
            raw("box_640x480_422p10", "w=640 h=480 p=422 b=10", "box.json"),
        };
    }

    static std::string cli_geometry(const std::string& keys)
    {
        std::string args = keys;
        for (const auto& [from, to] : {std::pair{"width=", "-w "}, {"height=", "-h "}, {"pixel_format=", "-p "},
                                       {"bitdepth=", "-b "}, {"w=", "-w "}, {"h=", "-h "}, {"p=", "-p "}, {"b=", "-b "}})
            args = std::regex_replace(args, std::regex(std::string("\\b") + from), to);
        return args;
    }

    fs::path write_list(const std::vector<Entry>& list, const std::string& name = "list.txt")
    {
        std::string text = "# pairs of the test\n\n";
        for (const Entry& entry : list) text += entry.line + "\n";
        write_file(dir / name, text);
        return dir / name;
    }

    TempDir dir;
    std::vector<Entry> entries;
    const std::string options = "--frame_cnt 3 --feature psnr --json --precision max -q";
};

TEST_F(Batch, EachPairAsItsSingleRunAndFailuresReported)
{
    const auto r = run_cli("--batch " + shell_quote(write_list(entries).string()) + " --threads 2 " + options);
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    // The missing file and the bad line, each named by pair and line.
    EXPECT_NE(r.stderr_text.find("twinvmaf: error: pair 3/6 (line 5): "), std::string::npos) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("missing.yuv"), std::string::npos) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("twinvmaf: error: pair 5/6 (line 7): bad line: raw geometry needs all of"),
              std::string::npos)
        << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("twinvmaf: batch: 4 of 6 pairs scored, 2 failed"), std::string::npos)
        << r.stderr_text;
    for (const Entry& entry : entries) {
        if (entry.single_args.empty()) {
            EXPECT_FALSE(fs::exists(entry.output)) << entry.output;
            continue;
        }
        ASSERT_TRUE(fs::exists(entry.output)) << entry.line;
        const auto single = run_cli(entry.single_args + " --threads 2 " + options + " -o -");
        ASSERT_EQ(single.exit_code, 0) << single.stderr_text;
        EXPECT_EQ(strip_fps(read_file(entry.output)), strip_fps(single.stdout_text)) << entry.line;
    }
    // No temporary output is left behind.
    for (const auto& file : fs::directory_iterator(dir.path()))
        EXPECT_EQ(file.path().filename().string().find(".twinvmaf-"), std::string::npos) << file.path();
}

TEST_F(Batch, SameBytesForAnyThreadCount)
{
    std::vector<Entry> good;
    for (const Entry& entry : entries)
        if (!entry.single_args.empty()) good.push_back(entry);
    const fs::path list = write_list(good);
    std::vector<std::string> first;
    for (const char* threads : {"1", "3"}) {
        const auto r = run_cli("--batch " + shell_quote(list.string()) + " --threads " + threads + " " + options +
                               " --model version=vmaf_v0.6.1");
        ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
        for (std::size_t i = 0; i < good.size(); ++i) {
            const std::string text = strip_fps(read_file(good[i].output));
            EXPECT_NE(text.find("\"vmaf\""), std::string::npos);
            if (first.size() < good.size()) first.push_back(text);
            else EXPECT_EQ(text, first[i]) << good[i].line;
            fs::remove(good[i].output);
        }
    }
}

TEST_F(Batch, DefaultOutputsCommandLineGeometryAndDuplicates)
{
    const fs::path f = fixtures_dir() / "noise_33x33_420p8";
    const std::string ref = shell_quote((f / "ref.yuv").string()), dis = shell_quote((f / "dis.yuv").string());
    fs::create_directory(dir / "scores");
    // Geometry from -w -h -p -b; an output= that another pair's default would
    // take fails that pair.
    // (A .y4m pair would be refused here: the command line's geometry must
    // agree with a Y4M header, as in a single run.)
    write_file(dir / "list.txt", ref + " " + dis + "\n" + ref + " " + dis + " output=" +
                                     shell_quote((dir / "scores" / "dis.yuv.json").string()) + "\n" +
                                     shell_quote((dir / "ref.y4m").string()) + " " +
                                     shell_quote((dir / "dis.y4m").string()) + "\n");
    const auto r = run_cli("--batch " + shell_quote((dir / "list.txt").string()) + " -w 33 -h 33 -p 420 -b 8 -o " +
                           shell_quote((dir / "scores").string()) + " " + options);
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    EXPECT_TRUE(fs::exists(dir / "scores" / "dis.yuv.json"));
    EXPECT_FALSE(fs::exists(dir / "scores" / "dis.y4m.json"));
    EXPECT_NE(r.stderr_text.find("pair 3/3 (line 3): "), std::string::npos) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("batch: 1 of 3 pairs scored, 2 failed"), std::string::npos) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("pair 2/3 (line 2): output "), std::string::npos) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("is written by line 1 already"), std::string::npos) << r.stderr_text;

    // Without -o: beside the distorted file.
    write_file(dir / "list2.txt", shell_quote((dir / "ref.y4m").string()) + " " +
                                      shell_quote((dir / "dis.y4m").string()) + "\n");
    const auto beside = run_cli("--batch " + shell_quote((dir / "list2.txt").string()) + " --xml -q");
    EXPECT_EQ(beside.exit_code, 0) << beside.stderr_text;
    EXPECT_TRUE(fs::exists(dir / "dis.y4m.xml"));
}

TEST_F(Batch, ProblemsOfTheWholeBatchStopItAtOnce)
{
    const fs::path list = write_list(entries);
    auto r = run_cli("--batch " + shell_quote(list.string()) + " -r x.yuv " + options);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.stderr_text.find("--batch takes its pairs from the list; give no -r/-d with it"), std::string::npos);
    // An unreadable list says why.
    r = run_cli("--batch " + shell_quote((dir / "no_list.txt").string()) + " " + options);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.stderr_text.find("twinvmaf: error: --batch " + (dir / "no_list.txt").string() +
                                 ": cannot read the list: No such file or directory\n"),
              std::string::npos)
        << r.stderr_text;
    r = run_cli("--batch " + shell_quote(dir.path().string()) + " " + options);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.stderr_text.find(": cannot read the list: it is a folder, not a list file\n"), std::string::npos)
        << r.stderr_text;
    if (geteuid() != 0) {  // root reads a file of mode 000
        write_file(dir / "locked.txt", entries[0].line + "\n");
        fs::permissions(dir / "locked.txt", fs::perms::none);
        r = run_cli("--batch " + shell_quote((dir / "locked.txt").string()) + " " + options);
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_NE(r.stderr_text.find(": cannot read the list: Permission denied\n"), std::string::npos)
            << r.stderr_text;
    }
    write_file(dir / "empty.txt", "# nothing\n\n");
    r = run_cli("--batch " + shell_quote((dir / "empty.txt").string()) + " " + options);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.stderr_text.find("the list names no pair"), std::string::npos) << r.stderr_text;
    r = run_cli("--batch " + shell_quote(list.string()) + " -o " + shell_quote((dir / "ref.y4m").string()) + " " +
                options);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.stderr_text.find("is not a folder"), std::string::npos) << r.stderr_text;
    // -o DIR that does not exist says so (and is not taken for a file name).
    r = run_cli("--batch " + shell_quote(list.string()) + " -o " + shell_quote((dir / "no_dir").string()) + " " +
                options);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.stderr_text.find("twinvmaf: error: --batch: -o " + (dir / "no_dir").string() +
                                 ": no such folder (create it first; -o names the folder each pair's output "
                                 "goes to)\n"),
              std::string::npos)
        << r.stderr_text;
    EXPECT_FALSE(fs::exists(dir / "no_dir"));
    // A feature that does not exist fails every pair alike: said once.
    r = run_cli("--batch " + shell_quote(list.string()) + " --feature no_such_feature -q");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.stderr_text.find("twinvmaf: error: unknown feature 'no_such_feature'"), std::string::npos)
        << r.stderr_text;
    EXPECT_EQ(r.stderr_text.find("pair 1/"), std::string::npos) << r.stderr_text;
    for (const Entry& entry : entries) EXPECT_FALSE(fs::exists(entry.output)) << entry.output;
}

// On a terminal each pair's progress line starts with the pair's place in the
// list (script(1) gives the CLI a pseudo-terminal for stderr).
TEST_F(Batch, ProgressLineNamesThePair)
{
    std::vector<Entry> good;
    for (const Entry& entry : entries)
        if (!entry.single_args.empty()) good.push_back(entry);
    const std::string command = std::string(TWINVMAF_CLI) + " --batch " + shell_quote(write_list(good).string()) +
                                " --frame_cnt 3 --feature psnr --json";
    const auto r = run_command("script -qec " + shell_quote(command) + " /dev/null");
    ASSERT_EQ(r.exit_code, 0) << r.stdout_text << r.stderr_text;
    for (std::size_t i = 0; i < good.size(); ++i) {
        const std::string pair = "pair " + std::to_string(i + 1) + "/" + std::to_string(good.size());
        EXPECT_NE(r.stdout_text.find("\r" + pair + " (line "), std::string::npos) << pair << ":\n" << r.stdout_text;
    }
    EXPECT_NE(r.stdout_text.find("3/3 frames"), std::string::npos) << r.stdout_text;
}

}  // namespace
