#pragma once
/// @file traffic_map.hpp
/// Map of the traffic counts on a street network (seed 004, Nicosia et
/// al., Fig. 4): buildings in grey, each road drawn along its polyline at
/// its width (at least 2 px) coloured by the arrivals along it with viridis
/// (dark: few, yellow: the busiest road), a colour bar with the range, each
/// junction as a black dot whose area grows with its arrivals, and a
/// title. y up, like the heat maps.

#include <cstdint>
#include <string>
#include <vector>

#include "canvas.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/grid_info.hpp"
#include "ccrowd/simulation.hpp"

namespace ccrowd::plot {

/// What to draw.
struct TrafficMap {
    GridInfo grid;                          ///< The scene's grid (extent, cell size).
    const Field<std::uint8_t>* blocked = nullptr;  ///< Buildings (1 = blocked); may be null.
    const StreetTraffic* traffic = nullptr; ///< The network and counts to draw. [Limit: not null]
    std::vector<long long> road_counts;     ///< Per road: what colours it (e.g. arrivals over a run). [Size: roads]
    std::vector<long long> junction_counts; ///< Per junction. [Size: junctions]
    std::string title;                      ///< ASCII line above the map.
    int map_size = 1024;                    ///< Longer side of the map. [Units: px] [Limit: 64..8192]
};

/// Renders @p map. Throws InputError for sizes outside the limits.
Canvas renderTrafficMap(const TrafficMap& map);
/// Renders @p map and writes it as PNG to @p path, atomically. Throws
/// InputError / Error naming the path when it cannot be written.
void writeTrafficMap(const std::string& path, const TrafficMap& map);

}  // namespace ccrowd::plot
