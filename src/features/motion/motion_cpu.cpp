// The CPU reference of motion: the luma SAD of a frame against an earlier
// one, row by row with the shared arithmetic of motion_math.h.
#include <vector>

#include "core/cpu_dispatch.h"
#include "features/motion/motion.h"
#include "features/motion/motion_math.h"

namespace twinvmaf::motion {

namespace {

// One vertically blurred row with kRadius mirrored columns on each side.
struct MotionScratch final : Scratch {
    std::vector<std::int32_t> padded_row;
};

template <class Wide, class Sample>
std::uint64_t plane_sad(const PlaneView& earlier, const PlaneView& current, unsigned bitdepth,
                        std::int32_t* padded_row)
{
    const int height = static_cast<int>(current.height);
    std::uint64_t sad = 0;
    for (int y = 0; y < height; ++y) {
        const Sample* earlier_rows[5];
        const Sample* current_rows[5];
        for (int k = 0; k < 5; ++k) {
            const int source = mirror_index(y - kRadius + k, height);
            earlier_rows[k] = earlier.row<Sample>(static_cast<unsigned>(source));
            current_rows[k] = current.row<Sample>(static_cast<unsigned>(source));
        }
        if (!vertical_blur_row<Wide>(earlier_rows, current_rows, current.width, bitdepth, padded_row))
            continue;
        mirror_pad_row(padded_row, current.width);
        sad += row_sad(padded_row, current.width);
    }
    return sad;
}

// The entry points, compiled per instruction set (core/cpu_dispatch.h). The
// unrounded vertical sum fits int32 up to 15-bit samples; 16-bit needs int64.
TV_CPU_CLONES std::uint64_t plane_sad_8bit(const PlaneView& earlier, const PlaneView& current,
                                           std::int32_t* padded_row)
{
    return plane_sad<std::int32_t, std::uint8_t>(earlier, current, 8, padded_row);
}

TV_CPU_CLONES std::uint64_t plane_sad_high_bitdepth(const PlaneView& earlier, const PlaneView& current,
                                                    unsigned bitdepth, std::int32_t* padded_row)
{
    if (bitdepth < 16)
        return plane_sad<std::int32_t, std::uint16_t>(earlier, current, bitdepth, padded_row);
    return plane_sad<std::int64_t, std::uint16_t>(earlier, current, bitdepth, padded_row);
}

}  // namespace

std::unique_ptr<Scratch> MotionCpu::make_scratch() const
{
    return std::make_unique<MotionScratch>();
}

void MotionCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    if (!scores_frame(inputs.index)) {
        scores.set_integer(0, 0);
        return;
    }
    const PlaneView current = inputs.ref.plane(0);
    const PlaneView earlier = inputs.previous_ref[settings().frame_distance() - 1]->plane(0);

    std::vector<std::int32_t>& padded_row = static_cast<MotionScratch*>(scratch)->padded_row;
    padded_row.resize(current.width + 2 * kRadius);

    const unsigned bitdepth = format().bitdepth;
    scores.set_integer(0, bitdepth == 8
                              ? plane_sad_8bit(earlier, current, padded_row.data())
                              : plane_sad_high_bitdepth(earlier, current, bitdepth, padded_row.data()));
}

}  // namespace twinvmaf::motion
