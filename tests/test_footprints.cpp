/// @file test_footprints.cpp
/// Building footprints from GIS files (issue 13, Deliver 3: "footprints"):
/// a projected GeoJSON's polygons and multipolygons become obstacles in the
/// scene's frame, a geographic one is projected to its UTM zone with its
/// sizes kept, entrances (points) become a goal people walk to, an OGR
/// filter picks the buildings, and bad files, layers, filters and shapes
/// get errors naming the file and the feature. Builds without GDAL: the
/// error names the package.

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "temp_dir.hpp"

namespace ccrowd::test {
namespace {

/// A GeoJSON FeatureCollection of @p features in EPSG @p epsg (0: none, i.e. WGS 84 lon/lat).
std::string collection(const std::string& features, int epsg) {
    const std::string crs = epsg ? R"("crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::)" + std::to_string(epsg) + R"("}},)" : "";
    return R"({"type": "FeatureCollection", )" + crs + R"( "features": [)" + features + "]}";
}

/// A polygon feature with @p props of the ring(s) @p rings (GeoJSON coordinates).
std::string polygon(const std::string& rings, const std::string& props = "{}") {
    return R"({"type": "Feature", "properties": )" + props + R"(, "geometry": {"type": "Polygon", "coordinates": )" + rings + "}}";
}

/// A scene of a 60 m x 40 m domain with @p footprints (JSON) and a goal "east" (or @p route).
std::string scene(const std::string& footprints, const std::string& route = "east") {
    return R"({"format": "ccrowd-scene", "version": 1, "domain": {"width": 60, "height": 40, "cell": 0.5},
      "footprints": )" + footprints + R"(,
      "goals": [{"name": "east", "areas": [{"rect": {"min": [58, 0], "max": [60, 40]}}]}],
      "groups": [{"name": "p", "spawn": [{"rect": {"min": [1, 1], "max": [4, 39]}}], "count": 10, "route": [")" + route + R"("]}],
      "model": {"duration": 60}})";
}

class FootprintsTest : public TempDirTest {
protected:
    void SetUp() override {
        TempDirTest::SetUp();
        if (!CCROWD_HAVE_GDAL) GTEST_SKIP() << "this build has no GDAL (Debian: apt-get install libgdal-dev, reconfigure)";
    }
    /// Loads @p text written as scene.json beside the GIS files; the error message when it fails.
    std::string loadError(const std::string& text) {
        try {
            (void)loadScene(write("scene.json", text));
        } catch (const InputError& e) {
            return e.what();
        }
        return "(no error)";
    }
};

TEST_F(FootprintsTest, ProjectedPolygonsAndMultipolygonsBecomeObstaclesInTheScenesFrame) {
    // UTM 33N: a 20 m x 10 m building at (500010, 5000010); a multipolygon of two 5 m squares, one with a courtyard
    write("town.geojson", collection(
        polygon("[[[500010, 5000010], [500030, 5000010], [500030, 5000020], [500010, 5000020], [500010, 5000010]]]") + "," +
            R"({"type": "Feature", "properties": {}, "geometry": {"type": "MultiPolygon", "coordinates": [
              [[[500040, 5000010], [500045, 5000010], [500045, 5000015], [500040, 5000015], [500040, 5000010]]],
              [[[500040, 5000025], [500045, 5000025], [500045, 5000030], [500040, 5000030], [500040, 5000025]],
               [[500041, 5000026], [500042, 5000026], [500042, 5000027], [500041, 5000026]]]]}})",
        32633));
    // the buildings' lower-left corner (500010, 5000010) at the domain's origin + (5, 5) via "origin"
    const Scene s = loadScene(write("scene.json", scene(R"([{"file": "town.geojson", "origin": [500005, 5000005]}])")));
    ASSERT_EQ(s.obstacles.size(), 3u) << "a polygon and the two parts of a multipolygon (the courtyard filled)";
    ASSERT_EQ(s.footprints.size(), 1u);
    EXPECT_EQ(s.footprints[0].buildings, 3);
    EXPECT_NE(s.footprints[0].crs.find("UTM zone 33N"), std::string::npos) << s.footprints[0].crs;
    const Polygon& b = s.obstacles[0];
    ASSERT_EQ(b.size(), 4u) << "the closing vertex dropped";
    EXPECT_FLOAT_EQ(b[0].x, 5.f);
    EXPECT_FLOAT_EQ(b[0].y, 5.f);
    EXPECT_FLOAT_EQ(b[2].x, 25.f);
    EXPECT_FLOAT_EQ(b[2].y, 15.f);
    // the walls are walls: the building's centre cell is blocked, the street beside it open
    const SceneGrid g = rasterizeScene(s);
    int i, j;
    g.cellOf(15.f, 10.f, i, j);
    EXPECT_TRUE(g.blocked.host()[i + j * g.nx]);
    g.cellOf(15.f, 17.f, i, j);
    EXPECT_FALSE(g.blocked.host()[i + j * g.nx]);
    // without "origin": the lower-left corner is the domain's origin
    const Scene t = loadScene(write("scene2.json", scene(R"([{"file": "town.geojson"}])")));
    EXPECT_FLOAT_EQ(t.obstacles[0][0].x, 0.f);
    EXPECT_FLOAT_EQ(t.obstacles[0][0].y, 0.f);
}

TEST_F(FootprintsTest, GeographicCoordinatesAreProjectedToTheirUtmZoneWithTheirSizes) {
    // a 50 m x 30 m building at 48 N, 11 E in lon/lat (GeoJSON's default CRS)
    const double lat = 48.0, lon = 11.0, kPi = 3.14159265358979;
    const double dLat = 30.0 / 111132.954, dLon = 50.0 / (111319.49 * std::cos(lat * kPi / 180.0));
    char ring[512];
    std::snprintf(ring, sizeof ring, "[[[%.9f, %.9f], [%.9f, %.9f], [%.9f, %.9f], [%.9f, %.9f], [%.9f, %.9f]]]", lon, lat, lon + dLon, lat,
                  lon + dLon, lat + dLat, lon, lat + dLat, lon, lat);
    write("geo.geojson", collection(polygon(ring), 0));
    const Scene s = loadScene(write("scene.json", scene(R"([{"file": "geo.geojson"}])")));
    ASSERT_EQ(s.obstacles.size(), 1u);
    EXPECT_NE(s.footprints[0].crs.find("UTM zone 32N"), std::string::npos) << s.footprints[0].crs;
    // UTM keeps lengths within 0.1% this near its central meridian (9 E); grid north turns by ~1.5 degrees here,
    // so the sides, not the bounding box, keep their lengths
    const Polygon& p = s.obstacles[0];
    ASSERT_EQ(p.size(), 4u);
    EXPECT_NEAR(std::hypot(p[1].x - p[0].x, p[1].y - p[0].y), 50.f, 0.15f);
    EXPECT_NEAR(std::hypot(p[2].x - p[1].x, p[2].y - p[1].y), 30.f, 0.15f);
    EXPECT_NEAR(std::atan2(p[1].y - p[0].y, p[1].x - p[0].x) * 180.0 / kPi, 1.49, 0.2) << "the grid convergence at 48 N, 2 degrees east of 9 E";
}

TEST_F(FootprintsTest, EntrancesMakeAGoalPeopleWalkToAndAFilterPicksTheBuildings) {
    // OSM-like: a building and a bus shelter (not a building) in one file; the entrance in another
    write("osm.geojson", collection(
        polygon("[[[500020, 5000010], [500030, 5000010], [500030, 5000030], [500020, 5000030], [500020, 5000010]]]", R"({"building": "yes"})") + "," +
            polygon("[[[500005, 5000005], [500007, 5000005], [500007, 5000007], [500005, 5000007], [500005, 5000005]]]", R"({"building": null, "amenity": "shelter"})"),
        32633));
    write("doors.geojson", collection(R"({"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [500031, 5000020]}})", 32633));
    const Scene s = loadScene(write("scene.json", scene(R"([{"file": "osm.geojson", "where": "building IS NOT NULL", "origin": [500000, 5000000],
        "entrances": {"file": "doors.geojson", "goal": "door", "size": 2}}])", "door")));
    ASSERT_EQ(s.obstacles.size(), 1u) << "the shelter filtered out";
    ASSERT_EQ(s.goals.size(), 2u);
    EXPECT_EQ(s.goals[0].name, "door");
    ASSERT_EQ(s.goals[0].areas.size(), 1u);
    EXPECT_FLOAT_EQ(s.goals[0].areas[0][0].x, 30.f);
    EXPECT_FLOAT_EQ(s.goals[0].areas[0][0].y, 19.f);
    // the group walks around the building to its door and leaves there
    Simulation sim(s, Exec{Backend::Cpu, 0});
    while (!sim.finished() && sim.agentCount() > 0) sim.step();
    EXPECT_EQ(sim.exitedTotal(), 10);
    for (const ExitRecord& e : sim.exits()) {
        EXPECT_NEAR(e.x, 31.f, 1.5f);
        EXPECT_NEAR(e.y, 20.f, 1.5f);
    }
}

TEST_F(FootprintsTest, BadFilesLayersFiltersAndShapesNameTheFileAndTheFeature) {
    write("town.geojson", collection(
        polygon("[[[500010, 5000010], [500030, 5000010], [500030, 5000020], [500010, 5000020], [500010, 5000010]]]") + "," +
            polygon("[[[500040, 5000010], [500050, 5000020], [500050, 5000010], [500040, 5000020], [500040, 5000010]]]"),
        32633));
    write("ok.geojson", collection(polygon("[[[1, 1], [2, 1], [2, 2], [1, 2], [1, 1]]]"), 32633));
    write("junk.geojson", "this is not GeoJSON");
    auto expectIn = [&](const std::string& footprints, const std::string& part) {
        const std::string m = loadError(scene(footprints));
        EXPECT_NE(m.find(part), std::string::npos) << footprints << " -> " << m;
    };
    expectIn(R"([{"file": "missing.geojson"}])", "/footprints/0/file");
    expectIn(R"([{"file": "missing.geojson"}])", "missing.geojson");
    expectIn(R"([{"file": "junk.geojson"}])", "GDAL cannot open it");
    expectIn(R"([{"file": "ok.geojson", "layer": "roads"}])", "no layer 'roads' (layers: ok)");
    expectIn(R"([{"file": "ok.geojson", "where": "height >>> 3"}])", "not valid OGR SQL");
    expectIn(R"([{"file": "town.geojson"}])", "building feature 1: its outline crosses itself");
    expectIn(R"([{"file": "ok.geojson", "entrances": {}}])", "the entrances' layer is the buildings'");
    expectIn(R"([{"file": "ok.geojson", "entrances": {"size": 0}}])", "/footprints/0/entrances/size");
    expectIn(R"([{"file": "ok.geojson", "colour": "red"}])", "/footprints/0/colour");
}

}  // namespace

TEST(FootprintsWithoutGdal, TheErrorNamesThePackage) {
    if (CCROWD_HAVE_GDAL) GTEST_SKIP() << "this build has GDAL (the other tests of this file run)";
    try {
        (void)parseScene(scene(R"([{"file": "town.geojson"}])"), "no-gdal");
        FAIL() << "a scene with footprints loaded without GDAL";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("libgdal-dev"), std::string::npos) << e.what();
    }
}

}  // namespace ccrowd::test
