--[[
  A refresh job failed for good: count the failure in a row and hold the reads' asks back for
  a delay that doubles with each one, up to the schedule's interval (shared/refresh-backoff.ts).

    Input:
      KEYS[1] the job's failures in a row (a count; expires a while after the hold)
      KEYS[2] the job's hold (present while reads must not ask; its PTTL is the wait)

      ARGV[1] first delay, ms (>= 1)
      ARGV[2] longest delay, ms (>= ARGV[1]): the schedule's interval

    Output:
      { failures in a row, delay ms }
]]
local failures = redis.call('INCR', KEYS[1])
local longest = tonumber(ARGV[2])
local delay = math.floor(math.min(tonumber(ARGV[1]) * 2 ^ (failures - 1), longest))
-- Kept past the hold, so the next failure doubles; forgotten after a quiet interval.
redis.call('PEXPIRE', KEYS[1], delay + longest)
redis.call('SET', KEYS[2], failures, 'PX', delay)
return { failures, delay }
