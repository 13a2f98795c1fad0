#include "receipt/errors.h"

#include <cstring>

namespace receipt {

static std::string basename_of(const char* file) {
    const char* slash = std::strrchr(file, '/');
    return slash ? slash + 1 : file;
}

Error::Error(const std::string& msg, const char* file, int line)
    : std::runtime_error(basename_of(file) + ":" + std::to_string(line) + ": " + msg), message_(msg) {}

}  // namespace receipt
