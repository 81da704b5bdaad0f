// The model code on small hand-made models, against results computed here
// from the formulas of libvmaf's predict.c and libsvm (the values are chosen
// so that the order of operations is the one the formulas are written in).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/collector.h"
#include "core/options.h"
#include "model/binding.h"
#include "model/model.h"
#include "model/predict.h"
#include "model/svm.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using namespace twinvmaf::model;
using Json = nlohmann::ordered_json;

namespace {

#define EXPECT_ERROR(statement, needle)                                          \
    do {                                                                         \
        const std::string message_ = test::error_of([&] { statement; });               \
        EXPECT_NE(message_.find(needle), std::string::npos) << message_;         \
    } while (0)

// libsvm text of an RBF nu-SVR with the given "coef index:value ..." lines.
std::string svm_text(double gamma, double rho, const std::vector<std::string>& support_vectors)
{
    char header[200];
    std::snprintf(header, sizeof header,
                  "svm_type nu_svr\nkernel_type rbf\ngamma %.17g\nnr_class 2\ntotal_sv %zu\nrho %.17g\nSV\n",
                  gamma, support_vectors.size(), rho);
    std::string text = header;
    for (const std::string& line : support_vectors) text += line + " \n";
    return text;
}

// A model_dict over `features` whose SVM has no support vectors, so it
// predicts -rho: handy to test what happens after the SVM.
Json constant_model_dict(double prediction, std::vector<std::string> features = {"f"})
{
    Json dict;
    dict["model_type"] = "LIBSVMNUSVR";
    dict["norm_type"] = "none";
    dict["feature_names"] = features;
    dict["model"] = svm_text(0.5, -prediction, {});
    return dict;
}

LoadedModel parse(const Json& top, const LoadOptions& options = {})
{
    return parse_model(top.dump(), "test model", options);
}

// ---- libsvm -----------------------------------------------------------------

TEST(Svm, PredictsTheWeightedRbfSumMinusRho)
{
    // x = (0.5, 0.25). sv1 = (0.5, 0.75): |x - sv1|^2 = 0.25.
    // sv2 has only index 2 = 1: 0.5^2 + (0.25 - 1)^2 = 0.8125.
    // sv3 has index 3 only (beyond x): 0.5^2 + 0.25^2 + 2^2 = 4.3125.
    const SvmRegression svm =
        SvmRegression::parse(svm_text(0.5, 0.125, {"4 1:0.5 2:0.75", "-2.5 2:1", "1.5 3:2"}));
    EXPECT_EQ(svm.support_vectors(), 3u);
    const double x[] = {0.5, 0.25};
    const double expected = 4 * std::exp(-0.5 * 0.25) + -2.5 * std::exp(-0.5 * 0.8125) +
                            1.5 * std::exp(-0.5 * 4.3125) - 0.125;
    EXPECT_EQ(svm.predict(x), expected);
}

TEST(Svm, AddsSquaresInLibsvmsIndexWalkOrder)
{
    // Values whose sum of squares depends on the order of the additions:
    // libsvm adds (x1-y1)^2, then x2^2 (absent from sv), then (x3-y3)^2.
    const SvmRegression svm = SvmRegression::parse(svm_text(1.0, 0.0, {"1 1:0.1 3:0.3"}));
    const double x[] = {1e-9, 0.7, 1.3};
    double sum = 0.0;
    sum += (x[0] - 0.1) * (x[0] - 0.1);
    sum += x[1] * x[1];
    sum += (x[2] - 0.3) * (x[2] - 0.3);
    EXPECT_EQ(svm.predict(x), 1 * std::exp(-1.0 * sum) - 0.0);
}

TEST(Svm, RefusesWhatItCannotPredictAndMalformedText)
{
    auto parse_text = [](const std::string& text) { SvmRegression::parse(text); };
    EXPECT_ERROR(parse_text("svm_type c_svc\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 0\nrho 0\nSV\n"),
                 "not a regression");
    EXPECT_ERROR(parse_text("svm_type nu_svr\nkernel_type linear\ngamma 1\nnr_class 2\ntotal_sv 0\nrho 0\nSV\n"),
                 "kernel_type 'linear' is not supported");
    EXPECT_ERROR(parse_text("svm_type nu_svr\nkernel_type rbf\nnr_class 2\ntotal_sv 0\nrho 0\nSV\n"),
                 "no gamma");
    EXPECT_ERROR(parse_text("svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 0\nSV\n"),
                 "no rho");
    EXPECT_ERROR(parse_text("svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 0\nrho 0\n"),
                 "no 'SV' line");
    EXPECT_ERROR(parse_text("svm_type nu_svr\nbogus 1\n"), "unknown header entry 'bogus'");
    EXPECT_ERROR(parse_text(svm_text(1, 0, {"1 1:0.5 2=0.5"})), "support vector 1: '2=0.5' is not index:value");
    EXPECT_ERROR(parse_text(svm_text(1, 0, {"1 0:0.5"})), "support vector 1 index");
    EXPECT_ERROR(parse_text(svm_text(1, 0, {"1 1:abc"})), "support vector 1 value: 'abc' is not a finite number");
    EXPECT_ERROR(parse_text(svm_text(1, 0, {"x 1:1"})), "support vector 1 coefficient");
    std::string short_text = svm_text(1, 0, {"1 1:1", "2 1:2"});
    short_text.replace(short_text.find("total_sv 2"), 10, "total_sv 3");
    EXPECT_ERROR(parse_text(short_text), "total_sv is 3 but only 2");
    std::string long_text = svm_text(1, 0, {"1 1:1", "2 1:2"});
    long_text.replace(long_text.find("total_sv 2"), 10, "total_sv 1");
    EXPECT_ERROR(parse_text(long_text), "more support vector lines than total_sv");
}

// ---- one model --------------------------------------------------------------

TEST(Model, NormalisesPredictsDenormalisesTransformsAndClips)
{
    Json dict;
    dict["model_type"] = "LIBSVMNUSVR";
    dict["norm_type"] = "linear_rescale";
    dict["feature_names"] = {"a", "b"};
    dict["slopes"] = {0.02, 1.5, 3.0};
    dict["intercepts"] = {-0.5, -0.25, 0.125};
    dict["score_clip"] = {0.0, 100.0};
    dict["score_transform"] = {{"enabled", true}, {"p0", 1.7}, {"p1", 1.05}, {"p2", -0.002},
                               {"out_gte_in", "true"}};
    dict["model"] = svm_text(0.04, -1.25, {"4 1:0.6 2:0.3", "-3 1:0.2 2:0.9"});
    const Model model = parse(Json{{"model_dict", dict}}).model;

    auto expected = [](double a, double b) {
        const double na = 1.5 * a + -0.25, nb = 3.0 * b + 0.125;
        auto k = [&](double y1, double y2) { return std::exp(-0.04 * ((na - y1) * (na - y1) + (nb - y2) * (nb - y2))); };
        const double svm = 4 * k(0.6, 0.3) + -3 * k(0.2, 0.9) - -1.25;
        const double y = (svm - -0.5) / 0.02;
        double out = 0.0 + 1.7 + 1.05 * y + -0.002 * y * y;
        out = out < y ? y : out;
        return std::min(std::max(out, 0.0), 100.0);
    };
    for (const auto& [a, b] : {std::pair{0.9, 0.1}, {0.5, 0.5}, {0.1, 0.95}, {-3.0, 7.0}}) {
        const double features[] = {a, b};
        EXPECT_EQ(predict(model, features), expected(a, b)) << a << ", " << b;
    }
    // Transform and clip off, as a bootstrap collection's statistics use it.
    const double features[] = {0.9, 0.1};
    const double na = 1.5 * 0.9 + -0.25, nb = 3.0 * 0.1 + 0.125;
    auto k = [&](double y1, double y2) { return std::exp(-0.04 * ((na - y1) * (na - y1) + (nb - y2) * (nb - y2))); };
    EXPECT_EQ(predict(model, features, {.skip_transform = true, .skip_clip = true}),
              (4 * k(0.6, 0.3) + -3 * k(0.2, 0.9) - -1.25 - -0.5) / 0.02);
}

TEST(Model, TransformIsOffUnlessEnabledOrEnableTransform)
{
    Json dict = constant_model_dict(10.0);
    dict["score_transform"] = {{"p0", 1.0}, {"p1", 2.0}};  // no "enabled": off, as vmaf_v0.6.1's
    const double f[] = {0.0};
    EXPECT_EQ(predict(parse(Json{{"model_dict", dict}}).model, f), 10.0);
    EXPECT_EQ(predict(parse(Json{{"model_dict", dict}}, {.enable_transform = true}).model, f), 21.0);
    // enable_transform does nothing to a model without score_transform.
    EXPECT_FALSE(parse(Json{{"model_dict", constant_model_dict(10.0)}}, {.enable_transform = true})
                     .model.transform.enabled);
}

TEST(Model, OutLteInAndPolynomialTerms)
{
    Json dict = constant_model_dict(10.0);
    dict["score_transform"] = {{"enabled", true}, {"p2", 0.5}, {"out_lte_in", "true"}};
    const double f[] = {0.0};
    EXPECT_EQ(predict(parse(Json{{"model_dict", dict}}).model, f), 10.0);  // 50 > 10
    dict["score_transform"]["out_lte_in"] = "false";
    EXPECT_EQ(predict(parse(Json{{"model_dict", dict}}).model, f), 50.0);
    dict["score_transform"]["p2"] = nullptr;  // null: no term; no term at all: identity
    EXPECT_EQ(predict(parse(Json{{"model_dict", dict}}).model, f), 10.0);
}

TEST(Model, PiecewiseLinearKnots)
{
    auto through = [](double x, const Json& knots) {
        Json dict = constant_model_dict(x);
        dict["score_transform"] = {{"enabled", true}, {"knots", knots}};
        const double f[] = {0.0};
        return predict(parse(Json{{"model_dict", dict}}).model, f);
    };
    const Json rising = {{0, 0}, {50, 40}, {100, 100}};
    EXPECT_EQ(through(25, rising), (40.0 - 0.0) / 50.0 * 25 + 0.0);  // first knot at x = 0
    const double slope = (100.0 - 40.0) / (100.0 - 50.0), offset = 40.0 - 50.0 * slope;
    EXPECT_EQ(through(75, rising), slope * 75 + offset);
    EXPECT_EQ(through(50, rising), slope * 50 + offset);  // the later segment wins at a knot
    EXPECT_EQ(through(-10, rising), 0.8 * -10 + 0.0);      // below: first segment extended
    EXPECT_EQ(through(150, rising), slope * 150 + offset);  // above: last segment extended
    const Json flat_start = {{0, 10}, {10, 10}, {20, 30}};
    EXPECT_EQ(through(5, flat_start), 10.0);
    EXPECT_EQ(through(-5, flat_start), 10.0);
    EXPECT_EQ(through(15, flat_start), 2.0 * 15 + (10.0 - 10.0 * 2.0));
    EXPECT_EQ(through(42, Json::array({Json::array({0, 0})})), 42.0);  // one knot maps nothing
    EXPECT_ERROR(through(1, Json{{0, 0}, {0, 5}}), "knots must rise");
    EXPECT_ERROR(through(1, Json{{0, 5}, {1, 4}}), "knots must rise");
}

TEST(Model, ClipAndDisableClip)
{
    Json dict = constant_model_dict(123.0);
    dict["score_clip"] = {0.0, 100.0};
    const double f[] = {0.0};
    EXPECT_EQ(predict(parse(Json{{"model_dict", dict}}).model, f), 100.0);
    EXPECT_EQ(predict(parse(Json{{"model_dict", dict}}, {.disable_clip = true}).model, f), 123.0);
    dict["model"] = svm_text(1, 5.0, {});
    EXPECT_EQ(predict(parse(Json{{"model_dict", dict}}).model, f), 0.0);
}

TEST(Model, ChromaCorrectionReplacesAZeroSpeedChromaInput)
{
    // Inputs: adm3 (index 1) and speed_chroma (index 2). One support vector
    // at the origin makes the prediction depend on the normalised inputs.
    Json dict;
    dict["model_type"] = "LIBSVMNUSVR";
    dict["norm_type"] = "linear_rescale";
    dict["feature_names"] = {"VMAF_integer_feature_adm3_score", "Speed_chroma_feature_speed_chroma_uv_score"};
    dict["slopes"] = {1.0, 0.5, 0.25};
    dict["intercepts"] = {0.0, 0.125, -0.5};
    dict["chroma_correction_parameter"] = 120.0;
    dict["model"] = svm_text(0.01, 0.0, {"1"});
    const Model model = parse(Json{{"model_dict", dict}}).model;

    auto expected = [](double adm3, double speed) {
        const double n_adm3 = 0.5 * adm3 + 0.125;
        double n_speed = 0.25 * speed + -0.5;
        if ((n_speed - -0.5) / 0.25 == 0.0) {
            const double guiding = (n_adm3 - 0.125) / 0.5;
            n_speed = 0.25 * ((-120.0 * guiding) + 120.0) + -0.5;
        }
        return 1 * std::exp(-0.01 * (n_adm3 * n_adm3 + n_speed * n_speed)) - 0.0;
    };
    for (const auto& [adm3, speed] : {std::pair{0.93, 0.0}, {0.93, 0.4}, {0.7, -0.0}}) {
        const double features[] = {adm3, speed};
        EXPECT_EQ(predict(model, features), expected(adm3, speed)) << adm3 << ", " << speed;
    }

    dict["chroma_correction_parameter"] = 0.0;
    EXPECT_ERROR(parse(Json{{"model_dict", dict}}), "chroma_correction_parameter");
    dict["chroma_correction_parameter"] = 1.0;
    dict["feature_names"] = {"VMAF_integer_feature_adm2_score", "Speed_chroma_feature_speed_chroma_uv_score"};
    EXPECT_ERROR(parse(Json{{"model_dict", dict}}), "exactly one feature named *adm3*");
}

TEST(Model, FeatureOptionsAreTextAsLibvmafKeepsThem)
{
    Json dict = constant_model_dict(1.0, {"a", "b"});
    dict["feature_opts_dicts"] = {{{"gain", 1.0}, {"view", 0.06}, {"long", 1.23456789}},
                                  {{"flag", true}, {"method", "bilinear"}, {"size", 1080}}};
    const Model model = parse(Json{{"model_dict", dict}}).model;
    EXPECT_EQ(model.features[0].options,
              (OptionList{{"gain", "1"}, {"view", "0.06"}, {"long", "1.23457"}}));
    EXPECT_EQ(model.features[1].options,
              (OptionList{{"flag", "true"}, {"method", "bilinear"}, {"size", "1080"}}));
}

TEST(OptionText, NumbersAreStoredAsLibvmafsFloatWithPercentG)
{
    EXPECT_EQ(libvmaf_option_text("1.2"), "1.2");
    EXPECT_EQ(libvmaf_option_text("1.2345678"), "1.23457");
    EXPECT_EQ(libvmaf_option_text("1.0"), "1");
    EXPECT_EQ(libvmaf_option_text(" 2 "), "2");
    EXPECT_EQ(libvmaf_option_text("1280"), "1280");
    EXPECT_EQ(libvmaf_option_text("true"), "true");
    EXPECT_EQ(libvmaf_option_text("1.2x"), "1.2x");
    EXPECT_EQ(libvmaf_option_text("bilinear"), "bilinear");
    EXPECT_EQ(libvmaf_number_text(0.1), "0.1");
    EXPECT_EQ(libvmaf_number_text(45.0), "45");
}

// ---- bad model files ---------------------------------------------------------

TEST(Model, BadFilesAreErrorsNamingTheProblem)
{
    const Json good = Json{{"model_dict", constant_model_dict(1.0)}};
    auto with = [&](const std::string& key, const Json& value) {
        Json j = good;
        j["model_dict"][key] = value;
        return j;
    };
    auto without = [&](const std::string& key) {
        Json j = good;
        j["model_dict"].erase(key);
        return j;
    };
    EXPECT_ERROR(parse_model("{", "my.json", {}), "my.json: not valid JSON");
    EXPECT_ERROR(parse_model("[1]", "my.json", {}), "my.json: top level");
    EXPECT_ERROR(parse(Json{{"param_dict", 1}}), "neither a 'model_dict'");
    EXPECT_ERROR(parse(without("model_type")), "no 'model_type'");
    EXPECT_ERROR(parse(with("model_type", "SVR")), "model_type: unknown type 'SVR'");
    EXPECT_ERROR(parse(with("model_type", 3)), "model_type: expected a string");
    EXPECT_ERROR(parse(without("norm_type")), "no 'norm_type'");
    EXPECT_ERROR(parse(with("norm_type", "clip_0to1")), "norm_type: unknown type 'clip_0to1'");
    EXPECT_ERROR(parse(without("feature_names")), "no 'feature_names'");
    EXPECT_ERROR(parse(with("feature_names", Json::array())), "feature_names: no features");
    EXPECT_ERROR(parse(with("feature_names", Json::array({1}))), "feature_names: expected a string");
    EXPECT_ERROR(parse(without("model")), "no 'model'");
    EXPECT_ERROR(parse(with("model", "svm_type nu_svr\n")), "test model: model: libsvm model text");
    EXPECT_ERROR(parse(with("score_clip", Json::array({0.0}))), "score_clip: expected [min, max]");
    EXPECT_ERROR(parse(with("score_clip", Json{0.0, "x"})), "score_clip: expected a number");
    EXPECT_ERROR(parse(with("score_transform", Json{{"enabled", "yes"}})), "score_transform.enabled");
    EXPECT_ERROR(parse(with("score_transform", Json{{"p1", "x"}})), "score_transform.p1: expected a number");
    EXPECT_ERROR(parse(with("score_transform", Json{{"out_gte_in", true}})), "score_transform.out_gte_in");
    EXPECT_ERROR(parse(with("feature_opts_dicts", Json::array({Json{{"x", nullptr}}}))), "feature_opts_dicts[0].x");
    EXPECT_ERROR(parse(with("feature_opts_dicts", Json{Json::object(), Json::object()})), "2 entries for 1 features");
    Json rescale = with("norm_type", "linear_rescale");
    EXPECT_ERROR(parse(rescale), "no 'slopes'");
    rescale["model_dict"]["slopes"] = {1.0};
    rescale["model_dict"]["intercepts"] = {0.0, 0.0};
    EXPECT_ERROR(parse(rescale), "slopes: 1 values; expected 1 + one per feature = 2");
    EXPECT_ERROR(load_model_file("/nonexistent/model.json", {}), "cannot read model file '/nonexistent/model.json'");
}

// ---- bootstrap collections ------------------------------------------------------

Json collection(const std::vector<double>& member_predictions)
{
    Json top;
    top["0"]["model_dict"] = constant_model_dict(5.0);
    top["0"]["model_dict"]["model_type"] = "BOOTSTRAP_LIBSVMNUSVR";
    for (std::size_t i = 0; i < member_predictions.size(); ++i) {
        Json dict = constant_model_dict(member_predictions[i]);
        dict["model_type"] = "BOOTSTRAP_LIBSVMNUSVR";
        dict["score_clip"] = {0.0, 30.0};
        top[std::to_string(i + 1)]["model_dict"] = dict;
    }
    return top;
}

TEST(Bootstrap, WritesMembersAndStatisticsInLibvmafsOrder)
{
    std::vector<LoadedModel> models;
    models.push_back(parse(collection({40.0, 10.0, 20.0}), {.name = "q"}));
    models[0].label = "mine";
    EXPECT_EQ(output_names(models[0]), (std::vector<std::string>{"q", "q_0001", "q_0002", "q_0003", "q_bagging",
                                                                 "q_stddev", "q_ci_p95_lo", "q_ci_p95_hi"}));
    for (Model* m : models[0].all_models()) m->features[0].input = "f";

    Collector collector;
    for (int frame = 0; frame < 5; ++frame) collector.set("f", frame, 0.0);
    score_models(models, collector, 5, 2);  // frames 0, 2, 4

    std::vector<std::string> names;
    for (const auto& series : collector.series()) names.push_back(series.name);
    EXPECT_EQ(names, (std::vector<std::string>{"f", "q", "q_0001", "q_0002", "q_0003", "q_bagging", "q_stddev",
                                               "q_ci_p95_lo", "q_ci_p95_hi"}));
    auto at = [&](const std::string& name, int frame) { return collector.get(*collector.find(name), frame); };
    EXPECT_FALSE(collector.has(*collector.find("q"), 1));

    const double mean = (0. + 40.0 + 10.0 + 20.0) / 3;
    const double ssd = (40.0 - mean) * (40.0 - mean) + (10.0 - mean) * (10.0 - mean) + (20.0 - mean) * (20.0 - mean);
    const double plus = mean + 0.01, minus = mean - 0.01;  // unclipped: inside [0, 30]
    const double lo_p = 2.5 * 2 / 100., hi_p = 97.5 * 2 / 100.;
    EXPECT_EQ(at("q", 4), 5.0);
    EXPECT_EQ(at("q_0001", 4), 30.0);  // written clipped
    EXPECT_EQ(at("q_0002", 4), 10.0);
    EXPECT_EQ(at("q_bagging", 4), mean);  // from the unclipped 40
    EXPECT_EQ(at("q_stddev", 4), std::sqrt(ssd / 3) * ((plus - minus) / (2.0 * 0.01)));
    EXPECT_EQ(at("q_ci_p95_lo", 4), 10.0 * (1 - lo_p) + 20.0 * (lo_p - 0));
    EXPECT_EQ(at("q_ci_p95_hi", 4), std::min(30.0, 20.0 * (2 - hi_p) + 40.0 * (hi_p - 1)));

    EXPECT_EQ(pooled_summary(models, collector, 5, 2),
              "mine: 5.000000\nmine: " + std::to_string(mean) + ", ci.p95: [" +
                  std::to_string(at("q_ci_p95_lo", 0)) + ", " + std::to_string(at("q_ci_p95_hi", 0)) +
                  "], stddev: " + std::to_string(at("q_stddev", 0)) + "\n");
}

TEST(Bootstrap, BadCollections)
{
    Json only_zero;
    only_zero["0"]["model_dict"] = constant_model_dict(1.0);
    EXPECT_ERROR(parse(only_zero), "needs models '0' and '1'");
    Json plain_member = collection({1.0, 2.0});
    plain_member["2"]["model_dict"]["model_type"] = "LIBSVMNUSVR";
    EXPECT_ERROR(parse(plain_member), "test model, model '2': model_type: a member of a model collection");
    Json mixed = collection({1.0, 2.0});
    mixed["2"]["model_dict"]["model_type"] = "RESIDUEBOOTSTRAP_LIBSVMNUSVR";
    EXPECT_ERROR(parse(mixed), "differs from model '1'");
    Json broken = collection({1.0});
    broken["1"]["model_dict"]["norm_type"] = "bogus";
    EXPECT_ERROR(parse(broken), "test model, model '1': norm_type: unknown type 'bogus'");
    // Keys out of sequence are skipped, as libvmaf skips them.
    Json gap = collection({1.0, 2.0});
    gap["5"] = gap["2"];
    EXPECT_EQ(parse(gap).bootstrap.size(), 2u);
}

TEST(Scoring, MissingFeatureValueAndNameClashesAreErrors)
{
    std::vector<LoadedModel> models;
    models.push_back(parse(Json{{"model_dict", constant_model_dict(1.0)}}));
    models[0].model.features[0].input = "f";
    Collector collector;
    collector.set("f", 0, 1.0);
    EXPECT_ERROR(score_models(models, collector, 2, 1), "no value of feature 'f' (f) at frame 1");
    Collector taken;
    taken.set("f", 0, 1.0);
    taken.set("vmaf", 0, 1.0);
    EXPECT_ERROR(score_models(models, taken, 1, 1), "model output 'vmaf' is already written");
}

// ---- built-in models ----------------------------------------------------------------

TEST(BuiltinModels, AllParseAndUnknownVersionsListThem)
{
    const std::vector<std::string> versions = builtin_model_versions();
    EXPECT_EQ(versions.size(), 17u);
    for (const std::string& version : versions) {
        const LoadedModel loaded = load_builtin_model(version, {});
        EXPECT_EQ(loaded.label, version);
        EXPECT_EQ(loaded.model.name, "vmaf");
        EXPECT_EQ(loaded.is_collection(), version.find("_b_") != std::string::npos) << version;
    }
    const LoadedModel b = load_builtin_model("vmaf_b_v0.6.3", {.name = "x"});
    ASSERT_EQ(b.bootstrap.size(), 20u);
    EXPECT_EQ(b.bootstrap.back().name, "x_0020");
    const LoadedModel v = load_builtin_model("vmaf_v0.6.1", {});
    EXPECT_FALSE(v.model.transform.enabled);  // its score_transform has no "enabled"
    EXPECT_TRUE(load_builtin_model("vmaf_v0.6.1", {.enable_transform = true}).model.transform.enabled);
    EXPECT_FALSE(load_builtin_model("vmaf_v0.6.1", {.disable_clip = true}).model.score_clip);
    EXPECT_EQ(load_builtin_model("vmaf_v0.6.1neg", {}).model.features[0].options,
              (OptionList{{"adm_enhn_gain_limit", "1"}}));
    EXPECT_ERROR(load_builtin_model("vmaf_v9", {}), "no built-in model 'vmaf_v9'; built-in models: vmaf_float_v0.6.1, ");
}

// ---- binding to extractors (psnr is registered; its outputs are plain names) ----

LoadedModel psnr_model()
{
    Json dict = constant_model_dict(1.0, {"psnr_y", "psnr_cb"});
    dict["feature_opts_dicts"] = {{{"enable_mse", true}}};
    LoadedModel loaded = parse(Json{{"model_dict", dict}});
    loaded.label = "psnr.json";
    return loaded;
}

TEST(Binding, FindsExtractorsSetsInputsAndAppliesOverrides)
{
    LoadedModel loaded = psnr_model();
    apply_override(loaded, "psnr", {{"min_sse", "0.5"}, {"enable_mse", "false"}});
    const std::vector<OptionValues> configs = bind_to_extractors(loaded);
    ASSERT_EQ(configs.size(), 2u);
    EXPECT_EQ(configs[0].feature(), "psnr");
    EXPECT_FALSE(configs[0].get_bool("enable_mse"));  // the override replaced the file's value
    EXPECT_EQ(configs[0].get_double("min_sse"), 0.5);
    EXPECT_EQ(configs[0], configs[1]);  // one extractor serves both features
    EXPECT_EQ(loaded.model.features[0].input, "psnr_y");
    EXPECT_EQ(loaded.model.features[1].input, "psnr_cb");
}

TEST(Binding, Errors)
{
    LoadedModel loaded = psnr_model();
    EXPECT_ERROR(apply_override(loaded, "adm", {{"adm_enhn_gain_limit", "1.2"}}),
                 "model psnr.json computes no feature with extractor 'adm'; its extractors are: psnr");
    apply_override(loaded, "psnr", {{"bogus", "1"}});
    EXPECT_ERROR(bind_to_extractors(loaded), "model psnr.json, feature psnr_y: feature 'psnr' has no option 'bogus'");
    LoadedModel unknown = parse(Json{{"model_dict", constant_model_dict(1.0, {"no_such_feature"})}});
    unknown.label = "v";
    EXPECT_ERROR(bind_to_extractors(unknown),
                 "model v needs feature 'no_such_feature', which twinvmaf does not implement yet");
}

}  // namespace
