#pragma once
/// @file heatmap.hpp
/// Heat maps of a scalar grid: cells coloured with viridis over the range of
/// their finite values, walls in dark grey, non-finite values (+-inf, NaN,
/// e.g. an unreachable potential) in light grey and left out of the range,
/// a title, a colour bar with min/max labels and a legend for the greys.
/// The grid is drawn with y up (row j = 0 at the bottom).

#include <cstdint>
#include <string>

#include "canvas.hpp"

namespace ccrowd::plot {

/// Colour of wall cells.
constexpr Rgb kHeatMapWall{64, 64, 64};
/// Colour of open cells whose value is +-inf or NaN.
constexpr Rgb kHeatMapNoValue{200, 200, 200};

/// What to draw.
struct HeatMap {
    int nx = 0;                              ///< Cells along x. [Limit: >= 1]
    int ny = 0;                              ///< Cells along y. [Limit: >= 1]
    const float* values = nullptr;           ///< Cell (i, j) at j*nx + i. [Size: nx*ny]
    const std::uint8_t* blocked = nullptr;   ///< 1 = wall, drawn as kHeatMapWall; may be null. [Size: nx*ny]
    std::string title;                       ///< Line above the map, e.g. "density [1/m^2]  t = 3.00 s". ASCII.
    int map_size = 640;                      ///< Longer side of the map. [Units: px] [Limit: 16..4096]
};

/// Value range of a heat map: min and max over finite values of open cells.
struct HeatMapRange {
    float min = 0.f;   ///< Smallest finite open-cell value (0 when none). [Units: the values']
    float max = 0.f;   ///< Largest finite open-cell value (0 when none). [Units: the values']
    bool any = false;  ///< False when no open cell has a finite value.
};

/// Where the parts of a heat map image are. [Units: px]
struct HeatMapLayout {
    int width = 0, height = 0;                ///< Image size.
    int map_x = 0, map_y = 0;                 ///< Top-left pixel of the map.
    int map_w = 0, map_h = 0;                 ///< Map size: the grid scaled uniformly.
    int bar_x = 0, bar_y = 0, bar_w = 0, bar_h = 0;  ///< Colour bar (max at the top).
    int nx = 1, ny = 1;                       ///< Grid size the map shows.

    /// Pixel at the centre of cell (i, j) (y up in the grid, down in the
    /// image); it shows that cell when the map has at least a pixel per cell.
    /// [Limit: 0 <= i < nx, 0 <= j < ny]
    int pixelX(int i) const { return map_x + static_cast<int>((i + 0.5) * map_w / nx); }
    int pixelY(int j) const { return map_y + static_cast<int>((ny - j - 0.5) * map_h / ny); }
};

/// Range of @p map's finite open-cell values.
HeatMapRange heatMapRange(const HeatMap& map);

/// Image layout of @p map (depends on the grid shape, title and labels).
/// Throws InputError for a grid size, map size or null values outside the limits.
HeatMapLayout heatMapLayout(const HeatMap& map);

/// Renders @p map. Throws InputError like heatMapLayout.
Canvas renderHeatMap(const HeatMap& map);

/// Renders @p map and writes it as PNG to @p path, atomically (see writePng).
/// Throws InputError / Error naming the path when it cannot be written.
void writeHeatMap(const std::string& path, const HeatMap& map);

}  // namespace ccrowd::plot
