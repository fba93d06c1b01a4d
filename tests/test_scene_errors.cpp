/// @file test_scene_errors.cpp
/// Every kind of bad scene input ends in an InputError, thrown by loadScene
/// or rasterizeScene before anything runs, whose message names the file and
/// the JSON path (RFC 6901) of the problem. Inputs are written by the tests:
/// a valid base scene mutated one field at a time, or raw text.

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "temp_dir.hpp"
#include <nlohmann/json.hpp>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"

namespace ccrowd::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// A small valid scene: a 10 m x 6 m room, a goal on the east side, one group.
json baseScene() {
    return json::parse(R"({
      "format": "ccrowd-scene", "version": 1,
      "domain": {"origin": [0, 0], "width": 10, "height": 6, "cell": 0.5},
      "obstacles": [{"rect": {"min": [4, 0], "max": [5, 2]}}],
      "goals": [{"name": "exit", "areas": [{"rect": {"min": [9, 0], "max": [10, 6]}}]},
                {"name": "other", "areas": [{"rect": {"min": [6, 5], "max": [7, 6]}}]}],
      "groups": [{"name": "walkers", "spawn": [{"rect": {"min": [0.5, 0.5], "max": [3, 5]}}], "count": 10,
                  "speed": {"mean": 1.3, "sd": 0.2, "min": 0.5, "max": 2}, "radius": 0.2, "route": ["exit"]},
                 {"name": "second", "spawn": [{"rect": {"min": [0.5, 5], "max": [3, 5.5]}}], "count": 1,
                  "route": ["other", "exit"]}],
      "sources": [{"group": "walkers", "region": {"rect": {"min": [0, 2], "max": [0.5, 3]}}, "rate": 1}],
      "model": {"dt": 0.05}
    })");
}

class SceneErrors : public ::ccrowd::test::TempDirTest {
protected:
    /// Loads and rasterises @p path; returns the InputError message, or ""
    /// (a test failure) when it loads fine or throws anything else.
    static std::string loadError(const std::string& path) {
        try {
            const Scene s = loadScene(path);
            (void)rasterizeScene(s);
        } catch (const InputError& e) {
            return e.what();
        } catch (const std::exception& e) {
            ADD_FAILURE() << "not an InputError: " << e.what();
            return "";
        }
        ADD_FAILURE() << path << " loaded without error";
        return "";
    }

    /// Writes @p doc, expects an error naming the file and @p jsonPath (and @p also).
    void expectError(const std::string& name, const json& doc, const std::string& jsonPath,
                     const std::string& also = "") {
        expectTextError(name, doc.dump(2), jsonPath, also);
    }
    void expectTextError(const std::string& name, const std::string& text, const std::string& jsonPath,
                         const std::string& also = "") {
        const std::string path = write(name + ".json", text);
        const std::string msg = loadError(path);
        EXPECT_NE(msg.find(path), std::string::npos) << name << ": no file name in: " << msg;
        EXPECT_NE(msg.find(jsonPath), std::string::npos) << name << ": no path " << jsonPath << " in: " << msg;
        if (!also.empty()) {
            EXPECT_NE(msg.find(also), std::string::npos) << name << ": no '" << also << "' in: " << msg;
        }
    }

    /// The base scene with the value at @p pointer replaced (or removed when null).
    static json with(const std::string& pointer, const json& value) {
        json d = baseScene();
        d[json::json_pointer(pointer)] = value;
        return d;
    }
    static json without(const std::string& pointer) {
        json d = baseScene();
        const json::json_pointer p(pointer);
        d[p.parent_pointer()].erase(p.back());
        return d;
    }

};

TEST_F(SceneErrors, BaseSceneIsValid) {
    const Scene s = loadScene(write("base.json", baseScene().dump()));
    EXPECT_NO_THROW(rasterizeScene(s));
}

TEST_F(SceneErrors, FileProblems) {
    // Missing file, a directory, a FIFO, an empty and a blank file.
    const std::string missing = (dir_ / "no_such_scene.json").string();
    std::string msg = loadError(missing);
    EXPECT_NE(msg.find(missing), std::string::npos) << msg;
    EXPECT_NE(msg.find("no such file"), std::string::npos) << msg;
    msg = loadError(dir_.string());
    EXPECT_NE(msg.find("directory"), std::string::npos) << msg;
    const std::string fifo = (dir_ / "fifo.json").string();
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    msg = loadError(fifo);
    EXPECT_NE(msg.find("not a regular file"), std::string::npos) << msg;
    // A regular file that cannot be read even by root (EIO).
    if (fs::exists("/proc/self/mem")) {
        msg = loadError("/proc/self/mem");
        EXPECT_NE(msg.find("/proc/self/mem: /: cannot read scene file"), std::string::npos) << msg;
    }
    expectTextError("empty", "", "/", "empty file");
    expectTextError("blank", "  \n\t\n", "/", "empty file");
}

TEST_F(SceneErrors, UnreadableFile) {
    if (geteuid() == 0) GTEST_SKIP() << "root reads files without read permission";
    const std::string path = write("unreadable.json", baseScene().dump());
    ASSERT_EQ(chmod(path.c_str(), 0), 0);
    const std::string msg = loadError(path);
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("cannot read"), std::string::npos) << msg;
}

TEST_F(SceneErrors, NotJsonGivesLineAndColumn) {
    expectTextError("syntax", "{\"format\": \"ccrowd-scene\",\n  \"version\": 1,\n  oops\n}", "line 3, column 3",
                    "not valid JSON");
    expectTextError("truncated", "{\"format\": \"ccrowd-scene\", \"version\": 1, \"domain\": {", "line 1",
                    "JSON path /domain");
    expectTextError("trailing", baseScene().dump() + "\n}", "line 2", "not valid JSON");
    expectTextError("bad_utf8", "{\"format\": \"ccrowd-scene\", \"name\": \"\xff\"}", "line 1", "not valid JSON");
    expectTextError("comment", "// scene\n{}", "line 1, column 1", "not valid JSON");
    // 1e400 overflows a double: rejected with its path.
    std::string big = baseScene().dump();
    big.replace(big.find("\"width\":10"), 10, "\"width\":1e400");
    expectTextError("overflow", big, "/domain/width", "overflow");
}

TEST_F(SceneErrors, WrongFormatOrVersion) {
    expectError("format", with("/format", "ccrowd-scenery"), "/format", "ccrowd-scene");
    expectError("no_format", without("/format"), "/format", "missing");
    expectError("version2", with("/version", 2), "/version", "1");
    expectError("version_string", with("/version", "1"), "/version");
    expectError("no_version", without("/version"), "/version", "missing");
    expectTextError("array_root", "[1, 2]", "/", "JSON object");
}

TEST_F(SceneErrors, MissingRequiredFields) {
    expectError("no_domain", without("/domain"), "/domain", "missing");
    expectError("no_width", without("/domain/width"), "/domain/width", "missing");
    expectError("no_goals", without("/goals"), "/goals", "missing");
    expectError("no_groups", without("/groups"), "/groups", "missing");
    expectError("no_route", without("/groups/0/route"), "/groups/0/route", "missing");
    expectError("no_goal_name", without("/goals/1/name"), "/goals/1/name", "missing");
    expectError("no_areas", without("/goals/0/areas"), "/goals/0/areas", "missing");
    expectError("no_count", without("/groups/0/count"), "/groups/0/count", "density");
    expectError("no_rate", without("/sources/0/rate"), "/sources/0/rate", "missing");
    expectError("no_rect_max", with("/obstacles/0/rect", json::parse(R"({"min": [1, 1]})")), "/obstacles/0/rect/max");
}

TEST_F(SceneErrors, WrongTypes) {
    expectError("width_string", with("/domain/width", "10"), "/domain/width", "got a string");
    expectError("count_fraction", with("/groups/0/count", 1.5), "/groups/0/count", "integer");
    expectError("exit_number", with("/goals/0/exit", 1), "/goals/0/exit", "true or false");
    expectError("route_string", with("/groups/0/route", "exit"), "/groups/0/route", "array");
    expectError("obstacle_number", with("/obstacles/0", 5), "/obstacles/0", "polygon");
    expectError("colour_name", with("/groups/0/colour", "red"), "/groups/0/colour", "#rrggbb");
    expectError("colour_range", with("/groups/0/colour", json::array({1, 2, 300})), "/groups/0/colour/2");
    expectError("point_3d", with("/domain/origin", json::array({0, 0, 0})), "/domain/origin", "2 numbers");
    expectError("goals_object", with("/goals", json::object()), "/goals", "array");
    expectError("model_array", with("/model", json::array()), "/model", "object");
    expectError("name_null", with("/groups/1/name", nullptr), "/groups/1/name", "got null");
}

TEST_F(SceneErrors, OutOfRangeNumbers) {
    expectError("speed_negative", with("/groups/0/speed/mean", -1), "/groups/0/speed/mean", "> 0");
    expectError("radius_zero", with("/groups/0/radius", 0), "/groups/0/radius", "> 0");
    expectError("dt_zero", with("/model/dt", 0), "/model/dt", "> 0 and <= 1");
    expectError("rho_limit_negative", with("/model/rho_limit", -1), "/model/rho_limit");
    expectError("cell_zero", with("/domain/cell", 0), "/domain/cell", ">= 0.01");
    expectError("huge_width", with("/domain/width", 1e300), "/domain/width", "<= 1e+06");
    expectError("huge_coordinate", with("/obstacles/0/rect/min", json::array({1e7, 0})), "/obstacles/0/rect/min/0");
    expectError("count_negative", with("/groups/0/count", -3), "/groups/0/count", ">= 0");
    expectError("count_too_many", with("/groups/0/count", 20000000), "/groups/0/count", "10000000");
    expectError("seed_negative", with("/model/seed", -1), "/model/seed");
    expectError("iterations_zero", with("/model/pressure_iterations", 0), "/model/pressure_iterations", ">= 1");
    expectError("local_unknown", with("/model/local", "rvo2"), "/model/local", "'uic'");
    expectError("terrain_factor", with("/terrain", json::parse(R"([{"area": {"rect": {"min": [1, 1], "max": [2, 2]}}, "factor": 1.5}])")),
                "/terrain/0/factor", "<= 1");
    expectError("rho_order", with("/model/rho_max", 0.2), "/model/rho_max", "rho_min < rho_max");
    expectError("weights_zero", [] { json d = with("/model/alpha", 0); d["model"]["beta"] = 0; return d; }(),
                "/model/beta", "alpha + beta > 0");
    expectError("speed_min_max", with("/groups/0/speed/max", 0.4), "/groups/0/speed/max", "min <= max");
    expectError("speed_mean_outside", with("/groups/0/speed/mean", 2.5), "/groups/0/speed/mean", "min <= mean <= max");
    expectError("source_end", with("/sources/0/end", 0), "/sources/0/end", "end > start");
    expectError("max_steps_zero", with("/model/max_steps", 0), "/model/max_steps", "-1 (no limit)");
    expectError("stencil_six", with("/model/potential_stencil", 6), "/model/potential_stencil", "4 or 8");
    expectError("stencil_sixteen", with("/model/potential_stencil", 16), "/model/potential_stencil", "4 or 8");
    expectError("stencil_text", with("/model/potential_stencil", "8"), "/model/potential_stencil");
    expectError("sweeps_zero", with("/model/potential_sweeps", 0), "/model/potential_sweeps", "an integer >= 1 and <= 64");
    expectError("sweeps_many", with("/model/potential_sweeps", 65), "/model/potential_sweeps", "an integer >= 1 and <= 64");
    expectError("band_negative", with("/model/potential_band_tiles", -1), "/model/potential_band_tiles");
    expectError("band_nan", with("/model/potential_band_tiles", "auto"), "/model/potential_band_tiles");
    expectError("fronts_negative", with("/model/potential_front_budget", -1), "/model/potential_front_budget",
                "an integer >= 0 and <= 1000000");
    expectError("fronts_fraction", with("/model/potential_front_budget", 1.5), "/model/potential_front_budget");
    expectError("fronts_many", with("/model/potential_front_budget", 1000001), "/model/potential_front_budget");
    expectError("clearance_negative", with("/model/wall_clearance", -0.1), "/model/wall_clearance", "[m]");
    expectError("clearance_wide", with("/model/wall_clearance", 10.5), "/model/wall_clearance");
    expectError("clearance_text", with("/model/wall_clearance", "auto"), "/model/wall_clearance");
    expectError("wall_g_negative", with("/model/wall_discomfort", -1), "/model/wall_discomfort");
    expectError("wall_g_large", with("/model/wall_discomfort", 2e6), "/model/wall_discomfort");
    expectError("threshold", with("/floor_plans", json::parse(R"([{"image": "x.png", "threshold": 2}])")),
                "/floor_plans/0/threshold");
}

TEST_F(SceneErrors, OperationalModelParameters) {
    // social force (Helbing 2000) and zones (seed 000): each names the field, the value and the range
    expectError("sf_B_zero", with("/model/social_force/B", 0), "/model/social_force/B", "> 0 and <= 10 [m]");
    expectError("sf_A_negative", with("/model/social_force/A", -5), "/model/social_force/A", ">= 0 and <= 1e+06 [N]");
    expectError("sf_tau_zero", with("/model/social_force/tau", 0), "/model/social_force/tau", "> 0");
    expectError("sf_panic_high", with("/model/social_force/panic", 1.5), "/model/social_force/panic", "<= 1");
    expectError("sf_injury_negative", with("/model/social_force/injury_threshold", -1),
                "/model/social_force/injury_threshold", ">= 0 and <= 1e+06 [N/m]");
    expectError("sf_step_scale_zero", with("/model/social_force/step_scale", 0), "/model/social_force/step_scale",
                ">= 0.01 and <= 1");
    expectError("sf_step_scale_high", with("/model/social_force/step_scale", 2), "/model/social_force/step_scale",
                ">= 0.01 and <= 1");
    expectError("sf_unknown_key", with("/model/social_force/omega", 1), "/model/social_force", "omega");
    expectError("group_panic", with("/groups/0/panic", -0.5), "/groups/0/panic", ">= 0 and <= 1");
    expectError("zones_order", with("/model/zones/d2", 0.1), "/model/zones/d2", "0 < d1 < d2 < d3");
    expectError("zones_strength", with("/model/zones/f3", 2), "/model/zones/f3", "f1 >= f2 >= f3");
    expectError("zones_d3_high", with("/model/zones/d3", 30), "/model/zones/d3", "<= 20 [m]");
    expectError("local_unknown_lists_all", with("/model/local", "rvo"), "/model/local", "'social_force'");
    expectError("local_unknown_lists_orca", with("/model/local", "rvo"), "/model/local", "'orca'");
    // ORCA (van den Berg 2011, RVO2): horizons, neighbour distance and count
    expectError("orca_horizon_zero", with("/model/orca/time_horizon", 0), "/model/orca/time_horizon", "> 0 and <= 100 [s]");
    expectError("orca_horizon_obst_negative", with("/model/orca/time_horizon_obst", -1), "/model/orca/time_horizon_obst",
                "> 0 and <= 100 [s]");
    expectError("orca_dist_high", with("/model/orca/neighbour_dist", 25), "/model/orca/neighbour_dist", "<= 20 [m]");
    expectError("orca_neighbours_high", with("/model/orca/max_neighbours", 33), "/model/orca/max_neighbours", "32");
    expectError("orca_neighbours_zero", with("/model/orca/max_neighbours", 0), "/model/orca/max_neighbours", "1");
    expectError("orca_neighbours_fraction", with("/model/orca/max_neighbours", 2.5), "/model/orca/max_neighbours");
    expectError("orca_unknown_key", with("/model/orca/radius", 0.3), "/model/orca", "radius");
}

TEST_F(SceneErrors, GridAndAgentCaps) {
    // 5000 m / 0.5 m = 10000 cells along x > 4096.
    json wide = with("/domain/width", 5000);
    expectError("grid_too_large", wide, "/domain/width", "4096");
    // Counts that add up past 10^7.
    json many = baseScene();
    many["groups"][0]["count"] = 6000000;
    many["groups"][1]["count"] = 6000000;
    expectError("too_many_agents", many, "/groups/1/count", "10000000");
}

TEST_F(SceneErrors, UnknownKeysNameTheAllowedOnes) {
    expectError("typo_group", [] { json d = baseScene(); d["groups"][0]["colur"] = "#ffffff"; return d; }(),
                "/groups/0/colur", "did you mean 'colour'");
    expectError("typo_model", [] { json d = baseScene(); d["model"]["alfa"] = 1; return d; }(), "/model/alfa",
                "alpha, beta, gamma");
    expectError("typo_root", [] { json d = baseScene(); d["obstacle"] = json::array(); return d; }(), "/obstacle",
                "did you mean 'obstacles'");
    expectError("rect_extra", with("/obstacles/0/rect/centre", json::array({1, 1})), "/obstacles/0/rect/centre",
                "min, max");
    expectTextError("duplicate_key", R"({"format": "ccrowd-scene", "version": 1, "version": 1})", "/version",
                    "duplicate key");
}

TEST_F(SceneErrors, BadPolygons) {
    expectError("two_points", with("/obstacles/0", json::parse("[[0, 0], [1, 1]]")), "/obstacles/0", "at least 3 points");
    expectError("bowtie", with("/obstacles/0", json::parse("[[4, 0], [5, 1], [5, 0], [4, 1]]")), "/obstacles/0",
                "self-intersecting");
    expectError("collinear", with("/obstacles/0", json::parse("[[4, 0], [5, 0], [6, 0]]")), "/obstacles/0",
                "zero area");
    expectError("tiny", with("/obstacles/0", json::parse("[[4, 0], [4.0001, 0], [4, 0.0001]]")), "/obstacles/0",
                "zero area");
    expectError("repeated_vertex", with("/obstacles/0", json::parse("[[4, 0], [5, 0], [5, 0], [5, 1]]")),
                "/obstacles/0/2", "repeated vertex");
    expectError("spike", with("/obstacles/0", json::parse("[[4, 0], [6, 0], [5, 0], [5, 1]]")), "/obstacles/0",
                "self-intersecting");
    expectError("rect_inverted", with("/obstacles/0/rect/max", json::array({3, 3})), "/obstacles/0/rect/max",
                "max.x > min.x");
    json many = json::array();
    for (int k = 0; k < 5000; ++k) many.push_back({std::cos(k * 1e-3), std::sin(k * 1e-3)});
    expectError("too_many_points", with("/obstacles/0", many), "/obstacles/0", "3..4096 points");
    expectError("spawn_bowtie", with("/groups/0/spawn/0", json::parse("[[0, 0], [2, 2], [2, 0], [0, 2]]")),
                "/groups/0/spawn/0", "self-intersecting");
}

TEST_F(SceneErrors, NamesAndReferences) {
    expectError("unknown_goal", with("/groups/0/route/0", "exot"), "/groups/0/route/0", "\"exit\", \"other\"");
    expectError("unknown_waypoint", with("/groups/1/route/0", "nowhere"), "/groups/1/route/0", "unknown goal");
    expectError("unknown_group", with("/sources/0/group", "runners"), "/sources/0/group", "\"walkers\", \"second\"");
    expectError("duplicate_goal", with("/goals/1/name", "exit"), "/goals/1/name", "also /goals/0/name");
    expectError("duplicate_group", with("/groups/1/name", "walkers"), "/groups/1/name", "duplicate group");
    expectError("empty_name", with("/goals/0/name", ""), "/goals/0/name", "empty");
    expectError("count_and_density", with("/groups/0/density", 1), "/groups/0/density", "not both");
}

TEST_F(SceneErrors, GoalsMustCoverAnOpenCell) {
    // Inside the obstacle, and outside the domain.
    expectError("goal_in_wall", with("/goals/1/areas/0/rect", json::parse(R"({"min": [4.1, 0.1], "max": [4.9, 1.9]})")),
                "/goals/1/areas", "no open cell");
    expectError("goal_outside", with("/goals/1/areas/0/rect", json::parse(R"({"min": [20, 20], "max": [21, 21]})")),
                "/goals/1/areas", "no open cell");
}

TEST_F(SceneErrors, GoalsMustBeReachable) {
    // A wall across the room cuts the spawn off from the goal.
    json cut = baseScene();
    cut["obstacles"].push_back(json::parse(R"({"rect": {"min": [7, 0], "max": [7.5, 6]}})"));
    expectError("wall_across", cut, "/groups/0/route/0", "cannot be reached");
    // Part of a spawn region is a closed pocket (walled on all sides).
    json pocket = baseScene();
    for (const char* r : {R"({"rect": {"min": [0, 0], "max": [1.5, 0.5]}})", R"({"rect": {"min": [1, 0.5], "max": [1.5, 2]}})",
                          R"({"rect": {"min": [0, 1.5], "max": [1, 2]}})"}) {
        pocket["obstacles"].push_back(json::parse(r));
    }
    expectError("spawn_pocket", pocket, "/groups/0/route/0", "spawn region of group 'walkers'");
    // The waypoint of group 1 in a closed box.
    json box = baseScene();
    box["obstacles"].push_back(json::parse("[[5.5, 4.5], [7.5, 4.5], [7.5, 6], [7, 6], [7, 5], [6, 5], [6, 6], [5.5, 6]]"));
    expectError("waypoint_boxed", box, "/groups/1/route/0", "'other'");
    // A source in a pocket.
    json src = baseScene();
    src["sources"][0]["region"] = json::parse(R"({"rect": {"min": [0.1, 0.1], "max": [0.9, 0.9]}})");
    for (const char* r : {R"({"rect": {"min": [1, 0], "max": [1.5, 1.5]}})", R"({"rect": {"min": [0, 1], "max": [1, 1.5]}})"}) {
        src["obstacles"].push_back(json::parse(r));
    }
    src["groups"][0]["spawn"][0] = json::parse(R"({"rect": {"min": [2, 2], "max": [3, 5]}})");
    expectError("source_pocket", src, "/sources/0/region", "cannot be reached");
}

TEST_F(SceneErrors, SpawnCountsMustFit) {
    expectError("too_many", with("/groups/0/count", 1000), "/groups/0/count", "cannot fit");
    expectError("density_over_limit", [] { json d = without("/groups/0/count"); d["groups"][0]["density"] = 6; return d; }(),
                "/groups/0/density", "rho_limit");
    // A spawn region entirely inside the obstacle holds no open cell.
    expectError("spawn_blocked", with("/groups/0/spawn/0/rect", json::parse(R"({"min": [4.1, 0.1], "max": [4.9, 1.9]})")),
                "/groups/0/spawn", "no open cell");
    // Thinner than a cell: no cell centre inside.
    expectError("spawn_thin", with("/groups/0/spawn/0/rect", json::parse(R"({"min": [1.3, 1], "max": [1.45, 4]})")),
                "/groups/0/spawn", "no open cell");
    expectError("count_without_spawn", with("/groups/0/spawn", json::array()), "/groups/0/count", "no spawn");
}

TEST_F(SceneErrors, RegionsOutsideTheDomain) {
    expectError("spawn_outside", with("/groups/0/spawn/0/rect/max", json::array({12, 5})), "/groups/0/spawn/0",
                "outside the domain");
    expectError("spawn_far", with("/groups/0/spawn/0/rect", json::parse(R"({"min": [-9, -9], "max": [-8, -8]})")),
                "/groups/0/spawn/0", "outside the domain");
    expectError("source_outside", with("/sources/0/region/rect/min", json::array({-1, 2})), "/sources/0/region",
                "outside the domain");
    // the numbers as the scene gave them (floats), not their doubles (12.300000190734863)
    expectError("spawn_outside_decimal", with("/groups/0/spawn/0/rect/max", json::array({12.3, 5})), "/groups/0/spawn/0",
                "vertex 1 at [12.3, 0.5]");
}

TEST_F(SceneErrors, NestingAndFloorPlans) {
    std::string deep = baseScene().dump();
    deep.insert(deep.size() - 1, ", \"description\": " + std::string(100, '[') + std::string(100, ']'));
    expectTextError("deep", deep, "/description", "nested too deeply");
    expectError("plan_missing", with("/floor_plans", json::parse(R"([{"image": "nowhere.png"}])")),
                "/floor_plans/0/image", "no such image");
    write("not_png.png", "this is text");
    expectError("plan_not_png", with("/floor_plans", json::parse(R"([{"image": "not_png.png"}])")),
                "/floor_plans/0/image", "not a PNG");
}

TEST_F(SceneErrors, ParseSceneNamesItsLabel) {
    try {
        parseScene("{\"format\": 1}", "my-label");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("my-label: /format"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace ccrowd::test
