// cuBLASLt, loaded at run time: the library is opened with dlopen the first time a CUDA engine needs it, so a
// CUDA-enabled binary starts (and runs on CPU) on a machine without libcublasLt, and a CPU run does not pay for
// cuBLASLt's load-time initialisation.
#pragma once

#include <cublasLt.h>

#include <string>
#include <vector>

namespace receipt::cuda {

// The cuBLASLt entry points the engine uses, by name without the "cublasLt" prefix (one list: the struct below and
// the loader both expand it).
#define RECEIPT_CUBLASLT_FUNCTIONS(X)                                                                             \
    X(Create) X(Destroy) X(GetVersion) X(Matmul) X(MatmulAlgoCheck) X(MatmulAlgoGetHeuristic) X(MatmulDescCreate) \
    X(MatmulDescDestroy) X(MatmulDescSetAttribute) X(MatmulPreferenceCreate) X(MatmulPreferenceDestroy)          \
    X(MatmulPreferenceSetAttribute) X(MatrixLayoutCreate) X(MatrixLayoutDestroy)

// Those entry points, resolved from the loaded library (same signatures as the C API: api.Matmul(...) is
// cublasLtMatmul(...)).
struct CublasLtApi {
#define RECEIPT_CUBLASLT_MEMBER(name) decltype(&::cublasLt##name) name = nullptr;
    RECEIPT_CUBLASLT_FUNCTIONS(RECEIPT_CUBLASLT_MEMBER)
#undef RECEIPT_CUBLASLT_MEMBER
};

// The loaded API. The first call opens the first library of cublaslt_candidates() that loads and has every entry
// point of the headers' major version. Throws Unavailable, naming every path tried and what to install, when none
// does; later calls throw the same error without retrying.
const CublasLtApi& cublaslt();

// Where cublaslt() looks, in order: $RECEIPT_CUBLASLT when set (a file path); libcublasLt.so.<major of the headers
// built against> on the loader's search path (LD_LIBRARY_PATH, ld.so.cache); the same name in the CUDA toolkit's
// library folder found at build time, then in /usr/local/cuda's lib64 and targets/<arch>-linux/lib.
std::vector<std::string> cublaslt_candidates();

// Opens the first of `paths` that is a cuBLASLt of the headers' major version with every entry point and fills
// `api` (the library stays open); returns "" then, else the error cublaslt() throws (each path with its reason).
std::string load_cublaslt(const std::vector<std::string>& paths, CublasLtApi& api);

// True when cublaslt() succeeds; never throws. `why`, when given, receives the error otherwise.
bool cublaslt_available(std::string* why = nullptr);

}  // namespace receipt::cuda
