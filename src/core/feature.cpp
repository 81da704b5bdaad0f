#include "core/feature.h"

#include "core/message_text.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

SlotWriter::SlotWriter(Collector& collector, std::vector<std::string> names)
    : collector_(collector), names_(std::move(names)), ids_(names_.size()), known_(names_.size())
{
}

void SlotWriter::write(std::size_t slot, std::uint64_t frame, double value)
{
    if (!known_.at(slot)) {
        ids_[slot] = collector_.id(names_[slot]);
        known_[slot] = true;
    }
    collector_.set(ids_[slot], frame, value);
}

void FeatureExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    for (std::size_t slot = 0; slot < scores.size(); ++slot) out.write(slot, index, scores.get(slot));
}

const FeatureInfo& find_feature(const std::string& name)
{
    std::string valid;
    for (const FeatureInfo& info : feature_registry()) {
        if (info.name == name) return info;
        if (!valid.empty()) valid += ", ";
        valid += info.name;
    }
    throw Error("unknown feature '" + message_text(name) + "'; valid features: " + valid);
}

const FeatureInfo* find_feature_providing(const std::string& provided_name)
{
    for (const FeatureInfo& info : feature_registry()) {
        for (const std::string& provided : info.provided) {
            if (provided == provided_name) return &info;
        }
    }
    return nullptr;
}

}  // namespace twinvmaf
