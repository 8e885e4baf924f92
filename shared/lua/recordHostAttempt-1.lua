--[[
  Records how an attempt to a receiver host went (apps/worker/src/alerts/host-health.ts): a
  delivered one clears the host; a failed one lengthens its run, and at ARGV[3] in a row pauses it.

    Input:
      KEYS[1] the host's hash: failures (in a row), pausedUntil (ms)

      ARGV[1] 1 delivered, 0 failed    ARGV[2] now (ms)    ARGV[3] failures that pause it
      ARGV[4] the pause (ms)           ARGV[5] the hash's lifetime (ms) after a failure

    Output:
      the failures in a row now
]]
if ARGV[1] == '1' then
  redis.call('DEL', KEYS[1])
  return 0
end
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
if failures >= tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], 'pausedUntil', tonumber(ARGV[2]) + tonumber(ARGV[4]))
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return failures
