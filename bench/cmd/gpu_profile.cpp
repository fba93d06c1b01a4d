/// @file gpu_profile.cpp
#include "cmd/gpu_profile.hpp"

#include <iomanip>
#include <sstream>

namespace ccrowd::bench {

void writeGpuProfile(std::ostream& log, const std::string& labelNames, const std::string& labelValues, int phases,
                     const EikonalGpuProfile& p, bool header) {
    if (header)
        log << "profile," << labelNames << ",phases,kernel_us,select_us,process_us,slowest_tiles_us,tiles,stage_us,sweep_us,"
               "front_ns,tail_us,clock_ghz\n";
    // the times with fixed decimals: 0.1 µs for the kernel's sums, 1 ns per front, 0.001 for the per-tile parts and the clock
    std::ostringstream o;
    o << std::fixed << "profile," << labelValues << "," << phases << std::setprecision(1) << "," << p.kernel_us << ","
      << p.select_us << "," << p.process_us << "," << p.slowest_tiles_us << "," << p.tiles << std::setprecision(3) << ","
      << p.stage_us << "," << p.sweep_us << std::setprecision(1) << "," << p.front_ns << std::setprecision(3) << ","
      << p.tail_us << "," << p.clock_ghz << "\n";
    log << o.str();
}

}  // namespace ccrowd::bench
