// resolve_server_options(): the AIP_* environment, defaults, explicit values and validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "receipt/engine.h"
#include "receipt/errors.h"
#include "receipt/server.h"

using namespace receipt;

namespace {

struct FakeEnv {
    std::map<std::string, std::string> vars;
    std::function<const char*(const char*)> fn() const {
        return [this](const char* name) -> const char* {
            auto it = vars.find(name);
            return it == vars.end() ? nullptr : it->second.c_str();
        };
    }
};

TEST(ServerOptions, DefaultsWithoutEnvironment) {
    FakeEnv env;
    const ServerOptions o = resolve_server_options(ServerOptions{}, env.fn());
    EXPECT_EQ(o.host, "127.0.0.1");
    EXPECT_EQ(o.port, 8080);
    EXPECT_EQ(o.health_route, "/health");
    EXPECT_EQ(o.predict_route, "/predict");
    EXPECT_EQ(o.model_name, "receipt-t5");
    EXPECT_EQ(o.api_key, "");
    EXPECT_EQ(o.max_body_bytes, 1572864);
    EXPECT_EQ(o.overload_status, 429);
}

TEST(ServerOptions, MaxBatchSizeByDevice) {
    FakeEnv env;
    ServerOptions o;
    o.device = "cpu";
    EXPECT_EQ(resolve_server_options(o, env.fn()).max_batch_size, kCpuMaxBatchSize);
    o.device = "cuda";
    EXPECT_EQ(resolve_server_options(o, env.fn()).max_batch_size, kGpuMaxBatchSize);
    o.device = "auto";  // the GPU's when one is usable here
    EXPECT_EQ(resolve_server_options(o, env.fn()).max_batch_size,
              cuda_available() ? kGpuMaxBatchSize : kCpuMaxBatchSize);
    o.max_batch_size = 8;  // an explicit value wins
    EXPECT_EQ(resolve_server_options(o, env.fn()).max_batch_size, 8);
    o.max_batch_size = -1;
    EXPECT_THROW(resolve_server_options(o, env.fn()), InvalidInput);
}

TEST(ServerOptions, WorkersByDevice) {
    FakeEnv env;
    ServerOptions o;
    o.device = "cpu";
    EXPECT_EQ(resolve_server_options(o, env.fn()).n_workers, 1);
    o.device = "cuda";  // per GPU (at least one GPU: without one the engine then fails with the reason)
    EXPECT_EQ(resolve_server_options(o, env.fn()).n_workers, kWorkersPerGpu * std::max(1, cuda_device_count()));
    o.device = "auto";
    EXPECT_EQ(resolve_server_options(o, env.fn()).n_workers,
              cuda_available() ? kWorkersPerGpu * std::max(1, cuda_device_count()) : 1);
    o.n_workers = 3;  // an explicit value wins
    EXPECT_EQ(resolve_server_options(o, env.fn()).n_workers, 3);
    o.n_workers = -1;
    EXPECT_THROW(resolve_server_options(o, env.fn()), InvalidInput);
    o.n_workers = 65;
    EXPECT_THROW(resolve_server_options(o, env.fn()), InvalidInput);
}

TEST(ServerOptions, VertexEnvironment) {
    FakeEnv env;
    env.vars = {{"AIP_MODE", "PREDICTION"},
                {"AIP_HTTP_PORT", "7080"},
                {"AIP_HEALTH_ROUTE", "/v1/endpoints/1/deployedModels/2"},
                {"AIP_PREDICT_ROUTE", "/v1/endpoints/1/deployedModels/2:predict"},
                {"AIP_MODEL_NAME", "receipts"},
                {"RECEIPT_API_KEY", "k"}};
    const ServerOptions o = resolve_server_options(ServerOptions{}, env.fn());
    EXPECT_EQ(o.host, "0.0.0.0");
    EXPECT_EQ(o.port, 7080);
    EXPECT_EQ(o.health_route, "/v1/endpoints/1/deployedModels/2");
    EXPECT_EQ(o.predict_route, "/v1/endpoints/1/deployedModels/2:predict");
    EXPECT_EQ(o.model_name, "receipts");
    EXPECT_EQ(o.api_key, "k");
}

TEST(ServerOptions, FlagsOverrideEnvironment) {
    FakeEnv env;
    env.vars = {{"AIP_MODE", "PREDICTION"}, {"AIP_HTTP_PORT", "7080"}, {"AIP_PREDICT_ROUTE", "/p"}};
    ServerOptions in;
    in.host = "127.0.0.1";
    in.port = 9000;
    in.predict_route = "/mine";
    const ServerOptions o = resolve_server_options(in, env.fn());
    EXPECT_EQ(o.host, "127.0.0.1");
    EXPECT_EQ(o.port, 9000);
    EXPECT_EQ(o.predict_route, "/mine");
}

TEST(ServerOptions, InvalidValuesThrow) {
    FakeEnv env;
    env.vars = {{"AIP_HTTP_PORT", "http"}};
    EXPECT_THROW(resolve_server_options(ServerOptions{}, env.fn()), InvalidInput);
    FakeEnv empty;
    ServerOptions o;
    o.predict_route = "predict";
    EXPECT_THROW(resolve_server_options(o, empty.fn()), InvalidInput);
    o = ServerOptions{};
    o.max_batch_size = -3;  // 0 means "by device"
    EXPECT_THROW(resolve_server_options(o, empty.fn()), InvalidInput);
    o = ServerOptions{};
    o.overload_status = 500;
    EXPECT_THROW(resolve_server_options(o, empty.fn()), InvalidInput);
    o = ServerOptions{};
    o.max_instances = 1000;
    o.max_queue_size = 10;
    EXPECT_THROW(resolve_server_options(o, empty.fn()), InvalidInput);
    o = ServerOptions{};
    o.device = "tpu";
    EXPECT_THROW(resolve_server_options(o, empty.fn()), InvalidInput);
}

TEST(ServerOptions, RunServerReturns2ForInvalidOptions) {
    ServerOptions o;
    o.host = "127.0.0.1";
    o.port = 0;
    o.max_batch_size = -1;
    EXPECT_EQ(run_server(o), 2);
}

}  // namespace
