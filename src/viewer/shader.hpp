#pragma once
/// @file shader.hpp
/// GLSL programs loaded at run time from shaders/ (DESIGN.md §3: no shaders
/// in C++ strings).

#include <string>

namespace ccrowd::viewer {

/// Folder of the GLSL files: $CCROWD_SHADER_DIR when set, else
/// <source tree>/shaders (CCROWD_SOURCE_DIR) when it exists, else
/// <executable dir>/../share/ccrowd/shaders.
std::string shaderDir();

/// A linked vertex + fragment program.
class ShaderProgram {
public:
    /// Compiles shaderDir()/<name>.vert and <name>.frag and links them.
    /// Throws ViewerError naming the file and quoting the GLSL log when a
    /// file is missing, does not compile or the program does not link.
    explicit ShaderProgram(const std::string& name);
    ~ShaderProgram();
    ShaderProgram(const ShaderProgram&) = delete;
    ShaderProgram& operator=(const ShaderProgram&) = delete;

    unsigned id() const { return id_; }
    /// glUseProgram.
    void use() const;
    /// Location of uniform @p name (-1 when the compiler removed it).
    int uniform(const char* name) const;

private:
    unsigned id_ = 0;
};

}  // namespace ccrowd::viewer
