#pragma once
/// @file render_cli.hpp
/// What the `ccrowd render` tests share: running the program (under
/// xvfb-run, or with no display set), the test scene and its colours, and
/// the world -> pixel rule of its 400x200 frames. The fit rule (domain
/// scaled to fill the image, centred) makes the 20 m x 10 m domain at
/// 400x200 px exactly 20 px/m with the world origin at the bottom-left
/// pixel corner.

#include <stdio.h>
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "shell.hpp"
#include "src/plot/canvas.hpp"

namespace ccrowd::test {

/// Runs ccrowd with @p args under a virtual X server. LeakSanitizer is off
/// for it: Mesa and Xlib keep allocations until exit by design.
inline Result ccrowdXvfb(const std::string& args) {
    const char* asan = std::getenv("ASAN_OPTIONS");
    return shell("ASAN_OPTIONS='" + std::string(asan ? asan : "") + ":detect_leaks=0' xvfb-run -a -s '-screen 0 1024x768x24' " +
                 std::string(CCROWD_EXE) + " " + args);
}

/// Runs ccrowd with @p args where no display is set (DISPLAY and
/// WAYLAND_DISPLAY removed), as on a GPU server without an X server, with
/// the extra environment @p env ("NAME=value ..."). LeakSanitizer is off
/// for it (EGL drivers keep allocations until exit).
inline Result ccrowdNoDisplay(const std::string& args, const std::string& env = "") {
    const char* asan = std::getenv("ASAN_OPTIONS");
    return shell("env -u DISPLAY -u WAYLAND_DISPLAY ASAN_OPTIONS='" + std::string(asan ? asan : "") + ":detect_leaks=0' " + env +
                 " " + std::string(CCROWD_EXE) + " " + args);
}

inline bool haveXvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

// 20 m x 10 m, cell 0.5 m; a wall block [9, 10] x [0, 4]; one red agent in
// the cell [3, 3.5] x [6, 6.5], one blue agent in [14, 14.5] x [2, 2.5]
// (radius 0.24 m: 4.8 px); their exact positions come from the library.
inline const char* const kScene = R"({
  "format": "ccrowd-scene", "version": 1, "name": "render_test",
  "domain": {"origin": [0, 0], "width": 20, "height": 10, "cell": 0.5},
  "obstacles": [{"rect": {"min": [9, 0], "max": [10, 4]}}],
  "goals": [{"name": "east", "areas": [{"rect": {"min": [18.5, 6], "max": [20, 10]}}]}],
  "groups": [
    {"name": "red", "spawn": [{"rect": {"min": [3, 6], "max": [3.5, 6.5]}}], "count": 1, "radius": 0.24,
     "route": ["east"], "colour": "#e41a1c"},
    {"name": "blue", "spawn": [{"rect": {"min": [14, 2], "max": [14.5, 2.5]}}], "count": 1, "radius": 0.24,
     "route": ["east"], "colour": "#377eb8"}
  ]
})";

inline const plot::Rgb kRed{0xe4, 0x1a, 0x1c}, kBlue{0x37, 0x7e, 0xb8};
inline const plot::Rgb kWall{64, 64, 64}, kFloor{242, 242, 242};

/// World point -> pixel of the 400x200 frame (20 px/m, y up).
inline void pixelOf(float x, float y, int& px, int& py) {
    px = static_cast<int>(x * 20.f);
    py = 200 - 1 - static_cast<int>(y * 20.f);
}

}  // namespace ccrowd::test
