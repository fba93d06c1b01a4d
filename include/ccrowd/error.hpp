#pragma once
/// @file error.hpp
/// Error types. Every error the library throws says what was wrong, where
/// (file, field or call), and what is allowed.

#include <stdexcept>
#include <string>

namespace ccrowd {

/// Base class of every error thrown by ccrowd.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Bad input from the user: a scene, a CLI argument, a solver parameter.
/// The message names the field, the value given and the allowed values.
class InputError : public Error {
public:
    using Error::Error;
};

/// A backend failure: a CUDA call that failed, no usable GPU.
/// The message names the call, the source file and line.
class BackendError : public Error {
public:
    using Error::Error;
};

/// Formats "<field> = <value>: <problem> (allowed: <allowed>)".
std::string fieldMessage(const std::string& field, const std::string& value,
                         const std::string& problem, const std::string& allowed);

}  // namespace ccrowd
