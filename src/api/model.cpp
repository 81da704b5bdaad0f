// The public Model: Netflix's model files and built-in versions
// (src/model/model.h), shared by the sessions that use them.
#include "model/binding.h"
#include "model/model.h"
#include "model/predict.h"
#include "twinvmaf/model.h"

namespace twinvmaf {

namespace {

model::LoadOptions load_options(const ModelOptions& options)
{
    return model::LoadOptions{
        .name = options.name, .disable_clip = options.disable_clip, .enable_transform = options.enable_transform};
}

Model wrap(model::LoadedModel loaded) { return Model(std::make_shared<const model::LoadedModel>(std::move(loaded))); }

}  // namespace

Model Model::builtin(const std::string& version, const ModelOptions& options)
{
    return wrap(model::load_builtin_model(version, load_options(options)));
}

Model Model::from_file(const std::string& path, const ModelOptions& options)
{
    return wrap(model::load_model_file(path, load_options(options)));
}

Model Model::from_json(std::string_view json, const std::string& source, const ModelOptions& options)
{
    return wrap(model::parse_model(json, source, load_options(options)));
}

std::vector<std::string> Model::builtin_versions() { return model::builtin_model_versions(); }

void Model::override_feature(const std::string& extractor, const OptionList& options)
{
    model::LoadedModel changed = *loaded_;
    model::apply_override(changed, extractor, options);
    loaded_ = std::make_shared<const model::LoadedModel>(std::move(changed));
}

const std::string& Model::name() const { return loaded_->model.name; }
const std::string& Model::label() const { return loaded_->label; }
bool Model::is_collection() const { return loaded_->is_collection(); }
std::vector<std::string> Model::output_names() const { return model::output_names(*loaded_); }

}  // namespace twinvmaf
