--[[
  Claims one rule's firing for one refresh, checks its cooldown, and records the firing, in one
  step (apps/worker/src/alerts/evaluator.ts): two workers, a retried job or a refresh evaluated
  twice fire a rule at most once per refresh; and a claimed firing is never lost: its delivery
  jobs wait in the outbox, in the same step, until they are in the delivery queue (a worker that
  dies between the two leaves them for the next evaluation to enqueue).

    Input:
      KEYS[1] the claim of this rule on this refresh
      KEYS[2] when the rule last fired (ms)
      KEYS[3] the outbox (hash: event id -> its delivery jobs, JSON)
      KEYS[4] the user's firings (stream, for GET /api/alerts/stream and MCP)

      ARGV[1] now (ms)
      ARGV[2] cooldown (ms)
      ARGV[3] the claim's lifetime (s)
      ARGV[4] the event id
      ARGV[5] its delivery jobs (JSON)
      ARGV[6] the event (JSON)
      ARGV[7] firings kept per user

    Output:
      1 fired: the jobs are in the outbox, the event in the user's stream
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
redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[7], '*', 'event', ARGV[6])
return 1
