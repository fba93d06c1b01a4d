/// @file trajectory_sqlite.cpp
/// The caller's thread validates and copies each frame; one worker thread
/// owns the SQLite connection between construction and close() and inserts
/// the frames (handover through a mutex and condition variable, so the
/// connection is never used by two threads at once).

#include "trajectory_sqlite.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>

#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "sqlite_db.hpp"

namespace ccrowd::io {

namespace {

/// Below this speed an agent keeps its previous orientation. [Units: m/s]
constexpr float kRestSpeed = 1e-6f;

/// Rows per multi-row INSERT (6 * 100 parameters, far below SQLite's 32766).
constexpr int kBatchRows = 100;

/// Ids below this keep their heading in a vector, larger ones in a hash map.
constexpr int kDenseIds = 1 << 24;

/// The side files SQLite may create next to a database file.
constexpr const char* kSideSuffixes[] = {"-wal", "-shm", "-journal"};

void removeQuietly(const std::string& file) { std::remove(file.c_str()); }

void removeDatabaseFiles(const std::string& file) {
    removeQuietly(file);
    for (const char* s : kSideSuffixes) removeQuietly(file + s);
}

/// 64-bit FNV-1a of the WKT, as the geometry table's hash (JuPedSim uses
/// Python's hash(); any stable integer works: it only links frame_data rows
/// to geometry rows).
long long wktHash(const std::string& s) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return static_cast<long long>(h >> 1);  // non-negative
}

/// Shortest round-trip decimal of @p v.
std::string numberText(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

/// Bounds of the coordinates in a 2-D WKT text: false when it has none.
bool wktBounds(const std::string& wkt, double& x0, double& x1, double& y0, double& y1) {
    std::vector<double> v;
    const char* p = wkt.data();
    const char* end = p + wkt.size();
    // Numbers start with a digit, a sign or a point; keywords and punctuation are skipped.
    while (p < end) {
        if ((*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == '.') {
            double d = 0;
            const auto r = std::from_chars(*p == '+' ? p + 1 : p, end, d);
            if (r.ec == std::errc()) {
                v.push_back(d);
                p = r.ptr;
                continue;
            }
        }
        ++p;
    }
    if (v.empty() || v.size() % 2 != 0) return false;
    x0 = x1 = v[0];
    y0 = y1 = v[1];
    for (std::size_t k = 0; k < v.size(); k += 2) {
        x0 = std::min(x0, v[k]), x1 = std::max(x1, v[k]);
        y0 = std::min(y0, v[k + 1]), y1 = std::max(y1, v[k + 1]);
    }
    return true;
}

/// "INSERT INTO <table> VALUES(?,...),(?,...),..." with @p rows rows of @p cols.
std::string insertSql(const char* table, int cols, int rows) {
    std::string s = std::string("INSERT INTO ") + table + " VALUES";
    for (int r = 0; r < rows; ++r) {
        s += r ? ",(" : "(";
        for (int c = 0; c < cols; ++c) s += c ? ",?" : "?";
        s += ')';
    }
    return s;
}

/// One frame, copied from the caller's arrays.
struct FrameData {
    long long frame = 0;
    std::vector<int> id, group;
    std::vector<float> x, y, vx, vy;
    void assign(long long f, int n, const int* pid, const int* pgroup, const float* px, const float* py,
                const float* pvx, const float* pvy) {
        frame = f;
        id.assign(pid, pid + n), group.assign(pgroup, pgroup + n);
        x.assign(px, px + n), y.assign(py, py + n), vx.assign(pvx, pvx + n), vy.assign(pvy, pvy + n);
    }
};

}  // namespace

struct SqliteTrajectoryWriter::Impl {
    std::string path, tmp;
    long long geometryHash = 0;
    std::unique_ptr<SqliteDb> db;
    // SQL text outlives the statements (they keep a pointer for messages).
    std::string trajBatchSql = insertSql("trajectory_data", 6, kBatchRows);
    std::string trajOneSql = insertSql("trajectory_data", 6, 1);
    std::string agentBatchSql = insertSql("agent_data", 5, kBatchRows);
    std::string agentOneSql = insertSql("agent_data", 5, 1);
    SqliteStmt trajBatch, trajOne, agentBatch, agentOne, insertFrame;
    // Last unit direction per moving id (worker only): dense for small ids, else hashed.
    std::vector<std::pair<float, float>> headingDense;  ///< (0, 0): none yet.
    std::unordered_map<int, std::pair<float, float>> headingSparse;

    // Handover between the caller and the worker.
    std::thread worker;
    std::mutex mu;
    std::condition_variable cv;
    FrameData next;            ///< Filled by the caller while !pending.
    FrameData work;            ///< Written by the worker while busy.
    bool pending = false;      ///< @c next holds a frame for the worker.
    bool busy = false;         ///< The worker is writing @c work.
    bool stop = false;         ///< The worker is to exit.
    std::exception_ptr error;  ///< First failure of the worker.

    long long lastFrame = -1, frames = 0, rows = 0;
    bool closed = false, broken = false;

    /// Worker: takes queued frames until told to stop or a frame fails.
    void run() {
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(mu);
                cv.wait(lock, [&] { return pending || stop; });
                if (stop) return;
                std::swap(next, work);
                pending = false;
                busy = true;
            }
            cv.notify_all();
            std::exception_ptr failed;
            try {
                insert(work);
            } catch (...) {
                failed = std::current_exception();
            }
            {
                std::lock_guard<std::mutex> lock(mu);
                busy = false;
                if (failed) {
                    error = failed;
                    stop = true;
                }
            }
            cv.notify_all();
            if (failed) return;
        }
    }

    /// Orientation of agent @p k: velocity direction, else the last one, else +x.
    std::pair<float, float> orientation(const FrameData& f, std::size_t k) {
        const int id = f.id[k];
        const bool dense = id >= 0 && id < kDenseIds;
        const float speed = std::hypot(f.vx[k], f.vy[k]);
        if (speed > kRestSpeed) {
            const std::pair<float, float> d{f.vx[k] / speed, f.vy[k] / speed};
            if (!dense) {
                headingSparse[id] = d;
            } else {
                if (static_cast<std::size_t>(id) >= headingDense.size())
                    headingDense.resize(std::max<std::size_t>(2 * headingDense.size(), static_cast<std::size_t>(id) + 1));
                headingDense[static_cast<std::size_t>(id)] = d;
            }
            return d;
        }
        if (dense && static_cast<std::size_t>(id) < headingDense.size() &&
            headingDense[static_cast<std::size_t>(id)] != std::pair<float, float>{0.f, 0.f})
            return headingDense[static_cast<std::size_t>(id)];
        if (!dense) {
            const auto it = headingSparse.find(id);
            if (it != headingSparse.end()) return it->second;
        }
        return {1.f, 0.f};
    }

    /// Binds agent @p k's trajectory_data row at parameter offset @p p.
    void bindTrajectory(SqliteStmt& st, int p, const FrameData& f, std::size_t k) {
        const auto [ox, oy] = orientation(f, k);
        st.bind(p + 1, f.frame);
        st.bind(p + 2, static_cast<long long>(f.id[k]));
        st.bind(p + 3, static_cast<double>(f.x[k]));
        st.bind(p + 4, static_cast<double>(f.y[k]));
        st.bind(p + 5, static_cast<double>(ox));
        st.bind(p + 6, static_cast<double>(oy));
    }
    /// Binds agent @p k's agent_data row at parameter offset @p p.
    static void bindAgent(SqliteStmt& st, int p, const FrameData& f, std::size_t k) {
        st.bind(p + 1, f.frame);
        st.bind(p + 2, static_cast<long long>(f.id[k]));
        st.bind(p + 3, static_cast<long long>(f.group[k]));
        st.bind(p + 4, static_cast<double>(f.vx[k]));
        st.bind(p + 5, static_cast<double>(f.vy[k]));
    }

    /// One frame in one transaction: 100-row INSERTs, then single rows.
    void insert(const FrameData& f) {
        db->exec("BEGIN");
        const std::size_t n = f.id.size();
        std::size_t k = 0;
        for (; k + kBatchRows <= n; k += kBatchRows) {
            for (int r = 0; r < kBatchRows; ++r) bindTrajectory(trajBatch, 6 * r, f, k + static_cast<std::size_t>(r));
            trajBatch.run();
            for (int r = 0; r < kBatchRows; ++r) bindAgent(agentBatch, 5 * r, f, k + static_cast<std::size_t>(r));
            agentBatch.run();
        }
        for (; k < n; ++k) {
            bindTrajectory(trajOne, 0, f, k);
            trajOne.run();
            bindAgent(agentOne, 0, f, k);
            agentOne.run();
        }
        insertFrame.bind(1, f.frame);
        insertFrame.bind(2, geometryHash);
        insertFrame.run();
        db->exec("COMMIT");
    }

    /// Stops the worker: after the queued frame when @p drain, else after
    /// the frame it is writing (a queued one is dropped).
    void stopWorker(bool drain) {
        if (!worker.joinable()) return;
        {
            std::unique_lock<std::mutex> lock(mu);
            if (drain) cv.wait(lock, [&] { return (!pending && !busy) || error; });
            pending = false;
            stop = true;
        }
        cv.notify_all();
        worker.join();
    }

    /// Rethrows the worker's failure, marking the writer broken.
    void rethrowWorkerError() {
        if (!error) return;
        broken = true;
        std::rethrow_exception(error);
    }

    /// Releases the connection and removes the temporary files (no checks).
    void discard() {
        stopWorker(false);
        for (SqliteStmt* st : {&trajBatch, &trajOne, &agentBatch, &agentOne, &insertFrame}) st->finalize();
        db.reset();
        removeDatabaseFiles(tmp);
    }

    void requireWritable(const char* call) const {
        if (closed) throw Error("trajectory database '" + path + "': " + call + " after close()");
        if (broken) throw Error("trajectory database '" + path + "': " + call + " after an earlier write error");
    }
};

SqliteTrajectoryWriter::SqliteTrajectoryWriter(std::string path, double fps, const std::string& geometryWkt)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.path = std::move(path);
    m.tmp = m.path + ".tmp";
    // Validate the arguments before touching the file system.
    if (!std::isfinite(fps) || fps <= 0)
        throw InputError("trajectory database '" + m.path + "': " +
                         fieldMessage("fps", numberText(fps), "not a positive frame rate", "finite, > 0"));
    if (geometryWkt.empty())
        throw InputError("trajectory database '" + m.path + "': the walkable-area WKT is empty (allowed: a WKT geometry)");
    // A stale temporary database (and its journal) from a killed run goes first.
    removeDatabaseFiles(m.tmp);
    m.db = std::make_unique<SqliteDb>(m.tmp, m.path);
    try {
        SqliteDb& db = *m.db;
        // 16 KiB pages (fewer page splits per frame); WAL: appends are
        // sequential and commits do not sync (synchronous=NORMAL).
        db.exec("PRAGMA page_size=16384");
        const std::string mode = db.queryText("PRAGMA journal_mode=WAL");
        if (mode != "wal") throw Error("cannot write '" + m.path + "': SQLite refused WAL mode (journal_mode = " + mode + ")");
        db.exec("PRAGMA synchronous=NORMAL");
        db.exec("PRAGMA cache_size=-32768");  // 32 MiB: a 50,000-agent frame stays in memory
        // Schema: JuPedSim version 2 (its (frame, id) index is kept up to date
        // by the worker: building it at close() would stall the end of a long
        // run for minutes), then ccrowd's extra tables.
        db.exec("BEGIN");
        db.exec(
            "CREATE TABLE trajectory_data ("
            " frame INTEGER NOT NULL, id INTEGER NOT NULL,"
            " pos_x REAL NOT NULL, pos_y REAL NOT NULL,"
            " ori_x REAL NOT NULL, ori_y REAL NOT NULL);"
            "CREATE INDEX frame_id_idx ON trajectory_data(frame, id);"
            "CREATE TABLE metadata(key TEXT NOT NULL UNIQUE PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE geometry(hash INTEGER NOT NULL, wkt TEXT NOT NULL);"
            "CREATE UNIQUE INDEX geometry_hash ON geometry(hash);"
            "CREATE TABLE frame_data(frame INTEGER NOT NULL, geometry_hash INTEGER NOT NULL);"
            "CREATE TABLE agent_data ("
            " frame INTEGER NOT NULL, id INTEGER NOT NULL, group_id INTEGER NOT NULL,"
            " vel_x REAL NOT NULL, vel_y REAL NOT NULL);"
            "CREATE TABLE group_names(group_id INTEGER PRIMARY KEY, name TEXT NOT NULL);");
        // Metadata: version and frame rate (what PedPy reads), geometry bounds (JuPedSim's viewer).
        SqliteStmt meta(db, "INSERT INTO metadata(key, value) VALUES(?, ?)");
        auto put = [&](const char* key, const std::string& value) {
            meta.bind(1, std::string(key));
            meta.bind(2, value);
            meta.run();
        };
        put("version", std::to_string(kJuPedSimDbVersion));
        put("fps", numberText(fps));
        put("generator", std::string("ccrowd ") + CCROWD_VERSION);
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        if (wktBounds(geometryWkt, x0, x1, y0, y1)) {
            put("xmin", numberText(x0));
            put("xmax", numberText(x1));
            put("ymin", numberText(y0));
            put("ymax", numberText(y1));
        }
        // The one geometry row that every frame refers to.
        m.geometryHash = wktHash(geometryWkt);
        SqliteStmt geo(db, "INSERT INTO geometry(hash, wkt) VALUES(?, ?)");
        geo.bind(1, m.geometryHash);
        geo.bind(2, geometryWkt);
        geo.run();
        db.exec("COMMIT");
        // Statements reused for every frame.
        m.trajBatch = SqliteStmt(db, m.trajBatchSql.c_str());
        m.trajOne = SqliteStmt(db, m.trajOneSql.c_str());
        m.agentBatch = SqliteStmt(db, m.agentBatchSql.c_str());
        m.agentOne = SqliteStmt(db, m.agentOneSql.c_str());
        m.insertFrame = SqliteStmt(db, "INSERT INTO frame_data VALUES(?, ?)");
        // From here on the worker owns the connection until close().
        m.worker = std::thread([&m] { m.run(); });
    } catch (...) {
        m.discard();
        throw;
    }
}

SqliteTrajectoryWriter::~SqliteTrajectoryWriter() {
    if (impl_ && !impl_->closed) impl_->discard();
}

void SqliteTrajectoryWriter::setGroupNames(const std::vector<std::string>& names) {
    Impl& m = *impl_;
    m.requireWritable("setGroupNames");
    // Take the connection back from the worker for this small transaction.
    std::unique_lock<std::mutex> lock(m.mu);
    m.cv.wait(lock, [&] { return (!m.pending && !m.busy) || m.error; });
    m.rethrowWorkerError();
    try {
        m.db->exec("BEGIN");
        SqliteStmt st(*m.db, "INSERT OR REPLACE INTO group_names(group_id, name) VALUES(?, ?)");
        for (std::size_t g = 0; g < names.size(); ++g) {
            st.bind(1, static_cast<long long>(g));
            st.bind(2, names[g]);
            st.run();
        }
        m.db->exec("COMMIT");
    } catch (const Error&) {
        m.broken = true;
        throw;
    }
}

void SqliteTrajectoryWriter::writeFrame(long long frame, int n, const int* id, const int* group, const float* x,
                                        const float* y, const float* vx, const float* vy) {
    Impl& m = *impl_;
    m.requireWritable("writeFrame");
    // Arguments: frame order, sizes, finite values (SQLite would store NaN as NULL).
    const std::string where = "trajectory database '" + m.path + "', frame " + std::to_string(frame);
    if (frame < 0 || frame <= m.lastFrame)
        throw InputError(where + ": " + fieldMessage("frame", std::to_string(frame), "frames must increase",
                                                     "> " + std::to_string(m.lastFrame) + " and >= 0"));
    if (n < 0) throw InputError(where + ": " + fieldMessage("n", std::to_string(n), "negative agent count", ">= 0"));
    if (n > 0 && (!id || !group || !x || !y || !vx || !vy))
        throw InputError(where + ": null agent array with n = " + std::to_string(n));
    for (int k = 0; k < n; ++k) {
        if (!std::isfinite(x[k]) || !std::isfinite(y[k]) || !std::isfinite(vx[k]) || !std::isfinite(vy[k]))
            throw InputError(where + ": agent id " + std::to_string(id[k]) +
                             " has a non-finite position or velocity (allowed: finite values)");
    }
    // Wait until the worker has taken the previous frame; report its failure.
    {
        std::unique_lock<std::mutex> lock(m.mu);
        m.cv.wait(lock, [&] { return !m.pending || m.error; });
        m.rethrowWorkerError();
    }
    // Copy the frame (the worker is not touching @c next), then hand it over.
    static const int noInt = 0;
    static const float noFloat = 0.f;
    m.next.assign(frame, n, n ? id : &noInt, n ? group : &noInt, n ? x : &noFloat, n ? y : &noFloat,
                  n ? vx : &noFloat, n ? vy : &noFloat);
    {
        std::lock_guard<std::mutex> lock(m.mu);
        m.pending = true;
    }
    m.cv.notify_all();
    m.lastFrame = frame;
    ++m.frames;
    m.rows += n;
}

void SqliteTrajectoryWriter::close() {
    Impl& m = *impl_;
    if (m.closed) return;
    m.requireWritable("close");
    try {
        // Let the worker finish the queued frames; the connection is ours again.
        m.stopWorker(true);
        m.rethrowWorkerError();
        SqliteDb& db = *m.db;
        for (SqliteStmt* st : {&m.trajBatch, &m.trajOne, &m.agentBatch, &m.agentOne, &m.insertFrame}) st->finalize();
        // Copy the WAL into the database and leave WAL mode: no side files remain.
        db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        const std::string mode = db.queryText("PRAGMA journal_mode=DELETE");
        if (mode != "delete")
            throw Error("cannot write '" + m.path + "': SQLite could not leave WAL mode (journal_mode = " + mode + ")");
        db.close();
    } catch (...) {
        m.broken = true;
        m.discard();
        throw;
    }
    // Side files of an older database at the final path would be applied to the new one.
    for (const char* s : kSideSuffixes) removeQuietly(m.path + s);
    if (std::rename(m.tmp.c_str(), m.path.c_str()) != 0) {
        const int err = errno;
        m.broken = true;
        m.discard();
        throw Error("cannot write '" + m.path + "': rename from '" + m.tmp + "' failed: " + std::strerror(err));
    }
    m.db.reset();
    m.closed = true;
}

const std::string& SqliteTrajectoryWriter::path() const { return impl_->path; }
long long SqliteTrajectoryWriter::frames() const { return impl_->frames; }
long long SqliteTrajectoryWriter::rows() const { return impl_->rows; }

}  // namespace ccrowd::io
