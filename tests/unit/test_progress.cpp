// The CLI's progress line (cli/progress.h): what it draws, with and without
// a known total and a --batch pair's prefix, and nothing when disabled.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "cli/progress.h"

namespace {

std::string drawn(std::FILE* file)
{
    std::rewind(file);
    std::string text;
    for (int c; (c = std::fgetc(file)) != EOF;) text += static_cast<char>(c);
    return text;
}

TEST(Progress, BatchPairPrefixAndTotal)
{
    std::FILE* file = std::tmpfile();
    ASSERT_NE(file, nullptr);
    {
        twinvmaf::cli::Progress progress(true, 480, "pair 3/10 (line 5): ", file);
        progress.update(120);
        progress.finish(480);
    }
    const std::string text = drawn(file);
    std::fclose(file);
    EXPECT_EQ(text.rfind("\rpair 3/10 (line 5): 120/480 frames  ", 0), 0u) << text;
    EXPECT_NE(text.find("\rpair 3/10 (line 5): 480/480 frames  "), std::string::npos) << text;
    EXPECT_EQ(text.back(), '\n');
}

TEST(Progress, UnknownTotalAndDisabled)
{
    std::FILE* file = std::tmpfile();
    ASSERT_NE(file, nullptr);
    twinvmaf::cli::Progress(true, std::nullopt, "", file).finish(7);
    twinvmaf::cli::Progress(false, 9, "pair 1/1: ", file).finish(9);
    const std::string text = drawn(file);
    std::fclose(file);
    EXPECT_EQ(text.rfind("\r7 frames  ", 0), 0u) << text;
    EXPECT_EQ(text.find("pair"), std::string::npos) << text;
}

}  // namespace
