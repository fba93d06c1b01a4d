/// @file shader.cpp
#include "viewer/shader.hpp"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "ccrowd/config.hpp"
#include "viewer/gl.hpp"

namespace ccrowd::viewer {

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ViewerError("cannot read shader '" + path +
                          "' (set CCROWD_SHADER_DIR to the folder holding ccrowd's shaders/*.vert and *.frag)");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Compiles one stage; the error names the file and quotes the GLSL log.
GLuint compile(GLenum type, const std::string& path) {
    const std::string text = readText(path);
    const GLuint s = glCreateShader(type);
    const char* src = text.c_str();
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        GLint n = 0;
        glGetShaderiv(s, GL_INFO_LOG_LENGTH, &n);
        std::vector<char> log(static_cast<std::size_t>(n > 1 ? n : 1), '\0');
        glGetShaderInfoLog(s, n, nullptr, log.data());
        glDeleteShader(s);
        throw ViewerError("shader '" + path + "' does not compile:\n" + log.data());
    }
    return s;
}

}  // namespace

std::string shaderDir() {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("CCROWD_SHADER_DIR"); env && *env) return env;
    const fs::path src = fs::path(CCROWD_SOURCE_DIR) / "shaders";
    std::error_code ec;
    if (fs::exists(src / "agents.vert", ec)) return src.string();
    char exe[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        return (fs::path(exe).parent_path().parent_path() / "share" / "ccrowd" / "shaders").string();
    }
    return src.string();
}

ShaderProgram::ShaderProgram(const std::string& name) {
    const std::string base = shaderDir() + "/" + name;
    const GLuint vs = compile(GL_VERTEX_SHADER, base + ".vert");
    GLuint fs = 0;
    try {
        fs = compile(GL_FRAGMENT_SHADER, base + ".frag");
    } catch (...) {
        glDeleteShader(vs);
        throw;
    }
    id_ = glCreateProgram();
    glAttachShader(id_, vs);
    glAttachShader(id_, fs);
    glLinkProgram(id_);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(id_, GL_LINK_STATUS, &ok);
    if (!ok) {
        GLint n = 0;
        glGetProgramiv(id_, GL_INFO_LOG_LENGTH, &n);
        std::vector<char> log(static_cast<std::size_t>(n > 1 ? n : 1), '\0');
        glGetProgramInfoLog(id_, n, nullptr, log.data());
        glDeleteProgram(id_);
        throw ViewerError("shader program '" + base + ".vert' + '.frag' does not link:\n" + log.data());
    }
}

ShaderProgram::~ShaderProgram() { glDeleteProgram(id_); }

void ShaderProgram::use() const { glUseProgram(id_); }

int ShaderProgram::uniform(const char* name) const { return glGetUniformLocation(id_, name); }

}  // namespace ccrowd::viewer
