/// @file sqlite_db.cpp
#include "sqlite_db.hpp"

#include <sqlite3.h>

#include <cstring>
#include <utility>

#include "ccrowd/error.hpp"

namespace ccrowd::io {

SqliteDb::SqliteDb(const std::string& file, std::string label) : label_(std::move(label)) {
    // Open read-write, creating the file; no per-call connection mutex (the
    // owner serialises access), no shared cache, no URI names.
    const int rc = sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                                   nullptr);
    if (rc != SQLITE_OK) {
        const std::string reason = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError("cannot write '" + label_ + "': cannot create database file '" + file + "': " + reason);
    }
    // Report the extended codes (e.g. SQLITE_IOERR_WRITE) in messages.
    sqlite3_extended_result_codes(db_, 1);
}

SqliteDb::~SqliteDb() {
    if (db_) sqlite3_close_v2(db_);
}

static_assert(SQLITE_OK == 0 && SQLITE_ROW == 100 && SQLITE_DONE == 101, "SqliteDb::check's result codes");

void SqliteDb::fail(int rc, const char* what) const {
    const std::string reason = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    // Long statements (100-row INSERTs) are cut for the message.
    std::string step = what;
    if (step.size() > 60) step = step.substr(0, 57) + "...";
    // The system's reason too (ENOSPC, EFBIG, EACCES) when SQLite has one.
    const int sys = db_ ? sqlite3_system_errno(db_) : 0;
    const std::string detail = sys ? std::string(std::strerror(sys)) + ", " : std::string();
    throw Error("cannot write '" + label_ + "': SQLite error in \"" + step + "\": " + reason + " (" + detail +
                "SQLite code " + std::to_string(rc) + ")");
}

void SqliteDb::exec(const char* sql) {
    char* msg = nullptr;
    const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &msg);
    sqlite3_free(msg);  // sqlite3_errmsg still holds the same text for check()
    check(rc, sql);
}

std::string SqliteDb::queryText(const char* sql) {
    // Step by hand: SqliteStmt::run() expects no rows.
    sqlite3_stmt* raw = nullptr;
    check(sqlite3_prepare_v2(db_, sql, -1, &raw, nullptr), sql);
    std::string out;
    const int rc = sqlite3_step(raw);
    if (rc == SQLITE_ROW) {
        const unsigned char* t = sqlite3_column_text(raw, 0);
        if (t) out = reinterpret_cast<const char*>(t);
    }
    sqlite3_finalize(raw);
    check(rc, sql);
    return out;
}

void SqliteValueOut::set(long long v) { sqlite3_result_int64(ctx_, v); }
void SqliteValueOut::set(double v) { sqlite3_result_double(ctx_, v); }

namespace {

/// A registered row source: what the module's pAux points to.
struct RowSourceEntry {
    const SqliteRowSource* source;
    std::string declaration;  ///< "CREATE TABLE x(<columns>)"
};

/// The virtual table and its cursor (SQLite's structs come first, as the
/// virtual-table interface requires).
struct RowVtab {
    sqlite3_vtab base;
    const SqliteRowSource* source;
};
struct RowCursor {
    sqlite3_vtab_cursor base;
    const SqliteRowSource* source;
    long long row, rows;
};

int rowConnect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
    const auto* entry = static_cast<const RowSourceEntry*>(aux);
    const int rc = sqlite3_declare_vtab(db, entry->declaration.c_str());
    if (rc != SQLITE_OK) return rc;
    auto* vt = static_cast<RowVtab*>(sqlite3_malloc(sizeof(RowVtab)));
    if (!vt) return SQLITE_NOMEM;
    std::memset(vt, 0, sizeof *vt);
    vt->source = entry->source;
    *out = &vt->base;
    return SQLITE_OK;
}
int rowDisconnect(sqlite3_vtab* vt) {
    sqlite3_free(vt);
    return SQLITE_OK;
}
int rowBestIndex(sqlite3_vtab* vt, sqlite3_index_info* info) {
    // Full scan only: no constraint is used, no order promised.
    const auto rows = static_cast<double>(reinterpret_cast<RowVtab*>(vt)->source->rowCount());
    info->estimatedCost = rows + 1;
    info->estimatedRows = static_cast<sqlite3_int64>(rows);
    return SQLITE_OK;
}
int rowOpen(sqlite3_vtab* vt, sqlite3_vtab_cursor** out) {
    auto* c = static_cast<RowCursor*>(sqlite3_malloc(sizeof(RowCursor)));
    if (!c) return SQLITE_NOMEM;
    std::memset(c, 0, sizeof *c);
    c->source = reinterpret_cast<RowVtab*>(vt)->source;
    *out = &c->base;
    return SQLITE_OK;
}
int rowClose(sqlite3_vtab_cursor* c) {
    sqlite3_free(c);
    return SQLITE_OK;
}
int rowFilter(sqlite3_vtab_cursor* base, int, const char*, int, sqlite3_value**) {
    auto* c = reinterpret_cast<RowCursor*>(base);
    c->row = 0;
    c->rows = c->source->rowCount();
    return SQLITE_OK;
}
int rowNext(sqlite3_vtab_cursor* c) {
    ++reinterpret_cast<RowCursor*>(c)->row;
    return SQLITE_OK;
}
int rowEof(sqlite3_vtab_cursor* base) {
    const auto* c = reinterpret_cast<RowCursor*>(base);
    return c->row >= c->rows;
}
int rowColumn(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int col) {
    const auto* c = reinterpret_cast<RowCursor*>(base);
    SqliteValueOut out(ctx);
    c->source->column(c->row, col, out);
    return SQLITE_OK;
}
int rowRowid(sqlite3_vtab_cursor* c, sqlite3_int64* rowid) {
    *rowid = reinterpret_cast<RowCursor*>(c)->row;
    return SQLITE_OK;
}

/// Eponymous-only (no xCreate), read-only module.
sqlite3_module makeRowModule() {
    sqlite3_module m;
    std::memset(&m, 0, sizeof m);
    m.xConnect = rowConnect;
    m.xBestIndex = rowBestIndex;
    m.xDisconnect = rowDisconnect;
    m.xOpen = rowOpen;
    m.xClose = rowClose;
    m.xFilter = rowFilter;
    m.xNext = rowNext;
    m.xEof = rowEof;
    m.xColumn = rowColumn;
    m.xRowid = rowRowid;
    return m;
}
const sqlite3_module kRowModule = makeRowModule();

}  // namespace

void SqliteDb::addRowSource(const std::string& name, const std::string& columns, const SqliteRowSource& source) {
    auto* entry = new RowSourceEntry{&source, "CREATE TABLE x(" + columns + ")"};
    // SQLite owns the entry from here on: it calls the destructor when the
    // connection closes, and also when the registration fails.
    const int rc = sqlite3_create_module_v2(db_, name.c_str(), &kRowModule, entry,
                                            [](void* p) { delete static_cast<RowSourceEntry*>(p); });
    check(rc, ("register row source " + name).c_str());
}

void SqliteDb::close() {
    if (!db_) return;
    const int rc = sqlite3_close(db_);
    check(rc, "sqlite3_close");
    db_ = nullptr;
}

SqliteStmt::SqliteStmt(SqliteDb& db, const char* sql) : db_(&db), sql_(sql) {
    db.check(sqlite3_prepare_v2(db.handle(), sql, -1, &st_, nullptr), sql);
}

SqliteStmt::~SqliteStmt() { finalize(); }

SqliteStmt::SqliteStmt(SqliteStmt&& o) noexcept
    : db_(std::exchange(o.db_, nullptr)), st_(std::exchange(o.st_, nullptr)), sql_(o.sql_) {}

SqliteStmt& SqliteStmt::operator=(SqliteStmt&& o) noexcept {
    if (this != &o) {
        finalize();
        db_ = std::exchange(o.db_, nullptr);
        st_ = std::exchange(o.st_, nullptr);
        sql_ = o.sql_;
    }
    return *this;
}

void SqliteStmt::bind(int i, long long v) { db_->check(sqlite3_bind_int64(st_, i, v), sql_); }
void SqliteStmt::bind(int i, double v) { db_->check(sqlite3_bind_double(st_, i, v), sql_); }
void SqliteStmt::bind(int i, const std::string& v) {
    db_->check(sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT), sql_);
}

void SqliteStmt::run() {
    const int rc = sqlite3_step(st_);
    // Reset before checking: a failed step leaves the statement needing it anyway.
    sqlite3_reset(st_);
    db_->check(rc, sql_);
}

void SqliteStmt::finalize() {
    if (st_) sqlite3_finalize(st_);
    st_ = nullptr;
}

}  // namespace ccrowd::io
