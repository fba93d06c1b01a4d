#pragma once
/// @file backends.hpp
/// The backends the suite instantiates its per-backend tests for (DESIGN.md
/// §3, §7: "tests written once and instantiated per backend").
///
/// Always the CPU backend, with 1 and 2 OpenMP threads; the CUDA backend only
/// when ccrowd::cudaUsable() says a GPU answers. Without a GPU there is simply
/// no CUDA instance (GoogleTest lists none, so none is reported as passing);
/// test_backends.cpp reports that as a skipped test with the reason.
///
/// Usage:
///   class MySuite : public ::testing::TestWithParam<ccrowd::Exec> {};
///   TEST_P(MySuite, Body) { ccrowd::FimSolver s(GetParam()); ... }
///   INSTANTIATE_TEST_SUITE_P(PerBackend, MySuite,
///       ::testing::ValuesIn(ccrowd::test::testExecs()), ccrowd::test::ExecParamName());

#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ccrowd/backend.hpp"

namespace ccrowd {

/// Readable parameter printing in GoogleTest messages (found by ADL).
inline void PrintTo(const Exec& ex, std::ostream* os) {
    *os << backendName(ex.backend) << " (threads " << ex.threads << ")";
}

namespace test {

/// Backends usable on this machine: Backend::Cpu always, Backend::Cuda when a
/// GPU works in this build.
inline std::vector<Backend> testBackends() {
    std::vector<Backend> out{Backend::Cpu};
    if (cudaUsable(nullptr)) out.push_back(Backend::Cuda);
    return out;
}

/// Execution contexts: the CPU with 1 and 2 threads, then CUDA when usable.
inline std::vector<Exec> testExecs() {
    std::vector<Exec> out;
    for (Backend b : testBackends()) {
        if (b == Backend::Cpu) {
            out.push_back(Exec{Backend::Cpu, 1});
            out.push_back(Exec{Backend::Cpu, 2});
        } else {
            out.push_back(Exec{b, 0});
        }
    }
    return out;
}

/// One execution context per usable backend: the CPU with @p cpuThreads
/// threads, then CUDA when usable (for slower tests, e.g. whole CLI runs,
/// where a second CPU thread count adds nothing).
inline std::vector<Exec> oneExecPerBackend(int cpuThreads) {
    std::vector<Exec> out;
    for (Backend b : testBackends()) out.push_back(Exec{b, b == Backend::Cpu ? cpuThreads : 0});
    return out;
}

/// The `ccrowd` options that select @p ex: "--backend cpu --threads N" or
/// "--backend cuda".
inline std::vector<std::string> cliBackendArgs(const Exec& ex) {
    if (ex.backend == Backend::Cuda) return {"--backend", "cuda"};
    return {"--backend", "cpu", "--threads", std::to_string(ex.threads)};
}

/// "cpu_1t", "cpu_2t", "cuda": valid GoogleTest name parts.
inline std::string execName(const Exec& ex) {
    std::string s = backendName(ex.backend);
    if (ex.backend == Backend::Cpu) s += "_" + std::to_string(ex.threads) + "t";
    return s;
}

/// Name generator for INSTANTIATE_TEST_SUITE_P over Exec.
struct ExecParamName {
    std::string operator()(const ::testing::TestParamInfo<Exec>& info) const { return execName(info.param); }
};

}  // namespace test
}  // namespace ccrowd
