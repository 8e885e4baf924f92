--[[
  Takes one stats miss from a client address's budget, in fixed windows
  (apps/api/src/market/miss-budget.ts).

    Input:
      KEYS[1] the client's counter (its address, or its API key)

      ARGV[1] window seconds

    Output:
      { count in this window, seconds left of it }
]]
local count = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1], 'NX')
return { count, redis.call('TTL', KEYS[1]) }
