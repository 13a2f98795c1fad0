// Typed exceptions used inside the library. Edges (CLI, HTTP) map them to exit codes / HTTP statuses.
#pragma once

#include <stdexcept>
#include <string>

namespace receipt {

// Base class of every receipt-engine error; what() starts with "file:line: ".
class Error : public std::runtime_error {
public:
    Error(const std::string& msg, const char* file, int line);
    // The message without the "file:line: " prefix, for users (what() keeps it for bug reports).
    const std::string& message() const { return message_; }

private:
    std::string message_;
};

// The caller gave bad input (bad text, bad option, bad request): HTTP 400 / CLI exit 2.
class InvalidInput : public Error {
    using Error::Error;
};

// A model folder or engine plan is missing, corrupt or inconsistent: CLI exit 3 / HTTP 500.
class ModelError : public Error {
    using Error::Error;
};

// A resource is not available right now (queue full, not ready, no GPU): HTTP 503/429.
class Unavailable : public Error {
    using Error::Error;
};

// A CUDA runtime / cuBLASLt call failed.
class CudaError : public Error {
    using Error::Error;
};

}  // namespace receipt

// Throw `type` with a message and the current file:line.
#define RECEIPT_THROW(type, msg) throw type((msg), __FILE__, __LINE__)
// Throw `type` when `cond` is false.
#define RECEIPT_CHECK(cond, type, msg)   \
    do {                                 \
        if (!(cond)) RECEIPT_THROW(type, msg); \
    } while (0)
