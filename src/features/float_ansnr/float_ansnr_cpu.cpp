// The CPU reference of float_ansnr: both luma planes to floats (offset
// -128), then row by row: filter the reference row (3x3) and the distorted
// row (5x5), and add the row's signal and noise to the frame's, in Netflix's
// order (float_ansnr_math.h).
#include <vector>

#include "features/common/float_picture.h"
#include "features/float_ansnr/float_ansnr.h"
#include "features/float_ansnr/float_ansnr_math.h"

namespace twinvmaf::float_ansnr {

namespace {

constexpr float kOffset = -128.0f;  // Netflix's picture_copy offset for ANSNR

struct AnsnrScratch final : Scratch {
    std::vector<float> reference, distorted;                   // the planes as floats
    std::vector<float> reference_filtered, distorted_filtered;  // one row each
};

}  // namespace

std::unique_ptr<Scratch> FloatAnsnrCpu::make_scratch() const
{
    return std::make_unique<AnsnrScratch>();
}

void FloatAnsnrCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    AnsnrScratch& s = *static_cast<AnsnrScratch*>(scratch);
    const int width = static_cast<int>(format().width), height = static_cast<int>(format().height);
    const std::size_t samples = static_cast<std::size_t>(width) * height;
    s.reference.resize(samples);
    s.distorted.resize(samples);
    s.reference_filtered.resize(width);
    s.distorted_filtered.resize(width);
    float_picture::plane_to_float(inputs.ref.plane(0), format().bitdepth, kOffset, s.reference.data(), width);
    float_picture::plane_to_float(inputs.dis.plane(0), format().bitdepth, kOffset, s.distorted.data(), width);

    const Kernel<kReferenceTaps> reference = reference_kernel();
    const Kernel<kDistortedTaps> distorted = distorted_kernel();
    float signal = 0.0f, noise = 0.0f;
    for (int y = 0; y < height; ++y) {
        const float* reference_rows[kReferenceTaps];
        const float* distorted_rows[kDistortedTaps];
        kernel_rows(s.reference.data(), width, height, y, reference_rows);
        kernel_rows(s.distorted.data(), width, height, y, distorted_rows);
        filter_row(reference, reference_rows, width, s.reference_filtered.data());
        filter_row(distorted, distorted_rows, width, s.distorted_filtered.data());
        const RowEnergy row = row_energy(s.reference_filtered.data(), s.distorted_filtered.data(), width);
        signal += row.signal;
        noise += row.noise;
    }
    scores.set(0, signal);
    scores.set(1, noise);
}

}  // namespace twinvmaf::float_ansnr
