#include <gtest/gtest.h>

#include <cmath>

#include "core/collector.h"

using namespace twinvmaf;

TEST(Collector, KeepsFirstWriteOrder)
{
    Collector c;
    c.set("b", 0, 1.0);
    c.set("a", 0, 2.0);
    c.set("c", 1, 3.0);
    c.set("b", 1, 4.0);
    ASSERT_EQ(c.series().size(), 3u);
    EXPECT_EQ(c.series()[0].name, "b");
    EXPECT_EQ(c.series()[1].name, "a");
    EXPECT_EQ(c.series()[2].name, "c");
    EXPECT_EQ(c.frame_span(), 2u);
    EXPECT_FALSE(c.has(*c.find("a"), 1));
    EXPECT_FALSE(c.has(*c.find("c"), 0));
    EXPECT_EQ(c.get(*c.find("b"), 1), 4.0);
}

TEST(Collector, PoolsLikeLibvmaf)
{
    Collector c;
    const double v[] = {3.0, 1.0, 2.0, 5.0};
    for (int i = 0; i < 4; ++i) c.set("x", i, v[i]);
    const std::size_t id = *c.find("x");
    EXPECT_EQ(*c.pooled(id, PoolMethod::kMin, 4, 1), 1.0);
    EXPECT_EQ(*c.pooled(id, PoolMethod::kMax, 4, 1), 5.0);
    EXPECT_EQ(*c.pooled(id, PoolMethod::kMean, 4, 1), 11.0 / 4);
    // libvmaf's harmonic mean of (s + 1), minus 1, summed in frame order.
    double inverse = 0;
    for (double s : v) inverse += 1.0 / (s + 1.0);
    EXPECT_EQ(*c.pooled(id, PoolMethod::kHarmonicMean, 4, 1), 4 / inverse - 1.0);
    // Subsample 3: frames 0 and 3 only.
    EXPECT_EQ(*c.pooled(id, PoolMethod::kMean, 4, 3), 4.0);
    EXPECT_EQ(*c.pooled(id, PoolMethod::kMin, 4, 3), 3.0);
    // A missing frame means no pooled value.
    EXPECT_FALSE(c.pooled(id, PoolMethod::kMean, 5, 1));
}

TEST(Collector, AggregatesOverwriteByName)
{
    Collector c;
    c.set_aggregate("apsnr_y", 1.0);
    c.set_aggregate("apsnr_cb", 2.0);
    c.set_aggregate("apsnr_y", 3.0);
    ASSERT_EQ(c.aggregates().size(), 2u);
    EXPECT_EQ(c.aggregates()[0].value, 3.0);
}
