#pragma once
/// @file sqlite_db.hpp
/// A thin RAII layer over the SQLite C library for the output writers: one
/// connection, prepared statements, in-memory row sources for bulk
/// INSERT ... SELECT, and a check that turns every failed call
/// into a ccrowd::Error naming the database path, what was being done and
/// sqlite3_errmsg (e.g. "database or disk is full"). No SQLite header leaks
/// out of this file's users: sqlite3 types are forward-declared.

#include <string>

struct sqlite3;
struct sqlite3_context;
struct sqlite3_stmt;

namespace ccrowd::io {

/// Where SqliteRowSource::column() puts one value (wraps an sqlite3_context).
class SqliteValueOut {
public:
    explicit SqliteValueOut(sqlite3_context* ctx) : ctx_(ctx) {}
    void set(long long v);
    void set(double v);

private:
    sqlite3_context* ctx_;
};

/// In-memory rows that the statements of one connection read as a table
/// (see SqliteDb::addRowSource): "INSERT INTO t SELECT ... FROM <name>"
/// then copies all rows in one sqlite3_step, without binding parameters
/// row by row (about 15% less CPU than 500-row INSERT ... VALUES for a
/// 9-column table). Read-only; a full scan of rows 0 .. rowCount()-1 in
/// that order (no constraints or ordering are used).
class SqliteRowSource {
public:
    virtual ~SqliteRowSource() = default;
    /// Rows at the time the statement starts. [Limit: >= 0]
    virtual long long rowCount() const = 0;
    /// Puts column @p col (0-based, in the declared order) of row @p row into @p out.
    virtual void column(long long row, int col, SqliteValueOut& out) const noexcept = 0;
};

/// One open SQLite connection. Not copyable; closed by the destructor
/// (without checking) or by close() (checked). Opened without SQLite's
/// connection mutex: one thread at a time may use it (the owner hands it
/// over with its own synchronisation).
class SqliteDb {
public:
    /// Opens (creating if needed) the database file @p file; @p label names
    /// it in error messages (e.g. the final output path).
    /// Throws InputError naming @p label and @p file when it cannot be opened
    /// (missing directory, no permission).
    SqliteDb(const std::string& file, std::string label);
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    /// Runs one or more SQL statements that return no rows needed here.
    /// Throws Error naming the label, @p sql and SQLite's message.
    void exec(const char* sql);
    /// Runs a PRAGMA (or other one-row query) and returns its first column as text ("" when no row).
    std::string queryText(const char* sql);
    /// Throws Error when @p rc is not SQLITE_OK / SQLITE_DONE / SQLITE_ROW
    /// (0, 101, 100: checked against sqlite3.h in sqlite_db.cpp), naming the
    /// label, @p what and SQLite's message for this connection.
    void check(int rc, const char* what) const {
        if (rc != 0 && rc != 100 && rc != 101) fail(rc, what);
    }
    /// Makes @p source readable as the table @p name with the columns
    /// @p columns (e.g. "frame, id, pos_x") in this connection only: an
    /// eponymous virtual table, nothing is stored in the database file.
    /// @p source must outlive this connection.
    /// Throws Error naming the label and @p name when SQLite refuses it.
    void addRowSource(const std::string& name, const std::string& columns, const SqliteRowSource& source);
    /// Closes the connection, checking the result. Idempotent.
    void close();

    sqlite3* handle() const { return db_; }
    const std::string& label() const { return label_; }

private:
    [[noreturn]] void fail(int rc, const char* what) const;

    sqlite3* db_ = nullptr;
    std::string label_;
};

/// One prepared statement of a SqliteDb. Not copyable; finalized by the
/// destructor or finalize().
class SqliteStmt {
public:
    SqliteStmt() = default;
    /// Prepares @p sql (a single statement) for repeated use.
    SqliteStmt(SqliteDb& db, const char* sql);
    ~SqliteStmt();
    SqliteStmt(SqliteStmt&& o) noexcept;
    SqliteStmt& operator=(SqliteStmt&& o) noexcept;
    SqliteStmt(const SqliteStmt&) = delete;
    SqliteStmt& operator=(const SqliteStmt&) = delete;

    /// Binds parameter @p i (1-based).
    void bind(int i, long long v);
    void bind(int i, double v);
    void bind(int i, const std::string& v);
    /// Steps once (expects no result row), then resets for the next use.
    void run();
    /// Releases the statement. Idempotent.
    void finalize();

private:
    SqliteDb* db_ = nullptr;
    sqlite3_stmt* st_ = nullptr;
    const char* sql_ = "";
};

}  // namespace ccrowd::io
