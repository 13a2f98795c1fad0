// Which GPU a CUDA engine runs on (EngineOptions::gpu): an ordinal past the last GPU is a clear Unavailable error,
// the engine names its GPU, creating and using an engine leaves the calling thread's current device as it was,
// and with two or more GPUs an engine on the last one gives the CPU reference's tokens while one thread drives
// engines on two GPUs in turn (the server's workers take the GPUs in turn). Skips without a usable GPU
// (label: cuda); the two-GPU test skips on a one-GPU machine.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "receipt/engine.h"
#include "receipt/errors.h"
#include "receipt/model.h"

#if defined(RECEIPT_WITH_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace fs = std::filesystem;

namespace {

const std::string kModel = std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/t5-tiny-v11";

// Token ids of a few sources of different lengths (ids below the tiny model's vocabulary, each ending with EOS 1).
std::vector<std::vector<int>> sources() {
    return {{37, 5, 19, 8, 1}, {100, 200, 300, 12, 13, 14, 15, 1}, {7, 1}};
}

receipt::EngineOptions options(receipt::Device device, int gpu, const std::string& plan) {
    receipt::EngineOptions eo;
    eo.device = device;
    eo.dtype = receipt::DType::kF32;
    eo.gpu = gpu;
    eo.max_batch_size = 4;
    eo.max_input_tokens = 64;
    eo.max_total_tokens = 24;
    eo.plan_path = plan;
    return eo;
}

std::vector<std::vector<int>> ids(const std::vector<receipt::GenerationResult>& rs) {
    std::vector<std::vector<int>> out;
    for (const auto& r : rs) out.push_back(r.ids);
    return out;
}

class CudaGpuSelectTest : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!receipt::cuda_available()) GTEST_SKIP() << "no usable CUDA GPU";
        dir_ = (fs::temp_directory_path() / ("receipt_gpu_select_" + std::to_string(::getpid()))).string();
        fs::create_directories(dir_);
        gen_.max_new_tokens = 16;
    }
    void TearDown() override {
        if (!dir_.empty()) fs::remove_all(dir_);
    }
    std::string plan(int gpu) const { return dir_ + "/gpu" + std::to_string(gpu) + ".plan"; }
    std::string dir_;
    receipt::GenerationOptions gen_;
};

#if defined(RECEIPT_WITH_CUDA)
int current_device() {
    int d = -1;
    EXPECT_EQ(cudaGetDevice(&d), cudaSuccess);
    return d;
}
#endif

TEST_F(CudaGpuSelectTest, OrdinalPastTheLastGpuIsAClearError) {
    const int n = receipt::cuda_device_count();
    ASSERT_GE(n, 1);
    auto model = receipt::Model::load(kModel);
    try {
        receipt::make_engine(model, options(receipt::Device::kCuda, n, plan(n)));
        FAIL() << "an engine on GPU " << n << " of " << n << " was created";
    } catch (const receipt::Unavailable& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("GPU " + std::to_string(n) + " was asked for"), std::string::npos) << msg;
        EXPECT_NE(msg.find("CUDA_VISIBLE_DEVICES"), std::string::npos) << msg;
    }
}

TEST_F(CudaGpuSelectTest, EngineOnGpu0NamesItAndMatchesCpu) {
    auto model = receipt::Model::load(kModel);
    auto cpu = receipt::make_engine(model, options(receipt::Device::kCpu, -1, ""));
    auto gpu = receipt::make_engine(model, options(receipt::Device::kCuda, 0, plan(0)));
    EXPECT_NE(gpu->describe().find("(GPU 0, cc "), std::string::npos) << gpu->describe();
    EXPECT_EQ(ids(gpu->generate(sources(), gen_)), ids(cpu->generate(sources(), gen_)));
}

#if defined(RECEIPT_WITH_CUDA)
TEST_F(CudaGpuSelectTest, TwoGpusFromOneThreadMatchCpuAndLeaveTheCurrentDevice) {
    const int n = receipt::cuda_device_count();
    if (n < 2) GTEST_SKIP() << "one GPU";
    auto model = receipt::Model::load(kModel);
    auto cpu = receipt::make_engine(model, options(receipt::Device::kCpu, -1, ""));
    const auto want = ids(cpu->generate(sources(), gen_));
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    auto last = receipt::make_engine(model, options(receipt::Device::kCuda, n - 1, plan(n - 1)));
    EXPECT_EQ(current_device(), 0) << "creating an engine on GPU " << n - 1 << " changed the thread's device";
    auto first = receipt::make_engine(model, options(receipt::Device::kCuda, 0, plan(0)));
    EXPECT_NE(last->describe().find("(GPU " + std::to_string(n - 1) + ", cc "), std::string::npos)
        << last->describe();
    for (int round = 0; round < 2; ++round) {  // in turn, as one thread would with two engines
        EXPECT_EQ(ids(last->generate(sources(), gen_)), want) << "GPU " << n - 1 << ", round " << round;
        EXPECT_EQ(current_device(), 0);
        EXPECT_EQ(ids(first->generate(sources(), gen_)), want) << "GPU 0, round " << round;
    }
    last.reset();  // released with its own GPU current; the thread's device stays
    EXPECT_EQ(current_device(), 0);
    EXPECT_EQ(ids(first->generate(sources(), gen_)), want) << "GPU 0 after the other engine was destroyed";
}
#endif

}  // namespace
