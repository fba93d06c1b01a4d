/// @file eikonal_gbench.cpp
/// Google Benchmark rows for the potential stage: FIM (CPU, 1 thread and all
/// threads) and FMM on the `ccrowd bench eikonal` cases. Run with
/// OMP_WAIT_POLICY=passive; e.g.
///   ccrowd_gbench --benchmark_filter='obstacles/1024' --benchmark_repetitions=5
/// Counters: updates_per_cell (local-solver calls per open cell), cells/s.

#include <benchmark/benchmark.h>
#include <omp.h>

#include "cmd/eikonal_cases.hpp"

namespace {

using ccrowd::bench::EikonalCase;

void fim(benchmark::State& state, EikonalCase c, int threads) {
    const auto grid = ccrowd::bench::makeEikonalGrid(c, static_cast<int>(state.range(0)));
    const auto problem = grid.problem();
    ccrowd::FimSolver solver(ccrowd::Exec{ccrowd::Backend::Cpu, threads});
    ccrowd::Field<float> phi;
    ccrowd::EikonalStats st;
    for (auto _ : state) {
        st = solver.solve(problem, phi);
        benchmark::DoNotOptimize(phi.host());
    }
    state.counters["updates_per_cell"] = st.updates_per_cell;
    state.counters["cells"] = benchmark::Counter(static_cast<double>(grid.n) * grid.n, benchmark::Counter::kIsIterationInvariantRate);
}

void fmm(benchmark::State& state, EikonalCase c) {
    const auto grid = ccrowd::bench::makeEikonalGrid(c, static_cast<int>(state.range(0)));
    const auto problem = grid.problem();
    ccrowd::Field<float> phi;
    ccrowd::EikonalStats st;
    for (auto _ : state) {
        st = ccrowd::solveFmm(problem, phi);
        benchmark::DoNotOptimize(phi.host());
    }
    state.counters["updates_per_cell"] = st.updates_per_cell;
    state.counters["cells"] = benchmark::Counter(static_cast<double>(grid.n) * grid.n, benchmark::Counter::kIsIterationInvariantRate);
}

void registerAll() {
    for (EikonalCase c : ccrowd::bench::allCases()) {
        const std::string name = ccrowd::bench::caseName(c);
        const int all = omp_get_max_threads();
        benchmark::RegisterBenchmark(("potential/fim/1thread/" + name).c_str(), fim, c, 1)
            ->RangeMultiplier(4)->Range(64, 4096)->Unit(benchmark::kMillisecond)->UseRealTime();
        if (all > 1)
            benchmark::RegisterBenchmark(("potential/fim/" + std::to_string(all) + "threads/" + name).c_str(), fim, c, all)
                ->RangeMultiplier(4)->Range(64, 4096)->Unit(benchmark::kMillisecond)->UseRealTime();
        benchmark::RegisterBenchmark(("potential/fmm/1thread/" + name).c_str(), fmm, c)
            ->RangeMultiplier(4)->Range(64, 4096)->Unit(benchmark::kMillisecond)->UseRealTime();
    }
}

}  // namespace

int main(int argc, char** argv) {
    registerAll();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
