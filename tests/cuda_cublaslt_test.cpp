// cuBLASLt is loaded at run time (src/cuda/cublaslt_api.h). Needs no GPU: opening the library and reading its
// version works on any machine with the CUDA toolkit's libraries, e.g. the build machine.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#if defined(RECEIPT_WITH_CUDA)

#include "cuda/cublaslt_api.h"
#include "receipt/errors.h"

TEST(CublasLtLoader, LoadsTheLibraryOfTheHeadersMajorVersion) {
    std::string why;
    if (!receipt::cuda::cublaslt_available(&why)) GTEST_SKIP() << "cuBLASLt not installed here: " << why;
    const receipt::cuda::CublasLtApi& lt = receipt::cuda::cublaslt();
    ASSERT_NE(lt.GetVersion, nullptr);
    EXPECT_EQ(lt.GetVersion() / 10000, size_t(CUBLAS_VER_MAJOR));
    // Every entry point the engine calls was resolved.
    EXPECT_NE(lt.Create, nullptr);
    EXPECT_NE(lt.Matmul, nullptr);
    EXPECT_NE(lt.MatmulAlgoGetHeuristic, nullptr);
    EXPECT_NE(lt.MatrixLayoutDestroy, nullptr);
    // A second call returns the same table (loaded once).
    EXPECT_EQ(&receipt::cuda::cublaslt(), &lt);
}

TEST(CublasLtLoader, AvailabilityNeverThrows) {
    std::string why = "unchanged";
    const bool ok = receipt::cuda::cublaslt_available(&why);
    // The reason is empty exactly when it loaded, and otherwise names what to install.
    EXPECT_EQ(ok, why.empty());
    if (!ok) EXPECT_NE(why.find("--device cpu"), std::string::npos) << why;
}

// A missing file and a library that is not cuBLASLt: the error names each path with its reason and the way out.
TEST(CublasLtLoader, ErrorNamesEveryPathTried) {
    receipt::cuda::CublasLtApi api;
    const std::string err = receipt::cuda::load_cublaslt({"/nonexistent/libcublasLt.so.13", "libm.so.6"}, api);
    EXPECT_NE(err.find("/nonexistent/libcublasLt.so.13: "), std::string::npos) << err;
    EXPECT_NE(err.find("libm.so.6: symbol cublasLtCreate missing"), std::string::npos) << err;
    EXPECT_NE(err.find("--device cpu"), std::string::npos) << err;
    EXPECT_EQ(api.Matmul, nullptr);
    EXPECT_NE(receipt::cuda::load_cublaslt({}, api).find("Tried:"), std::string::npos);
}

// The soname of the headers' major version is tried before any fixed folder; $RECEIPT_CUBLASLT before both.
TEST(CublasLtLoader, CandidatesStartWithTheSoname) {
    const std::vector<std::string> paths = receipt::cuda::cublaslt_candidates();
    ASSERT_GE(paths.size(), 2u);
    const std::string so = "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR);
    const bool env = std::getenv("RECEIPT_CUBLASLT") != nullptr && *std::getenv("RECEIPT_CUBLASLT") != '\0';
    EXPECT_EQ(paths[env ? 1 : 0], so);
    for (size_t i = env ? 2 : 1; i < paths.size(); ++i) EXPECT_EQ(paths[i].substr(paths[i].size() - so.size()), so);
}

#else  // !RECEIPT_WITH_CUDA

TEST(CublasLtLoader, Skipped) { GTEST_SKIP() << "built without RECEIPT_WITH_CUDA"; }

#endif
