#pragma once
/// @file render_bench.hpp
/// Render benchmark of the agent layer (no GL in this header).

#include <vector>

namespace ccrowd::viewer {

/// Prints CSV rows (agents, frames, upload_ms, draw_ms, frame_ms,
/// draw_calls, renderer) for each agent count in @p counts, drawn into a
/// @p width x @p height offscreen framebuffer, averaged over @p frames.
/// [Limit: counts 1..10^7; frames >= 1] Returns the exit code.
int benchRender(const std::vector<long long>& counts, int width, int height, int frames);

}  // namespace ccrowd::viewer
