// Model::load: config.json + model.safetensors -> validated fp32 weights.
#include "receipt/model.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "model/safetensors.h"
#include "receipt/errors.h"

namespace receipt {

struct Model::Impl {
    std::unique_ptr<SafetensorsFile> file;                // keeps the mapping alive
    std::unordered_map<std::string, HostTensor> weights;  // every stored tensor as fp32
    std::unordered_map<std::string, std::string> aliases; // tied names -> stored name

    // The name a tensor is stored under: the alias target for a tied name, else the name itself.
    const std::string& stored_name(const std::string& name) const {
        auto it = aliases.find(name);
        return it != aliases.end() ? it->second : name;
    }
};

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// 64-bit FNV-1a, hex.
std::string fnv1a_hex(const std::string& bytes, uint64_t h = 1469598103934665603ull) {
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

// Every tensor T5 needs and the shape the config implies (HF Linear weights are [out, in]).
std::vector<std::pair<std::string, std::vector<int64_t>>> expected_tensors(const T5Config& c) {
    const int64_t D = c.d_model, HK = int64_t(c.num_heads) * c.d_kv, F = c.d_ff, V = c.vocab_size;
    const int64_t NB = c.relative_attention_num_buckets, H = c.num_heads;
    std::vector<std::pair<std::string, std::vector<int64_t>>> t;
    t.push_back({"shared.weight", {V, D}});
    auto attention = [&](const std::string& p) {
        t.push_back({p + ".q.weight", {HK, D}});
        t.push_back({p + ".k.weight", {HK, D}});
        t.push_back({p + ".v.weight", {HK, D}});
        t.push_back({p + ".o.weight", {D, HK}});
    };
    auto ffn = [&](const std::string& p) {
        if (c.feed_forward == FeedForward::kRelu) {
            t.push_back({p + ".wi.weight", {F, D}});
        } else {
            t.push_back({p + ".wi_0.weight", {F, D}});
            t.push_back({p + ".wi_1.weight", {F, D}});
        }
        t.push_back({p + ".wo.weight", {D, F}});
    };
    for (int i = 0; i < c.num_layers; ++i) {
        std::string b = "encoder.block." + std::to_string(i);
        attention(b + ".layer.0.SelfAttention");
        t.push_back({b + ".layer.0.layer_norm.weight", {D}});
        ffn(b + ".layer.1.DenseReluDense");
        t.push_back({b + ".layer.1.layer_norm.weight", {D}});
    }
    t.push_back({"encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", {NB, H}});
    t.push_back({"encoder.final_layer_norm.weight", {D}});
    for (int i = 0; i < c.num_decoder_layers; ++i) {
        std::string b = "decoder.block." + std::to_string(i);
        attention(b + ".layer.0.SelfAttention");
        t.push_back({b + ".layer.0.layer_norm.weight", {D}});
        attention(b + ".layer.1.EncDecAttention");
        t.push_back({b + ".layer.1.layer_norm.weight", {D}});
        ffn(b + ".layer.2.DenseReluDense");
        t.push_back({b + ".layer.2.layer_norm.weight", {D}});
    }
    t.push_back({"decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", {NB, H}});
    t.push_back({"decoder.final_layer_norm.weight", {D}});
    t.push_back({"lm_head.weight", {V, D}});
    return t;
}

std::string shape_str(const std::vector<int64_t>& s) {
    HostTensor t;
    t.shape = s;
    return t.shape_str();
}

}  // namespace

Model::~Model() = default;

std::string Model::tokenizer_path() const { return (std::filesystem::path(dir_) / "spiece.model").string(); }

std::shared_ptr<const Model> Model::load(const std::string& dir) {
    namespace fs = std::filesystem;
    RECEIPT_CHECK(fs::is_directory(dir), ModelError, "model folder '" + dir + "' does not exist");
    const std::string config_path = (fs::path(dir) / "config.json").string();
    const std::string weights_path = (fs::path(dir) / "model.safetensors").string();
    RECEIPT_CHECK(fs::exists(config_path), ModelError, "model folder '" + dir + "' has no config.json");
    RECEIPT_CHECK(fs::exists(weights_path), ModelError,
                  "model folder '" + dir + "' has no model.safetensors (pytorch_model.bin is not supported)");

    std::shared_ptr<Model> m(new Model());
    m->dir_ = dir;
    m->config_ = load_t5_config(config_path);
    m->impl_ = std::make_unique<Impl>();
    m->impl_->file = std::make_unique<SafetensorsFile>(weights_path);

    for (const auto& [name, stored] : m->impl_->file->tensors())
        m->impl_->weights.emplace(name, SafetensorsFile::to_f32(stored));

    // Tied / shared tensors: the embeddings of both stacks are the shared table; a tied lm_head is too.
    auto& w = m->impl_->weights;
    auto& alias = m->impl_->aliases;
    if (!w.count("shared.weight")) {
        if (w.count("encoder.embed_tokens.weight")) {
            alias["shared.weight"] = "encoder.embed_tokens.weight";
        } else if (w.count("decoder.embed_tokens.weight")) {
            alias["shared.weight"] = "decoder.embed_tokens.weight";
        }
    }
    const std::string shared = alias.count("shared.weight") ? alias["shared.weight"] : "shared.weight";
    for (const char* n : {"encoder.embed_tokens.weight", "decoder.embed_tokens.weight"})
        if (!w.count(n)) alias[n] = shared;
    // transformers 5.x: a stored lm_head is used as is; without one the head is the shared table.
    if (!w.count("lm_head.weight")) alias["lm_head.weight"] = shared;

    // Every layer needs tensors of its own: an absurd layer count in config.json (2^31 - 1) must be a clear error,
    // not a list of billions of expected names.
    const size_t n_stored = m->impl_->file->tensors().size();
    RECEIPT_CHECK(size_t(m->config_.num_layers) <= n_stored && size_t(m->config_.num_decoder_layers) <= n_stored,
                  ModelError,
                  weights_path + " holds " + std::to_string(n_stored) + " tensors, too few for the num_layers " +
                      std::to_string(m->config_.num_layers) + " / num_decoder_layers " +
                      std::to_string(m->config_.num_decoder_layers) + " of config.json");
    for (const auto& [name, shape] : expected_tensors(m->config_)) {
        RECEIPT_CHECK(m->has_weight(name), ModelError,
                      weights_path + ": missing tensor '" + name + "' required by config.json");
        const HostTensor& t = m->weight(name);
        RECEIPT_CHECK(t.shape == shape, ModelError,
                      weights_path + ": tensor '" + name + "' has shape " + t.shape_str() + " but config.json implies " +
                          shape_str(shape));
    }

    std::ostringstream sizes;
    sizes << m->impl_->file->file_size();
    m->checksum_ = fnv1a_hex(read_file(config_path) + '\0' + m->impl_->file->header() + '\0' + sizes.str());
    return m;
}

bool Model::has_weight(const std::string& name) const {
    return impl_->weights.count(name) || impl_->weights.count(impl_->stored_name(name));
}

const HostTensor& Model::weight(const std::string& name) const {
    auto w = impl_->weights.find(impl_->stored_name(name));
    RECEIPT_CHECK(w != impl_->weights.end(), ModelError, "model '" + dir_ + "' has no tensor '" + name + "'");
    return w->second;
}

const uint16_t* Model::weight_f16(const std::string& name) const {
    const auto& stored = impl_->file->tensors();
    auto it = stored.find(impl_->stored_name(name));
    if (it == stored.end() || it->second.dtype != StoredDType::kF16) return nullptr;
    return reinterpret_cast<const uint16_t*>(it->second.data);
}

int64_t Model::weight_bytes() const {
    int64_t n = 0;
    for (const auto& [name, t] : impl_->weights) n += t.numel() * 4;
    return n;
}

}  // namespace receipt
