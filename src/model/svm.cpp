#include "features/common/libm.h"
#include "model/svm.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include "core/message_text.h"
#include "twinvmaf/error.h"

namespace twinvmaf::model {

namespace {

[[noreturn]] void fail(const std::string& message)
{
    throw Error("libsvm model text: " + message);
}

bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// Reads the text as libsvm's parser does: whitespace-separated words in the
// header, then one line per support vector.
class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {}

    std::optional<std::string_view> word()
    {
        while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
        const std::size_t start = pos_;
        while (pos_ < text_.size() && !is_space(text_[pos_])) ++pos_;
        if (start == pos_) return std::nullopt;
        return text_.substr(start, pos_ - start);
    }

    std::string_view rest_of_line()
    {
        const std::size_t start = pos_;
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
        const std::string_view line = text_.substr(start, pos_ - start);
        if (pos_ < text_.size()) ++pos_;  // the '\n'
        return line;
    }

    bool at_end() const { return pos_ >= text_.size(); }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
};

std::vector<std::string_view> split_words(std::string_view line)
{
    std::vector<std::string_view> words;
    std::size_t pos = 0;
    for (;;) {
        while (pos < line.size() && is_space(line[pos])) ++pos;
        if (pos == line.size()) return words;
        const std::size_t start = pos;
        while (pos < line.size() && !is_space(line[pos])) ++pos;
        words.push_back(line.substr(start, pos - start));
    }
}

// strtod, as libstdc++'s `istream >> double` uses: the correctly rounded double.
double to_double(std::string_view word, const std::string& what)
{
    const std::string text(word);
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end || errno == ERANGE || !std::isfinite(value))
        fail(what + ": '" + message_text(text) + "' is not a finite number");
    return value;
}

long to_integer(std::string_view word, const std::string& what, long min, long max)
{
    const std::string text(word);
    errno = 0;
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end || errno || value < min || value > max)
        fail(what + ": '" + message_text(text) + "' is not an integer in [" + std::to_string(min) + ", " +
             std::to_string(max) + "]");
    return value;
}

std::string_view required_word(Reader& reader, const std::string& key)
{
    const auto word = reader.word();
    if (!word) fail("header entry '" + key + "' has no value");
    return *word;
}

}  // namespace

SvmRegression SvmRegression::parse(std::string_view text)
{
    SvmRegression svm;
    Reader reader(text);

    bool have_type = false, have_kernel = false, have_gamma = false, have_rho = false;
    std::optional<long> nr_class;
    std::optional<long> total_sv;
    // Pairs of classes: how many rho / probA / probB values libsvm writes.
    auto pairs = [&](const std::string& key) {
        if (!nr_class) fail("header entry '" + key + "' comes before nr_class");
        return *nr_class * (*nr_class - 1) / 2;
    };
    auto skip_values = [&](const std::string& key, long count) {
        for (long i = 0; i < count; ++i) to_double(required_word(reader, key), key);
    };

    for (;;) {
        const auto word = reader.word();
        if (!word) fail("no 'SV' line: the header never ends");
        const std::string key(*word);
        if (key == "SV") break;
        if (key == "svm_type") {
            const std::string type(required_word(reader, key));
            if (type == "c_svc" || type == "nu_svc" || type == "one_class")
                fail("svm_type '" + type + "' is not a regression; VMAF models use nu_svr");
            if (type != "nu_svr" && type != "epsilon_svr")
                fail("unknown svm_type '" + message_text(type) + "'");
            have_type = true;
        } else if (key == "kernel_type") {
            const std::string kernel(required_word(reader, key));
            if (kernel == "linear" || kernel == "polynomial" || kernel == "sigmoid" ||
                kernel == "precomputed")
                fail("kernel_type '" + kernel + "' is not supported; VMAF models use rbf");
            if (kernel != "rbf") fail("unknown kernel_type '" + message_text(kernel) + "'");
            have_kernel = true;
        } else if (key == "gamma") {
            svm.gamma_ = to_double(required_word(reader, key), key);
            have_gamma = true;
        } else if (key == "degree" || key == "coef0") {
            // Parameters of other kernels; the RBF kernel does not use them.
            to_double(required_word(reader, key), key);
        } else if (key == "nr_class") {
            nr_class = to_integer(required_word(reader, key), key, 2, 2);
        } else if (key == "total_sv") {
            total_sv = to_integer(required_word(reader, key), key, 0, INT_MAX);
        } else if (key == "rho") {
            const long count = pairs(key);
            svm.rho_ = to_double(required_word(reader, key), key);
            skip_values(key, count - 1);
            have_rho = true;
        } else if (key == "probA" || key == "probB") {
            skip_values(key, pairs(key));  // probability estimates: not used
        } else if (key == "label" || key == "nr_sv") {
            if (!nr_class) fail("header entry '" + key + "' comes before nr_class");
            skip_values(key, *nr_class);  // classification only: not used
        } else {
            fail("unknown header entry '" + message_text(key) + "'");
        }
    }
    if (!have_type) fail("the header has no svm_type");
    if (!have_kernel) fail("the header has no kernel_type");
    if (!have_gamma) fail("the header has no gamma (needed by the rbf kernel)");
    if (!nr_class) fail("the header has no nr_class");
    if (!total_sv) fail("the header has no total_sv");
    if (!have_rho) fail("the header has no rho");

    if (!split_words(reader.rest_of_line()).empty()) fail("text after 'SV' on its line");

    // total_sv is only a claim (up to INT_MAX): reserve no more than the
    // text can hold, a line of at least two bytes per vector.
    const auto claimed = std::min<std::size_t>(static_cast<std::size_t>(*total_sv), text.size() / 2);
    svm.coefficients_.reserve(claimed);
    svm.starts_.reserve(claimed + 1);
    for (long i = 0; i < *total_sv; ++i) {
        const std::string where = "support vector " + std::to_string(i + 1);
        if (reader.at_end())
            fail("total_sv is " + std::to_string(*total_sv) + " but only " + std::to_string(i) +
                 " support vector lines follow");
        const auto words = split_words(reader.rest_of_line());
        if (words.empty()) fail(where + ": empty line");
        svm.coefficients_.push_back(to_double(words[0], where + " coefficient"));
        svm.starts_.push_back(svm.terms_.size());
        for (std::size_t w = 1; w < words.size(); ++w) {
            const std::size_t colon = words[w].find(':');
            if (colon == std::string_view::npos)
                fail(where + ": '" + message_text(words[w]) + "' is not index:value");
            // libsvm's indices start at 1 (-1 ends a vector in memory).
            const long index = to_integer(words[w].substr(0, colon), where + " index", 1, INT_MAX);
            const double value = to_double(words[w].substr(colon + 1), where + " value");
            svm.terms_.push_back(Term{static_cast<int>(index), value});
        }
    }
    svm.starts_.push_back(svm.terms_.size());
    while (!reader.at_end()) {
        if (!split_words(reader.rest_of_line()).empty())
            fail("more support vector lines than total_sv (" + std::to_string(*total_sv) + ")");
    }
    return svm;
}

double SvmRegression::rbf_kernel(std::span<const double> x, std::size_t sv) const
{
    // libsvm's k_function for RBF walks both sparse vectors in index order and
    // adds each squared difference as it meets it; an index present in only
    // one vector adds that value squared. The order of the additions is part
    // of the result, so it is kept exactly.
    double sum = 0.0;
    std::size_t a = 0;
    std::size_t b = starts_[sv];
    const std::size_t b_end = starts_[sv + 1];
    while (a < x.size() && b < b_end) {
        const long x_index = static_cast<long>(a) + 1;
        const Term& y = terms_[b];
        if (x_index == y.index) {
            const double d = x[a] - y.value;
            sum += d * d;
            ++a;
            ++b;
        } else if (x_index > y.index) {
            sum += y.value * y.value;
            ++b;
        } else {
            sum += x[a] * x[a];
            ++a;
        }
    }
    for (; a < x.size(); ++a) sum += x[a] * x[a];
    for (; b < b_end; ++b) sum += terms_[b].value * terms_[b].value;
    return libm::exp(-gamma_ * sum);
}

double SvmRegression::predict(std::span<const double> x) const
{
    double sum = 0.0;
    for (std::size_t i = 0; i < coefficients_.size(); ++i) sum += coefficients_[i] * rbf_kernel(x, i);
    sum -= rho_;
    return sum;
}

}  // namespace twinvmaf::model
