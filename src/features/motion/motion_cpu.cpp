// The CPU path of motion: the luma SAD of a frame against an earlier one,
// row by row with the row kernels of motion_kernels.h (motion_math.h's
// loops or their SIMD implementation).
#include <vector>

#include "features/motion/motion.h"
#include "features/motion/motion_kernels.h"
#include "features/motion/motion_math.h"

namespace twinvmaf::motion {

namespace {

// One vertically blurred row with kRadius mirrored columns on each side.
struct MotionScratch final : Scratch {
    Kernels kernels = motion::kernels();
    std::vector<std::int32_t> padded_row;
};

template <class Sample>
std::uint64_t plane_sad(const PlaneView& earlier, const PlaneView& current, unsigned bitdepth,
                        VerticalBlurFn<Sample> vertical_blur_row, RowSadFn row_sad, std::int32_t* padded_row)
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
        if (!vertical_blur_row(earlier_rows, current_rows, current.width, bitdepth, padded_row))
            continue;
        mirror_pad_row(padded_row, current.width);
        sad += row_sad(padded_row, current.width);
    }
    return sad;
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

    MotionScratch& s = *static_cast<MotionScratch*>(scratch);
    s.padded_row.resize(current.width + 2 * kRadius);

    const unsigned bitdepth = format().bitdepth;
    scores.set_integer(0, bitdepth == 8 ? plane_sad(earlier, current, 8, s.kernels.vertical_blur_8bit,
                                                    s.kernels.row_sad, s.padded_row.data())
                                        : plane_sad(earlier, current, bitdepth, s.kernels.vertical_blur_16bit,
                                                    s.kernels.row_sad, s.padded_row.data()));
}

}  // namespace twinvmaf::motion
