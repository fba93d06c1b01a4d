#pragma once
/// @file viewer.hpp
/// Entry points of the viewer commands (no GL in this header).

#include "viewer/options.hpp"

namespace ccrowd::viewer {

/// `ccrowd render`: steps the scene and writes @p o.frames PNG frames (one
/// every @p o.every steps, the first before any step) to @p o.out through an
/// offscreen framebuffer. Returns the exit code. Throws InputError for bad
/// input and ViewerError (no display, no OpenGL 3.3, shader errors).
int renderFrames(const RenderOptions& o);

/// `ccrowd view`: the interactive window. Returns the exit code.
int viewScene(const ViewOptions& o);

}  // namespace ccrowd::viewer
