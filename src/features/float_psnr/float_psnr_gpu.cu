// The GPU twin of float_psnr: the luma sum of squared errors, the CPU's
// double bit for bit.
//
// The CPU adds squared_error() of every sample to one double, serially
// (float_psnr_math.h). Those terms are non-negative floats on a 2^-16 grid,
// so the chain is exact while the total stays below 2^37
// (features/common/float_gpu.h, "exact sums"): the device adds the terms
// as integers in any order (one block per row) and converts the total
// once; above 2^37 one thread runs the CPU's chain with accumulate_row().
#include "features/common/float_gpu.h"
#include "features/float_psnr/float_psnr.h"
#include "features/float_psnr/float_psnr_math.h"

namespace twinvmaf::float_psnr {

namespace {

struct Plane {
    const std::uint8_t* ref;
    const std::uint8_t* dis;
    std::ptrdiff_t stride;
    int w, h;
    unsigned bitdepth;
};

template <class Sample>
struct SquaredErrors {
    Plane p;
    __device__ void operator()(int y, int x, float (&out)[1]) const
    {
        const Sample r = reinterpret_cast<const Sample*>(p.ref + y * p.stride)[x];
        const Sample d = reinterpret_cast<const Sample*>(p.dis + y * p.stride)[x];
        out[0] = squared_error(float_picture::sample_to_float(r, p.bitdepth, 0.0f),
                               float_picture::sample_to_float(d, p.bitdepth, 0.0f));
    }
};

// The CPU's chain (float_psnr_cpu.cpp), for totals the grid cannot hold.
template <class Sample>
struct SerialNoise {
    Plane p;
    __device__ void operator()(double* out) const
    {
        double noise = 0;
        for (int y = 0; y < p.h; ++y)
            noise = accumulate_row(reinterpret_cast<const Sample*>(p.ref + y * p.stride),
                                   reinterpret_cast<const Sample*>(p.dis + y * p.stride), static_cast<unsigned>(p.w),
                                   p.bitdepth, noise);
        out[0] = noise;
    }
};

struct Result {
    double noise;
    unsigned long long units;
};

class FloatPsnrTwin final : public gpu::DeviceTwin {
public:
    std::size_t result_bytes() const override { return sizeof(Result); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        const gpu::DevicePlane ref = frame.ref_plane(0), dis = frame.dis_plane(0);
        const Plane p{ref.data, dis.data, ref.stride, static_cast<int>(ref.width), static_cast<int>(ref.height),
                      frame.format.bitdepth};
        auto* result = static_cast<Result*>(device_result);
        if (p.bitdepth > 8)
            launch<std::uint16_t>(p, result, stream);
        else
            launch<std::uint8_t>(p, result, stream);
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        scores.set(0, static_cast<const Result*>(host_result)->noise);
    }

private:
    template <class Sample>
    static void launch(const Plane& p, Result* result, gpuStream_t stream)
    {
        float_gpu::exact_sums<1>(SquaredErrors<Sample>{p}, SerialNoise<Sample>{p}, p.w, p.h, &result->units,
                                 &result->noise, stream);
    }
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat&)
{
    return std::make_unique<FloatPsnrTwin>();
}

}  // namespace twinvmaf::float_psnr
