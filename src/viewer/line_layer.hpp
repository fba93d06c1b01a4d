#pragma once
/// @file line_layer.hpp
/// World-space line segments in one colour (the potential's velocity arrows).

#include <vector>

#include "viewer/camera.hpp"
#include "viewer/shader.hpp"

namespace ccrowd::viewer {

class LineLayer {
public:
    LineLayer();
    ~LineLayer();
    LineLayer(const LineLayer&) = delete;
    LineLayer& operator=(const LineLayer&) = delete;

    /// Segments (x0, y0, x1, y1). [Units: m] [Size: 4 per segment]
    void setSegments(const std::vector<float>& xyxy);
    /// @param rgba Colour, 0..1.
    void draw(const Camera& cam, const float rgba[4]) const;

private:
    ShaderProgram program_{"lines"};
    unsigned vao_ = 0, vbo_ = 0;
    int vertices_ = 0;
};

}  // namespace ccrowd::viewer
