--[[
  Stores a new alert rule with its indexes, unless its user holds the maximum already
  (shared/alerts/alert-store.ts). Every rule of the user's set can fire (a deleted one leaves it
  in the same step as its index, shared/lua/writeAlertRule.lua), so the cap counts them all.

    Input:
      KEYS[1] the rule (JSON)
      KEYS[2] the set of the user's rule ids
      KEYS[3] the rule's index set (condition type and subject)
      KEYS[4] the rules' version counter (bumped)

      ARGV[1] rule id
      ARGV[2] rule JSON
      ARGV[3] the most rules a user may hold

    Output:
      1 stored
      0 the user holds the maximum already
]]
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('INCR', KEYS[4])
return 1
