--[[
  Claims one rule's firing for one refresh, and checks its cooldown, in one step: two workers,
  a retried job or a refresh evaluated twice fire a rule at most once per refresh
  (apps/worker/src/alerts/evaluator.ts).

    Input:
      KEYS[1] the claim of this rule on this refresh
      KEYS[2] when the rule last fired (ms)

      ARGV[1] now (ms)
      ARGV[2] cooldown (ms)
      ARGV[3] the claim's lifetime (s)

    Output:
      1 fire now
      0 claimed already (this refresh was evaluated), or within the cooldown
]]
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[3]) then
  return 0
end
local last = tonumber(redis.call('GET', KEYS[2]) or '-1')
if last >= 0 and tonumber(ARGV[1]) - last < tonumber(ARGV[2]) then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1], 'EX', 30 * 86400)
return 1
