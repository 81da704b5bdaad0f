// The GPU twin of float_moment: each luma plane's sum and sum of squares,
// the CPU's doubles bit for bit.
//
// The CPU adds the samples and their float squares to two doubles per plane,
// serially (float_moment_math.h). Those terms are non-negative floats on a
// 2^-16 grid, so each chain is exact while its total stays below 2^37
// (features/common/float_gpu.h, "exact sums"): the device adds the terms
// as integers in any order (one block per row, both planes in one launch)
// and converts the totals once; above 2^37 one thread runs the CPU's chains
// with accumulate_row().
#include "features/common/float_gpu.h"
#include "features/float_moment/float_moment.h"
#include "features/float_moment/float_moment_math.h"

namespace twinvmaf::float_moment {

namespace {

struct Planes {
    const std::uint8_t* ref;
    const std::uint8_t* dis;
    std::ptrdiff_t stride;
    int w, h;
    unsigned bitdepth;
};

// Terms 0..3: ref sample, dis sample, ref square, dis square (the slots of
// FrameScores).
template <class Sample>
struct MomentTerms {
    Planes p;
    __device__ void operator()(int y, int x, float (&out)[4]) const
    {
        const float r = float_picture::sample_to_float(reinterpret_cast<const Sample*>(p.ref + y * p.stride)[x],
                                                       p.bitdepth, 0.0f);
        const float d = float_picture::sample_to_float(reinterpret_cast<const Sample*>(p.dis + y * p.stride)[x],
                                                       p.bitdepth, 0.0f);
        out[0] = r;
        out[1] = d;
        out[2] = r * r;
        out[3] = d * d;
    }
};

// The CPU's chains (float_moment_cpu.cpp), for totals the grid cannot hold.
template <class Sample>
struct SerialMoments {
    Planes p;
    __device__ MomentSums plane(const std::uint8_t* base) const
    {
        MomentSums sums;
        for (int y = 0; y < p.h; ++y)
            sums = accumulate_row(reinterpret_cast<const Sample*>(base + y * p.stride), static_cast<unsigned>(p.w),
                                  p.bitdepth, sums);
        return sums;
    }
    __device__ void operator()(double* out) const
    {
        const MomentSums ref = plane(p.ref), dis = plane(p.dis);
        out[0] = ref.sum;
        out[1] = dis.sum;
        out[2] = ref.sum_of_squares;
        out[3] = dis.sum_of_squares;
    }
};

struct Result {
    double sums[4];
    unsigned long long units[4];
};

class FloatMomentTwin final : public gpu::DeviceTwin {
public:
    std::size_t result_bytes() const override { return sizeof(Result); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        const gpu::DevicePlane ref = frame.ref_plane(0), dis = frame.dis_plane(0);
        const Planes p{ref.data, dis.data, ref.stride, static_cast<int>(ref.width), static_cast<int>(ref.height),
                       frame.format.bitdepth};
        auto* result = static_cast<Result*>(device_result);
        if (p.bitdepth > 8)
            launch<std::uint16_t>(p, result, stream);
        else
            launch<std::uint8_t>(p, result, stream);
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* result = static_cast<const Result*>(host_result);
        for (std::size_t k = 0; k < 4; ++k) scores.set(k, result->sums[k]);
    }

private:
    template <class Sample>
    static void launch(const Planes& p, Result* result, gpuStream_t stream)
    {
        float_gpu::exact_sums<4>(MomentTerms<Sample>{p}, SerialMoments<Sample>{p}, p.w, p.h, result->units,
                                 result->sums, stream);
    }
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat&)
{
    return std::make_unique<FloatMomentTwin>();
}

}  // namespace twinvmaf::float_moment
