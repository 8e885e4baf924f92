--[[
  Takes one test send from a rule's and its user's budgets, in fixed windows
  (POST /api/alerts/{id}/test, shared/alerts/alert-store.ts chargeTestBudget). Both are checked
  before either is charged: a send refused by one budget costs nothing of the other.

    Input:
      KEYS[1] the rule's counter
      KEYS[2] the user's counter

      ARGV[1] the rule's limit    ARGV[2] its window (ms)
      ARGV[3] the user's limit    ARGV[4] its window (ms)

    Output:
      0 when charged, else the ms left of the window that is spent (at least 1)
]]
local function spent(key, limit)
  local used = tonumber(redis.call('GET', key) or '0')
  if used < tonumber(limit) then return 0 end
  local left = redis.call('PTTL', key)
  if left < 1 then return 1 end
  return left
end

local wait = math.max(spent(KEYS[1], ARGV[1]), spent(KEYS[2], ARGV[3]))
if wait > 0 then return wait end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2], 'NX')
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4], 'NX')
return 0
