/// @file test_jupedsim_compare.cpp
/// bench/jupedsim_compare.py (issue 14, Deliver 3): it runs JuPedSim's
/// collision-free speed model and ccrowd on the same small room and writes
/// one row per simulator; bad arguments get a message naming the allowed
/// values. Skipped, saying so, when python3 lacks jupedsim or shapely.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ccrowd/config.hpp"
#include "render_cli.hpp"
#include "temp_dir.hpp"

namespace ccrowd::test {
namespace {

class JupedsimCompare : public TempDirTest {};

bool haveJupedsim() { return std::system("python3 -c 'import jupedsim, shapely' >/dev/null 2>&1") == 0; }

const std::string kScript = std::string("python3 ") + CCROWD_SOURCE_DIR + "/bench/jupedsim_compare.py --ccrowd " + CCROWD_EXE;

/// Rows of a CSV file, split at commas (no quoted fields in the script's output).
std::vector<std::vector<std::string>> readCsv(const std::string& file) {
    std::ifstream in(file);
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> cells;
        std::stringstream s(line);
        for (std::string c; std::getline(s, c, ',');) cells.push_back(c);
        rows.push_back(cells);
    }
    return rows;
}

TEST_F(JupedsimCompare, RunsBothSimulatorsOnASmallRoomAndWritesOneRowEach) {
    if (!haveJupedsim()) GTEST_SKIP() << "python3 lacks jupedsim or shapely (pip install jupedsim shapely): not checked";
    const std::string csv = path("rows.csv");
    const Result r = shell(kScript + " --scenes square:40 --models uic,orca --seconds 3 --threads 1 --csv " + csv);
    ASSERT_EQ(r.code, 0) << r.out;
    const auto rows = readCsv(csv);
    ASSERT_EQ(rows.size(), 4u) << r.out;
    const std::vector<std::string> header{"scene", "simulator", "persons", "out", "evacuation_s", "flow_per_s",
                                          "sim_s", "wall_s", "wall_per_sim_s", "speedup_vs_jupedsim"};
    EXPECT_EQ(rows[0], header);
    const char* who[] = {"jupedsim CSM", "ccrowd uic", "ccrowd orca"};
    for (int k = 1; k <= 3; ++k) {
        ASSERT_EQ(rows[k].size(), header.size()) << r.out;
        EXPECT_EQ(rows[k][0], "square:40");
        EXPECT_EQ(rows[k][1].rfind(who[k - 1], 0), 0u) << rows[k][1];
        EXPECT_EQ(rows[k][2], "40") << who[k - 1] << " places every person";
        EXPECT_GT(std::stoi(rows[k][3]), 0) << who[k - 1] << ": someone near the 4 m exit is out within 3 s";
        EXPECT_NEAR(std::stod(rows[k][6]), 3.0, 0.06) << who[k - 1] << " ran 3 simulated seconds";
        EXPECT_GT(std::stod(rows[k][7]), 0.0) << who[k - 1] << " wall time";
    }
    EXPECT_EQ(rows[1][9], "1.0") << "JuPedSim against itself";
}

TEST_F(JupedsimCompare, BadArgumentsNameTheAllowedValues) {
    if (!haveJupedsim()) GTEST_SKIP() << "python3 lacks jupedsim or shapely (pip install jupedsim shapely): not checked";
    Result r = shell(kScript + " --models uic,nope");
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.out.find("unknown model 'nope'"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("uic, social_force, orca, zones"), std::string::npos) << r.out;
    r = shell(kScript + " --seconds -1");
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.out.find("allowed a finite number >= 0"), std::string::npos) << r.out;
    r = shell("python3 " + std::string(CCROWD_SOURCE_DIR) + "/bench/jupedsim_compare.py --ccrowd " + path("missing"));
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.out.find("no such file"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ccrowd::test
