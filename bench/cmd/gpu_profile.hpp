#pragma once
/// @file gpu_profile.hpp
/// The `profile,` lines of `bench eikonal --profile-cuda` and `bench step
/// --profile-cuda`: where a CUDA FIM solve's kernel time went
/// (EikonalGpuProfile), one line per solve, on the log.

#include <ostream>
#include <string>

#include "ccrowd/eikonal.hpp"

namespace ccrowd::bench {

/// Writes one `profile,` line: the columns @p labelNames (comma-separated,
/// e.g. "case,size") with values @p labelValues, the solve's phases, then
/// @p p's parts (µs, the front in ns, the clock in GHz); the header line
/// first when @p header.
void writeGpuProfile(std::ostream& log, const std::string& labelNames, const std::string& labelValues, int phases,
                     const EikonalGpuProfile& p, bool header);

}  // namespace ccrowd::bench
