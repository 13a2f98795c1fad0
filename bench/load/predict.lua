-- wrk script for the receipt server: POSTs Vertex AI predict bodies (one receipt each, rotating over a few
-- receipts) and prints one JSON summary line: throughput, latency percentiles and status counts per code.
-- Usage: wrk -t T -c C -d 20s --latency --timeout 60s -s bench/load/predict.lua http://127.0.0.1:8080
-- Env: PREDICT_ROUTE (default /predict).

local receipts = {
  "FAMILY MART\nShibuya 1-2-3, Tokyo\nTEL 03-1234-5678\n2024/01/31 12:34\nGreen tea 150\nOnigiri 120\nTotal 270\nCash 300\nChange 30",
  "ACME MARKET\n12 Main St, Springfield\n(555) 010-2030\n01/31/2024 5:02 PM\nMILK 1L 2.49\nBREAD 3.10\nSUBTOTAL 5.59\nTAX 0.45\nTOTAL 6.04\nVISA ****1234",
  "CAFE LUMIERE\n8 Rue de Rivoli 75004 Paris\nTel 01 23 45 67 89\n31.01.2024 09:15\n2x Cafe creme 7,00\nCroissant 1,80\nTotal EUR 8,80\nTVA 10% 0,80",
}

local function json_string(s)
  s = s:gsub('\\', '\\\\'):gsub('"', '\\"'):gsub('\n', '\\n')
  return '"' .. s .. '"'
end

local bodies = {}
for i, r in ipairs(receipts) do
  bodies[i] = '{"instances":[{"text":' .. json_string(r) .. '}]}'
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  n_sent = 0
  statuses = {}
  wrk.method = "POST"
  wrk.path = os.getenv("PREDICT_ROUTE") or "/predict"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  n_sent = n_sent + 1
  return wrk.format(nil, nil, nil, bodies[(n_sent % #bodies) + 1])
end

function response(status, headers, body)
  local key = tostring(status)
  statuses[key] = (statuses[key] or 0) + 1
end

function done(summary, latency, requests)
  local counts = {}
  for _, t in ipairs(threads) do
    local s = t:get("statuses")
    for code, n in pairs(s) do counts[code] = (counts[code] or 0) + n end
  end
  local parts = {}
  for code, n in pairs(counts) do table.insert(parts, string.format('"%s":%d', code, n)) end
  local e = summary.errors
  io.write(string.format(
    '{"duration_s":%.3f,"requests":%d,"throughput_rps":%.3f,"p50_ms":%.3f,"p90_ms":%.3f,"p99_ms":%.3f,' ..
    '"max_ms":%.3f,"mean_ms":%.3f,"status":{%s},"socket_errors":{"connect":%d,"read":%d,"write":%d,"timeout":%d}}\n',
    summary.duration / 1e6, summary.requests, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1e3, latency:percentile(90) / 1e3, latency:percentile(99) / 1e3,
    latency.max / 1e3, latency.mean / 1e3, table.concat(parts, ","),
    e.connect, e.read, e.write, e.timeout))
end
