// Why the CUDA engine turns a GPU down (src/cuda/gpu_probe.h): the messages for an old driver, an old GPU, no GPU.
// Needs no GPU: the probes are built by hand, and the live probe is only checked for consistency.
#include <gtest/gtest.h>

#if defined(RECEIPT_WITH_CUDA)

#include <cuda_runtime_api.h>

#include "cuda/gpu_probe.h"
#include "ops/kernel_image.h"

namespace rc = receipt::cuda;

namespace {

rc::GpuProbe h200() {
    rc::GpuProbe p;
    p.driver_cuda = 13000;
    p.runtime_cuda = 13000;
    p.device_count = 1;
    p.name = "NVIDIA H200";
    p.cc_major = 9;
    return p;
}

}  // namespace

TEST(GpuProbe, HopperWithANewEnoughDriverIsUsable) {
    EXPECT_EQ(rc::gpu_problem(h200()), "");
    EXPECT_FALSE(rc::gpu_absent(h200()));
    rc::GpuProbe newer = h200();
    newer.driver_cuda = 13020;  // a newer driver than the runtime is fine
    newer.cc_major = 10;
    EXPECT_EQ(rc::gpu_problem(newer), "");
}

TEST(GpuProbe, OldDriverNamesBothVersions) {
    rc::GpuProbe p = h200();
    p.driver_cuda = 12040;
    p.count_status = int(cudaErrorInsufficientDriver);
    p.count_error = "cudaErrorInsufficientDriver (CUDA driver version is insufficient for CUDA runtime version)";
    p.device_count = 0;
    const std::string why = rc::gpu_problem(p);
    EXPECT_NE(why.find("supports CUDA 12.4"), std::string::npos) << why;
    EXPECT_NE(why.find("runtime is 13.0"), std::string::npos) << why;
    EXPECT_NE(why.find("update the driver"), std::string::npos) << why;
    EXPECT_FALSE(rc::gpu_absent(p));  // a GPU is there: worth a warning
}

TEST(GpuProbe, PreAmpereGpuNamesItsComputeCapability) {
    rc::GpuProbe p = h200();
    p.name = "Tesla T4";
    p.cc_major = 7;
    p.cc_minor = 5;
    const std::string why = rc::gpu_problem(p);
    EXPECT_NE(why.find("Tesla T4 has compute capability 7.5"), std::string::npos) << why;
    EXPECT_NE(why.find("8.0 or newer"), std::string::npos) << why;
    EXPECT_NE(why.find("--device cpu"), std::string::npos) << why;
    // Ampere and Ada pass the probe (the build's sm_80 machine code runs on 8.0, 8.6 and 8.9).
    p.name = "NVIDIA L4";
    p.cc_major = 8;
    p.cc_minor = 9;
    EXPECT_EQ(rc::gpu_problem(p), "");
    p.name = "NVIDIA A100-SXM4-80GB";
    p.cc_minor = 0;
    EXPECT_EQ(rc::gpu_problem(p), "");
}

TEST(GpuProbe, NoDriverOrNoDeviceIsAbsentNotAWarning) {
    rc::GpuProbe none;
    EXPECT_TRUE(rc::gpu_absent(none));
    EXPECT_NE(rc::gpu_problem(none).find("no NVIDIA driver"), std::string::npos);
    rc::GpuProbe no_device = h200();
    no_device.count_status = int(cudaErrorNoDevice);
    no_device.count_error = "cudaErrorNoDevice (no CUDA-capable device is detected)";
    no_device.device_count = 0;
    EXPECT_TRUE(rc::gpu_absent(no_device));
    EXPECT_NE(rc::gpu_problem(no_device).find("cudaErrorNoDevice"), std::string::npos);
}

TEST(GpuProbe, AnOrdinalPastTheLastGpuSaysHowManyThereAre) {
    rc::GpuProbe p = h200();
    p.device = 2;
    p.device_count = 2;
    p.name.clear();  // probe_gpu reads no properties for a device that is not there
    p.cc_major = 0;
    const std::string why = rc::gpu_problem(p);
    EXPECT_NE(why.find("GPU 2 was asked for"), std::string::npos) << why;
    EXPECT_NE(why.find("sees 2 GPUs"), std::string::npos) << why;
    EXPECT_NE(why.find("CUDA_VISIBLE_DEVICES"), std::string::npos) << why;
    p.device = -3;
    EXPECT_NE(rc::gpu_problem(p).find("GPU -3 was asked for"), std::string::npos);
    p.device = 1;  // a second H200
    p.name = "NVIDIA H200";
    p.cc_major = 9;
    EXPECT_EQ(rc::gpu_problem(p), "");
}

TEST(GpuProbe, LiveProbeIsConsistent) {
    const rc::GpuProbe p = rc::probe_gpu();
    EXPECT_GT(p.runtime_cuda, 0);
    // Usable exactly when nothing is wrong; a machine without a GPU reports why.
    if (p.device_count == 0) EXPECT_NE(rc::gpu_problem(p), "");
    if (rc::gpu_problem(p).empty()) EXPECT_GE(p.cc_major, rc::kMinCcMajor);
    // A GPU the probe accepts has kernels in this build (machine code or PTX it can compile).
    if (rc::gpu_problem(p).empty()) EXPECT_EQ(rc::kernel_image_problem(), "");
    // One past the last device is never usable, and the message says so.
    const rc::GpuProbe past = rc::probe_gpu(p.device_count);
    EXPECT_NE(rc::gpu_problem(past), "");
    if (p.device_count > 0)
        EXPECT_NE(rc::gpu_problem(past).find("was asked for"), std::string::npos) << rc::gpu_problem(past);
}

#else  // !RECEIPT_WITH_CUDA

TEST(GpuProbe, Skipped) { GTEST_SKIP() << "built without RECEIPT_WITH_CUDA"; }

#endif
