#pragma once
/// @file backend.hpp
/// Where kernels run: the CPU (OpenMP) or a CUDA GPU. Every kernel has one
/// host+device source (kernels/); the backend only picks the launcher.

#include <string>

namespace ccrowd {

/// A concrete backend.
enum class Backend { Cpu, Cuda };

/// What the user asked for. Auto = CUDA when a usable GPU exists, else CPU.
enum class BackendChoice { Auto, Cpu, Cuda };

/// Execution context passed to every launcher.
struct Exec {
    Backend backend = Backend::Cpu;  ///< Where kernels run.
    int threads = 0;                 ///< CPU threads [Limit: >= 0, 0 = OpenMP default]
};

/// "cpu" or "cuda".
const char* backendName(Backend b);

/// Parses "auto", "cpu" or "cuda"; throws InputError naming @p field otherwise.
BackendChoice parseBackendChoice(const std::string& text, const std::string& field = "--backend");

/// True when this build has the CUDA backend and a usable GPU answers.
/// @param why  Receives the reason when false (no CUDA in this build, the
///             failing CUDA call and its error). May be null.
bool cudaUsable(std::string* why);

/// Resolves a choice to an Exec. Auto falls back to the CPU (and says why in
/// @p note); Cuda without a usable GPU throws BackendError.
/// @param threads CPU threads [Limit: >= 0, 0 = all]
Exec selectBackend(BackendChoice choice, int threads, std::string* note = nullptr);

/// Number of threads the CPU backend uses for @p ex (resolves 0).
int cpuThreads(const Exec& ex);

}  // namespace ccrowd
