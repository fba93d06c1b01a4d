/// @file trajectory_sqlite.cpp
/// The caller's thread validates and copies each frame; one worker thread
/// owns the SQLite connection between construction and close() and inserts
/// the frames (handover through a mutex and condition variable, so the
/// connection is never used by two threads at once).
///
/// Per 50,000-agent frame the worker spends about 21 ms on a 2-core Xeon VM
/// (was 46 ms with ids in order, 85 ms in the simulator's arbitrary order,
/// with a rowid table + (frame, id) index, a per-frame agent_data table and
/// 100-row INSERTs). What that took, measured with agents in arbitrary order:
/// - one row per agent and frame, not two (a per-frame agent_data table held
///   group and velocity): half the rows;
/// - 7 columns, not 9: the group (fixed per agent) in agent_groups, written
///   once per id, and the velocity as speed along ori (25 -> 21 ms);
/// - WITHOUT ROWID with PRIMARY KEY (frame, id), rows inserted sorted by id:
///   every insert appends at the right edge of the one b-tree (unsorted
///   rows into a (frame, id) index cost twice as much), no second b-tree;
/// - the frame read by one "INSERT ... SELECT" from an in-memory row source
///   (SqliteRowSource) instead of binding 9 parameters per row (-15%);
/// - 64 KiB pages (-5%).
/// synchronous=OFF, EXCLUSIVE locking, the cache size and transactions of
/// several frames change little CPU time for large frames but save the
/// fsyncs (wall time) and, for small frames, the per-commit page writes.
/// SQLite itself is about 65% of the remaining time (its VDBE, b-tree and
/// record code), the kernel (WAL writes, checkpoints) about 15%: even a
/// 6-column rowid table without key or journal takes about 11 ms.

#include "trajectory_sqlite.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <atomic>
#include <thread>
#include <unordered_map>
#include <utility>

#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "io/number_text.hpp"
#include "io/background_thread.hpp"
#include "sqlite_db.hpp"

namespace ccrowd::io {

namespace {

/// Below this speed an agent keeps its previous orientation. [Units: m/s]
constexpr float kRestSpeed = 1e-6f;

/// 64 KiB pages (SQLite's largest): fewer page splits and writes per frame.
constexpr const char* kPageSize = "65536";
/// Page cache: a transaction of kTxRows rows (about 60 bytes each) stays in memory. [Units: KiB]
constexpr const char* kCacheKiB = "65536";
/// Checkpoint the WAL into the database every this many pages (4 MiB: the WAL
/// stays small and cached; about 1 ms less CPU per 50,000-agent frame than 32 MiB).
constexpr const char* kCheckpointPages = "64";
/// A transaction is committed once it holds this many trajectory rows ...
constexpr long long kTxRows = 500000;
/// ... or is this old. [Units: s]
constexpr double kTxSeconds = 0.5;

/// Name of the in-memory row source the frame INSERT reads.
constexpr const char* kRowSourceName = "ccrowd_frame_rows";
/// trajectory_data's columns, in table and row-source order.
constexpr const char* kColumns = "frame, id, pos_x, pos_y, ori_x, ori_y, speed";

/// Ids below this keep their memory (IdMemory) in a vector, others in a hash map.
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

/// The trajectory_data rows of one frame in id order, as the INSERT reads
/// them (columns in kColumns order).
struct FrameRows final : SqliteRowSource {
    long long frame = 0;
    std::vector<int> id;
    std::vector<float> x, y, ox, oy, speed;

    void resize(std::size_t n) {
        id.resize(n);
        for (auto* v : {&x, &y, &ox, &oy, &speed}) v->resize(n);
    }
    long long rowCount() const override { return static_cast<long long>(id.size()); }
    void column(long long row, int col, SqliteValueOut& out) const noexcept override {
        const auto k = static_cast<std::size_t>(row);
        switch (col) {
            case 0: out.set(frame); break;
            case 1: out.set(static_cast<long long>(id[k])); break;
            case 2: out.set(static_cast<double>(x[k])); break;
            case 3: out.set(static_cast<double>(y[k])); break;
            case 4: out.set(static_cast<double>(ox[k])); break;
            case 5: out.set(static_cast<double>(oy[k])); break;
            default: out.set(static_cast<double>(speed[k])); break;
        }
    }
};

/// What the worker remembers of an agent id between frames.
struct IdMemory {
    float ox = 0.f, oy = 0.f;  ///< Last unit direction of motion; (0, 0): never moved.
    int group = -1;            ///< Group recorded in agent_groups; -1: id not seen yet.
};

/// Fills @p order with the indices 0..n-1 of @p id sorted by id; returns
/// the index of a repeated id, or -1 when all ids differ. Direct
/// addressing when the ids span at most 4n + 1024 values (the usual case:
/// ids count up from 0), else a sort of (id, index) keys.
long long orderById(const std::vector<int>& id, std::vector<int>& order, std::vector<int>& slot,
                    std::vector<std::uint64_t>& keys) {
    const std::size_t n = id.size();
    order.clear();
    if (n == 0) return -1;
    const auto [lo, hi] = std::minmax_element(id.begin(), id.end());
    const long long first = *lo;
    const auto span = static_cast<std::uint64_t>(static_cast<long long>(*hi) - first) + 1;
    if (span <= 4 * static_cast<std::uint64_t>(n) + 1024) {
        // One slot per possible id: the index holding it, or -1.
        slot.assign(span, -1);
        for (std::size_t k = 0; k < n; ++k) {
            int& s = slot[static_cast<std::size_t>(id[k] - first)];
            if (s >= 0) return static_cast<long long>(k);
            s = static_cast<int>(k);
        }
        for (const int s : slot)
            if (s >= 0) order.push_back(s);
        return -1;
    }
    // Key = id (sign bit flipped, so negative ids sort first) above the index.
    keys.resize(n);
    for (std::size_t k = 0; k < n; ++k)
        keys[k] = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(id[k]) ^ 0x80000000u) << 32) | k;
    std::sort(keys.begin(), keys.end());
    for (std::size_t r = 0; r < n; ++r) {
        if (r > 0 && (keys[r] >> 32) == (keys[r - 1] >> 32)) return static_cast<long long>(keys[r] & 0xffffffffu);
        order.push_back(static_cast<int>(keys[r] & 0xffffffffu));
    }
    return -1;
}

}  // namespace

struct SqliteTrajectoryWriter::Impl {
    std::string path, tmp;
    long long geometryHash = 0;
    /// The frame being inserted (worker only), read by insertRows through
    /// the connection's row source: declared before db, so it outlives it.
    FrameRows frameRows;
    std::unique_ptr<SqliteDb> db;
    // SQL text outlives the statements (they keep a pointer for messages).
    std::string insertRowsSql = std::string("INSERT INTO trajectory_data(") + kColumns + ") SELECT " + kColumns +
                                " FROM " + kRowSourceName;
    SqliteStmt insertRows, insertFrame, insertGroup;
    // Worker only: sorting scratch, transaction state.
    std::vector<int> order, slot;
    std::vector<std::uint64_t> keys;
    std::vector<std::pair<int, int>> newIds;  ///< (id, group) first seen in the frame being inserted, in id order.
    bool inTx = false;  ///< A transaction is open (also used by setGroupNames while the worker is idle).
    long long txRows = 0;
    std::chrono::steady_clock::time_point txStart;
    // Per id (worker only): dense for small non-negative ids, else hashed.
    std::vector<IdMemory> memoryDense;
    std::unordered_map<int, IdMemory> memorySparse;

    // Handover between the caller and the worker (all under mu).
    std::thread worker;
    std::mutex mu;
    std::condition_variable cv;
    std::deque<FrameData> queue;   ///< Frames waiting for the worker, oldest first.
    std::vector<FrameData> spare;  ///< Written frames' buffers, reused by writeFrame.
    long long queuedRows = 0;      ///< Agents in @c queue.
    long long queueRows = kTrajectoryQueueRows;  ///< Capacity of @c queue in agents.
    bool busy = false;             ///< The worker is writing a frame taken from the queue.
    bool stop = false;             ///< The worker is to exit.
    std::exception_ptr error;      ///< First failure of the worker.

    long long lastFrame = -1, frames = 0, rows = 0;
    bool closed = false, broken = false;
    std::atomic<long long> workerNs{0};     ///< Worker wall time spent inserting.
    std::atomic<long long> workerCpuNs{0};  ///< Worker CPU time spent inserting.

    /// True when a frame of @p n agents may join the queue (the queue is
    /// empty, or stays within queueRows with it).
    bool roomFor(long long n) const { return queue.empty() || queuedRows + n <= queueRows; }

    /// Worker: takes queued frames until told to stop or a frame fails. It
    /// runs on idle cores only: at the simulation's priority it would take
    /// time slices from the simulation's threads in the middle of their
    /// parallel loops, and every loop would wait for its preempted thread
    /// (measured on 2 cores, first 10 s of the default scene: +35% to +44%
    /// wall time against +20% to +26% idle-class,
    /// where the simulation waits for room in the queue instead).
    void run() {
        runOnIdleCores();
        FrameData work;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(mu);
                cv.wait(lock, [&] { return !queue.empty() || stop; });
                if (stop) return;
                std::swap(work, queue.front());
                queue.pop_front();
                queuedRows -= static_cast<long long>(work.id.size());
                busy = true;
            }
            cv.notify_all();
            std::exception_ptr failed;
            const auto t0 = std::chrono::steady_clock::now();
            const double cpu0 = threadCpuSeconds();
            try {
                insert(work);
            } catch (...) {
                failed = std::current_exception();
            }
            workerNs += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
            workerCpuNs += static_cast<long long>(1e9 * (threadCpuSeconds() - cpu0));
            {
                std::lock_guard<std::mutex> lock(mu);
                busy = false;
                spare.push_back(std::move(work));
                work = FrameData{};
                if (failed) {
                    error = failed;
                    stop = true;
                }
            }
            cv.notify_all();
            if (failed) return;
        }
    }

    /// The memory of agent @p id (created empty for a new id).
    IdMemory& memoryOf(int id) {
        if (id < 0 || id >= kDenseIds) return memorySparse[id];
        const auto k = static_cast<std::size_t>(id);
        if (k >= memoryDense.size()) memoryDense.resize(std::max<std::size_t>(2 * memoryDense.size(), k + 1));
        return memoryDense[k];
    }

    /// Orientation of an agent moving at (@p vx, @p vy) at @p speed:
    /// the velocity's direction, else the last one in @p m, else +x.
    static std::pair<float, float> orientation(IdMemory& m, float vx, float vy, double speed) {
        if (speed > kRestSpeed) {
            m.ox = static_cast<float>(vx / speed);
            m.oy = static_cast<float>(vy / speed);
        }
        if (m.ox == 0.f && m.oy == 0.f) return {1.f, 0.f};
        return {m.ox, m.oy};
    }

    /// Opens a transaction unless one is open.
    void begin() {
        if (inTx) return;
        db->exec("BEGIN");
        inTx = true;
        txRows = 0;
        txStart = std::chrono::steady_clock::now();
    }
    /// Commits the open transaction, if any.
    void commit() {
        if (!inTx) return;
        db->exec("COMMIT");
        inTx = false;
    }

    /// Fills frameRows with frame @p f's rows in id order, orientations included.
    /// Throws InputError naming a repeated id (nothing of the frame is written).
    void buildRows(const FrameData& f) {
        const long long dup = orderById(f.id, order, slot, keys);
        if (dup >= 0)
            throw InputError("trajectory database '" + path + "', frame " + std::to_string(f.frame) + ": agent id " +
                             std::to_string(f.id[static_cast<std::size_t>(dup)]) +
                             " appears twice (allowed: ids unique within a frame)");
        frameRows.frame = f.frame;
        frameRows.resize(order.size());
        newIds.clear();
        for (std::size_t r = 0; r < order.size(); ++r) {
            const auto k = static_cast<std::size_t>(order[r]);
            const int id = f.id[k];
            IdMemory& m = memoryOf(id);
            // The group of a new id goes to agent_groups; a known id keeps its group.
            if (m.group < 0) {
                m.group = f.group[k];
                newIds.emplace_back(id, m.group);
            } else if (m.group != f.group[k]) {
                throw InputError("trajectory database '" + path + "', frame " + std::to_string(f.frame) + ": agent id " +
                                 std::to_string(id) + " has group " + std::to_string(f.group[k]) + ", earlier " +
                                 std::to_string(m.group) + " (allowed: one group per agent id)");
            }
            // In double: no overflow of the squares for any finite float.
            const double speed = std::sqrt(static_cast<double>(f.vx[k]) * f.vx[k] + static_cast<double>(f.vy[k]) * f.vy[k]);
            const auto [ox, oy] = orientation(m, f.vx[k], f.vy[k], speed);
            frameRows.id[r] = id;
            frameRows.x[r] = f.x[k], frameRows.y[r] = f.y[k];
            frameRows.ox[r] = ox, frameRows.oy[r] = oy;
            frameRows.speed[r] = static_cast<float>(speed);
        }
    }

    /// Inserts one frame (one INSERT ... SELECT from frameRows and its
    /// frame_data row) into the open transaction, opening one if needed;
    /// commits after kTxRows rows or kTxSeconds.
    void insert(const FrameData& f) {
        buildRows(f);
        begin();
        insertRows.run();
        insertFrame.bind(1, f.frame);
        insertFrame.bind(2, geometryHash);
        insertFrame.run();
        for (const auto& [id, group] : newIds) {
            insertGroup.bind(1, static_cast<long long>(id));
            insertGroup.bind(2, static_cast<long long>(group));
            insertGroup.run();
        }
        txRows += frameRows.rowCount();
        const std::chrono::duration<double> age = std::chrono::steady_clock::now() - txStart;
        if (txRows >= kTxRows || age.count() >= kTxSeconds) commit();
    }

    /// Waits (holding @p lock) until the worker has written every queued frame or failed.
    void waitIdle(std::unique_lock<std::mutex>& lock) {
        cv.wait(lock, [&] { return (queue.empty() && !busy) || error; });
    }

    /// Stops the worker: after the queued frames when @p drain, else after
    /// the frame it is writing (queued ones are dropped).
    void stopWorker(bool drain) {
        if (!worker.joinable()) return;
        {
            std::unique_lock<std::mutex> lock(mu);
            if (drain) waitIdle(lock);
            queue.clear();
            queuedRows = 0;
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
        for (SqliteStmt* st : {&insertRows, &insertFrame, &insertGroup}) st->finalize();
        db.reset();  // rolls back an open transaction
        removeDatabaseFiles(tmp);
    }

    void requireWritable(const char* call) const {
        if (closed) throw Error("trajectory database '" + path + "': " + call + " after close()");
        if (broken) throw Error("trajectory database '" + path + "': " + call + " after an earlier write error");
    }
};

SqliteTrajectoryWriter::SqliteTrajectoryWriter(std::string path, double fps, const std::string& geometryWkt,
                                               long long queueRows)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.path = std::move(path);
    m.tmp = m.path + ".tmp";
    // Validate the arguments before touching the file system.
    if (!std::isfinite(fps) || fps <= 0)
        throw InputError("trajectory database '" + m.path + "': " +
                         fieldMessage("fps", shortestText(fps), "not a positive frame rate", "finite, > 0"));
    if (queueRows < 1)
        throw InputError("trajectory database '" + m.path + "': " +
                         fieldMessage("queueRows", std::to_string(queueRows), "no room for a frame", ">= 1"));
    m.queueRows = queueRows;
    if (geometryWkt.empty())
        throw InputError("trajectory database '" + m.path + "': the walkable-area WKT is empty (allowed: a WKT geometry)");
    // A stale temporary database (and its journal) from a killed run goes first.
    removeDatabaseFiles(m.tmp);
    m.db = std::make_unique<SqliteDb>(m.tmp, m.path);
    try {
        SqliteDb& db = *m.db;
        // The file is a temporary one until close(): no durability is needed
        // during the run (no fsync: synchronous=OFF). EXCLUSIVE locking before
        // WAL keeps the WAL index in memory (no -shm file); temporary b-trees
        // in memory; checkpoints every kCheckpointPages pages.
        db.exec((std::string("PRAGMA page_size=") + kPageSize).c_str());
        db.exec("PRAGMA locking_mode=EXCLUSIVE");
        const std::string mode = db.queryText("PRAGMA journal_mode=WAL");
        if (mode != "wal") throw Error("cannot write '" + m.path + "': SQLite refused WAL mode (journal_mode = " + mode + ")");
        db.exec("PRAGMA synchronous=OFF");
        db.exec((std::string("PRAGMA cache_size=-") + kCacheKiB).c_str());
        db.exec("PRAGMA temp_store=MEMORY");
        db.exec((std::string("PRAGMA wal_autocheckpoint=") + kCheckpointPages).c_str());
        // Schema: JuPedSim version 2 with ccrowd's columns appended to
        // trajectory_data. Its (frame, id) key is the table's own b-tree
        // (WITHOUT ROWID), kept up to date by the worker: building an index
        // at close() would stall the end of a long run for minutes.
        db.exec("BEGIN");
        db.exec(
            "CREATE TABLE trajectory_data ("
            " frame INTEGER NOT NULL, id INTEGER NOT NULL,"
            " pos_x REAL NOT NULL, pos_y REAL NOT NULL,"
            " ori_x REAL NOT NULL, ori_y REAL NOT NULL, speed REAL NOT NULL,"
            " PRIMARY KEY (frame, id)) WITHOUT ROWID;"
            "CREATE TABLE metadata(key TEXT NOT NULL UNIQUE PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE geometry(hash INTEGER NOT NULL, wkt TEXT NOT NULL);"
            "CREATE UNIQUE INDEX geometry_hash ON geometry(hash);"
            "CREATE TABLE frame_data(frame INTEGER NOT NULL, geometry_hash INTEGER NOT NULL);"
            "CREATE TABLE group_names(group_id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
            "CREATE TABLE agent_groups(id INTEGER PRIMARY KEY, group_id INTEGER NOT NULL);");
        // Metadata: version and frame rate (what PedPy reads), geometry bounds (JuPedSim's viewer).
        SqliteStmt meta(db, "INSERT INTO metadata(key, value) VALUES(?, ?)");
        auto put = [&](const char* key, const std::string& value) {
            meta.bind(1, std::string(key));
            meta.bind(2, value);
            meta.run();
        };
        put("version", std::to_string(kJuPedSimDbVersion));
        put("fps", shortestText(fps));
        put("generator", std::string("ccrowd ") + CCROWD_VERSION);
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        if (wktBounds(geometryWkt, x0, x1, y0, y1)) {
            put("xmin", shortestText(x0));
            put("xmax", shortestText(x1));
            put("ymin", shortestText(y0));
            put("ymax", shortestText(y1));
        }
        // The one geometry row that every frame refers to.
        m.geometryHash = wktHash(geometryWkt);
        SqliteStmt geo(db, "INSERT INTO geometry(hash, wkt) VALUES(?, ?)");
        geo.bind(1, m.geometryHash);
        geo.bind(2, geometryWkt);
        geo.run();
        db.exec("COMMIT");
        // Statements reused for every frame; the first reads the worker's frameRows.
        db.addRowSource(kRowSourceName, kColumns, m.frameRows);
        m.insertRows = SqliteStmt(db, m.insertRowsSql.c_str());
        m.insertFrame = SqliteStmt(db, "INSERT INTO frame_data VALUES(?, ?)");
        m.insertGroup = SqliteStmt(db, "INSERT INTO agent_groups(id, group_id) VALUES(?, ?)");
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
    // Take the connection back from the worker (idle, holding the lock) and
    // add the rows to its open transaction or a new one (committed with the
    // next frames or by close()).
    std::unique_lock<std::mutex> lock(m.mu);
    m.waitIdle(lock);
    m.rethrowWorkerError();
    try {
        m.begin();
        SqliteStmt st(*m.db, "INSERT OR REPLACE INTO group_names(group_id, name) VALUES(?, ?)");
        for (std::size_t g = 0; g < names.size(); ++g) {
            st.bind(1, static_cast<long long>(g));
            st.bind(2, names[g]);
            st.run();
        }
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
    // Wait for room in the queue (the worker writes older frames); report its
    // failure; take a spare buffer.
    FrameData f;
    {
        std::unique_lock<std::mutex> lock(m.mu);
        m.cv.wait(lock, [&] { return m.roomFor(n) || m.error; });
        m.rethrowWorkerError();
        if (!m.spare.empty()) {
            f = std::move(m.spare.back());
            m.spare.pop_back();
        }
    }
    // Copy the frame outside the lock, then queue it.
    static const int noInt = 0;
    static const float noFloat = 0.f;
    f.assign(frame, n, n ? id : &noInt, n ? group : &noInt, n ? x : &noFloat, n ? y : &noFloat, n ? vx : &noFloat,
             n ? vy : &noFloat);
    {
        std::lock_guard<std::mutex> lock(m.mu);
        m.queue.push_back(std::move(f));
        m.queuedRows += n;
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
        m.commit();
        for (SqliteStmt* st : {&m.insertRows, &m.insertFrame, &m.insertGroup}) st->finalize();
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
double SqliteTrajectoryWriter::workerSeconds() const { return 1e-9 * static_cast<double>(impl_->workerNs.load()); }
double SqliteTrajectoryWriter::workerCpuSeconds() const { return 1e-9 * static_cast<double>(impl_->workerCpuNs.load()); }

}  // namespace ccrowd::io
