#include <gtest/gtest.h>

#include "cli/cli_args.h"
#include "core/feature.h"
#include "core/options.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;

namespace {

const std::vector<OptionSpec>& specs()
{
    static const std::vector<OptionSpec> s = {
        {.name = "adm_enhn_gain_limit", .type = OptionType::kDouble, .default_value = 100.0,
         .min = 1.0, .max = 100.0, .names_output = true, .alias = "egl"},
        {.name = "adm_csf_mode", .type = OptionType::kInt, .default_value = 0, .min = 0, .max = 9,
         .names_output = true, .alias = "csf"},
        {.name = "debug", .type = OptionType::kBool, .default_value = false},
        {.name = "motion_force_zero", .type = OptionType::kBool, .default_value = false,
         .names_output = true, .alias = "force"},
        {.name = "method", .type = OptionType::kString, .default_value = std::string("bilinear"),
         .names_output = true, .alias = "psm"},
    };
    return s;
}

TEST(Options, DefaultsAndTypedValues)
{
    OptionValues v("adm", specs());
    EXPECT_EQ(v.get_double("adm_enhn_gain_limit"), 100.0);
    EXPECT_EQ(v.get_int("adm_csf_mode"), 0);
    EXPECT_FALSE(v.get_bool("debug"));
    v.set("adm_enhn_gain_limit", "1.2");
    v.set("adm_csf_mode", "2");
    v.set("debug", "true");
    EXPECT_EQ(v.get_double("adm_enhn_gain_limit"), 1.2);
    EXPECT_EQ(v.get_int("adm_csf_mode"), 2);
    EXPECT_TRUE(v.get_bool("debug"));
}

TEST(Options, UnknownOptionListsValidOnes)
{
    OptionValues v("adm", specs());
    const std::string message = test::error_of([&] { v.set("bogus", "1"); });
    EXPECT_NE(message.find("'bogus'"), std::string::npos) << message;
    EXPECT_NE(message.find("adm_enhn_gain_limit, adm_csf_mode, debug"), std::string::npos) << message;
}

TEST(Options, BadValuesAreRefused)
{
    OptionValues v("adm", specs());
    EXPECT_NE(test::error_of([&] { v.set("debug", "yes"); }).find("true or false"), std::string::npos);
    EXPECT_NE(test::error_of([&] { v.set("adm_csf_mode", "2.5"); }).find("integer"), std::string::npos);
    EXPECT_NE(test::error_of([&] { v.set("adm_csf_mode", "10"); }).find("out of range"), std::string::npos);
    EXPECT_NE(test::error_of([&] { v.set("adm_enhn_gain_limit", "0.5"); }).find("out of range"),
              std::string::npos);
    EXPECT_NE(test::error_of([&] { v.set("adm_enhn_gain_limit", "1.2x"); }).find("number"),
              std::string::npos);
    EXPECT_NE(test::error_of([&] { v.set("adm_enhn_gain_limit", "nan"); }).find("number"),
              std::string::npos);
}

TEST(Options, OutputSuffixFollowsNetflix)
{
    // Netflix: non-default naming options, alphabetical by full name ("method"
    // before "motion_force_zero", whatever the aliases), "%g"
    // values, booleans as the bare alias.
    OptionValues v("adm", specs());
    EXPECT_EQ(v.output_suffix(), "");
    v.set("debug", "true");  // not a naming option
    EXPECT_EQ(v.output_suffix(), "");
    v.set("adm_enhn_gain_limit", "1.0");
    EXPECT_EQ(v.output_suffix(), "_egl_1");
    v.set("adm_csf_mode", "2");
    v.set("motion_force_zero", "true");
    v.set("method", "nearest");
    EXPECT_EQ(v.output_suffix(), "_csf_2_egl_1_psm_nearest_force");
    v.set("adm_enhn_gain_limit", "100");  // back to the default: not named
    EXPECT_EQ(v.output_suffix(), "_csf_2_psm_nearest_force");
}

TEST(Options, EqualityMeansSameInstance)
{
    OptionValues a("adm", specs()), b("adm", specs());
    EXPECT_TRUE(a == b);
    b.set("adm_csf_mode", "0");  // explicitly the default
    EXPECT_TRUE(a == b);
    b.set("adm_csf_mode", "1");
    EXPECT_FALSE(a == b);
}

TEST(Registry, FindsPsnrAndListsValidNames)
{
    EXPECT_EQ(find_feature("psnr").name, "psnr");
    const std::string message = test::error_of([] { find_feature("integer_adm"); });
    EXPECT_NE(message.find("unknown feature 'integer_adm'"), std::string::npos) << message;
    EXPECT_NE(message.find("psnr"), std::string::npos) << message;
}

TEST(CliParse, FeatureArgumentLikeNetflix)
{
    auto f = cli::parse_feature_argument("float_ssim=enable_db=true:clip_db=true");
    EXPECT_EQ(f.name, "float_ssim");
    ASSERT_EQ(f.options.size(), 2u);
    EXPECT_EQ(f.options[0], (std::pair<std::string, std::string>{"enable_db", "true"}));
    EXPECT_EQ(f.options[1], (std::pair<std::string, std::string>{"clip_db", "true"}));
    EXPECT_TRUE(cli::parse_feature_argument("psnr").options.empty());
    EXPECT_THROW(cli::parse_feature_argument("psnr=enable_chroma"), cli::UsageError);
    EXPECT_THROW(cli::parse_feature_argument("=x=1"), cli::UsageError);
}

TEST(CliParse, ModelArgumentLikeNetflix)
{
    auto m = cli::parse_model_argument(
        "version=vmaf_v1.0.16_3d0h:cambi.enc_width=1280:cambi.enc_height=720:name=v1:disable_clip");
    EXPECT_EQ(m.version, "vmaf_v1.0.16_3d0h");
    EXPECT_EQ(m.name, "v1");
    EXPECT_TRUE(m.disable_clip);
    EXPECT_FALSE(m.enable_transform);
    ASSERT_EQ(m.overrides.size(), 2u);
    EXPECT_EQ(m.overrides[0].first, "cambi");
    EXPECT_EQ(m.overrides[0].second[0].first, "enc_width");
    EXPECT_EQ(m.overrides[0].second[0].second, "1280");
    EXPECT_THROW(cli::parse_model_argument("name=x"), cli::UsageError);
    EXPECT_THROW(cli::parse_model_argument("version=a:path=b"), cli::UsageError);
    EXPECT_THROW(cli::parse_model_argument("version=a:bogus"), cli::UsageError);
}

// Runs parse_arguments on "twinvmaf -r r -d d <args>".
cli::Settings parse_with(std::vector<std::string> args)
{
    args.insert(args.begin(), {"twinvmaf", "-r", "r.y4m", "-d", "d.y4m"});
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    return cli::parse_arguments(static_cast<int>(argv.size()), argv.data()).settings;
}

TEST(CliParse, DefaultModelUnlessNoPrediction)
{
    const cli::Settings s = parse_with({});
    ASSERT_EQ(s.models.size(), 1u);
    EXPECT_EQ(s.models[0].version, "vmaf_v0.6.1");
    EXPECT_EQ(s.models[0].name, "vmaf");
    EXPECT_TRUE(parse_with({"-n", "--feature", "psnr"}).models.empty());
    EXPECT_EQ(parse_with({"--model", "path=m.json"}).models.size(), 1u);
    EXPECT_THROW(parse_with({"-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_4k_v0.6.1"}), cli::UsageError);
}

TEST(CliParse, OptionNumbersAreKeptAsLibvmafKeepsThem)
{
    EXPECT_EQ(cli::parse_feature_argument("adm=adm_enhn_gain_limit=1.2345678").options[0].second, "1.23457");
    EXPECT_EQ(cli::parse_model_argument("version=v:adm.adm_enhn_gain_limit=1.20").overrides[0].second[0].second,
              "1.2");
}

TEST(CliParse, CtcPresetsAddNetflixsModelsAndFeatures)
{
    const cli::Settings aom = parse_with({"--aom_ctc", "v7.0"});
    ASSERT_EQ(aom.models.size(), 2u);
    EXPECT_EQ(aom.models[0].version, "vmaf_v0.6.1");
    EXPECT_EQ(aom.models[0].name, "vmaf");
    EXPECT_EQ(aom.models[1].version, "vmaf_v0.6.1neg");
    EXPECT_EQ(aom.models[1].name, "vmaf_neg");
    std::vector<std::string> names;
    for (const auto& f : aom.features) names.push_back(f.name);
    EXPECT_EQ(names, (std::vector<std::string>{"psnr", "ciede", "float_ssim", "float_ms_ssim", "psnr_hvs", "cambi"}));
    EXPECT_EQ(aom.features[2].options.front(), (std::pair<std::string, std::string>{"scale", "1"}));
    EXPECT_EQ(parse_with({"--aom_ctc", "v1.0"}).features.size(), 5u);
    const cli::Settings nflx = parse_with({"--nflx_ctc", "v1.0"});
    EXPECT_EQ(nflx.models[0].version, "vmaf_4k_v0.6.1");
    EXPECT_EQ(nflx.models[1].name, "vmaf_neg");
    EXPECT_EQ(nflx.features.size(), 3u);
    EXPECT_THROW(parse_with({"--aom_ctc", "proposed"}), cli::UsageError);
    EXPECT_THROW(parse_with({"--aom_ctc", "v8.0"}), cli::UsageError);
    EXPECT_THROW(parse_with({"--nflx_ctc", "v2.0"}), cli::UsageError);
    // Its model "vmaf" next to the default name of a --model: not unique.
    EXPECT_THROW(parse_with({"--aom_ctc", "v1.0", "--model", "version=vmaf_4k_v0.6.1"}), cli::UsageError);
}

}  // namespace
