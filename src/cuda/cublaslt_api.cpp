// cuBLASLt loader: dlopen + dlsym once, behind a function-local static (thread-safe initialisation).
#include "cuda/cublaslt_api.h"

#include <dlfcn.h>

#include <cstdlib>

#include "receipt/errors.h"

#ifndef RECEIPT_CUBLASLT_DIR
#define RECEIPT_CUBLASLT_DIR ""
#endif

namespace receipt::cuda {
namespace {

// The library's soname for the headers we were compiled against: cuBLASLt keeps its ABI within a major version.
std::string soname() { return "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR); }

// Resolves one symbol into `fn`; false (and `error` set) when it is missing.
template <typename Fn>
bool resolve(void* lib, const char* name, Fn& fn, std::string& error) {
    fn = reinterpret_cast<Fn>(dlsym(lib, name));
    if (fn == nullptr) error = std::string("symbol ") + name + " missing";
    return fn != nullptr;
}

// Fills `a` from `lib`; "" when every entry point is there and the version's major matches the headers'.
std::string resolve_all(void* lib, CublasLtApi& a) {
    std::string missing;
    bool ok = true;  // stops at the first missing symbol, which `missing` names
#define RECEIPT_CUBLASLT_RESOLVE(name) ok = ok && resolve(lib, "cublasLt" #name, a.name, missing);
    RECEIPT_CUBLASLT_FUNCTIONS(RECEIPT_CUBLASLT_RESOLVE)
#undef RECEIPT_CUBLASLT_RESOLVE
    if (!ok) return missing;
    // Same major version as the headers, else the opaque structs and enums may differ.
    const size_t version = a.GetVersion();
    if (version / 10000 == CUBLAS_VER_MAJOR) return "";
    return "it is cuBLASLt " + std::to_string(version) + ", this build needs major version " +
           std::to_string(CUBLAS_VER_MAJOR);
}

struct Loaded {
    CublasLtApi api;
    std::string error;  // empty when api is complete
};

const Loaded& loaded() {
    static const Loaded instance = [] {
        Loaded l;
        l.error = load_cublaslt(cublaslt_candidates(), l.api);
        return l;
    }();
    return instance;
}

}  // namespace

std::vector<std::string> cublaslt_candidates() {
    std::vector<std::string> paths;
    if (const char* env = std::getenv("RECEIPT_CUBLASLT"); env != nullptr && *env != '\0') paths.emplace_back(env);
    paths.push_back(soname());
#if defined(__aarch64__)
    const std::string arch_dir = "/usr/local/cuda/targets/sbsa-linux/lib";
#else
    const std::string arch_dir = "/usr/local/cuda/targets/x86_64-linux/lib";
#endif
    for (const std::string& dir : {std::string(RECEIPT_CUBLASLT_DIR), std::string("/usr/local/cuda/lib64"), arch_dir}) {
        if (dir.empty()) continue;
        const std::string path = dir + "/" + soname();
        bool seen = false;
        for (const std::string& p : paths) seen = seen || p == path;
        if (!seen) paths.push_back(path);
    }
    return paths;
}

std::string load_cublaslt(const std::vector<std::string>& paths, CublasLtApi& api) {
    std::string tried;
    for (const std::string& path : paths) {
        // RTLD_LOCAL: its symbols stay out of the global namespace; a good handle is never closed.
        void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (lib == nullptr) {
            const char* why = dlerror();
            tried += "\n  " + path + ": " + (why ? why : "not loadable");
            continue;
        }
        CublasLtApi a;
        const std::string bad = resolve_all(lib, a);
        if (bad.empty()) {
            api = a;
            return "";
        }
        tried += "\n  " + path + ": " + bad;
        dlclose(lib);
    }
    return "cuBLASLt could not be loaded, so the CUDA engine is unavailable (use --device cpu, or install the CUDA " +
           std::to_string(CUBLAS_VER_MAJOR) + " cuBLAS libraries so that " + soname() +
           " is on the library path, or set RECEIPT_CUBLASLT to its file). Tried:" + tried;
}

const CublasLtApi& cublaslt() {
    const Loaded& l = loaded();
    if (!l.error.empty()) RECEIPT_THROW(Unavailable, l.error);
    return l.api;
}

bool cublaslt_available(std::string* why) {
    const Loaded& l = loaded();
    if (why != nullptr) *why = l.error;
    return l.error.empty();
}

}  // namespace receipt::cuda
