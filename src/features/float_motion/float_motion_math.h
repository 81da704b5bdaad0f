// float motion's per-sample arithmetic (Netflix libvmaf motion.c,
// vmaf_image_sad_c; the blur taps of motion_tools.h), shared by the CPU
// reference and a GPU twin. The blur itself is the shared separable filter
// (features/common/float_filter_math.h). Compile without contraction.
#pragma once

#include <cmath>

#include "core/host_device.h"

namespace twinvmaf::float_motion {

// motion_filter_size 5 (default; every size but 1 and 3), 3, and 1 (a 5-tap
// identity): Netflix's double constants stored as floats.
struct BlurTaps {
    float taps[5];
    int count;
};

TV_HD BlurTaps blur_taps(int filter_size)
{
    if (filter_size == 1) return {{0.0f, 0.0f, 1.0f, 0.0f, 0.0f}, 5};
    if (filter_size == 3) {
        return {{static_cast<float>(0.166378498), static_cast<float>(0.667243004), static_cast<float>(0.166378498),
                 0.0f, 0.0f},
                3};
    }
    return {{static_cast<float>(0.054488685), static_cast<float>(0.244201342), static_cast<float>(0.402619947),
             static_cast<float>(0.244201342), static_cast<float>(0.054488685)},
            5};
}

// One step of a row's SAD: accum += fabs(a - b), the difference in float,
// its absolute value and the sum in double, kept as float (Netflix adds a
// double fabs() to its float accumulator). In two parts, so that a GPU twin
// can compute the absolute differences side by side and keep only the
// additions on its serial chain: absolute_difference(), then add_absolute().
TV_HD double absolute_difference(float a, float b) { return fabs(static_cast<double>(a - b)); }
TV_HD float add_absolute(float accum, double absolute)
{
    return static_cast<float>(static_cast<double>(accum) + absolute);
}
TV_HD float add_abs_difference(float accum, float a, float b) { return add_absolute(accum, absolute_difference(a, b)); }

// A plane's mean absolute difference: the float sum over (float) w * h,
// where w * h is an int converted to float.
TV_HD float mean_abs_difference(float sum, int width, int height)
{
    return sum / static_cast<float>(width * height);
}

}  // namespace twinvmaf::float_motion
