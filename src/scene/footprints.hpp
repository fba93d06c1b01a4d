#pragma once
/// @file footprints.hpp
/// Building footprints from GIS files (FootprintSpec): the polygons read by
/// GDAL/OGR, projected to metres and placed in the scene's frame.
/// footprints_gdal.cpp reads them; footprints_none.cpp, in builds without
/// GDAL, throws an error naming the package.

#include <string>
#include <vector>

#include "ccrowd/scene.hpp"

namespace ccrowd::scene_detail {

/// What a footprint file gives: the buildings' outer rings and the
/// entrances' goal areas, in the scene's frame. [Units: m]
struct Footprints {
    std::vector<Polygon> buildings;
    std::vector<Polygon> entrances;
    std::string crs;                ///< Name of the projected CRS used.
};

/// Reads @p spec (its path already resolved) for a domain whose origin is
/// @p domainOrigin. Throws InputError naming @p where (the scene key), the
/// file, the layer and the feature on a missing file or layer, a bad
/// filter, or a footprint that is not a simple polygon of at most 4096
/// vertices.
Footprints readFootprints(const FootprintSpec& spec, Vec2 domainOrigin, const std::string& where);

}  // namespace ccrowd::scene_detail
