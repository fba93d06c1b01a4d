/// @file test_walkable_wkt.cpp
/// Walkable area as WKT (src/io/walkable_wkt.hpp): exact output for simple
/// cases (closed rings, shells counter-clockwise, holes clockwise), and a
/// valid region for obstacles that touch, overlap, stick out of the area,
/// split it or cover it; the default scene's area equals domain minus
/// obstacles. With PedPy installed, shapely confirms validity.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "temp_dir.hpp"

#include "ccrowd/scene.hpp"
#include "src/io/walkable_wkt.hpp"
#include "src/scene/polygon.hpp"

namespace ccrowd::test {
namespace {

Polygon rect(float x0, float y0, float x1, float y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

struct Pt {
    double x, y;
};
using Ring = std::vector<Pt>;     // closed: first == last
using Poly = std::vector<Ring>;   // shell, holes

/// Parses the POLYGON / MULTIPOLYGON text walkableWkt writes.
std::vector<Poly> parseWkt(const std::string& wkt) {
    std::vector<Poly> out;
    const bool multi = wkt.rfind("MULTIPOLYGON (", 0) == 0;
    if (!multi && wkt.rfind("POLYGON (", 0) != 0) {
        ADD_FAILURE() << "not a polygon WKT: " << wkt;
        return out;
    }
    std::size_t i = wkt.find('(');
    int depth = 0;
    const int ringDepth = multi ? 3 : 2;
    for (; i < wkt.size(); ++i) {
        const char c = wkt[i];
        if (c == '(') {
            ++depth;
            if (depth == ringDepth - 1 || (!multi && depth == 1)) out.emplace_back();
            if (depth == ringDepth) out.back().emplace_back();
        } else if (c == ')') {
            --depth;
        } else if (depth == ringDepth && (c == '-' || (c >= '0' && c <= '9'))) {
            char* end = nullptr;
            const double x = std::strtod(wkt.c_str() + i, &end);
            const double y = std::strtod(end, &end);
            out.back().back().push_back({x, y});
            i = static_cast<std::size_t>(end - wkt.c_str()) - 1;
        }
    }
    return out;
}

double ringArea(const Ring& r) {
    double s = 0;
    for (std::size_t k = 0; k + 1 < r.size(); ++k) s += r[k].x * r[k + 1].y - r[k + 1].x * r[k].y;
    return 0.5 * s;
}

/// Checks closure and orientation of every ring; returns the region's area.
double checkedArea(const std::string& wkt) {
    double area = 0;
    for (const Poly& p : parseWkt(wkt)) {
        for (std::size_t r = 0; r < p.size(); ++r) {
            const Ring& ring = p[r];
            EXPECT_GE(ring.size(), 4u) << wkt;
            if (ring.size() < 4) continue;
            EXPECT_EQ(ring.front().x, ring.back().x) << "ring not closed: " << wkt;
            EXPECT_EQ(ring.front().y, ring.back().y) << "ring not closed: " << wkt;
            const double a = ringArea(ring);
            if (r == 0) EXPECT_GT(a, 0) << "shell not counter-clockwise: " << wkt;
            else EXPECT_LT(a, 0) << "hole not clockwise: " << wkt;
            area += a;
        }
    }
    return area;
}

TEST(WalkableAreaWkt, SquareWithHoleIsExact) {
    const std::string wkt = io::walkableWkt({rect(0, 0, 10, 10)}, {rect(3, 3, 5, 5)});
    EXPECT_EQ(wkt, "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (3 3, 3 5, 5 5, 5 3, 3 3))");
    EXPECT_DOUBLE_EQ(checkedArea(wkt), 96.0);
}

TEST(WalkableAreaWkt, InputOrientationDoesNotMatter) {
    Polygon cwShell = rect(0, 0, 10, 10), cwHole = rect(3, 3, 5, 5);
    std::reverse(cwShell.begin(), cwShell.end());
    std::reverse(cwHole.begin(), cwHole.end());
    EXPECT_EQ(io::walkableWkt({cwShell}, {cwHole}), io::walkableWkt({rect(0, 0, 10, 10)}, {rect(3, 3, 5, 5)}));
}

TEST(WalkableAreaWkt, DecimalsPrintAsTheInputFloats) {
    const std::string wkt = io::walkableWkt({rect(0.1f, 0.2f, 10.3f, 4.75f)}, {});
    EXPECT_EQ(wkt, "POLYGON ((0.1 0.2, 10.3 0.2, 10.3 4.75, 0.1 4.75, 0.1 0.2))");
}

TEST(WalkableAreaWkt, AbuttingWallsBecomeOneHole) {
    // Two walls sharing part of an edge: one L-shaped hole, not two touching rings.
    const std::string wkt = io::walkableWkt({rect(0, 0, 10, 10)}, {rect(2, 2, 8, 3), rect(2, 3, 3, 8)});
    EXPECT_EQ(wkt, "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 8, 3 8, 3 3, 8 3, 8 2, 2 2))");
    EXPECT_DOUBLE_EQ(checkedArea(wkt), 100.0 - 6.0 - 5.0);
}

TEST(WalkableAreaWkt, OverlappingObstaclesAreMerged) {
    const std::string wkt = io::walkableWkt({rect(0, 0, 10, 10)}, {rect(2, 2, 6, 6), rect(4, 4, 8, 8)});
    const auto polys = parseWkt(wkt);
    ASSERT_EQ(polys.size(), 1u) << wkt;
    EXPECT_EQ(polys[0].size(), 2u) << "one merged hole expected: " << wkt;
    EXPECT_DOUBLE_EQ(checkedArea(wkt), 100.0 - (16.0 + 16.0 - 4.0));
}

TEST(WalkableAreaWkt, ObstacleAcrossTheBoundaryCutsANotch) {
    // A wall sticking out of the area is not a hole: the shell goes around it.
    const std::string wkt = io::walkableWkt({rect(0, 0, 10, 10)}, {rect(-1, 4, 3, 6)});
    EXPECT_EQ(wkt, "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 6, 3 6, 3 4, 0 4, 0 0))");
    EXPECT_DOUBLE_EQ(checkedArea(wkt), 100.0 - 6.0);
}

TEST(WalkableAreaWkt, WallAcrossTheAreaGivesAMultiPolygon) {
    const std::string wkt = io::walkableWkt({rect(0, 0, 10, 10)}, {rect(-1, 4, 11, 5)});
    EXPECT_EQ(wkt, "MULTIPOLYGON (((0 0, 10 0, 10 4, 0 4, 0 0)), ((0 5, 10 5, 10 10, 0 10, 0 5)))");
    EXPECT_DOUBLE_EQ(checkedArea(wkt), 90.0);
}

TEST(WalkableAreaWkt, HoleTouchingTheShellAtAPointStaysAHole) {
    // Triangle obstacle with one corner on the left wall: a hole touching the shell.
    const Polygon tri{{0, 5}, {3, 4}, {3, 6}};
    const std::string wkt = io::walkableWkt({rect(0, 0, 10, 10)}, {tri});
    EXPECT_EQ(wkt, "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (0 5, 3 6, 3 4, 0 5))");
    EXPECT_DOUBLE_EQ(checkedArea(wkt), 97.0);
}

TEST(WalkableAreaWkt, SquaresTouchingAtACornerAreTwoPolygons) {
    const std::string wkt = io::walkableWkt({rect(0, 0, 1, 1), rect(1, 1, 2, 2)}, {});
    EXPECT_EQ(wkt, "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 1, 0 0)), ((1 1, 2 1, 2 2, 1 2, 1 1)))");
}

TEST(WalkableAreaWkt, ClipAndEmptyResults) {
    // Clipped to the domain; everything covered gives an empty polygon.
    EXPECT_EQ(io::walkableWkt({rect(-5, -5, 5, 5)}, {}, rect(0, 0, 10, 10)), "POLYGON ((0 0, 5 0, 5 5, 0 5, 0 0))");
    EXPECT_EQ(io::walkableWkt({rect(0, 0, 4, 4)}, {rect(-1, -1, 5, 5)}), "POLYGON EMPTY");
    EXPECT_EQ(io::walkableWkt({}, {}), "POLYGON EMPTY");
    // Degenerate input polygons are ignored.
    EXPECT_EQ(io::walkableWkt({rect(0, 0, 4, 4), Polygon{{1, 1}, {2, 2}}}, {rect(1, 1, 1, 3)}),
              "POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))");
}

TEST(WalkableAreaWkt, SlantedOverlapsGiveTheExactArea) {
    // A diamond over a square corner and a triangle crossing both: area by inclusion-exclusion.
    const Polygon diamond{{5, 3}, {7, 5}, {5, 7}, {3, 5}};
    const std::string wkt = io::walkableWkt({rect(0, 0, 10, 10)}, {diamond, rect(5, 5, 9, 9)});
    // Diamond 8 m^2, square 16 m^2, overlap = the diamond's quarter 2 m^2.
    EXPECT_NEAR(checkedArea(wkt), 100.0 - (8.0 + 16.0 - 2.0), 1e-9);
    EXPECT_EQ(parseWkt(wkt).size(), 1u);
}

TEST(WalkableAreaWkt, DefaultSceneIsDomainMinusObstacles) {
    const Scene scene = loadScene(defaultScenePath());
    const std::string wkt = io::sceneWalkableWkt(scene);
    // The default scene's obstacles touch (walls) but do not overlap.
    double expected = static_cast<double>(scene.width) * scene.height;
    for (const Polygon& p : scene.obstacles) expected -= std::fabs(geom::signedArea(p));
    EXPECT_NEAR(checkedArea(wkt), expected, 1e-6 * expected) << wkt;
    EXPECT_EQ(parseWkt(wkt).size(), 1u) << "the concourse is one connected area";
    // Deterministic.
    EXPECT_EQ(io::sceneWalkableWkt(scene), wkt);
}

class WalkableAreaWktShapely : public TempDirTest {};

TEST_F(WalkableAreaWktShapely, ShapelyFindsEveryCaseValid) {
    if (std::system("python3 -c 'import pedpy' >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "PedPy is not installed (python3 -c 'import pedpy' failed): shapely validity not checked";
    const Polygon tri{{0, 5}, {3, 4}, {3, 6}};
    const Polygon diamond{{5, 3}, {7, 5}, {5, 7}, {3, 5}};
    const std::vector<std::string> cases = {
        io::walkableWkt({rect(0, 0, 10, 10)}, {rect(2, 2, 8, 3), rect(2, 3, 3, 8)}),
        io::walkableWkt({rect(0, 0, 10, 10)}, {rect(2, 2, 6, 6), rect(4, 4, 8, 8)}),
        io::walkableWkt({rect(0, 0, 10, 10)}, {rect(-1, 4, 3, 6)}),
        io::walkableWkt({rect(0, 0, 10, 10)}, {rect(-1, 4, 11, 5)}),
        io::walkableWkt({rect(0, 0, 10, 10)}, {tri}),
        io::walkableWkt({rect(0, 0, 1, 1), rect(1, 1, 2, 2)}, {}),
        io::walkableWkt({rect(0, 0, 10, 10)}, {diamond, rect(5, 5, 9, 9)}),
        io::sceneWalkableWkt(loadScene(defaultScenePath())),
    };
    std::string lines;
    for (const std::string& c : cases) lines += c + "\n";
    const std::string in = write("cases.wkt", lines);
    const std::string script = write("check.py",
        "import sys, shapely, pedpy\n"
        "for line in open(sys.argv[1]):\n"
        "    g = shapely.from_wkt(line)\n"
        "    print(g.is_valid, shapely.is_valid_reason(g))\n"
        "pedpy.WalkableArea(line)\n"  // the last case (default scene) as PedPy's walkable area
        "print('pedpy ok')\n");
    FILE* p = popen(("python3 " + script + " " + in + " 2>&1").c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ASSERT_EQ(pclose(p), 0) << out;
    std::string expected;
    for (std::size_t k = 0; k < cases.size(); ++k) expected += "True Valid Geometry\n";
    EXPECT_EQ(out, expected + "pedpy ok\n");
}

}  // namespace
}  // namespace ccrowd::test
