// Bad model folders give clear ModelErrors (never a crash): missing files, missing tensors, shape mismatches,
// truncated / corrupt safetensors headers, unsupported dtypes.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>
#include <nlohmann/json.hpp>

#include "model/safetensors.h"
#include "receipt/errors.h"
#include "receipt/model.h"
#include "test_files.h"

using namespace receipt;
namespace fs = std::filesystem;

namespace {

const std::string kTiny = std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/t5-tiny-v11";

using receipt::test::read_file;

void write(const std::string& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary);
    out << bytes;
}

// A scratch copy of the tiny v1.1 model whose files a test may damage.
class BrokenModel : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("receipt-model-test-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        for (const char* f : {"config.json", "model.safetensors", "spiece.model"})
            fs::copy_file(fs::path(kTiny) / f, dir_ / f);
        st_ = read_file((dir_ / "model.safetensors").string());
        uint64_t n = 0;
        for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(st_[i]);
        header_ = nlohmann::json::parse(st_.substr(8, n));
        data_ = st_.substr(8 + n);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // Rewrites model.safetensors from header_ + data_.
    void save() {
        std::string h = header_.dump();
        std::string bytes(8, '\0');
        for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((h.size() >> (8 * i)) & 0xff);
        write((dir_ / "model.safetensors").string(), bytes + h + data_);
    }
    // Expects a ModelError whose message contains every needle.
    void expect_error(std::initializer_list<std::string> needles) {
        try {
            Model::load(dir_.string());
            FAIL() << "expected a ModelError";
        } catch (const ModelError& e) {
            for (const auto& n : needles) EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << e.what();
        }
    }

    fs::path dir_;
    std::string st_, data_;
    nlohmann::json header_;
};

TEST_F(BrokenModel, LoadsWhenIntact) {
    auto m = Model::load(dir_.string());
    EXPECT_EQ(m->config().feed_forward, FeedForward::kGatedGelu);
    EXPECT_FALSE(m->checksum().empty());
}

TEST_F(BrokenModel, MissingFolderAndFiles) {
    EXPECT_THROW(Model::load((dir_ / "nope").string()), ModelError);
    fs::remove(dir_ / "model.safetensors");
    expect_error({"model.safetensors"});
    fs::remove(dir_ / "config.json");
    expect_error({"config.json"});
}

TEST_F(BrokenModel, MissingTensorIsNamed) {
    header_.erase("decoder.block.1.layer.2.DenseReluDense.wo.weight");
    save();
    expect_error({"missing tensor", "decoder.block.1.layer.2.DenseReluDense.wo.weight"});
}

TEST_F(BrokenModel, ShapeMismatchNamesBothShapes) {
    auto& e = header_["encoder.block.0.layer.1.DenseReluDense.wi_0.weight"];
    auto shape = e["shape"].get<std::vector<int64_t>>();
    e["shape"] = {shape[1], shape[0]};  // same byte size, transposed shape
    save();
    const std::string got = "[" + std::to_string(shape[1]) + ", " + std::to_string(shape[0]) + "]";
    const std::string want = "[" + std::to_string(shape[0]) + ", " + std::to_string(shape[1]) + "]";
    expect_error({"encoder.block.0.layer.1.DenseReluDense.wi_0.weight", got, want});
}

TEST_F(BrokenModel, TruncatedFile) {
    write((dir_ / "model.safetensors").string(), st_.substr(0, st_.size() / 2));
    expect_error({"outside the data section"});
    write((dir_ / "model.safetensors").string(), st_.substr(0, 5));
    expect_error({"truncated"});
}

TEST_F(BrokenModel, CorruptHeader) {
    std::string bad = st_;
    bad[8] = '#';  // the header's opening brace
    write((dir_ / "model.safetensors").string(), bad);
    expect_error({"corrupt safetensors header"});
    bad = st_;
    for (int i = 0; i < 8; ++i) bad[i] = '\xff';  // absurd header length
    write((dir_ / "model.safetensors").string(), bad);
    expect_error({"corrupt safetensors header"});
}

TEST_F(BrokenModel, UnsupportedDtype) {
    header_["shared.weight"]["dtype"] = "I64";
    save();
    expect_error({"unsupported dtype I64", "shared.weight"});
}

TEST_F(BrokenModel, BadConfig) {
    write((dir_ / "config.json").string(), "{\"d_model\": \"wide\"}");
    expect_error({"d_model"});
    write((dir_ / "config.json").string(), "{not json");
    expect_error({"invalid JSON"});
    auto cfg = nlohmann::json::parse(read_file(kTiny + "/config.json"));
    cfg["feed_forward_proj"] = "swiglu";
    write((dir_ / "config.json").string(), cfg.dump());
    expect_error({"feed_forward_proj"});
    // An absurd layer count is an error at once (not billions of expected tensor names).
    cfg = nlohmann::json::parse(read_file(kTiny + "/config.json"));
    cfg["num_layers"] = 2147483647;
    write((dir_ / "config.json").string(), cfg.dump());
    expect_error({"num_layers 2147483647", "tensors"});
    cfg = nlohmann::json::parse(read_file(kTiny + "/config.json"));
    cfg["num_decoder_layers"] = 2147483647;
    write((dir_ / "config.json").string(), cfg.dump());
    expect_error({"num_decoder_layers 2147483647"});
}

TEST(HalfConversion, ExactValues) {
    EXPECT_EQ(half_to_float(0x3c00), 1.0f);
    EXPECT_EQ(half_to_float(0xc000), -2.0f);
    EXPECT_EQ(half_to_float(0x7bff), 65504.0f);
    EXPECT_EQ(half_to_float(0x0001), 5.960464477539063e-08f);  // smallest subnormal
    EXPECT_TRUE(std::isinf(half_to_float(0x7c00)));
    EXPECT_EQ(bf16_to_float(0x3f80), 1.0f);
    EXPECT_EQ(bf16_to_float(0xc2f7), -123.5f);
}

// to_f32 widens 8 values at a time: every finite half and every bfloat16 of a sample gives what the scalar
// conversions give, at every offset (unaligned data, lengths that leave a tail).
TEST(HalfConversion, BulkConversionMatchesScalar) {
    std::vector<uint16_t> halves;
    for (uint32_t v = 0; v < 65536; ++v)
        if ((v & 0x7c00u) != 0x7c00u) halves.push_back(uint16_t(v));  // Inf / NaN left out (NaN != NaN)
    for (StoredDType dt : {StoredDType::kF16, StoredDType::kBF16})
        for (size_t skip : {0, 1, 3}) {
            StoredTensor t;
            t.dtype = dt;
            t.shape = {int64_t(halves.size() - skip)};
            t.data = reinterpret_cast<const uint8_t*>(halves.data() + skip);
            t.n_bytes = 2 * (halves.size() - skip);
            const HostTensor f = SafetensorsFile::to_f32(t);
            size_t bad = 0;
            for (size_t i = skip; i < halves.size(); ++i) {
                const float want = dt == StoredDType::kF16 ? half_to_float(halves[i]) : bf16_to_float(halves[i]);
                bad += std::memcmp(&want, &f.data[i - skip], 4) != 0;
            }
            EXPECT_EQ(bad, 0u) << (dt == StoredDType::kF16 ? "f16" : "bf16") << " skip " << skip;
        }
}

// weight_f16: the stored halves of a half-precision checkpoint (exactly the fp32 weight's values), null otherwise.
TEST(HalfWeights, StoredHalvesOrNull) {
    const auto f16 = Model::load(std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/t5-tiny-v11-f16");
    for (const char* name : {"lm_head.weight", "decoder.block.0.layer.2.DenseReluDense.wo.weight"}) {
        const uint16_t* h = f16->weight_f16(name);
        ASSERT_NE(h, nullptr) << name;
        const HostTensor& w = f16->weight(name);
        for (int64_t i = 0; i < w.numel(); ++i) ASSERT_EQ(half_to_float(h[i]), w.data[i]) << name << " " << i;
    }
    EXPECT_EQ(f16->weight_f16("no.such.weight"), nullptr);
    const auto f32 = Model::load(kTiny);
    EXPECT_EQ(f32->weight_f16("lm_head.weight"), nullptr);
    const auto bf16 = Model::load(std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/t5-tiny-v11-bf16");
    EXPECT_EQ(bf16->weight_f16("lm_head.weight"), nullptr);
}

}  // namespace
