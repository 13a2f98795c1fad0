// Engine plan files: round trip and every way a file can be wrong. Runs without a GPU (label: unit).
// The library compiles src/cuda/ only in CUDA builds; the plan format is plain C++, so this test compiles it
// directly and runs on every machine (its symbols satisfy the link before the archive is consulted).
#include "cuda/engine_plan.cpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "receipt/errors.h"

namespace receipt::cuda {
namespace {

EnginePlan sample_plan() {
    EnginePlan p;
    p.header.gpu_name = "NVIDIA H200";
    p.header.cc_major = 9;
    p.header.cc_minor = 0;
    p.header.driver_version = 13000;
    p.header.runtime_version = 13000;
    p.header.cublaslt_version = 130001;
    p.header.model_checksum = "0123456789abcdef";
    p.header.dtype = "fp16";
    p.header.max_batch = 64;
    p.header.max_input = 512;
    p.header.max_total = 256;
    for (int i = 0; i < 3; ++i) {
        PlanGemm g;
        g.m = 1 << i;
        g.n = 1536;
        g.k = 512;
        g.ldx = 512;
        g.ldw = 512;
        g.ldy = 1536;
        g.ab_type = 2;
        g.out_type = 2;
        for (int a = 0; a < 8; ++a) g.algo[a] = 1000u * i + a;
        g.workspace = 1 << 20;
        g.time_us = 3.5f + i;
        p.gemms.push_back(g);
    }
    p.choices.push_back(PlanChoice{"cross_stream_single_row", 1, 110.5f, 104.25f});
    p.choices.push_back(PlanChoice{"another_switch", 0, 20.0f, 21.0f});
    return p;
}

// Expects parse_plan(bytes) to throw ModelError whose message contains every `needle`.
void expect_parse_error(const std::string& bytes, std::initializer_list<const char*> needles) {
    try {
        parse_plan(bytes, "test.plan");
        FAIL() << "parse_plan accepted a bad file";
    } catch (const ModelError& e) {
        const std::string msg = e.what();
        for (const char* n : needles) EXPECT_NE(msg.find(n), std::string::npos) << "missing '" << n << "' in: " << msg;
        EXPECT_NE(msg.find("test.plan"), std::string::npos) << msg;
        EXPECT_NE(msg.find("build-engine"), std::string::npos) << "no remedy in: " << msg;
    }
}

// Recomputes the CRC after a deliberate edit of the body, so that the structural checks are reached.
void fix_crc(std::string& bytes) {
    const uint32_t c = crc32(bytes.data() + kPlanPrefixBytes, bytes.size() - kPlanPrefixBytes);
    std::memcpy(&bytes[24], &c, 4);
}

TEST(EnginePlan, Crc32MatchesZlib) {
    EXPECT_EQ(crc32("123456789", 9), 0xCBF43926u);
    EXPECT_EQ(crc32("", 0), 0u);
}

TEST(EnginePlan, RoundTrip) {
    const EnginePlan p = sample_plan();
    const EnginePlan q = parse_plan(serialize_plan(p), "mem");
    EXPECT_EQ(q.header, p.header);
    ASSERT_EQ(q.gemms.size(), p.gemms.size());
    for (size_t i = 0; i < p.gemms.size(); ++i) {
        EXPECT_TRUE(q.gemms[i].same_shape(p.gemms[i]));
        EXPECT_EQ(std::memcmp(q.gemms[i].algo, p.gemms[i].algo, sizeof(p.gemms[i].algo)), 0);
        EXPECT_EQ(q.gemms[i].workspace, p.gemms[i].workspace);
        EXPECT_FLOAT_EQ(q.gemms[i].time_us, p.gemms[i].time_us);
    }
    EXPECT_EQ(q.choices, p.choices);
    EXPECT_EQ(describe_plan_mismatch(q.header, p.header), "");
    EnginePlan none = sample_plan();
    none.choices.clear();
    EXPECT_TRUE(parse_plan(serialize_plan(none), "mem").choices.empty());
}

TEST(EnginePlan, FileRoundTripAndMissingFile) {
    const auto dir = std::filesystem::temp_directory_path() / ("receipt_plan_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "engine.plan").string();
    write_plan_file(path, sample_plan());
    EXPECT_EQ(read_plan_file(path).header, sample_plan().header);
    EXPECT_THROW(read_plan_file((dir / "absent.plan").string()), ModelError);
    std::filesystem::remove_all(dir);
}

TEST(EnginePlan, AlteredHeaderFieldsAreNamed) {
    const EnginePlan p = sample_plan();
    PlanHeader other = p.header;
    other.gpu_name = "NVIDIA A100-SXM4-80GB";
    other.driver_version = 12040;
    other.model_checksum = "ffffffffffffffff";
    const std::string d = describe_plan_mismatch(p.header, other);
    EXPECT_NE(d.find("gpu_name: plan 'NVIDIA H200' vs this engine 'NVIDIA A100-SXM4-80GB'"), std::string::npos) << d;
    EXPECT_NE(d.find("driver_version"), std::string::npos) << d;
    EXPECT_NE(d.find("model_checksum"), std::string::npos) << d;
    EXPECT_EQ(d.find("dtype"), std::string::npos) << d;
    // The altered header still parses (it is a well-formed file for another machine).
    EnginePlan q = p;
    q.header = other;
    EXPECT_EQ(parse_plan(serialize_plan(q), "x").header.gpu_name, "NVIDIA A100-SXM4-80GB");
}

TEST(EnginePlan, HeaderByteFlipWithoutCrcFixIsCorruption) {
    std::string bytes = serialize_plan(sample_plan());
    bytes[kPlanPrefixBytes + 4] ^= 0x20;  // first character of the GPU name
    expect_parse_error(bytes, {"checksum mismatch"});
}

TEST(EnginePlan, WrongMagic) {
    std::string bytes = serialize_plan(sample_plan());
    bytes[0] = 'X';
    expect_parse_error(bytes, {"wrong magic"});
    expect_parse_error(std::string(100, '\0'), {"wrong magic"});
}

TEST(EnginePlan, WrongVersion) {
    std::string bytes = serialize_plan(sample_plan());
    const uint32_t v = kPlanFormatVersion + 1;
    std::memcpy(&bytes[8], &v, 4);
    expect_parse_error(bytes, {"format version"});
}

TEST(EnginePlan, TruncatedAnywhere) {
    const std::string bytes = serialize_plan(sample_plan());
    for (size_t n : {size_t(0), size_t(7), size_t(31), size_t(32), size_t(40), bytes.size() / 2, bytes.size() - 1}) {
        SCOPED_TRACE("truncated to " + std::to_string(n));
        expect_parse_error(bytes.substr(0, n), {});
    }
    expect_parse_error(bytes.substr(0, 20), {"truncated"});
    expect_parse_error(bytes.substr(0, bytes.size() - 1), {"truncated"});
}

TEST(EnginePlan, CorruptedPayload) {
    std::string bytes = serialize_plan(sample_plan());
    bytes[bytes.size() - 10] ^= 0x01;
    expect_parse_error(bytes, {"checksum mismatch", "corrupted"});
}

TEST(EnginePlan, WrongChecksumField) {
    std::string bytes = serialize_plan(sample_plan());
    bytes[24] ^= 0xFF;
    expect_parse_error(bytes, {"checksum mismatch"});
}

TEST(EnginePlan, InconsistentCountsWithValidCrc) {
    // A huge gemm count, CRC recomputed: must be rejected by the size checks, not by an allocation.
    EnginePlan no_choices = sample_plan();
    no_choices.choices.clear();
    std::string bytes = serialize_plan(no_choices);
    const size_t count_at = bytes.size() - 4 - 3 * (10 * 4 + 8 * 8 + 8 + 4) - 4;
    const uint32_t huge = 0x7fffffff;
    std::memcpy(&bytes[count_at], &huge, 4);
    fix_crc(bytes);
    expect_parse_error(bytes, {"gemm count"});

    // A string length running past the end.
    bytes = serialize_plan(sample_plan());
    const uint32_t long_len = 1000000;
    std::memcpy(&bytes[kPlanPrefixBytes], &long_len, 4);
    fix_crc(bytes);
    expect_parse_error(bytes, {"gpu name"});

    // An entry with a zero dimension.
    EnginePlan p = sample_plan();
    p.gemms[1].k = 0;
    expect_parse_error(serialize_plan(p), {"invalid shape"});

    // A huge choice count (the last 4 bytes of a plan without choices), and a choice that is neither on nor off.
    bytes = serialize_plan(no_choices);
    std::memcpy(&bytes[bytes.size() - 4], &huge, 4);
    fix_crc(bytes);
    expect_parse_error(bytes, {"choice count"});
    p = sample_plan();
    p.choices[0].value = 7;
    expect_parse_error(serialize_plan(p), {"cross_stream_single_row", "value 7"});

    // Bytes after the last entry, inside the checksummed body.
    bytes = serialize_plan(sample_plan());
    bytes += "tail";
    const uint64_t body = bytes.size() - kPlanPrefixBytes;
    std::memcpy(&bytes[16], &body, 8);
    fix_crc(bytes);
    expect_parse_error(bytes, {"after the last entry"});
}

TEST(EnginePlan, GemmRouteChoiceNames) {
    const GemmRoute r{64, 1536, 512, true};
    EXPECT_EQ(gemm_route_choice_name(r), "gemm_mma m=64 n=1536 k=512 acc=1");
    ASSERT_TRUE(parse_gemm_route_choice(gemm_route_choice_name(r)).has_value());
    EXPECT_EQ(*parse_gemm_route_choice(gemm_route_choice_name(r)), r);
    const GemmRoute plain{4, 8100, 384, false};
    EXPECT_EQ(*parse_gemm_route_choice("gemm_mma m=4 n=8100 k=384 acc=0"), plain);
    // Anything but the exact spelling of a positive shape is not a route (the engine ignores such choices).
    for (const char* bad : {"cross_stream_single_row", "gemm_mma", "gemm_mma m=4 n=8100 k=384",
                            "gemm_mma m=4 n=8100 k=384 acc=2", "gemm_mma m=0 n=8100 k=384 acc=0",
                            "gemm_mma m=-4 n=8100 k=384 acc=0", "gemm_mma m=4 n=8100 k=384 acc=0 ",
                            "gemm_mma m=4 n=8100 k=384 acc=0x", "gemm_mma m=04 n=8100 k=384 acc=0",
                            "gemm_mma  m=4 n=8100 k=384 acc=0", "gemm_mma m=4 n=8100 k=99999999999 acc=0"})
        EXPECT_FALSE(parse_gemm_route_choice(bad).has_value()) << bad;
}

TEST(EnginePlan, DefaultFileNameHoldsPrecisionAndLimits) {
    EXPECT_EQ(default_plan_file_name("NVIDIA H200", "fp16-a32", 64, 512, 256),
              "engine-nvidia-h200-fp16-a32-b64-in512-out256.plan");
    // Engines that differ only in a limit (the CLI's 8 rows, the server's 64) get different files.
    EXPECT_NE(default_plan_file_name("NVIDIA H200", "fp16", 8, 512, 256),
              default_plan_file_name("NVIDIA H200", "fp16", 64, 512, 256));
    EXPECT_NE(default_plan_file_name("NVIDIA H200", "fp16", 8, 512, 256),
              default_plan_file_name("NVIDIA H200", "fp16", 8, 1024, 256));
    EXPECT_NE(default_plan_file_name("NVIDIA H200", "fp16", 8, 512, 256),
              default_plan_file_name("NVIDIA H200", "fp16", 8, 512, 512));
    // Every character of the GPU name but letters and digits becomes '-': no path separators from a device name.
    EXPECT_EQ(default_plan_file_name("GeForce RTX 4090/x (A)", "bf16", 1, 128, 64),
              "engine-geforce-rtx-4090-x--a--bf16-b1-in128-out64.plan");
}

TEST(EnginePlan, BodySizeFieldMustMatchFile) {
    std::string bytes = serialize_plan(sample_plan());
    bytes += "extra";
    expect_parse_error(bytes, {"body size"});
}

}  // namespace
}  // namespace receipt::cuda
