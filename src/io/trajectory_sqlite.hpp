#pragma once
/// @file trajectory_sqlite.hpp
/// Agent trajectories as a JuPedSim trajectory database (format version 2),
/// the SQLite file PedPy reads with load_trajectory_from_jupedsim_sqlite and
/// load_walkable_area_from_jupedsim_sqlite (PedPy reads versions 1 and 2;
/// version 3, which dropped ori_x/ori_y, is not read by PedPy 1.5).
///
/// Tables (JuPedSim 1.x's version 2, with ccrowd's speed column appended to
/// trajectory_data and two tables of its own; readers select columns by
/// name, so PedPy 1.5 ("select frame, id, pos_x, pos_y from
/// trajectory_data") and JuPedSim's Recording ("SELECT id, pos_x, pos_y,
/// ori_x, ori_y ... WHERE frame == ?") read it):
/// - trajectory_data(frame INTEGER, id INTEGER, pos_x REAL, pos_y REAL,
///   ori_x REAL, ori_y REAL, speed REAL), all NOT NULL, PRIMARY KEY
///   (frame, id), WITHOUT ROWID: the table is its own
///   (frame, id) index (JuPedSim's separate frame_id_idx is not needed;
///   "WHERE frame = ? ORDER BY id" is a range scan of the key) and rows are
///   stored in (frame, id) order whatever order writeFrame() got them in.
///   One row per agent and written frame.
///   pos [Units: m]; ori = unit direction of the velocity (the last
///   direction while at rest, (1, 0) before the agent ever moved);
///   speed = length of the velocity [Units: m/s], so the velocity is
///   speed * (ori_x, ori_y).
/// - metadata(key TEXT NOT NULL UNIQUE PRIMARY KEY, value TEXT NOT NULL):
///   version = "2", fps [Units: 1/s], xmin/xmax/ymin/ymax (bounds of the
///   geometry) [Units: m], generator = "ccrowd <version>".
/// - geometry(hash INTEGER NOT NULL, wkt TEXT NOT NULL), unique index on
///   hash: one row, the walkable area as WKT (see walkable_wkt.hpp).
/// - frame_data(frame INTEGER NOT NULL, geometry_hash INTEGER NOT NULL):
///   one row per written frame.
/// - agent_groups(id INTEGER PRIMARY KEY, group_id INTEGER NOT NULL)
///   (ccrowd's): each agent's group index, one row per id (an agent keeps
///   its group; "JOIN agent_groups USING (id)" adds it to trajectory rows).
/// - group_names(group_id INTEGER PRIMARY KEY, name TEXT NOT NULL) (ccrowd's).
/// About 60 bytes per trajectory_data row: 3 MB per 50,000-agent frame.
///
/// Writing: on a background thread that owns the connection until close():
/// writeFrame() validates and copies the frame (about 0.5 ms for 50,000
/// agents) and returns while earlier frames are still being written; it
/// waits only while the queue is full (kTrajectoryQueueRows agents by
/// default; one frame is always accepted), so the worker can fall behind
/// during busy stretches and catch up later. The worker runs on idle cores
/// only (background_thread.hpp): it does not take time slices from the
/// simulation's threads, and when it falls a whole queue behind the
/// simulation waits for it. The worker sorts each frame by id
/// and inserts it with one "INSERT ... SELECT" from memory (about 21 ms of
/// one core per 50,000-agent frame, see trajectory_sqlite.cpp). WAL journal,
/// EXCLUSIVE locking (no -shm file), synchronous=OFF (the file is a
/// temporary one until close(), so a crash needs no durability), 64 KiB
/// pages, a 64 MiB page cache, transactions of several frames (committed
/// after 500,000 rows or 0.5 s), WAL checkpoints every 4 MiB.
/// An SQLite error of a frame, a repeated id in it, or an id whose group
/// changed, is thrown by a later writeFrame() or by close().
/// The file is written as "<path>.tmp" and renamed to @p path by close(),
/// after a checkpoint and a switch back to the rollback journal, so no -wal
/// or -shm file remains and readers need no write access. Destroying the
/// writer without close() removes the temporary files and leaves nothing
/// under @p path.
///
/// Frame numbers: time of frame f = f / fps (PedPy). JuPedSim's viewer
/// shows frames 0 .. (number of frames - 1), so number the written frames
/// 0, 1, 2, ... and pass fps = 1 / (dt * steps between written frames).

#include <memory>
#include <string>
#include <vector>

namespace ccrowd::io {

/// JuPedSim trajectory database format version written.
constexpr int kJuPedSimDbVersion = 2;

/// Agents the writer holds for its worker by default (about 24 bytes each,
/// 24 MB): 20 frames of 50,000 agents.
constexpr long long kTrajectoryQueueRows = 1000000;

/// Streams frames of agents into a JuPedSim version-2 SQLite database.
class SqliteTrajectoryWriter {
public:
    /// Creates "<path>.tmp" (replacing a stale one) with the tables above.
    /// @param fps          Frames per second of the frame numbers passed to writeFrame. [Units: 1/s] [Limit: finite, > 0]
    /// @param geometryWkt  Walkable area as WKT. [Limit: non-empty]
    /// @param queueRows    Agents of the frames waiting for the worker at
    ///                     most; a frame that does not fit waits (one frame
    ///                     is always accepted). [Limit: >= 1]
    /// Throws InputError for a bad fps or WKT, or when the file cannot be
    /// created (missing directory, no permission), naming @p path; Error
    /// for any other SQLite failure, naming @p path and SQLite's message.
    SqliteTrajectoryWriter(std::string path, double fps, const std::string& geometryWkt,
                           long long queueRows = kTrajectoryQueueRows);
    /// Without close(): discards the temporary files (see file comment).
    ~SqliteTrajectoryWriter();
    SqliteTrajectoryWriter(const SqliteTrajectoryWriter&) = delete;
    SqliteTrajectoryWriter& operator=(const SqliteTrajectoryWriter&) = delete;

    /// Records group names: group_names row i = (i, names[i]) (waits for
    /// the queued frames; written in the current transaction).
    /// Throws Error like writeFrame().
    void setGroupNames(const std::vector<std::string>& names);

    /// Queues one frame: @p n agents in any order, arrays indexed 0..n-1
    /// (may be null when n == 0).
    /// @param frame  Frame number. [Limit: >= 0, greater than the previous frame]
    /// @param id     Agent ids. [Limit: unique within the frame; checked by
    ///               the worker: a repeated id is an InputError naming the
    ///               frame and id, thrown by the next writeFrame() or close()]
    /// @param group  Group index per agent. [Limit: the same for an id in
    ///               every frame; checked by the worker like repeated ids]
    /// @param x,y    Positions. [Units: m] [Limit: finite]
    /// @param vx,vy  Velocities. [Units: m/s] [Limit: finite]
    /// Throws InputError for a bad frame number, n < 0 or a non-finite value
    /// (naming the frame and agent id; nothing is written), Error when
    /// SQLite failed on an earlier frame (e.g. disk full, naming the path
    /// and SQLite's message) or an earlier frame repeated an id; after such
    /// an Error the writer only accepts destruction.
    void writeFrame(long long frame, int n, const int* id, const int* group, const float* x, const float* y,
                    const float* vx, const float* vy);

    /// Waits for the queued frames, commits, checkpoints, switches to the
    /// rollback journal, closes and renames the file to its final path.
    /// Idempotent. Throws Error naming the path on failure (also a failure
    /// of an earlier frame); the temporary files are then removed.
    void close();

    const std::string& path() const;     ///< Final path.
    long long frames() const;            ///< Frames accepted so far.
    long long rows() const;              ///< trajectory_data rows accepted so far.
    /// Wall time the background thread has spent inserting frames: work
    /// that competes with the simulation for the cores. [Units: s]
    double workerSeconds() const;
    /// CPU time the background thread has spent inserting frames. [Units: s]
    double workerCpuSeconds() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace ccrowd::io
