/// @file skfmm_bridge.cpp
/// Child process with posix_spawnp (stdin /dev/null, stdout/stderr to files in
/// the temporary directory, so no pipe can fill up), data exchange via .npy.

#include "skfmm_bridge.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "../../src/io/npy.hpp"

extern char** environ;

namespace ccrowd::bench {

namespace {

namespace fs = std::filesystem;

constexpr int kExitNoSkfmm = 3;  // skfmm_time.py: numpy or scikit-fmm cannot be imported

/// A mkdtemp directory, removed with its contents on scope exit.
struct TempDir {
    std::string path;
    ~TempDir() {
        if (path.empty()) return;
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

bool isFile(const std::string& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

/// Directory of the running executable, or "" when unknown.
std::string exeDir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

/// Finds skfmm_time.py; on failure returns "" and sets @p why.
std::string findScript(std::string& why) {
    if (const char* env = std::getenv("CCROWD_SKFMM_SCRIPT"); env && *env) {
        if (isFile(env)) return env;
        why = "CCROWD_SKFMM_SCRIPT = " + std::string(env) + " is not a readable file";
        return {};
    }
    std::vector<std::string> tried{std::string(CCROWD_SOURCE_DIR) + "/bench/skfmm_time.py"};
    if (const std::string dir = exeDir(); !dir.empty()) tried.push_back(dir + "/../share/ccrowd/skfmm_time.py");
    for (const std::string& p : tried)
        if (isFile(p)) return p;
    why = "skfmm_time.py not found (looked at";
    for (const std::string& p : tried) why += " " + p;
    why += "; set CCROWD_SKFMM_SCRIPT)";
    return {};
}

/// The last @p max_lines lines of a captured output file, trimmed.
std::string tail(const std::string& path, int max_lines = 12) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    std::string out;
    const std::size_t first = lines.size() > static_cast<std::size_t>(max_lines) ? lines.size() - max_lines : 0;
    for (std::size_t k = first; k < lines.size(); ++k) out += (out.empty() ? "" : "\n") + lines[k];
    return out;
}

/// A number as text for messages and arguments: %.9g, exact for a float ("1e-09", not "0.000000").
std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.9g", v);
    return b;
}

void validate(const Field<float>& speed, const Field<std::uint8_t>& blocked, int srcI, int srcJ, float h, int warmup,
              int repeats) {
    const std::string where = "runSkfmm: ";
    if (speed.nx() < 1 || speed.ny() < 1)
        throw InputError(where + fieldMessage("speed", std::to_string(speed.nx()) + "x" + std::to_string(speed.ny()), "empty grid", "nx, ny >= 1"));
    if (blocked.nx() != speed.nx() || blocked.ny() != speed.ny())
        throw InputError(where + fieldMessage("blocked", std::to_string(blocked.nx()) + "x" + std::to_string(blocked.ny()),
                                              "size differs from speed", std::to_string(speed.nx()) + "x" + std::to_string(speed.ny())));
    if (!(h > 0.f) || !std::isfinite(h)) throw InputError(where + fieldMessage("h", num(h), "invalid cell size", "> 0, finite [m]"));
    if (warmup < 0) throw InputError(where + fieldMessage("warmup", std::to_string(warmup), "negative", ">= 0"));
    if (repeats < 1) throw InputError(where + fieldMessage("repeats", std::to_string(repeats), "no timed run", ">= 1"));
    const std::string src = "(" + std::to_string(srcI) + ", " + std::to_string(srcJ) + ")";
    if (srcI < 0 || srcJ < 0 || srcI >= speed.nx() || srcJ >= speed.ny())
        throw InputError(where + fieldMessage("source", src, "outside the grid", "0 <= i < " + std::to_string(speed.nx()) + ", 0 <= j < " + std::to_string(speed.ny())));
    if (blocked(srcI, srcJ)) throw InputError(where + fieldMessage("source", src, "blocked cell", "an open cell"));
    for (int j = 0; j < speed.ny(); ++j)
        for (int i = 0; i < speed.nx(); ++i)
            if (!blocked(i, j) && !(speed(i, j) > 0.f && std::isfinite(speed(i, j))))
                throw InputError(where + fieldMessage("speed(" + std::to_string(i) + ", " + std::to_string(j) + ")",
                                                      num(speed(i, j)), "invalid speed on an open cell", "> 0, finite [m/s]"));
}

SkfmmResult skipped(std::string why) {
    SkfmmResult r;
    r.skipped_reason = std::move(why);
    return r;
}

}  // namespace

SkfmmResult runSkfmm(const Field<float>& speed, const Field<std::uint8_t>& blocked, int srcI, int srcJ, float h,
                     int warmup, int repeats) {
    validate(speed, blocked, srcI, srcJ, h, warmup, repeats);
    std::string why;
    const std::string script = findScript(why);
    if (script.empty()) return skipped(why);

    // Fresh private directory for the exchange files.
    const char* tmpdir = std::getenv("TMPDIR");
    std::string templ = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/ccrowd-skfmm-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) return skipped("cannot create temporary directory " + templ + ": " + std::strerror(errno));
    TempDir dir{buf.data()};

    try {
        io::writeNpy(dir.path + "/speed.npy", speed);
        io::writeNpy(dir.path + "/blocked.npy", blocked);
    } catch (const Error& e) {
        return skipped(e.what());
    }

    // python3 <script> <dir> <srcI> <srcJ> <h> <warmup> <repeats>
    std::vector<std::string> args{"python3", script, dir.path, std::to_string(srcI), std::to_string(srcJ), num(h),
                                  std::to_string(warmup), std::to_string(repeats)};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    const std::string out_path = dir.path + "/stdout.txt", err_path = dir.path + "/stderr.txt";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, "python3", &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc == ENOENT) return skipped("python3 not found on PATH (scikit-fmm comparison needs python3 with scikit-fmm)");
    if (rc != 0) return skipped(std::string("cannot start python3: ") + std::strerror(rc));

    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return skipped(std::string("waitpid for python3 failed: ") + std::strerror(errno));
    }
    if (WIFSIGNALED(status)) {
        return skipped("python3 " + script + " was killed by signal " + std::to_string(WTERMSIG(status)) + ": " + tail(err_path));
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code == kExitNoSkfmm) return skipped("scikit-fmm not installed (pip install scikit-fmm)");
    if (code != 0) {
        std::string msg = tail(err_path);
        if (msg.empty()) msg = tail(out_path);
        return skipped("python3 " + script + " failed (exit code " + std::to_string(code) + ")" + (msg.empty() ? "" : ": " + msg));
    }

    SkfmmResult r;
    try {
        r.ms = io::readNpyDoubles(dir.path + "/times_ms.npy");
        r.phi = io::readNpyFloat(dir.path + "/phi.npy");
    } catch (const Error& e) {
        return skipped(std::string("unreadable scikit-fmm output: ") + e.what());
    }
    if (r.ms.size() != static_cast<std::size_t>(repeats) || r.phi.nx() != speed.nx() || r.phi.ny() != speed.ny()) {
        return skipped("unexpected scikit-fmm output: " + std::to_string(r.ms.size()) + " times for " +
                       std::to_string(repeats) + " repeats, phi " + std::to_string(r.phi.nx()) + "x" +
                       std::to_string(r.phi.ny()) + " for a " + std::to_string(speed.nx()) + "x" +
                       std::to_string(speed.ny()) + " grid");
    }
    r.ran = true;
    return r;
}

}  // namespace ccrowd::bench
