-- wrk script for `npm run bench:inbound`: replays the prepared raw HTTP requests in REPLAY_FILE (each as
-- "<length>\n<bytes>"), one after another, and prints the figures as one JSON line when done. Run with one
-- thread (-t1) so that each prepared request, and so each Twilio MessageSid, is sent once.
local reqs = {}
local idx = 0
local path = os.getenv("REPLAY_FILE")
local f = assert(io.open(path, "rb"))
local data = f:read("*a")
f:close()
local pos = 1
while pos <= #data do
  local nl = string.find(data, "\n", pos, true)
  local len = tonumber(string.sub(data, pos, nl - 1))
  reqs[#reqs + 1] = string.sub(data, nl + 1, nl + len)
  pos = nl + 1 + len
end
local total = #reqs
request = function()
  idx = idx + 1
  if idx > total then idx = 1 end
  return reqs[idx]
end
done = function(summary, latency, requests)
  io.write(string.format('{"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"errors_status":%d,"errors_connect":%d,"errors_read":%d,"errors_timeout":%d,"prepared":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    summary.errors.status, summary.errors.connect, summary.errors.read, summary.errors.timeout, total))
end
