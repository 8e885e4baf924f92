--[[
  Records the calls among one refresh's mentions (docs/decisions.md#callers,
  apps/worker/src/callers/record-calls.ts): a mention is a call when its account's last mention
  of the id is absent or at least the quiet period older. The check and the append are one step,
  so a refresh seen twice, two workers racing or a retry record each call once.

    Input:
      KEYS[1] the day's calls list
      KEYS[2..] one account's last-mention hash each, in the order of the groups below

      ARGV[1] the quiet period (ms)
      ARGV[2] the calls list's PEXPIREAT time
      ARGV[3] the last-mention hashes' PEXPIREAT time
      ARGV[4] last mentions older than this (ms) are dropped from a hash written
      ARGV[5] 1: the records' first refresh, which only seeds the last mentions (no call)
      then per account (KEYS[2], KEYS[3], ...): n, then n times: id, published ms, the call's line,
      in time order

    Output:
      the number of calls recorded
]]
local quiet, prune, seeding = tonumber(ARGV[1]), tonumber(ARGV[4]), ARGV[5] == '1'
local recorded, i, k = 0, 6, 2
while i <= #ARGV do
  local key, n = KEYS[k], tonumber(ARGV[i])
  i = i + 1
  for _ = 1, n do
    local id, at, line = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2]
    i = i + 3
    local last = tonumber(redis.call('HGET', key, id))
    if not last or at > last then
      if not seeding and (not last or at - last >= quiet) then
        redis.call('RPUSH', KEYS[1], line)
        recorded = recorded + 1
      end
      redis.call('HSET', key, id, at)
    end
  end
  -- Mentions too old to silence a call: dropped, so an account's hash holds its recent ids only.
  local fields = redis.call('HGETALL', key)
  for f = 1, #fields, 2 do
    if tonumber(fields[f + 1]) < prune then redis.call('HDEL', key, fields[f]) end
  end
  redis.call('PEXPIREAT', key, ARGV[3])
  k = k + 1
end
if recorded > 0 then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
return recorded
