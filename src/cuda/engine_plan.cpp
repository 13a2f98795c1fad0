// Engine plan (de)serialisation with bounds-checked reads; see engine_plan.h for the layout.
#include "cuda/engine_plan.h"

#include <array>
#include <cctype>
#include <charconv>
#include <limits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "receipt/errors.h"

namespace receipt::cuda {

namespace {

constexpr uint32_t kMaxString = 4096;        // no header string is longer
constexpr uint32_t kMaxGemms = 1u << 20;     // sanity cap on the entry count
constexpr uint32_t kMaxChoices = 1024;       // and on the kernel choices
constexpr size_t kGemmBytes = 10 * 4 + 8 * 8 + 8 + 4;  // serialized size of one PlanGemm

std::array<uint32_t, 256> make_crc_table() {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[i] = c;
    }
    return t;
}

class Writer {
public:
    void u32(uint32_t v) { raw(&v, 4); }
    void i32(int32_t v) { raw(&v, 4); }
    void u64(uint64_t v) { raw(&v, 8); }
    void f32(float v) { raw(&v, 4); }
    void str(const std::string& s) {
        u32(static_cast<uint32_t>(s.size()));
        out_.append(s);
    }
    void raw(const void* p, size_t n) { out_.append(static_cast<const char*>(p), n); }
    std::string& bytes() { return out_; }

private:
    std::string out_;
};

// Reads fixed-size fields from [data, data + n); every read is checked against the end.
class Reader {
public:
    Reader(const char* data, size_t n, size_t base, const std::string& source)
        : p_(data), n_(n), base_(base), source_(source) {}
    uint32_t u32(const char* what) { return get<uint32_t>(what); }
    int32_t i32(const char* what) { return get<int32_t>(what); }
    uint64_t u64(const char* what) { return get<uint64_t>(what); }
    float f32(const char* what) { return get<float>(what); }
    std::string str(const char* what) {
        const uint32_t len = u32(what);
        if (len > kMaxString) fail(std::string(what) + " has an impossible length " + std::to_string(len));
        need(len, what);
        std::string s(p_ + off_, len);
        off_ += len;
        return s;
    }
    size_t remaining() const { return n_ - off_; }
    [[noreturn]] void fail(const std::string& msg) const {
        RECEIPT_THROW(ModelError, "engine plan " + source_ + ": " + msg + " (at byte " + std::to_string(base_ + off_) +
                                      "); rebuild it with `receipt build-engine` or delete the file");
    }

private:
    template <typename T>
    T get(const char* what) {
        need(sizeof(T), what);
        T v;
        std::memcpy(&v, p_ + off_, sizeof(T));
        off_ += sizeof(T);
        return v;
    }
    void need(size_t k, const char* what) const {
        if (k > n_ - off_) fail(std::string("truncated while reading ") + what);
    }
    const char* p_;
    size_t n_, off_ = 0, base_;
    const std::string& source_;
};

}  // namespace

uint32_t crc32(const void* data, size_t n) {
    static const std::array<uint32_t, 256> table = make_crc_table();
    const auto* p = static_cast<const unsigned char*>(data);
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) c = table[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

std::string serialize_plan(const EnginePlan& plan) {
    Writer body;
    const PlanHeader& h = plan.header;
    body.str(h.gpu_name);
    body.i32(h.cc_major);
    body.i32(h.cc_minor);
    body.i32(h.driver_version);
    body.i32(h.runtime_version);
    body.u64(h.cublaslt_version);
    body.str(h.model_checksum);
    body.str(h.dtype);
    body.i32(h.max_batch);
    body.i32(h.max_input);
    body.i32(h.max_total);
    body.u32(static_cast<uint32_t>(plan.gemms.size()));
    for (const PlanGemm& g : plan.gemms) {
        for (int32_t v : {g.m, g.n, g.k, g.ldx, g.ldw, g.ldy, g.ab_type, g.out_type, g.epilogue, g.accumulate})
            body.i32(v);
        for (uint64_t a : g.algo) body.u64(a);
        body.u64(g.workspace);
        body.f32(g.time_us);
    }
    body.u32(static_cast<uint32_t>(plan.choices.size()));
    for (const PlanChoice& c : plan.choices) {
        body.str(c.name);
        body.i32(c.value);
        body.f32(c.time_off_us);
        body.f32(c.time_on_us);
    }
    Writer file;
    file.raw(kPlanMagic, sizeof(kPlanMagic));
    file.u32(kPlanFormatVersion);
    file.u32(0);
    file.u64(body.bytes().size());
    file.u32(crc32(body.bytes().data(), body.bytes().size()));
    file.u32(0);
    file.raw(body.bytes().data(), body.bytes().size());
    return std::move(file.bytes());
}

EnginePlan parse_plan(const std::string& bytes, const std::string& source) {
    Reader prefix(bytes.data(), bytes.size(), 0, source);
    if (bytes.size() < kPlanPrefixBytes)
        prefix.fail("file is " + std::to_string(bytes.size()) + " bytes, shorter than the " +
                    std::to_string(kPlanPrefixBytes) + "-byte header (truncated)");
    if (std::memcmp(bytes.data(), kPlanMagic, sizeof(kPlanMagic)) != 0)
        prefix.fail("wrong magic: not a receipt engine plan");
    Reader r(bytes.data() + 8, kPlanPrefixBytes - 8, 8, source);
    const uint32_t version = r.u32("format version");
    if (version != kPlanFormatVersion)
        r.fail("format version " + std::to_string(version) + " but this build reads version " +
               std::to_string(kPlanFormatVersion));
    r.u32("flags");
    const uint64_t body_size = r.u64("body size");
    const uint32_t crc = r.u32("checksum");
    if (body_size != bytes.size() - kPlanPrefixBytes)
        r.fail("body size field says " + std::to_string(body_size) + " bytes but the file holds " +
               std::to_string(bytes.size() - kPlanPrefixBytes) + " (truncated or padded file)");
    const char* body = bytes.data() + kPlanPrefixBytes;
    const uint32_t actual_crc = crc32(body, body_size);
    if (actual_crc != crc) {
        char buf[96];
        std::snprintf(buf, sizeof(buf), "checksum mismatch: header says %08x, payload hashes to %08x (corrupted)", crc,
                      actual_crc);
        r.fail(buf);
    }

    Reader b(body, body_size, kPlanPrefixBytes, source);
    EnginePlan plan;
    PlanHeader& h = plan.header;
    h.gpu_name = b.str("gpu name");
    h.cc_major = b.i32("compute capability");
    h.cc_minor = b.i32("compute capability");
    h.driver_version = b.i32("driver version");
    h.runtime_version = b.i32("runtime version");
    h.cublaslt_version = b.u64("cuBLASLt version");
    h.model_checksum = b.str("model checksum");
    h.dtype = b.str("dtype");
    h.max_batch = b.i32("max batch");
    h.max_input = b.i32("max input");
    h.max_total = b.i32("max total");
    const uint32_t n = b.u32("gemm count");
    if (n > kMaxGemms || uint64_t(n) * kGemmBytes + 4 > b.remaining())
        b.fail("gemm count " + std::to_string(n) + " does not match the " + std::to_string(b.remaining()) +
               " bytes that follow");
    plan.gemms.resize(n);
    for (PlanGemm& g : plan.gemms) {
        for (int32_t* f : {&g.m, &g.n, &g.k, &g.ldx, &g.ldw, &g.ldy, &g.ab_type, &g.out_type, &g.epilogue,
                           &g.accumulate})
            *f = b.i32("gemm shape");
        for (uint64_t& a : g.algo) a = b.u64("gemm algorithm");
        g.workspace = b.u64("gemm workspace");
        g.time_us = b.f32("gemm time");
        if (g.m <= 0 || g.n <= 0 || g.k <= 0 || g.ldx < g.k || g.ldw < g.k || g.ldy < g.n)
            b.fail("gemm entry with an invalid shape m=" + std::to_string(g.m) + " n=" + std::to_string(g.n) +
                   " k=" + std::to_string(g.k));
        if (g.workspace > (uint64_t(1) << 32)) b.fail("gemm entry with an absurd workspace size");
    }
    const uint32_t n_choices = b.u32("choice count");
    if (n_choices > kMaxChoices || n_choices > b.remaining())
        b.fail("choice count " + std::to_string(n_choices) + " does not match the " + std::to_string(b.remaining()) +
               " bytes that follow");
    plan.choices.resize(n_choices);
    for (PlanChoice& c : plan.choices) {
        c.name = b.str("choice name");
        c.value = b.i32("choice value");
        c.time_off_us = b.f32("choice time");
        c.time_on_us = b.f32("choice time");
        if (c.value != 0 && c.value != 1) b.fail("choice '" + c.name + "' with value " + std::to_string(c.value));
    }
    if (b.remaining() != 0) b.fail(std::to_string(b.remaining()) + " bytes after the last entry");
    return plan;
}

std::string describe_plan_mismatch(const PlanHeader& found, const PlanHeader& expected) {
    std::ostringstream os;
    auto cmp = [&](const char* name, const auto& a, const auto& b) {
        if (!(a == b)) os << name << ": plan '" << a << "' vs this engine '" << b << "'\n";
    };
    cmp("gpu_name", found.gpu_name, expected.gpu_name);
    cmp("compute_capability", std::to_string(found.cc_major) + "." + std::to_string(found.cc_minor),
        std::to_string(expected.cc_major) + "." + std::to_string(expected.cc_minor));
    cmp("driver_version", found.driver_version, expected.driver_version);
    cmp("cuda_runtime_version", found.runtime_version, expected.runtime_version);
    cmp("cublaslt_version", found.cublaslt_version, expected.cublaslt_version);
    cmp("model_checksum", found.model_checksum, expected.model_checksum);
    cmp("dtype", found.dtype, expected.dtype);
    cmp("max_batch", found.max_batch, expected.max_batch);
    cmp("max_input", found.max_input, expected.max_input);
    cmp("max_total", found.max_total, expected.max_total);
    return os.str();
}

std::string default_plan_file_name(const std::string& gpu_name, const std::string& precision, int max_batch,
                                   int max_input, int max_total) {
    std::string gpu;
    for (char c : gpu_name) gpu += std::isalnum(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : '-';
    return "engine-" + gpu + "-" + precision + "-b" + std::to_string(max_batch) + "-in" + std::to_string(max_input) +
           "-out" + std::to_string(max_total) + ".plan";
}

std::string gemm_route_choice_name(const GemmRoute& r) {
    return "gemm_mma m=" + std::to_string(r.m) + " n=" + std::to_string(r.n) + " k=" + std::to_string(r.k) +
           " acc=" + std::to_string(r.accumulate ? 1 : 0);
}

std::optional<GemmRoute> parse_gemm_route_choice(const std::string& name) {
    static constexpr const char* kKeys[4] = {"gemm_mma m=", " n=", " k=", " acc="};
    long long v[4] = {};
    size_t pos = 0;
    for (int i = 0; i < 4; ++i) {
        const size_t len = std::strlen(kKeys[i]);
        if (name.compare(pos, len, kKeys[i]) != 0) return std::nullopt;
        pos += len;
        const char* first = name.data() + pos;
        const auto [end, ec] = std::from_chars(first, name.data() + name.size(), v[i]);
        if (ec != std::errc() || end == first) return std::nullopt;
        pos = size_t(end - name.data());
    }
    constexpr long long kMax = std::numeric_limits<int>::max();
    if (pos != name.size() || v[0] < 1 || v[0] > kMax || v[1] < 1 || v[1] > kMax || v[2] < 1 || v[2] > kMax ||
        (v[3] != 0 && v[3] != 1))
        return std::nullopt;
    const GemmRoute r{int(v[0]), int(v[1]), int(v[2]), v[3] == 1};
    if (gemm_route_choice_name(r) != name) return std::nullopt;  // the canonical spelling only (no leading zeros)
    return r;
}

EnginePlan read_plan_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) RECEIPT_THROW(ModelError, "engine plan " + path + ": cannot open the file");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) RECEIPT_THROW(ModelError, "engine plan " + path + ": read error");
    return parse_plan(ss.str(), path);
}

void write_plan_file(const std::string& path, const EnginePlan& plan) {
    const std::string bytes = serialize_plan(plan);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) RECEIPT_THROW(ModelError, "engine plan " + path + ": cannot write " + tmp);
        out.write(bytes.data(), std::streamsize(bytes.size()));
        if (!out) RECEIPT_THROW(ModelError, "engine plan " + path + ": write error");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) RECEIPT_THROW(ModelError, "engine plan " + path + ": cannot rename " + tmp + ": " + ec.message());
}

}  // namespace receipt::cuda
