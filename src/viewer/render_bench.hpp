#pragma once
/// @file render_bench.hpp
/// Render benchmark of the agent layer (no GL in this header).

#include <vector>

#include "viewer/options.hpp"

namespace ccrowd::viewer {

/// Prints CSV rows (agents, frames, publish_ms: a step's publication on the
/// simulation's side; fill_ms: the instance records written into the mapped
/// GL buffer; draw_ms; frame_ms = fill + draw; draw_calls; backend;
/// renderer) for each agent count in @p counts, drawn into a @p width x
/// @p height offscreen framebuffer, averaged over @p frames. The backend is
/// CUDA when a GPU is usable, else the CPU; the OpenGL context comes from
/// @p gl (--gl). [Units: ms] [Limit: counts 1..10^7; frames >= 1]
/// Returns the exit code.
int benchRender(const std::vector<long long>& counts, int width, int height, int frames, GlApi gl);

}  // namespace ccrowd::viewer
