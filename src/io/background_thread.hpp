#pragma once
/// @file background_thread.hpp
/// What a background writer thread needs from the operating system: to run
/// only on cores the simulation leaves idle, and to know its own CPU time.

namespace ccrowd::io {

/// Puts the calling thread in the idle scheduling class (Linux SCHED_IDLE;
/// elsewhere, or when refused, the lowest nice value): it then runs on cores
/// the simulation's threads leave idle (serial sections, waits at the end of
/// parallel loops) instead of taking time slices from them. Returns false
/// when neither could be set (the thread keeps its priority).
bool runOnIdleCores();

/// CPU time the calling thread has used so far. [Units: s]
double threadCpuSeconds();

}  // namespace ccrowd::io
