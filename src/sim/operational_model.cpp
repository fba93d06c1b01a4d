/// @file operational_model.cpp
/// The operational models by name (the scene's model.local).

#include "sim/operational_model.hpp"

#include "ccrowd/error.hpp"

namespace ccrowd::sim {

std::vector<std::string> operationalModelNames() { return {"uic", "social_force", "orca", "zones"}; }

std::unique_ptr<OperationalModel> makeOperationalModel(const std::string& name) {
    if (name == "uic") return makeUicModel();
    if (name == "social_force") return makeSocialForceModel();
    if (name == "orca") return makeOrcaModel();
    if (name == "zones") return makeZonesModel();
    throw InputError(fieldMessage("model.local", "'" + name + "'", "no such operational model",
                                  "'uic', 'social_force', 'orca' or 'zones'"));
}

}  // namespace ccrowd::sim
