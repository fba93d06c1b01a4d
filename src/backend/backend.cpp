/// @file backend.cpp
/// Backend selection shared by every command.

#include "ccrowd/backend.hpp"

#include <omp.h>

#include "ccrowd/error.hpp"

namespace ccrowd {

const char* backendName(Backend b) { return b == Backend::Cuda ? "cuda" : "cpu"; }

BackendChoice parseBackendChoice(const std::string& text, const std::string& field) {
    if (text == "auto") return BackendChoice::Auto;
    if (text == "cpu") return BackendChoice::Cpu;
    if (text == "cuda") return BackendChoice::Cuda;
    throw InputError(fieldMessage(field, "'" + text + "'", "unknown backend", "auto, cpu, cuda"));
}

Exec selectBackend(BackendChoice choice, int threads, std::string* note) {
    if (threads < 0) throw InputError(fieldMessage("--threads", std::to_string(threads), "negative", ">= 0 (0 = all cores)"));
    Exec ex;
    ex.threads = threads;
    if (choice == BackendChoice::Cpu) return ex;
    std::string why;
    const bool gpu = cudaUsable(&why);
    if (gpu) { ex.backend = Backend::Cuda; return ex; }
    if (choice == BackendChoice::Cuda) throw BackendError("--backend cuda: no usable CUDA GPU: " + why);
    if (note) *note = "using the CPU backend: " + why;
    return ex;
}

int cpuThreads(const Exec& ex) { return ex.threads > 0 ? ex.threads : omp_get_max_threads(); }

}  // namespace ccrowd
