#pragma once
/// @file overlay_field.hpp
/// Host-side parts of the field overlay (no GL): its name, and the
/// desired-velocity arrows of a potential field. The overlay's values go
/// from the simulation's side to the texture through PublishedState.

#include <vector>

#include "ccrowd/simulation.hpp"
#include "viewer/options.hpp"

namespace ccrowd::viewer {

/// Desired-velocity arrows of potential field @p field of @p sim, one per
/// block of cells (at most 64 per axis: a small fixed count, so they are
/// built on the host from its copy of the field, once per step and not per
/// frame): shaft and two head strokes per arrow as line segments (x0, y0,
/// x1, y1) in world coordinates, length proportional to the speed (a block
/// at free speed). [Units: m] [Size: 4 per segment] [Limit: field
/// 0..fieldCount-1]
std::vector<float> potentialArrows(const Simulation& sim, int field);

/// Name of @p o as on the command line.
const char* overlayName(Overlay o);

}  // namespace ccrowd::viewer
