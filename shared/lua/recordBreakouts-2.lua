--[[
  Records the breakouts of one trending refresh (docs/decisions.md#callers,
  apps/worker/src/callers/record-breakouts.ts): an id in the top is a breakout when it was not
  there in the quiet period before. The list's first refresh only seeds what was already there.

    Input:
      KEYS[1] the list's top hash (id -> last refresh it was in the top, ms; `#seeded`)
      KEYS[2] the day's breakouts list

      ARGV[1] the refresh's time (ms)
      ARGV[2] the quiet period (ms)
      ARGV[3] the breakouts list's PEXPIREAT time
      then per id in the top: id, the breakout's line

    Output:
      the number of breakouts recorded
]]
local now, quiet = tonumber(ARGV[1]), tonumber(ARGV[2])
local seeded = redis.call('HSETNX', KEYS[1], '#seeded', now) == 0
local recorded = 0
for i = 4, #ARGV, 2 do
  local id, line = ARGV[i], ARGV[i + 1]
  local last = tonumber(redis.call('HGET', KEYS[1], id))
  if not last or now > last then
    if seeded and (not last or now - last >= quiet) then
      redis.call('RPUSH', KEYS[2], line)
      recorded = recorded + 1
    end
    redis.call('HSET', KEYS[1], id, now)
  end
end
local fields = redis.call('HGETALL', KEYS[1])
for f = 1, #fields, 2 do
  if fields[f] ~= '#seeded' and tonumber(fields[f + 1]) < now - quiet then redis.call('HDEL', KEYS[1], fields[f]) end
end
if recorded > 0 then redis.call('PEXPIREAT', KEYS[2], ARGV[3]) end
return recorded
