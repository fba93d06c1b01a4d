#pragma once
/// @file skfmm_bridge.hpp
/// Times scikit-fmm (Python) on the same problem as our eikonal solvers, for
/// `ccrowd bench eikonal`. Runs bench/skfmm_time.py with python3 in a child
/// process; works only where python3, numpy and scikit-fmm are installed and
/// reports why it was skipped otherwise.
///
/// Source convention: skfmm puts travel time 0 on the zero contour of its
/// level set, which here lies half a cell around the source centre, while our
/// solvers put 0 at the source centre. So skfmm's phi is about h/(2 speed)
/// smaller everywhere (about 0.35 h/speed instead of 0 at the source cell).
/// This is not corrected: compare errors, not raw values, or allow for it.

#include <cstdint>
#include <string>
#include <vector>

#include "ccrowd/field.hpp"

namespace ccrowd::bench {

/// Outcome of runSkfmm.
struct SkfmmResult {
    bool ran = false;            ///< True when scikit-fmm ran and its output was read.
    std::string skipped_reason;  ///< Why it did not run (empty when ran).
    std::vector<double> ms;      ///< Wall time of each timed travel_time call (warm-up excluded). [Units: ms] [Size: repeats]
    Field<float> phi;            ///< Travel time, nx-by-ny. [Units: s] Blocked and unreachable cells: +inf.
};

/// Times skfmm.travel_time(phi0, speed, dx=h, order=1) with the source at cell
/// (srcI, srcJ): @p warmup untimed calls, then @p repeats timed ones.
///
/// Script: $CCROWD_SKFMM_SCRIPT if set, else CCROWD_SOURCE_DIR/bench/skfmm_time.py,
/// else <executable dir>/../share/ccrowd/skfmm_time.py. Inputs go to a fresh
/// temporary directory (under $TMPDIR or /tmp), removed afterwards; the child
/// gets /dev/null as stdin and its output is captured.
///
/// Returns ran = false with a reason when python3 is missing, scikit-fmm (or
/// numpy) cannot be imported ("scikit-fmm not installed (pip install scikit-fmm)"),
/// the script is not found, or anything else fails (the script's stderr tail).
/// Throws InputError for invalid arguments.
///
/// @param speed   Speed per cell. [Units: m/s] [Limit: finite, > 0 on open cells]
/// @param blocked 1 = blocked, 0 = open. [Size: same as speed]
/// @param srcI,srcJ Source cell. [Limit: inside the grid, open]
/// @param h       Cell size. [Units: m] [Limit: > 0, finite]
/// @param warmup  Untimed calls first. [Limit: >= 0]
/// @param repeats Timed calls. [Limit: >= 1]
SkfmmResult runSkfmm(const Field<float>& speed, const Field<std::uint8_t>& blocked, int srcI, int srcJ, float h,
                     int warmup, int repeats);

}  // namespace ccrowd::bench
