/// @file footprints_none.cpp
/// Builds without GDAL: scenes with "footprints" get an error naming the package.

#include "ccrowd/error.hpp"
#include "footprints.hpp"

namespace ccrowd::scene_detail {

Footprints readFootprints(const FootprintSpec& spec, Vec2, const std::string& where) {
    throw InputError(fieldMessage(where, "'" + spec.path + "'", "this build reads no GIS files (built without GDAL)",
                                  "a build with GDAL: apt-get install libgdal-dev, then configure again"));
}

}  // namespace ccrowd::scene_detail
