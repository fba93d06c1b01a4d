/// @file test_viewer_gl_api.cpp
/// Which OpenGL context `ccrowd render --gl` means for a given $DISPLAY
/// (in-process: no context is made).

#include <gtest/gtest.h>

#include "ccrowd/config.hpp"

#if CCROWD_HAVE_VIEWER
#include "viewer/headless_context.hpp"

namespace ccrowd::test {
namespace {

using viewer::GlApi;
using viewer::resolveGlApi;

TEST(ViewerGlApi, AutoIsEglWithoutADisplayAndGlxWithOne) {
    EXPECT_EQ(resolveGlApi(GlApi::Auto, nullptr), GlApi::Egl) << "DISPLAY unset";
    EXPECT_EQ(resolveGlApi(GlApi::Auto, ""), GlApi::Egl) << "DISPLAY empty";
    EXPECT_EQ(resolveGlApi(GlApi::Auto, ":99"), GlApi::Glx);
}

TEST(ViewerGlApi, AnExplicitChoiceIgnoresTheDisplay) {
    EXPECT_EQ(resolveGlApi(GlApi::Egl, ":0"), GlApi::Egl);
    EXPECT_EQ(resolveGlApi(GlApi::Glx, nullptr), GlApi::Glx);
}

}  // namespace
}  // namespace ccrowd::test
#endif
