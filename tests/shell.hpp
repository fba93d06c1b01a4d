#pragma once
/// @file shell.hpp
/// Running a command in the tests: its exit code and combined output.

#include <stdio.h>
#include <sys/wait.h>

#include <string>

namespace ccrowd::test {

/// Exit code and combined output of a shell command.
struct Result {
    int code = -1;
    std::string out;
};
inline Result shell(const std::string& cmd) {
    Result r;
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return r;
    char buf[4096];
    while (fgets(buf, sizeof buf, p)) r.out += buf;
    const int st = pclose(p);
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

}  // namespace ccrowd::test
