// The --batch list format (src/cli/batch.h).
#include <gtest/gtest.h>

#include "cli/batch.h"

using namespace twinvmaf;
using namespace twinvmaf::cli;

TEST(BatchList, PairsGeometryOutputsAndComments)
{
    const auto pairs = parse_batch_list(
        "# comment\n"
        "\n"
        "   \t\n"
        "ref.y4m dis.y4m\n"
        "a.yuv b.yuv width=576 height=324 pixel_format=420 bitdepth=10 output=out/1.json\r\n"
        "  \"my ref.yuv\"\t\"my \\\"dis\\\".yuv\" w=17 h=19 p=444 b=8 o=\"out dir/2.xml\"\n"
        "  # indented comment\n"
        "last.y4m last_dis.y4m\n"
        "'single quoted\\.yuv' o='x \"y\".json'");
    ASSERT_EQ(pairs.size(), 5u);
    EXPECT_EQ(pairs[0].line, 4u);
    EXPECT_EQ(pairs[0].reference, "ref.y4m");
    EXPECT_EQ(pairs[0].distorted, "dis.y4m");
    EXPECT_FALSE(pairs[0].raw_format);
    EXPECT_TRUE(pairs[0].output.empty());
    EXPECT_TRUE(pairs[0].error.empty());

    EXPECT_EQ(pairs[1].line, 5u);
    ASSERT_TRUE(pairs[1].raw_format);
    EXPECT_EQ(*pairs[1].raw_format, (VideoFormat{576, 324, ChromaFormat::k420, 10}));
    EXPECT_EQ(pairs[1].output, "out/1.json");
    EXPECT_TRUE(pairs[1].error.empty()) << pairs[1].error;

    EXPECT_EQ(pairs[2].reference, "my ref.yuv");
    EXPECT_EQ(pairs[2].distorted, "my \"dis\".yuv");
    ASSERT_TRUE(pairs[2].raw_format);
    EXPECT_EQ(*pairs[2].raw_format, (VideoFormat{17, 19, ChromaFormat::k444, 8}));
    EXPECT_EQ(pairs[2].output, "out dir/2.xml");

    EXPECT_EQ(pairs[3].line, 8u);
    EXPECT_EQ(pairs[3].distorted, "last_dis.y4m");
    // Single quotes take backslashes and double quotes as they are.
    EXPECT_EQ(pairs[4].reference, "single quoted\\.yuv");
    EXPECT_EQ(pairs[4].distorted, "o=x \"y\".json");
}

TEST(BatchList, AMalformedLineFailsItsOwnPair)
{
    const auto pairs = parse_batch_list(
        "only_one_path.yuv\n"
        "a b c\n"
        "a b colour=red\n"
        "a b width=576 height=324\n"
        "a b width=0 height=2 pixel_format=420 bitdepth=8\n"
        "a b w=4 h=4 p=411 b=8\n"
        "a b w=4 h=4 p=420 b=9\n"
        "\"a b\n"
        "a b output=\n"
        "good.y4m good_dis.y4m\n");
    ASSERT_EQ(pairs.size(), 10u);
    const char* expected[] = {"expected a reference and a distorted path",
                              "unexpected field \"c\"",
                              "unknown key \"colour\"",
                              "needs all of width, height, pixel_format and bitdepth",
                              "width=0: expected a positive integer",
                              "p=411: expected 420, 422 or 444",
                              "b=9: expected 8, 10, 12 or 16",
                              "a double quote is not closed",
                              "output= needs a path"};
    for (std::size_t i = 0; i < std::size(expected); ++i) {
        EXPECT_EQ(pairs[i].line, i + 1);
        EXPECT_EQ(pairs[i].error.rfind("bad line: ", 0), 0u) << pairs[i].error;
        EXPECT_NE(pairs[i].error.find(expected[i]), std::string::npos) << i << ": " << pairs[i].error;
    }
    EXPECT_TRUE(pairs[9].error.empty());
}

// Issue 17: a line's sizes are bounded as -w/-h are, both inputs cannot be
// standard input, and a long value is shortened in the message.
TEST(BatchList, LimitsStandardInputAndLongValues)
{
    const std::string long_key(5000, 'k');
    const auto pairs = parse_batch_list("a b w=32768 h=32769 p=420 b=8\n"
                                        "a b w=4294967296 h=4 p=420 b=8\n"
                                        "- -\n"
                                        "- dis.y4m\n"
                                        "a b " + long_key + "=1\n"
                                        "a b w=1" + std::string(3000, '0') + "\n"
                                        "'' b\n"
                                        "a \"\"\n");
    ASSERT_EQ(pairs.size(), 8u);
    // Found by fuzz_batch: an empty quoted field was taken as a path.
    EXPECT_NE(pairs[6].error.find("bad line: the reference path is empty"), std::string::npos) << pairs[6].error;
    EXPECT_NE(pairs[7].error.find("bad line: the distorted path is empty"), std::string::npos) << pairs[7].error;
    EXPECT_NE(pairs[0].error.find("h=32769: at most 32768"), std::string::npos) << pairs[0].error;
    EXPECT_NE(pairs[1].error.find("w=4294967296: expected a positive integer"), std::string::npos) << pairs[1].error;
    EXPECT_NE(pairs[2].error.find("cannot both read standard input"), std::string::npos) << pairs[2].error;
    EXPECT_TRUE(pairs[3].error.empty()) << pairs[3].error;
    for (std::size_t i : {4u, 5u}) {
        EXPECT_LT(pairs[i].error.size(), 300u) << i;
        EXPECT_NE(pairs[i].error.find("bytes)"), std::string::npos) << pairs[i].error;
    }
}

TEST(BatchList, DefaultOutputPaths)
{
    BatchPair pair;
    pair.distorted = "videos/enc/dis_1.yuv";
    EXPECT_EQ(batch_output_path(pair, "", OutputFormat::kJson), "videos/enc/dis_1.yuv.json");
    EXPECT_EQ(batch_output_path(pair, "scores", OutputFormat::kXml), "scores/dis_1.yuv.xml");
    EXPECT_EQ(batch_output_path(pair, "-", OutputFormat::kCsv), "-");
    pair.distorted = "dis.y4m";
    EXPECT_EQ(batch_output_path(pair, "", OutputFormat::kSub), "dis.y4m.sub");
    pair.output = "mine.json";
    EXPECT_EQ(batch_output_path(pair, "scores", OutputFormat::kXml), "mine.json");
}
