#pragma once
/// @file overlay_field.hpp
/// The field shown under the agents, read from the simulation on the host
/// (no GL): values per cell with the range mapped to the colour map, and
/// the desired-velocity arrows of a potential field.

#include <vector>

#include "ccrowd/simulation.hpp"
#include "viewer/options.hpp"

namespace ccrowd::viewer {

/// One overlay, ready to upload.
struct OverlayField {
    std::vector<float> values;  ///< Per cell, row-major (i + j nx). [Size: nx*ny] (empty for Overlay::None)
    float lo = 0.f, hi = 1.f;   ///< Value range spread over the colour map (values outside are clamped). [Limit: hi > lo]
    /// Arrow line segments (x0, y0, x1, y1) in world coordinates: shaft and
    /// two head strokes per arrow, at most about 64 arrows per axis.
    /// [Units: m] [Size: 4 per segment]
    std::vector<float> arrows;
};

/// Reads @p overlay from @p sim: density [1/m^2] over 0..rho_limit; speed,
/// the mean-velocity magnitude of the splat [m/s] over 0..max(v0, max);
/// pressure over 0..max; potential of field @p field [s] over 0..its largest
/// finite value (unreachable cells at the top), with its desired-velocity
/// arrows. Throws InputError when @p field is not a potential field.
OverlayField readOverlay(const Simulation& sim, Overlay overlay, int field);

/// Name of @p o as on the command line.
const char* overlayName(Overlay o);

}  // namespace ccrowd::viewer
