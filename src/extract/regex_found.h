// std::regex_search for the post-checks' text tests. libstdc++'s std::regex backtracks recursively and throws
// (error_complexity, error_stack) on long inputs; a test that cannot run finds nothing.
#pragma once

#include <regex>
#include <string>

namespace receipt::extract {

// Whether `re` matches somewhere in `s`; false when std::regex gives up. Never throws.
inline bool regex_found(const std::string& s, const std::regex& re) {
    try {
        return std::regex_search(s, re);
    } catch (...) {  // std::regex giving up: no finding
        return false;
    }
}

}  // namespace receipt::extract
