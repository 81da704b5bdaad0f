// numpy frames into twinvmaf Pictures, for the Python package.
//
// A frame is either three 2-D arrays (Y, U, V) of the stored plane sizes
// (chroma rounded up, as in a .yuv file), or one 1-D array of a whole frame
// in file layout. Samples are uint8 for 8-bit formats and native (little
// endian) uint16 above 8 bits; any strides. Nothing is converted: a wrong
// dtype or shape is an ArgumentError naming the frame and plane.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "twinvmaf/picture.h"

namespace twinvmaf::python {

// A bad argument from Python (a value out of range, a frame of the wrong
// shape): twinvmaf.ArgumentError, a twinvmaf.Error that is also a ValueError.
struct ArgumentError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// The planes of one frame, checked against `format` (with the GIL held).
class FrameView {
public:
    FrameView(const pybind11::object& frame, const VideoFormat& format, std::uint64_t number, const char* which);
    // Copies the frame into `picture` (already of `format`). Needs no GIL:
    // the arrays are held by this view and only read.
    void copy_to(Picture& picture) const;

private:
    struct Plane {
        const std::uint8_t* data;
        std::ptrdiff_t row_stride;     // bytes
        std::ptrdiff_t sample_stride;  // bytes
        unsigned width;
        unsigned height;
    };
    VideoFormat format_;
    std::vector<pybind11::array> arrays_;  // keeps the samples alive
    std::vector<Plane> planes_;
};

}  // namespace twinvmaf::python
