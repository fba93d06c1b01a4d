/// @file test_trajectory.cpp
/// Trajectory writers (src/io/trajectory_sqlite.hpp, trajectory_text.hpp):
/// the JuPedSim version-2 tables with their exact columns, the (frame, id)
/// key, row counts and values read back with the SQLite C API; rows stored
/// in id order whatever the caller's order; atomic files (nothing under the
/// final name before close(), no .tmp / -wal / -shm after); errors naming
/// the path for unwritable paths and full disks, naming the id for a
/// repeated id; PedPy reading both formats when PedPy is installed. Also
/// prints the time and file size of a 50,000-agent frame.

#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "temp_dir.hpp"

#include "ccrowd/error.hpp"
#include "src/io/trajectory_sqlite.hpp"
#include "src/io/trajectory_text.hpp"

namespace ccrowd::test {
namespace {

namespace fs = std::filesystem;

const char* const kSquareWkt = "POLYGON ((0 0, 10 0, 10 8, 0 8, 0 0), (4 3, 4 5, 6 5, 6 3, 4 3))";

/// One frame of agents (structure of arrays).
struct Frame {
    long long number = 0;
    std::vector<int> id, group;
    std::vector<float> x, y, vx, vy;
    int n() const { return static_cast<int>(id.size()); }
    void add(int i, int g, float px, float py, float pvx, float pvy) {
        id.push_back(i), group.push_back(g), x.push_back(px), y.push_back(py), vx.push_back(pvx), vy.push_back(pvy);
    }
};

/// Three frames: agent 1 walks east then stops (keeps its heading), agent 2
/// never moves ((1, 0)), agent 3 walks north-west, agent 4 joins in frame 2.
std::vector<Frame> sampleFrames() {
    std::vector<Frame> f(3);
    f[0].number = 0;
    f[0].add(1, 0, 1.0f, 1.0f, 1.2f, 0.f);
    f[0].add(2, 1, 2.0f, 2.0f, 0.f, 0.f);
    f[0].add(3, 0, 3.0f, 3.0f, -0.6f, 0.8f);
    f[1].number = 1;
    f[1].add(3, 0, 2.97f, 3.04f, -0.6f, 0.8f);
    f[1].add(1, 0, 1.06f, 1.0f, 0.f, 0.f);
    f[1].add(2, 1, 2.0f, 2.0f, 0.f, 0.f);
    f[2].number = 5;
    f[2].add(1, 0, 1.06f, 1.0f, 0.f, 0.f);
    f[2].add(4, 1, 7.5f, 0.25f, 0.f, -2.f);
    return f;
}

void writeAll(io::SqliteTrajectoryWriter& w, const std::vector<Frame>& frames) {
    for (const Frame& f : frames)
        w.writeFrame(f.number, f.n(), f.id.data(), f.group.data(), f.x.data(), f.y.data(), f.vx.data(), f.vy.data());
}

/// Read-only connection to a database written by the tests.
class Db {
public:
    explicit Db(const std::string& path) {
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
            ADD_FAILURE() << "cannot open " << path << ": " << sqlite3_errmsg(db_);
        }
    }
    ~Db() { sqlite3_close(db_); }
    /// All rows of @p sql, each column as text ("NULL" for null), joined by '|'.
    std::vector<std::string> rows(const std::string& sql) const {
        std::vector<std::string> out;
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
            ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
            return out;
        }
        while (sqlite3_step(st) == SQLITE_ROW) {
            std::string row;
            for (int c = 0; c < sqlite3_column_count(st); ++c) {
                if (c) row += '|';
                const unsigned char* t = sqlite3_column_text(st, c);
                row += t ? reinterpret_cast<const char*>(t) : "NULL";
            }
            out.push_back(row);
        }
        sqlite3_finalize(st);
        return out;
    }
    std::string one(const std::string& sql) const {
        const auto r = rows(sql);
        return r.empty() ? "<no row>" : r[0];
    }
    /// Double result of a one-value query.
    double number(const std::string& sql) const {
        sqlite3_stmt* st = nullptr;
        double v = std::nan("");
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_double(st, 0);
        sqlite3_finalize(st);
        return v;
    }

private:
    sqlite3* db_ = nullptr;
};

/// "name type notnull" of each column, from PRAGMA table_info.
std::vector<std::string> columns(const Db& db, const std::string& table) {
    std::vector<std::string> out;
    for (const std::string& r : db.rows("SELECT name, type, \"notnull\" FROM pragma_table_info('" + table + "')")) {
        out.push_back(r);
    }
    return out;
}

/// Runs a shell command; returns its exit status and standard output.
int runCommand(const std::string& cmd, std::string& out) {
    out.clear();
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    return pclose(p);
}

bool havePedPy() { return std::system("python3 -c 'import pedpy' >/dev/null 2>&1") == 0; }

/// Lowers the file-size limit (writes past it fail with EFBIG, like a full
/// disk) for the lifetime of the object, ignoring SIGXFSZ meanwhile.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &saved_);
        old_ = signal(SIGXFSZ, SIG_IGN);
        rlimit r = saved_;
        r.rlim_cur = bytes;
        ok_ = setrlimit(RLIMIT_FSIZE, &r) == 0;
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &saved_);
        signal(SIGXFSZ, old_);
    }
    bool ok() const { return ok_; }

private:
    rlimit saved_{};
    void (*old_)(int) = nullptr;
    bool ok_ = false;
};

class TrajectoryTest : public TempDirTest {
protected:
    /// No temporary or SQLite side file of @p p is left.
    void expectNoSideFiles(const std::string& p) const {
        for (const char* s : {".tmp", "-wal", "-shm", "-journal", ".tmp-wal", ".tmp-shm", ".tmp-journal"})
            EXPECT_FALSE(fs::exists(p + s)) << p + s;
    }
};

TEST_F(TrajectoryTest, SqliteHasJuPedSimTablesWithExactColumns) {
    const std::string p = path("traj.sqlite");
    io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
    writeAll(w, sampleFrames());
    w.close();
    Db db(p);
    // JuPedSim's six columns first, then ccrowd's speed.
    EXPECT_EQ(columns(db, "trajectory_data"),
              (std::vector<std::string>{"frame|INTEGER|1", "id|INTEGER|1", "pos_x|REAL|1", "pos_y|REAL|1",
                                        "ori_x|REAL|1", "ori_y|REAL|1", "speed|REAL|1"}));
    EXPECT_EQ(columns(db, "metadata"), (std::vector<std::string>{"key|TEXT|1", "value|TEXT|1"}));
    EXPECT_EQ(columns(db, "geometry"), (std::vector<std::string>{"hash|INTEGER|1", "wkt|TEXT|1"}));
    EXPECT_EQ(columns(db, "frame_data"), (std::vector<std::string>{"frame|INTEGER|1", "geometry_hash|INTEGER|1"}));
    EXPECT_EQ(columns(db, "group_names"), (std::vector<std::string>{"group_id|INTEGER|0", "name|TEXT|1"}));
    EXPECT_EQ(columns(db, "agent_groups"), (std::vector<std::string>{"id|INTEGER|0", "group_id|INTEGER|1"}));
    EXPECT_EQ(db.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"),
              (std::vector<std::string>{"agent_groups", "frame_data", "geometry", "group_names", "metadata",
                                        "trajectory_data"}));
    // trajectory_data is keyed by (frame, id) in its own b-tree (no rowid, no separate index).
    EXPECT_EQ(db.rows("SELECT name, pk FROM pragma_table_info('trajectory_data') WHERE pk > 0 ORDER BY pk"),
              (std::vector<std::string>{"frame|1", "id|2"}));
    EXPECT_NE(db.one("SELECT sql FROM sqlite_master WHERE name = 'trajectory_data'").find("WITHOUT ROWID"),
              std::string::npos);
    // JuPedSim's viewer query reads one frame through the key, in id order without sorting.
    const std::vector<std::string> plan =
        db.rows("EXPLAIN QUERY PLAN SELECT id, pos_x, pos_y, ori_x, ori_y FROM trajectory_data WHERE frame == 1 "
                "ORDER BY id ASC");
    ASSERT_EQ(plan.size(), 1u);
    EXPECT_NE(plan[0].find("SEARCH trajectory_data USING PRIMARY KEY (frame=?)"), std::string::npos) << plan[0];
    // metadata.key is the primary key; JuPedSim's geometry index exists.
    EXPECT_EQ(db.one("SELECT pk FROM pragma_table_info('metadata') WHERE name = 'key'"), "1");
    EXPECT_EQ(db.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'geometry_hash'"),
              (std::vector<std::string>{"geometry_hash"}));
    EXPECT_EQ(db.one("PRAGMA integrity_check"), "ok");
}

TEST_F(TrajectoryTest, SqliteRowsAndValuesMatchTheFrames) {
    const std::string p = path("traj.sqlite");
    const std::vector<Frame> frames = sampleFrames();
    io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
    writeAll(w, frames);
    EXPECT_EQ(w.rows(), 3 + 3 + 2);
    EXPECT_EQ(w.frames(), 3);
    w.close();
    Db db(p);
    // One row per agent and frame; one frame_data row per frame.
    EXPECT_EQ(db.one("SELECT COUNT(*) FROM trajectory_data"), "8");
    // Stored in (frame, id) order although frame 1 was passed as ids 3, 1, 2.
    EXPECT_EQ(db.one("SELECT group_concat(frame || ':' || id, ' ') FROM trajectory_data"), "0:1 0:2 0:3 1:1 1:2 1:3 5:1 5:4");
    EXPECT_EQ(db.rows("SELECT frame FROM frame_data ORDER BY frame"), (std::vector<std::string>{"0", "1", "5"}));
    EXPECT_EQ(db.one("SELECT COUNT(DISTINCT geometry_hash) FROM frame_data"), "1");
    EXPECT_EQ(db.one("SELECT COUNT(*) FROM frame_data JOIN geometry ON frame_data.geometry_hash = geometry.hash"), "3");
    // Every value, read back exactly (floats widened to double).
    for (const Frame& f : frames) {
        for (int k = 0; k < f.n(); ++k) {
            const std::string key = " WHERE frame = " + std::to_string(f.number) + " AND id = " + std::to_string(f.id[k]);
            EXPECT_EQ(db.number("SELECT pos_x FROM trajectory_data" + key), static_cast<double>(f.x[k])) << key;
            EXPECT_EQ(db.number("SELECT pos_y FROM trajectory_data" + key), static_cast<double>(f.y[k])) << key;
            // velocity = speed * ori, to float rounding; the group through agent_groups
            const double speed = std::hypot(static_cast<double>(f.vx[k]), static_cast<double>(f.vy[k]));
            EXPECT_NEAR(db.number("SELECT speed FROM trajectory_data" + key), speed, 1e-6 * (1.0 + speed)) << key;
            EXPECT_NEAR(db.number("SELECT speed * ori_x FROM trajectory_data" + key), f.vx[k], 1e-6) << key;
            EXPECT_NEAR(db.number("SELECT speed * ori_y FROM trajectory_data" + key), f.vy[k], 1e-6) << key;
            EXPECT_EQ(db.one("SELECT group_id FROM trajectory_data JOIN agent_groups USING (id)" + key),
                      std::to_string(f.group[k]))
                << key;
        }
    }
    // Orientation: velocity direction; kept while at rest; (1, 0) before any move.
    auto ori = [&](int frame, int id) {
        return db.one("SELECT printf('%.4f %.4f', ori_x, ori_y) FROM trajectory_data WHERE frame = " +
                      std::to_string(frame) + " AND id = " + std::to_string(id));
    };
    EXPECT_EQ(ori(0, 1), "1.0000 0.0000");
    EXPECT_EQ(ori(0, 3), "-0.6000 0.8000");
    EXPECT_EQ(ori(1, 3), "-0.6000 0.8000");
    EXPECT_EQ(ori(0, 2), "1.0000 0.0000");
    EXPECT_EQ(ori(5, 4), "0.0000 -1.0000");
    // Agent 1 stopped after moving east: it keeps facing east.
    EXPECT_EQ(ori(1, 1), "1.0000 0.0000");
    // JuPedSim's Recording.frame() query.
    EXPECT_EQ(db.rows("SELECT id, pos_x, pos_y, ori_x, ori_y FROM trajectory_data WHERE frame == (1) ORDER BY id ASC"),
              (std::vector<std::string>{"1|1.05999994277954|1.0|1.0|0.0", "2|2.0|2.0|1.0|0.0",
                                        "3|2.97000002861023|3.03999996185303|-0.600000023841858|0.800000011920929"}));
    // Orientation vectors are unit vectors.
    EXPECT_EQ(db.one("SELECT COUNT(*) FROM trajectory_data WHERE abs(ori_x * ori_x + ori_y * ori_y - 1) > 1e-6"), "0");
}

TEST_F(TrajectoryTest, SqliteMetadataAndGeometry) {
    const std::string p = path("traj.sqlite");
    io::SqliteTrajectoryWriter w(p, 12.5, kSquareWkt);
    w.setGroupNames({"north", "south"});
    writeAll(w, sampleFrames());
    w.close();
    Db db(p);
    // What PedPy reads: version (1 or 2 for its geometry loader) and fps.
    EXPECT_EQ(db.one("SELECT value FROM metadata WHERE key = 'version'"), "2");
    EXPECT_EQ(db.one("SELECT value FROM metadata WHERE key = 'fps'"), "12.5");
    EXPECT_EQ(db.one("SELECT value FROM metadata WHERE key = 'xmin'"), "0");
    EXPECT_EQ(db.one("SELECT value FROM metadata WHERE key = 'xmax'"), "10");
    EXPECT_EQ(db.one("SELECT value FROM metadata WHERE key = 'ymin'"), "0");
    EXPECT_EQ(db.one("SELECT value FROM metadata WHERE key = 'ymax'"), "8");
    EXPECT_EQ(db.one("SELECT substr(value, 1, 7) FROM metadata WHERE key = 'generator'"), "ccrowd ");
    // One geometry row holding the WKT as given.
    EXPECT_EQ(db.rows("SELECT wkt FROM geometry"), (std::vector<std::string>{kSquareWkt}));
    EXPECT_EQ(db.rows("SELECT group_id, name FROM group_names ORDER BY group_id"),
              (std::vector<std::string>{"0|north", "1|south"}));
    // The file is left in rollback-journal mode: readers create no side files.
    EXPECT_EQ(db.one("PRAGMA journal_mode"), "delete");
}

TEST_F(TrajectoryTest, SqliteFinalFileAppearsOnlyOnClose) {
    const std::string p = path("traj.sqlite");
    {
        io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
        writeAll(w, sampleFrames());
        EXPECT_FALSE(fs::exists(p));
        EXPECT_TRUE(fs::exists(p + ".tmp"));
        w.close();
        w.close();  // idempotent
        EXPECT_TRUE(fs::exists(p));
        expectNoSideFiles(p);
    }
    // Reading it creates no side file either (not in WAL mode any more).
    { Db db(p); EXPECT_EQ(db.one("SELECT COUNT(*) FROM trajectory_data"), "8"); }
    expectNoSideFiles(p);
}

TEST_F(TrajectoryTest, SqliteWithoutCloseLeavesNoFile) {
    const std::string p = path("traj.sqlite");
    {
        io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
        writeAll(w, sampleFrames());
    }
    EXPECT_FALSE(fs::exists(p));
    expectNoSideFiles(p);
}

TEST_F(TrajectoryTest, SqliteReplacesAnOldFileAndItsStaleSideFiles) {
    const std::string p = path("traj.sqlite");
    write("traj.sqlite", "old contents");
    write("traj.sqlite-wal", "stale wal");
    write("traj.sqlite.tmp", "stale temporary file");
    io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
    writeAll(w, sampleFrames());
    w.close();
    expectNoSideFiles(p);
    Db db(p);
    EXPECT_EQ(db.one("SELECT COUNT(*) FROM trajectory_data"), "8");
}

TEST_F(TrajectoryTest, SqliteUnwritablePathIsAnErrorNamingIt) {
    const std::string p = path("no_such_dir/traj.sqlite");
    try {
        io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
        ADD_FAILURE() << "no error for " << p;
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(path("no_such_dir")));
}

TEST_F(TrajectoryTest, SqliteRejectsBadArguments) {
    const std::string p = path("traj.sqlite");
    EXPECT_THROW(io::SqliteTrajectoryWriter(p, 0.0, kSquareWkt), InputError);
    EXPECT_THROW(io::SqliteTrajectoryWriter(p, std::nan(""), kSquareWkt), InputError);
    EXPECT_THROW(io::SqliteTrajectoryWriter(p, 20.0, ""), InputError);
    EXPECT_THROW(io::SqliteTrajectoryWriter(p, 20.0, kSquareWkt, 0), InputError);
    io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
    const int id[] = {7};
    const int group[] = {0};
    const float x[] = {1.f}, y[] = {std::nanf("")}, v[] = {0.f};
    // A non-finite position names the agent; frames must increase.
    try {
        w.writeFrame(0, 1, id, group, x, y, v, v);
        ADD_FAILURE() << "no error for a NaN position";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("agent id 7"), std::string::npos) << e.what();
    }
    w.writeFrame(3, 1, id, group, x, x, v, v);
    EXPECT_THROW(w.writeFrame(3, 1, id, group, x, x, v, v), InputError);
    EXPECT_THROW(w.writeFrame(2, 1, id, group, x, x, v, v), InputError);
    EXPECT_THROW(w.writeFrame(4, -1, id, group, x, x, v, v), InputError);
    w.writeFrame(4, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    w.close();
    Db db(p);
    EXPECT_EQ(db.one("SELECT COUNT(*) FROM trajectory_data"), "1");
    EXPECT_EQ(db.one("SELECT COUNT(*) FROM frame_data"), "2");
}

TEST_F(TrajectoryTest, SqliteSparseIdsManyFramesAndLateGroupNames) {
    const std::string p = path("traj.sqlite");
    // Ids spanning far more than 4 * n values (sorted by key, not by slot),
    // negative ones included; 200 small frames; group names set mid-run.
    const int ids[] = {2000000000, -5, 7, 1000000};
    io::SqliteTrajectoryWriter w(p, 10.0, kSquareWkt);
    for (long long fr = 0; fr < 200; ++fr) {
        Frame f;
        f.number = fr;
        // Passed in the reverse of the array's order (not sorted either way).
        for (int k = 3; k >= 0; --k) {
            // Agent 2e9 walks north for 100 frames, then stands still.
            const bool walking = ids[k] == 2000000000 && fr < 100;
            f.add(ids[k], k % 2, 1.f + 0.01f * static_cast<float>(k), 2.f, 0.f, walking ? 1.f : 0.f);
        }
        w.writeFrame(f.number, f.n(), f.id.data(), f.group.data(), f.x.data(), f.y.data(), f.vx.data(), f.vy.data());
        if (fr == 50) w.setGroupNames({"even", "odd"});
    }
    w.close();
    Db db(p);
    EXPECT_EQ(db.one("SELECT COUNT(*) FROM trajectory_data"), "800");
    EXPECT_EQ(db.one("SELECT COUNT(*) FROM frame_data"), "200");
    EXPECT_EQ(db.one("SELECT group_concat(id, ' ') FROM trajectory_data WHERE frame = 123"),
              "-5 7 1000000 2000000000");
    // Each agent's values stay with its id through the reordering.
    EXPECT_EQ(db.one("SELECT group_concat(printf('%d:%d:%.2f', id, group_id, pos_x), ' ') FROM trajectory_data "
                     "JOIN agent_groups USING (id) WHERE frame = 7"),
              "-5:1:1.01 7:0:1.02 1000000:1:1.03 2000000000:0:1.00");
    // Orientation kept after stopping, for an id beyond the dense heading table.
    EXPECT_EQ(db.one("SELECT printf('%.4f %.4f', ori_x, ori_y) FROM trajectory_data WHERE frame = 150 AND id = "
                     "2000000000"),
              "0.0000 1.0000");
    EXPECT_EQ(db.rows("SELECT group_id, name FROM group_names ORDER BY group_id"),
              (std::vector<std::string>{"0|even", "1|odd"}));
    EXPECT_EQ(db.one("PRAGMA integrity_check"), "ok");
}

TEST_F(TrajectoryTest, SqliteRepeatedIdIsAnErrorNamingIt) {
    const std::string p = path("traj.sqlite");
    const int id[] = {4, 9, 4};
    const int group[] = {0, 0, 0};
    const float v[] = {0.f, 0.f, 0.f};
    bool threw = false;
    try {
        io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
        w.writeFrame(0, 3, id, group, v, v, v, v);
        // Found by the worker: reported by the next call.
        w.close();
    } catch (const InputError& e) {
        threw = true;
        const std::string msg = e.what();
        EXPECT_NE(msg.find("frame 0"), std::string::npos) << msg;
        EXPECT_NE(msg.find("agent id 4 appears twice"), std::string::npos) << msg;
        EXPECT_NE(msg.find(p), std::string::npos) << msg;
    }
    EXPECT_TRUE(threw) << "no error for agent id 4 twice in one frame";
    EXPECT_FALSE(fs::exists(p));
    expectNoSideFiles(p);
}

TEST_F(TrajectoryTest, SqliteQueueFullOfFramesKeepsEveryFrameInOrder) {
    const std::string p = path("traj.sqlite");
    // 26 frames of 5,000 agents through a queue of 12,000 agents (two
    // frames): writeFrame() waits for room, and every frame still arrives.
    constexpr int kAgents = 5000, kFrames = 26;
    Frame f;
    for (int i = 0; i < kAgents; ++i) f.add(kAgents - 1 - i, i % 4, 0.001f * i, 1.f, 0.5f, 0.f);
    io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt, 12000);
    for (long long fr = 0; fr < kFrames; ++fr) {
        // Each frame's x carries its number, to check that no frame is swapped or lost.
        for (int i = 0; i < kAgents; ++i) f.x[static_cast<std::size_t>(i)] = static_cast<float>(fr) + 1e-5f * static_cast<float>(i);
        w.writeFrame(fr, f.n(), f.id.data(), f.group.data(), f.x.data(), f.y.data(), f.vx.data(), f.vy.data());
    }
    w.close();
    EXPECT_EQ(w.rows(), static_cast<long long>(kAgents) * kFrames);
    Db db(p);
    EXPECT_EQ(db.one("SELECT COUNT(*) FROM trajectory_data"), std::to_string(kAgents * kFrames));
    EXPECT_EQ(db.one("SELECT COUNT(*) FROM frame_data"), std::to_string(kFrames));
    // Per frame: every agent once, x within the frame's band.
    EXPECT_EQ(db.one("SELECT COUNT(*) FROM (SELECT frame, COUNT(DISTINCT id) AS n, MIN(pos_x) AS lo, MAX(pos_x) AS hi "
                     "FROM trajectory_data GROUP BY frame) WHERE n = 5000 AND lo >= frame AND hi < frame + 1"),
              std::to_string(kFrames));
    // Agent 0 came last in every frame's arrays.
    EXPECT_EQ(db.one("SELECT printf('%.5f', pos_x) FROM trajectory_data WHERE frame = 25 AND id = 0"), "25.04999");
}

TEST_F(TrajectoryTest, SqliteErrorInAQueuedFrameStopsTheWriter) {
    const std::string p = path("traj.sqlite");
    // Frame 1 repeats an id; frames 2..9 are queued behind it. The error
    // reaches the caller by a later writeFrame() or by close(), and nothing
    // is left on disk.
    Frame good, bad;
    for (int i = 0; i < 1000; ++i) good.add(i, 0, 0.01f * i, 1.f, 1.f, 0.f);
    bad = good;
    bad.id[10] = 11;
    bool threw = false;
    try {
        io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
        for (long long fr = 0; fr < 10; ++fr) {
            const Frame& f = fr == 1 ? bad : good;
            w.writeFrame(fr, f.n(), f.id.data(), f.group.data(), f.x.data(), f.y.data(), f.vx.data(), f.vy.data());
        }
        w.close();
    } catch (const InputError& e) {
        threw = true;
        const std::string msg = e.what();
        EXPECT_NE(msg.find("frame 1"), std::string::npos) << msg;
        EXPECT_NE(msg.find("agent id 11 appears twice"), std::string::npos) << msg;
    }
    EXPECT_TRUE(threw) << "a repeated id in a queued frame was not reported";
    EXPECT_FALSE(fs::exists(p));
    expectNoSideFiles(p);
}

TEST_F(TrajectoryTest, SqliteGroupOfAnIdIsWrittenOnceAndMayNotChange) {
    const std::string p = path("traj.sqlite");
    // Agents 1 and 2 in frames 0-2, agent 3 joins in frame 1: one agent_groups row each.
    {
        io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
        for (long long fr = 0; fr < 3; ++fr) {
            Frame f;
            f.add(2, 1, 1.f, 1.f, 0.f, 0.f);
            f.add(1, 0, 2.f, 1.f, 0.f, 0.f);
            if (fr > 0) f.add(3, 2, 3.f, 1.f, 0.f, 0.f);
            w.writeFrame(fr, f.n(), f.id.data(), f.group.data(), f.x.data(), f.y.data(), f.vx.data(), f.vy.data());
        }
        w.close();
        Db db(p);
        EXPECT_EQ(db.rows("SELECT id, group_id FROM agent_groups ORDER BY id"),
                  (std::vector<std::string>{"1|0", "2|1", "3|2"}));
    }
    // Agent 1 switching from group 0 to group 1 is an error naming the frame and id.
    bool threw = false;
    try {
        io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
        for (long long fr = 0; fr < 3; ++fr) {
            Frame f;
            f.add(1, fr < 2 ? 0 : 1, 2.f, 1.f, 0.f, 0.f);
            w.writeFrame(fr, f.n(), f.id.data(), f.group.data(), f.x.data(), f.y.data(), f.vx.data(), f.vy.data());
        }
        w.close();
    } catch (const InputError& e) {
        threw = true;
        const std::string msg = e.what();
        EXPECT_NE(msg.find("frame 2"), std::string::npos) << msg;
        EXPECT_NE(msg.find("agent id 1 has group 1, earlier 0"), std::string::npos) << msg;
    }
    EXPECT_TRUE(threw) << "an agent changing group was not reported";
}

TEST_F(TrajectoryTest, SqliteFullDiskIsAnErrorNamingThePath) {
    const std::string p = path("traj.sqlite");
    // Agents of a 5,000-agent frame (about 0.37 MB per frame in the file).
    Frame f;
    for (int i = 0; i < 5000; ++i) f.add(i, i % 3, 0.01f * i, 1.f, 1.f, 0.f);
    bool threw = false;
    {
        FileSizeLimit limit(512 * 1024);
        ASSERT_TRUE(limit.ok());
        try {
            io::SqliteTrajectoryWriter w(p, 20.0, kSquareWkt);
            for (long long fr = 0; fr < 40; ++fr)
                w.writeFrame(fr, f.n(), f.id.data(), f.group.data(), f.x.data(), f.y.data(), f.vx.data(), f.vy.data());
            w.close();
        } catch (const Error& e) {
            threw = true;
            const std::string msg = e.what();
            EXPECT_NE(msg.find(p), std::string::npos) << msg;
            EXPECT_NE(msg.find("SQLite"), std::string::npos) << msg;
        }
    }
    EXPECT_TRUE(threw) << "writing 15 MB under a 512 KiB file-size limit did not fail";
    EXPECT_FALSE(fs::exists(p));
    expectNoSideFiles(p);
}

TEST_F(TrajectoryTest, TextHeaderAndRows) {
    const std::string p = path("traj.txt");
    io::TextTrajectoryWriter w(p, 20.0);
    for (const Frame& f : sampleFrames()) w.writeFrame(f.number, f.n(), f.id.data(), f.x.data(), f.y.data());
    EXPECT_FALSE(fs::exists(p));
    EXPECT_EQ(w.rows(), 8);
    w.close();
    EXPECT_FALSE(fs::exists(p + ".tmp"));
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(ss.str(),
              "#description: ccrowd trajectories (continuum crowds simulation)\n"
              "#framerate: 20\n"
              "#ID: agent id, FR: frame (time = FR / frame rate)\n"
              "#X, Y, Z: position in metres (x/m y/m z/m); Z is always 0\n"
              "#ID\tFR\tX\tY\tZ\n"
              "1\t0\t1.0000\t1.0000\t0\n"
              "2\t0\t2.0000\t2.0000\t0\n"
              "3\t0\t3.0000\t3.0000\t0\n"
              "3\t1\t2.9700\t3.0400\t0\n"
              "1\t1\t1.0600\t1.0000\t0\n"
              "2\t1\t2.0000\t2.0000\t0\n"
              "1\t5\t1.0600\t1.0000\t0\n"
              "4\t5\t7.5000\t0.2500\t0\n");
}

TEST_F(TrajectoryTest, TextErrorsAndNoFileWithoutClose) {
    EXPECT_THROW(io::TextTrajectoryWriter(path("a.txt"), -1.0), InputError);
    const std::string bad = path("missing/traj.txt");
    try {
        io::TextTrajectoryWriter w(bad, 20.0);
        ADD_FAILURE() << "no error for " << bad;
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
    const std::string p = path("traj.txt");
    {
        io::TextTrajectoryWriter w(p, 20.0);
        const int id[] = {1};
        const float x[] = {1.f}, y[] = {INFINITY};
        EXPECT_THROW(w.writeFrame(0, 1, id, x, y), InputError);
        w.writeFrame(0, 1, id, x, x);
        EXPECT_THROW(w.writeFrame(0, 1, id, x, x), InputError);
    }
    EXPECT_FALSE(fs::exists(p));
    EXPECT_FALSE(fs::exists(p + ".tmp"));
}

TEST_F(TrajectoryTest, TextFullDiskIsAnErrorNamingThePath) {
    const std::string p = path("traj.txt");
    Frame f;
    for (int i = 0; i < 20000; ++i) f.add(i, 0, 0.01f * i, 1.f, 0.f, 0.f);
    bool threw = false;
    {
        FileSizeLimit limit(256 * 1024);
        ASSERT_TRUE(limit.ok());
        try {
            io::TextTrajectoryWriter w(p, 20.0);
            for (long long fr = 0; fr < 20; ++fr) w.writeFrame(fr, f.n(), f.id.data(), f.x.data(), f.y.data());
            w.close();
        } catch (const Error& e) {
            threw = true;
            EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
        }
    }
    EXPECT_TRUE(threw);
    EXPECT_FALSE(fs::exists(p));
    EXPECT_FALSE(fs::exists(p + ".tmp"));
}

TEST_F(TrajectoryTest, PedPyLoadsBothFormats) {
    if (!havePedPy()) GTEST_SKIP() << "PedPy is not installed (python3 -c 'import pedpy' failed): PedPy loading not checked";
    const std::string db = path("traj.sqlite"), txt = path("traj.txt");
    {
        io::SqliteTrajectoryWriter w(db, 20.0, kSquareWkt);
        writeAll(w, sampleFrames());
        w.close();
        io::TextTrajectoryWriter t(txt, 20.0);
        for (const Frame& f : sampleFrames()) t.writeFrame(f.number, f.n(), f.id.data(), f.x.data(), f.y.data());
        t.close();
    }
    const std::string script = write("load.py",
        "import pathlib, sys\n"
        "import pedpy\n"
        "db, txt = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])\n"
        "t = pedpy.load_trajectory_from_jupedsim_sqlite(trajectory_file=db)\n"
        "w = pedpy.load_walkable_area_from_jupedsim_sqlite(trajectory_file=db)\n"
        "x = pedpy.load_trajectory_from_txt(trajectory_file=txt)\n"
        "print(len(t.data), t.frame_rate, round(w.polygon.area, 6), w.polygon.is_valid,\n"
        "      len(x.data), x.frame_rate, sorted(set(t.data.frame)))\n");
    std::string out;
    const int rc = runCommand("python3 " + script + " " + db + " " + txt + " 2>&1", out);
    ASSERT_EQ(rc, 0) << out;
    // 8 rows at 20 fps; walkable area 80 - 4 m^2, valid; same rows from the text file.
    EXPECT_EQ(out, "8 20.0 76.0 True 8 20.0 [0, 1, 5]\n");
}

}  // namespace
}  // namespace ccrowd::test
