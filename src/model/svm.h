// The support-vector regression inside every VMAF model: libsvm's model text
// (what libsvm's svm_save_model writes and Netflix embeds as a JSON string)
// and libsvm's prediction, with its exact order of floating-point operations,
// so the result is the identical double.
//
// Only what VMAF models use is accepted: regression (nu_svr, or epsilon_svr,
// which predicts with the same formula) with the RBF kernel. Anything else is
// refused with an Error rather than predicted differently.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace twinvmaf::model {

class SvmRegression {
public:
    // Parses libsvm's model text. Throws twinvmaf::Error saying what is wrong
    // and where (header key or support-vector line).
    static SvmRegression parse(std::string_view text);

    // libsvm's svm_predict for a dense input: x[k] is feature index k+1.
    //   sum over support vectors i, in file order, of coef_i * K(x, sv_i),
    //   minus rho; K(x, y) = exp(-gamma * |x - y|^2).
    double predict(std::span<const double> x) const;

    std::size_t support_vectors() const { return coefficients_.size(); }

private:
    // One "index:value" of a support vector. libsvm stores support vectors
    // sparsely: an index missing from the line is a zero.
    struct Term {
        int index;
        double value;
    };

    double rbf_kernel(std::span<const double> x, std::size_t sv) const;

    double gamma_ = 0.0;
    double rho_ = 0.0;
    std::vector<double> coefficients_;  // one per support vector
    std::vector<std::size_t> starts_;   // sv i's terms: terms_[starts_[i], starts_[i+1])
    std::vector<Term> terms_;
};

}  // namespace twinvmaf::model
