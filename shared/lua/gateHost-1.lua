--[[
  Whether a delivery may try a receiver host now (apps/worker/src/alerts/host-health.ts). A host
  that failed ALERTS_HOST_PAUSE_AFTER attempts in a row is paused: until the pause ends every
  delivery to it waits; then one attempt goes through as a probe, and the others wait out another
  pause for its answer (a success clears the host, a failure pauses it again).

    Input:
      KEYS[1] the host's hash: failures (in a row), pausedUntil (ms)

      ARGV[1] now (ms)    ARGV[2] failures that pause it    ARGV[3] the pause (ms)

    Output:
      0 to go now, else the ms to wait
]]
local failures = tonumber(redis.call('HGET', KEYS[1], 'failures') or '0')
if failures < tonumber(ARGV[2]) then return 0 end
local now = tonumber(ARGV[1])
local pausedUntil = tonumber(redis.call('HGET', KEYS[1], 'pausedUntil') or '0')
if now < pausedUntil then return pausedUntil - now end
redis.call('HSET', KEYS[1], 'pausedUntil', now + tonumber(ARGV[3]))
return 0
