#pragma once
/// @file operational_model.hpp
/// The operational (local) level of a step behind one interface, as
/// JuPedSim separates its operational models: the continuum's stages give
/// every agent its preferred velocity (Narain et al. 2009 §6, seed 003); an
/// operational model turns preferred velocities into moves: the UIC
/// pressure with minimum-distance separation, Helbing's social force,
/// ORCA (RVO2) or seed 000's zone repulsion. The model owns its private fields and buffers.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "sim/pipeline.hpp"

namespace ccrowd::sim {

/// A bundle of Move stages that reads the agents' preferred velocities
/// ("agents.preferred") and writes their velocities and positions.
class OperationalModel {
public:
    virtual ~OperationalModel() = default;
    /// Name as selected in a scene (e.g. "uic").
    virtual const char* name() const = 0;
    /// The model's stages, in order (StagePhase::Move), for the state @p s
    /// they will run on (fields are sized to its grid here).
    virtual std::vector<Stage> stages(SimState& s) = 0;
    /// Bytes of the model's buffers sized by the agent count. [Units: bytes]
    virtual std::size_t agentBufferBytes() const = 0;
    /// Bytes of the model's other buffers (its grid fields). [Units: bytes]
    virtual std::size_t gridBufferBytes() const = 0;
};

/// The UIC model (uic_model.cpp).
std::unique_ptr<OperationalModel> makeUicModel();
/// The social force model (social_force_model.cpp).
std::unique_ptr<OperationalModel> makeSocialForceModel();
/// The ORCA model (orca_model.cpp).
std::unique_ptr<OperationalModel> makeOrcaModel();
/// The zone-repulsion model (zones_model.cpp).
std::unique_ptr<OperationalModel> makeZonesModel();

/// Names of the operational models this build has.
std::vector<std::string> operationalModelNames();

/// The model named @p name; throws InputError naming the allowed names for
/// an unknown one.
std::unique_ptr<OperationalModel> makeOperationalModel(const std::string& name);

}  // namespace ccrowd::sim
