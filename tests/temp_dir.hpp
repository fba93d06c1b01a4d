#pragma once
/// @file temp_dir.hpp
/// A GoogleTest fixture with a fresh temporary directory per test, removed
/// afterwards, for tests that write or read files.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace ccrowd::test {

class TempDirTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string templ = (std::filesystem::temp_directory_path() / "ccrowd-test-XXXXXX").string();
        ASSERT_NE(mkdtemp(templ.data()), nullptr);
        dir_ = templ;
    }
    void TearDown() override {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    /// Path of @p name inside the directory.
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    /// Writes @p text to @p name and returns its path.
    std::string write(const std::string& name, const std::string& text) const {
        const std::string p = path(name);
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }

    std::filesystem::path dir_;
};

}  // namespace ccrowd::test
