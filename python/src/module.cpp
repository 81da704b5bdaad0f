// twinvmaf._twinvmaf: the C++ API (include/twinvmaf/engine.h) for Python.
//
// A thin layer: the Python package (python/twinvmaf/__init__.py) gives it
// its user-facing shape (defaults, frame format inference, pandas, tqdm).
// Every scoring call releases the GIL; a run from files takes the GIL back
// only to report progress (at most ten times a second) and to see Ctrl-C.
// twinvmaf::Error (and the CLI parsers' UsageError) become twinvmaf.Error
// with the engine's message, worded for Python (python_wording); a bad
// argument is twinvmaf.ArgumentError (also a ValueError), a wrong type
// twinvmaf.ArgumentTypeError (also a TypeError).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "api/scores_data.h"
#include "cli/batch.h"
#include "cli/cli_args.h"
#include "core/options.h"
#include "frames.h"
#include "twinvmaf/engine.h"
#include "twinvmaf/error.h"
#include "twinvmaf/version.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace twinvmaf::python {

namespace {

// The engine's and the CLI parsers' messages name the command line's options
// (`--width`, `use --backend cpu`); from Python the same thing is a keyword
// argument (`width`, `use backend="cpu"`).
std::string python_wording(const std::string& message)
{
    static const std::pair<std::regex, const char*> kRewrites[] = {
        {std::regex(R"(--model \.\.\.:name=)"), R"(models=["...:name=..."])"},
        {std::regex(R"(--(backend|scale|pix_fmt|hwdec) ([A-Za-z0-9_.]+))"), R"($1="$2")"},
        {std::regex(R"(--(gpu|subsample|threads) (-?[0-9]+))"), "$1=$2"},
        {std::regex(R"(--(model|feature) )"), "$1 "},
        {std::regex(R"((^|[^\w-])-[a-z]/--)"), "$1--"},  // -w/--width
        {std::regex(R"(--(width|height|pixel_format|bitdepth|gpu|backend|threads|subsample|scale|pix_fmt|hwdec|)"
                    R"(ref_stream|dist_stream|frame_cnt|frame_skip_ref|frame_skip_dist|precision|no_prediction)\b)"),
         "$1"},
        {std::regex(R"(--(model|feature)\b)"), "$1"},
    };
    std::string text = message;
    for (const auto& [pattern, replacement] : kRewrites) text = std::regex_replace(text, pattern, replacement);
    return text;
}

Backend parse_backend(const std::string& name)
{
    if (name == "cpu") return Backend::kCpu;
    if (name == "cuda") return Backend::kCuda;
    if (name == "hip") return Backend::kHip;
    throw ArgumentError("backend='" + name + "': expected 'auto', 'cpu', 'cuda' or 'hip'");
}

ChromaFormat parse_chroma(const std::string& text)
{
    if (text == "420") return ChromaFormat::k420;
    if (text == "422") return ChromaFormat::k422;
    if (text == "444") return ChromaFormat::k444;
    throw ArgumentError("pixel_format='" + text + "': expected '420', '422' or '444'");
}

VideoFormat video_format(unsigned width, unsigned height, const std::string& pixel_format, unsigned bitdepth)
{
    if (bitdepth != 8 && bitdepth != 10 && bitdepth != 12 && bitdepth != 16)
        throw ArgumentError("bitdepth=" + std::to_string(bitdepth) + ": expected 8, 10, 12 or 16");
    if (width == 0 || height == 0) throw ArgumentError("width and height must be positive");
    return VideoFormat{width, height, parse_chroma(pixel_format), bitdepth};
}

OutputFormat parse_output_format(const std::string& name)
{
    if (name == "xml") return OutputFormat::kXml;
    if (name == "json") return OutputFormat::kJson;
    if (name == "csv") return OutputFormat::kCsv;
    if (name == "sub") return OutputFormat::kSub;
    throw ArgumentError("format='" + name + "': expected 'xml', 'json', 'csv' or 'sub'");
}

constexpr PoolMethod kPoolMethods[] = {PoolMethod::kMin, PoolMethod::kMax, PoolMethod::kMean,
                                       PoolMethod::kHarmonicMean};
constexpr const char* kPoolNames[] = {"min", "max", "mean", "harmonic_mean"};

// The frames an output file lists (writers.cpp's for_each_frame): on the
// subsample grid, with at least one value.
std::vector<std::uint64_t> written_frames(const Scores& scores)
{
    const Collector& c = scores.data().collector;
    const unsigned subsample = scores.subsample();
    std::vector<std::uint64_t> frames;
    for (std::uint64_t i = 0; i < c.frame_span(); ++i) {
        if (subsample > 1 && i % subsample) continue;
        for (std::size_t j = 0; j < c.series().size(); ++j) {
            if (c.has(j, i)) {
                frames.push_back(i);
                break;
            }
        }
    }
    return frames;
}

// (frame numbers, [ {name: value} per frame ]) in output order.
py::tuple frame_table(const Scores& scores)
{
    const Collector& c = scores.data().collector;
    const auto& series = c.series();
    std::vector<py::str> names;
    for (const auto& s : series) names.emplace_back(s.name);
    const std::vector<std::uint64_t> frames = written_frames(scores);
    py::list numbers, rows;
    for (std::uint64_t i : frames) {
        py::dict row;
        for (std::size_t j = 0; j < series.size(); ++j)
            if (c.has(j, i)) row[names[j]] = py::float_(series[j].values[i]);
        numbers.append(py::int_(i));
        rows.append(std::move(row));
    }
    return py::make_tuple(std::move(numbers), std::move(rows));
}

// {name: float64 array over the written frames}, NaN where a series has no
// value (a DataFrame's columns).
py::dict columns(const Scores& scores)
{
    const Collector& c = scores.data().collector;
    const std::vector<std::uint64_t> frames = written_frames(scores);
    py::dict result;
    for (std::size_t j = 0; j < c.series().size(); ++j) {
        py::array_t<double> column(static_cast<py::ssize_t>(frames.size()));
        double* out = column.mutable_data();
        for (std::size_t k = 0; k < frames.size(); ++k)
            out[k] = c.has(j, frames[k]) ? c.series()[j].values[frames[k]] : std::numeric_limits<double>::quiet_NaN();
        result[py::str(c.series()[j].name)] = std::move(column);
    }
    return result;
}

py::dict pooled(const Scores& scores)
{
    py::dict result;
    for (const std::string& name : scores.names()) {
        py::dict methods;
        for (std::size_t m = 0; m < std::size(kPoolMethods); ++m)
            if (const auto value = scores.pooled(name, kPoolMethods[m])) methods[kPoolNames[m]] = *value;
        result[py::str(name)] = std::move(methods);
    }
    return result;
}

// Progress of a run from files, on the calling thread with the GIL released:
// takes the GIL at most every 100 ms (and for the last frame) to see Ctrl-C
// and to call the Python callback(frames_done, total or None).
class ProgressRelay {
public:
    explicit ProgressRelay(py::object callback) : callback_(std::move(callback)) {}

    ScoreCallbacks callbacks()
    {
        ScoreCallbacks c;
        c.opened = [this](std::optional<std::uint64_t> frames) { total_ = frames; };
        c.progress = [this](std::uint64_t done) { report(done); };
        c.warn = [](const std::string& message) {
            py::gil_scoped_acquire gil;
            PyErr_WarnEx(PyExc_RuntimeWarning, ("twinvmaf: " + message).c_str(), 1);
        };
        return c;
    }

    // After the run, with the GIL: the last report, the total now known.
    void finished(std::uint64_t frames)
    {
        if (!callback_.is_none() && reported_ != frames) callback_(frames, total_ ? *total_ : frames);
    }

private:
    void report(std::uint64_t done)
    {
        const auto now = std::chrono::steady_clock::now();
        const bool last = total_ && done >= *total_;
        if (!last && now - last_ < std::chrono::milliseconds(100)) return;
        last_ = now;
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        if (!callback_.is_none()) callback_(done, total_ ? py::object(py::int_(*total_)) : py::object(py::none()));
        reported_ = done;
    }

    py::object callback_;
    std::optional<std::uint64_t> total_;
    std::uint64_t reported_ = 0;
    std::chrono::steady_clock::time_point last_{};
};

// A feature request from Python: (name, [(option, value), ...]); values are
// kept as libvmaf keeps option text (numbers to six significant digits).
FeatureRequest feature_request(const std::string& name, const OptionList& options)
{
    FeatureRequest request{name, {}};
    for (const auto& [key, value] : options) request.options.emplace_back(key, libvmaf_option_text(value));
    return request;
}

py::dict batch_pair_dict(const cli::BatchPair& pair)
{
    py::dict d("line"_a = pair.line, "reference"_a = pair.reference, "distorted"_a = pair.distorted,
               "output"_a = pair.output, "error"_a = pair.error);
    if (pair.raw_format) {
        d["width"] = pair.raw_format->width;
        d["height"] = pair.raw_format->height;
        d["pixel_format"] = std::string(chroma_format_name(pair.raw_format->chroma));
        d["bitdepth"] = pair.raw_format->bitdepth;
    } else {
        for (const char* key : {"width", "height", "pixel_format", "bitdepth"}) d[key] = py::none();
    }
    d["ref_stream"] = pair.ref_stream ? py::cast(*pair.ref_stream) : py::none();
    d["dist_stream"] = pair.dist_stream ? py::cast(*pair.dist_stream) : py::none();
    return d;
}

}  // namespace

}  // namespace twinvmaf::python

PYBIND11_MODULE(_twinvmaf, m)
{
    using namespace twinvmaf;
    using namespace twinvmaf::python;
    m.doc() = "twinvmaf's C++ API (use the twinvmaf package rather than this module)";

    static py::exception<Error> error(m, "Error", PyExc_RuntimeError);
    error.doc() = "What twinvmaf raises: a refusal, a file it cannot read, an unknown model, feature or option, "
                  "a bad argument (ArgumentError, ArgumentTypeError).";
    // A bad argument is also what Python code expects of one (ValueError,
    // TypeError), so `except ValueError` keeps working.
    static PyObject* const argument_error = PyErr_NewExceptionWithDoc(
        "twinvmaf.ArgumentError", "An argument's value is out of range or does not fit (also a ValueError).",
        py::make_tuple(error, py::handle(PyExc_ValueError)).release().ptr(), nullptr);
    static PyObject* const argument_type_error = PyErr_NewExceptionWithDoc(
        "twinvmaf.ArgumentTypeError", "An argument of the wrong type (also a TypeError).",
        py::make_tuple(py::handle(argument_error), py::handle(PyExc_TypeError)).release().ptr(), nullptr);
    m.attr("ArgumentError") = py::handle(argument_error);
    m.attr("ArgumentTypeError") = py::handle(argument_type_error);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const ArgumentError& e) {
            PyErr_SetString(argument_error, python_wording(e.what()).c_str());
        } catch (const Error& e) {
            error(python_wording(e.what()).c_str());
        } catch (const cli::UsageError& e) {
            error(python_wording(e.what()).c_str());
        }
    });

    m.attr("__version__") = kVersion;
    m.attr("netflix_reference_version") = kNetflixReferenceVersion;
    m.def("builtin_models", &Model::builtin_versions, "Names of the built-in models, in Netflix's order.");
    m.def("compiled", [](const std::string& backend) { return Engine::compiled(parse_backend(backend)); },
          "backend"_a = "cuda",
          "Whether this build has `backend` ('cpu', 'cuda' or 'hip'; default 'cuda'). A GPU backend is built when "
          "nvcc or hipcc is found at build time.");
    m.def("devices", [](const std::string& backend) { return Engine::devices(parse_backend(backend)); },
          "backend"_a = "cuda",
          "How many GPUs of `backend` ('cuda' or 'hip'; default 'cuda') this machine has for this build: 0 where "
          "the build lacks the backend or the machine has no such GPU (and for 'cpu').");
    m.def("parse_feature", [](const std::string& text) {
        const cli::FeatureRequest request = cli::parse_feature_argument(text);
        return py::make_tuple(request.name, request.options);
    }, "Splits 'name=opt=val:opt=val' as Netflix's vmaf --feature does.");
    m.def("parse_batch_list", [](const std::string& text) {
        py::list pairs;
        for (const cli::BatchPair& pair : cli::parse_batch_list(text)) pairs.append(batch_pair_dict(pair));
        return pairs;
    }, "The pairs of a --batch list's text (cli/batch.h).");
    m.def("batch_output_path", [](const std::string& distorted, const std::string& output,
                                  const std::string& output_option, const std::string& format) {
        cli::BatchPair pair;
        pair.distorted = distorted;
        pair.output = output;
        return cli::batch_output_path(pair, output_option, parse_output_format(format));
    }, "distorted"_a, "output"_a, "output_option"_a, "format"_a, "Where --batch writes a pair's output.");

    py::class_<Model>(m, "Model")
        .def_static("parse", [](const std::string& text) { return cli::load_model(cli::parse_model_argument(text)); },
                    "A model from a --model argument: 'version=vmaf_v0.6.1:name=vmaf', 'path=m.json', ...")
        .def_static("builtin", [](const std::string& version, const std::string& name, bool disable_clip,
                                  bool enable_transform) {
            return Model::builtin(version, {name, disable_clip, enable_transform});
        }, "version"_a, "name"_a = "vmaf", "disable_clip"_a = false, "enable_transform"_a = false)
        .def_static("from_file", [](const std::string& path, const std::string& name, bool disable_clip,
                                    bool enable_transform) {
            return Model::from_file(path, {name, disable_clip, enable_transform});
        }, "path"_a, "name"_a = "vmaf", "disable_clip"_a = false, "enable_transform"_a = false)
        .def("override_feature", [](Model& model, const std::string& extractor, const OptionList& options) {
            OptionList normalised;
            for (const auto& [key, value] : options) normalised.emplace_back(key, libvmaf_option_text(value));
            model.override_feature(extractor, normalised);
        })
        .def_property_readonly("name", &Model::name)
        .def_property_readonly("label", &Model::label)
        .def_property_readonly("is_collection", &Model::is_collection)
        .def_property_readonly("output_names", &Model::output_names)
        .def("__repr__", [](const Model& model) { return "<twinvmaf.Model " + model.label() + " name=" + model.name() + ">"; });

    py::class_<Scores>(m, "Scores")
        .def_property_readonly("num_frames", &Scores::frames)
        .def_property_readonly("subsample", &Scores::subsample)
        .def_property_readonly("width", [](const Scores& s) { return s.format().width; })
        .def_property_readonly("height", [](const Scores& s) { return s.format().height; })
        .def_property_readonly("pixel_format", [](const Scores& s) { return std::string(chroma_format_name(s.format().chroma)); })
        .def_property_readonly("bitdepth", [](const Scores& s) { return s.format().bitdepth; })
        .def_property_readonly("backend", [](const Scores& s) { return std::string(backend_name(s.backend())); })
        .def_property_readonly("device", &Scores::device)
        .def_property_readonly("threads", &Scores::threads)
        .def_property_readonly("seconds", &Scores::seconds)
        .def_property_readonly("fps", &Scores::fps)
        .def_property_readonly("names", &Scores::names)
        .def("frame_table", &frame_table)
        .def("columns", &columns)
        .def("pooled", &pooled)
        .def("aggregates", [](const Scores& s) {
            py::dict d;
            for (const auto& [name, value] : s.aggregates()) d[py::str(name)] = value;
            return d;
        })
        .def("render", [](const Scores& s, const std::string& format, const std::string& precision) {
            return s.render(parse_output_format(format), Precision::parse(precision));
        }, "format"_a, "precision"_a)
        .def("write", [](const Scores& s, const std::string& path, const std::string& format, const std::string& precision) {
            s.write(path, parse_output_format(format), Precision::parse(precision));
        }, "path"_a, "format"_a, "precision"_a)
        .def("pooled_summary", &Scores::pooled_summary);

    py::class_<Session>(m, "Session")
        .def_property_readonly("backend", [](const Session& s) { return std::string(backend_name(s.backend())); })
        .def_property_readonly("output_names", &Session::output_names)
        .def_property_readonly("frames_pushed", &Session::frames_pushed)
        .def("score", [](Session& session, const std::string& reference, const std::string& distorted,
                         std::optional<py::tuple> raw_format, std::uint64_t frame_cnt, std::uint64_t skip_ref,
                         std::uint64_t skip_dist, py::object progress, std::optional<unsigned> ref_stream,
                         std::optional<unsigned> dist_stream, const std::string& scale, const std::string& pix_fmt,
                         const std::string& hwdec) {
            Inputs inputs{.reference = reference, .distorted = distorted, .frame_cnt = frame_cnt,
                          .skip_ref = skip_ref, .skip_dist = skip_dist, .reference_stream = ref_stream,
                          .distorted_stream = dist_stream, .scale = scale, .pix_fmt = pix_fmt, .hwdec = hwdec};
            if (raw_format)
                inputs.raw_format = video_format((*raw_format)[0].cast<unsigned>(), (*raw_format)[1].cast<unsigned>(),
                                                 (*raw_format)[2].cast<std::string>(), (*raw_format)[3].cast<unsigned>());
            ProgressRelay relay(std::move(progress));
            const ScoreCallbacks callbacks = relay.callbacks();
            std::optional<Scores> scores;
            {
                py::gil_scoped_release nogil;
                scores = session.score(inputs, callbacks);
            }
            relay.finished(scores->frames());
            return *scores;
        }, "reference"_a, "distorted"_a, "raw_format"_a, "frame_cnt"_a, "skip_ref"_a, "skip_dist"_a, "progress"_a,
           "ref_stream"_a = py::none(), "dist_stream"_a = py::none(), "scale"_a = "", "pix_fmt"_a = "",
           "hwdec"_a = "")
        .def("start", [](Session& session, unsigned width, unsigned height, const std::string& pixel_format,
                         unsigned bitdepth) {
            const VideoFormat format = video_format(width, height, pixel_format, bitdepth);
            py::gil_scoped_release nogil;
            session.start(format);
        }, "width"_a, "height"_a, "pixel_format"_a, "bitdepth"_a)
        .def("push", [](Session& session, const py::object& reference, const py::object& distorted) {
            // start() first: the pictures' format is the session's.
            const std::uint64_t frame = session.frames_pushed();
            std::shared_ptr<Picture> ref_picture = session.picture();
            const VideoFormat format = ref_picture->format();
            const FrameView ref(reference, format, frame, "reference");
            const FrameView dis(distorted, format, frame, "distorted");
            py::gil_scoped_release nogil;
            std::shared_ptr<Picture> dis_picture = session.picture();
            ref.copy_to(*ref_picture);
            dis.copy_to(*dis_picture);
            session.push(std::move(ref_picture), std::move(dis_picture));
        }, "reference"_a, "distorted"_a)
        .def("finish", [](Session& session) {
            py::gil_scoped_release nogil;
            return session.finish();
        })
        .def("import_score", &Session::import_score, "name"_a, "frame"_a, "value"_a);

    py::class_<Engine>(m, "Engine")
        .def(py::init([](const std::string& backend, int gpu, unsigned threads) {
            EngineConfig config;
            if (backend != "auto") config.backend = parse_backend(backend);
            config.gpu = gpu;
            config.threads = threads;
            return Engine(config);
        }), "backend"_a = "auto", "gpu"_a = 0, "threads"_a = 0)
        .def_property_readonly("backend", [](const Engine& e) {
            const auto& b = e.config().backend;
            return std::string(b ? backend_name(*b) : "auto");
        })
        .def_property_readonly("gpu", [](const Engine& e) { return e.config().gpu; })
        .def_property_readonly("threads", [](const Engine& e) { return e.config().threads; })
        .def("open", [](const Engine& engine, const std::vector<Model>& models,
                        const std::vector<std::pair<std::string, OptionList>>& features, unsigned subsample,
                        bool predict) {
            SessionConfig config;
            config.models = models;
            for (const auto& [name, options] : features) config.features.push_back(feature_request(name, options));
            config.subsample = subsample;
            config.predict = predict;
            py::gil_scoped_release nogil;
            return engine.open(config);
        }, "models"_a, "features"_a, "subsample"_a, "predict"_a);
}
