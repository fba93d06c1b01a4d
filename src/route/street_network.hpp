#pragma once
/// @file street_network.hpp
/// A street network (junctions and roads) for affordance-based route choice,
/// after Nicosia, Pellegrini and Carnevale, "Automatic High Level Avatar
/// Guidance Based on Affordance of Movement" (Eurographics 2012): the
/// walkable space is split into junctions, where people decide, and roads
/// between them, which people follow. Here junctions and roads are derived
/// from the medial axis (skeleton) of the free space: junctions where it
/// branches and where it ends, roads along the skeleton paths between them.

#include <array>
#include <cstdint>
#include <vector>

#include "ccrowd/field.hpp"
#include "ccrowd/grid_info.hpp"

namespace ccrowd::route {

/// A place where people decide: a branch point or a dead end of the network.
struct Junction {
    float x = 0, y = 0;  ///< Centre. [Units: m]
    /// People within this distance of the centre are "at" the junction: the
    /// clearance of the skeleton there (about half the street width), at
    /// least 1.5 cells and at least NetworkOptions::min_radius. [Units: m]
    float radius = 1;
};

/// A road between junctions a and b, followed without decisions.
struct Road {
    int a = 0, b = 0;        ///< Junction indices (a == b for a closed loop with one junction on it).
    std::vector<float> x, y; ///< Polyline from a's centre to b's (both included). [Units: m]
    float length = 0;        ///< Length along the polyline. [Units: m]
    /// 2 x the mean clearance along the road outside the junctions' discs
    /// (the street width). [Units: m]
    float width = 0;
};

/// Junctions, roads, and the junctions' adjacency.
struct StreetNetwork {
    std::vector<Junction> junctions;
    std::vector<Road> roads;
    /// Adjacency in CSR form: neighbours of junction j are nbr[first[j] ..
    /// first[j+1]), road index of each in road[...]. A closed loop road
    /// (a == b) is listed once. [Size: first: junctions + 1]
    std::vector<int> first, nbr, road;
    /// Fills first/nbr/road from roads (neighbours of each junction in road order).
    void buildAdjacency();
    /// Number of road ends at junction @p j (a closed loop counts 2): 1 for
    /// a dead end, >= 3 for a branch point. Needs no adjacency (scans the roads).
    int degree(int j) const;
};

/// Options of deriveNetwork().
struct NetworkOptions {
    /// Spurs (skeleton branches ending in a dead end) shorter than
    /// max(min_branch, 2 x the clearance where they join) are pruned;
    /// 0 = automatic (2 x the clearance only). [Units: m] [Limit: >= 0]
    float min_branch = 0.f;
    /// Smallest junction radius. [Units: m] [Limit: >= 0]
    float min_radius = 1.f;
};

/// Clearance of every cell: exact Euclidean distance from its centre to the
/// nearest blocked cell's centre (cells outside the grid count as blocked),
/// 0 in blocked cells; row-major, index i + j*nx. Felzenszwalb and
/// Huttenlocher, "Distance Transforms of Sampled Functions", Theory of
/// Computing 8 (2012). [Units: m] [Size: nx*ny]
/// Throws std::invalid_argument (naming "network") when @p blocked is not
/// g.nx x g.ny or g.h <= 0.
std::vector<float> clearance(const Field<std::uint8_t>& blocked, const GridInfo& g);

/// Street network derived from the free space (cells with blocked == 0):
/// exact Euclidean distance transform; skeleton by distance-ordered
/// homotopic thinning (Pudney, "Distance-Ordered Homotopic Thinning",
/// CVIU 72 (1998)), each distance level thinned by N/S/E/W border sweeps
/// (Rosenfeld 1975), end points kept where they lie on a ridge of the
/// distance (so a street's skeleton ends about half its width before a dead
/// end, with no spurs into the corners); spur pruning; junctions = skeleton
/// pixels with >= 3 skeleton neighbours (adjacent ones merged into one
/// junction at their clearance-weighted centre; junctions joined by a road
/// shorter than the larger clearance, or than the sum of two clearances
/// within a factor 2 of each other, merged too) plus dead ends of the
/// surviving branches; roads = skeleton paths between them, simplified
/// (Douglas-Peucker, tolerance one cell). A skeleton point with two branches
/// is not a junction; a cycle with no junction gets one junction on it (at
/// its widest point) and a loop road; a free region that thins to one pixel
/// gives a junction with no roads. Deterministic, single-threaded.
/// Throws std::invalid_argument (naming "network") when the free space has
/// no skeleton (no walkable cell), @p blocked is not g.nx x g.ny, g.h <= 0,
/// or an option is negative.
StreetNetwork deriveNetwork(const Field<std::uint8_t>& blocked, const GridInfo& g, const NetworkOptions& o = {});

/// Street network given in a scene: junction centres (@p x, @p y) [Units: m]
/// and index pairs @p roads; straight roads, each junction's radius from
/// the clearance at its centre (at least 1.5 cells and @p min_radius [Units: m]),
/// each road's width 2 x the mean clearance sampled along it outside the
/// discs. Throws std::invalid_argument naming the bad entry:
/// "network.roads[k]" for an out-of-range index, a self-loop or a duplicate
/// road; "network.junctions[k]" for a centre in a blocked cell or outside
/// the grid; "network.junctions" when x and y differ in size.
StreetNetwork givenNetwork(const std::vector<float>& x, const std::vector<float>& y,
                           const std::vector<std::array<int, 2>>& roads,
                           const Field<std::uint8_t>& blocked, const GridInfo& g, float min_radius = 1.f);

}  // namespace ccrowd::route
