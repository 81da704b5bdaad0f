#include "frames.h"

#include <cstring>
#include <string>

namespace py = pybind11;

namespace twinvmaf::python {

namespace {

std::string shape_text(const py::array& array)
{
    std::string text = "(";
    for (py::ssize_t d = 0; d < array.ndim(); ++d) text += (d ? ", " : "") + std::to_string(array.shape(d));
    return text + (array.ndim() == 1 ? ",)" : ")");
}

// The dtype a format's samples have: uint8, or native uint16 (the Picture
// holds little-endian samples, so a big-endian host would need a swap).
void check_dtype(const py::array& array, const VideoFormat& format, const std::string& where)
{
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "frames are copied as little-endian samples");
    const bool wide = format.bytes_per_sample() == 2;
    const py::dtype expected = wide ? py::dtype::of<std::uint16_t>() : py::dtype::of<std::uint8_t>();
    if (!array.dtype().equal(expected))
        throw ArgumentError(where + ": samples are " + py::str(array.dtype()).cast<std::string>() + ", but a " +
                            std::to_string(format.bitdepth) + "-bit frame needs " + (wide ? "uint16" : "uint8"));
}

}  // namespace

FrameView::FrameView(const py::object& frame, const VideoFormat& format, std::uint64_t number, const char* which)
    : format_(format)
{
    const std::string where = std::string(which) + " frame " + std::to_string(number);
    if (py::isinstance<py::array>(frame) && frame.cast<py::array>().ndim() == 1) {
        py::array whole = frame.cast<py::array>();
        check_dtype(whole, format, where);
        const std::size_t samples = format.frame_bytes() / format.bytes_per_sample();
        if (static_cast<std::size_t>(whole.shape(0)) != samples)
            throw ArgumentError(where + ": a 1-D frame of " + format.describe() + " has " + std::to_string(samples) +
                                " samples, not " + std::to_string(whole.shape(0)));
        for (int p = 0; p < 3; ++p) {
            const auto offset = static_cast<std::ptrdiff_t>(format.plane_offset(p) / format.bytes_per_sample());
            planes_.push_back(Plane{static_cast<const std::uint8_t*>(whole.data()) + offset * whole.strides(0),
                                    format.stored_width(p) * whole.strides(0), whole.strides(0),
                                    format.stored_width(p), format.stored_height(p)});
        }
        arrays_.push_back(std::move(whole));
        return;
    }
    if (!py::isinstance<py::sequence>(frame) || py::isinstance<py::str>(frame) || py::len(frame) != 3)
        throw ArgumentError(where + ": expected three 2-D arrays (Y, U, V) or one 1-D array of the whole frame");
    const py::sequence planes = frame.cast<py::sequence>();
    static const char* const kPlaneNames[] = {"Y", "U", "V"};
    for (int p = 0; p < 3; ++p) {
        const std::string plane_where = where + ", plane " + kPlaneNames[p];
        if (!py::isinstance<py::array>(planes[p]))
            throw ArgumentError(plane_where + ": expected a numpy array, got " +
                                py::str(py::type::of(planes[p])).cast<std::string>());
        py::array array = planes[p].cast<py::array>();
        check_dtype(array, format, plane_where);
        const unsigned w = format.stored_width(p), h = format.stored_height(p);
        if (array.ndim() != 2 || array.shape(0) != h || array.shape(1) != w)
            throw ArgumentError(plane_where + ": shape " + shape_text(array) + ", but " + format.describe() +
                                " stores (" + std::to_string(h) + ", " + std::to_string(w) + ")");
        planes_.push_back(Plane{static_cast<const std::uint8_t*>(array.data()), array.strides(0), array.strides(1), w, h});
        arrays_.push_back(std::move(array));
    }
}

void FrameView::copy_to(Picture& picture) const
{
    const std::size_t sample = format_.bytes_per_sample();
    for (int p = 0; p < 3; ++p) {
        const Plane& plane = planes_[p];
        std::uint8_t* to = picture.bytes() + format_.plane_offset(p);
        const std::size_t row_bytes = std::size_t{plane.width} * sample;
        for (unsigned y = 0; y < plane.height; ++y, to += row_bytes) {
            const std::uint8_t* from = plane.data + static_cast<std::ptrdiff_t>(y) * plane.row_stride;
            if (plane.sample_stride == static_cast<std::ptrdiff_t>(sample)) {
                std::memcpy(to, from, row_bytes);
                continue;
            }
            for (unsigned x = 0; x < plane.width; ++x)
                std::memcpy(to + x * sample, from + static_cast<std::ptrdiff_t>(x) * plane.sample_stride, sample);
        }
    }
}

}  // namespace twinvmaf::python
