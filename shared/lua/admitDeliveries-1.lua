--[[
  Counts one user's deliveries outstanding (waiting, delayed or being tried) and holds them to a
  cap: the new jobs are added, and when the user then holds more than the cap the oldest are taken
  out and returned, for the caller to drop from the queue and record on their rules
  (shared/alerts/delivery-queue.ts). The delivery worker removes a job when it ends for good.

    Input:
      KEYS[1] the user's outstanding deliveries (sorted set: job id scored by when it was fired, ms)

      ARGV[1] the cap       ARGV[2] the key's lifetime (s), renewed by every admission
      ARGV[3..] pairs: when fired (ms), job id

    Output:
      the job ids over the cap, oldest first (none when within it)
]]
for i = 3, #ARGV, 2 do
  redis.call('ZADD', KEYS[1], 'NX', ARGV[i], ARGV[i + 1])
end
redis.call('EXPIRE', KEYS[1], ARGV[2])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[1])
if over <= 0 then return {} end
local popped = redis.call('ZPOPMIN', KEYS[1], over)
local ids = {}
for i = 1, #popped, 2 do ids[#ids + 1] = popped[i] end
return ids
