/// @file gpu_profile.cpp
#include "cmd/gpu_profile.hpp"

#include <iomanip>
#include <sstream>

namespace ccrowd::bench {

namespace {

/// @p v with @p prec decimals.
std::string fixed(double v, int prec) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(prec) << v;
    return o.str();
}

}  // namespace

void writeGpuProfile(std::ostream& log, const std::string& labelNames, const std::string& labelValues, int phases,
                     const EikonalGpuProfile& p, bool header) {
    if (header)
        log << "profile," << labelNames << ",phases,kernel_us,select_us,process_us,slowest_tiles_us,tiles,stage_us,sweep_us,"
               "front_ns,tail_us,clock_ghz\n";
    log << "profile," << labelValues << "," << phases << "," << fixed(p.kernel_us, 1) << "," << fixed(p.select_us, 1) << ","
        << fixed(p.process_us, 1) << "," << fixed(p.slowest_tiles_us, 1) << "," << p.tiles << "," << fixed(p.stage_us, 3)
        << "," << fixed(p.sweep_us, 3) << "," << fixed(p.front_ns, 1) << "," << fixed(p.tail_us, 3) << ","
        << fixed(p.clock_ghz, 3) << "\n";
}

}  // namespace ccrowd::bench
