--[[
  Commits one evaluation of a refresh (apps/worker/src/alerts/evaluator.ts) in one step: moves the
  kind's evaluated-through record from what the evaluation compared against to this refresh,
  and claims every rule that fired, checks its cooldown (before any claim is written), and records
  the firing. When the record moved meanwhile (another worker, an overlapping refresh), nothing
  is written and the caller evaluates again against the new record: each change fires once. A
  claimed firing is never lost: its delivery jobs wait in the outbox, in the same step, until
  they are in the delivery queue.

    Input (variable number of keys, all in the {alerts} slot):
      KEYS[1] the outbox (hash: firing id -> its delivery jobs, JSON)
      KEYS[2] the kind's evaluated-through record (hash: at, body); ignored when ARGV[1] is 0
      then for each firing, three keys:
        the rule's claim on this refresh, when the rule last fired (ms), the user's firings (stream)

      ARGV[1] 1: check and move the evaluated-through record; 0: claims only
      ARGV[2] the record's `at` the evaluation compared against ('' when there was none)
      ARGV[3] the new `at` (this refresh's cachedAt)
      ARGV[4] the new body (what the next evaluation compares against)
      ARGV[5] now (ms)
      ARGV[6] a claim's lifetime (s)
      ARGV[7] firings kept per user (count)
      ARGV[8] the oldest firing kept (ms; older ones are trimmed)
      ARGV[9] a firings stream's lifetime after its last firing (s)
      then for each firing: cooldown (ms), firing id, delivery jobs (JSON), number of parts n,
        then its n events (JSON)

    Output: a list; its first element 1 committed, or 0 when the record had moved (nothing
      written); then one element per firing: 1 fired, 0 in its cooldown or claimed already.
]]
if ARGV[1] == '1' then
  local at = redis.call('HGET', KEYS[2], 'at') or ''
  if at ~= ARGV[2] then
    return { 0 }
  end
  redis.call('HSET', KEYS[2], 'at', ARGV[3], 'body', ARGV[4])
end
local now = tonumber(ARGV[5])
local result = { 1 }
local arg = 10
local key = 3
while arg <= #ARGV do
  local cooldown = tonumber(ARGV[arg])
  local firingId = ARGV[arg + 1]
  local jobs = ARGV[arg + 2]
  local parts = tonumber(ARGV[arg + 3])
  local claimKey, lastKey, firingsKey = KEYS[key], KEYS[key + 1], KEYS[key + 2]
  local last = tonumber(redis.call('GET', lastKey) or '-1')
  local fired = 0
  if (last < 0 or now - last >= cooldown) and redis.call('SET', claimKey, '1', 'NX', 'EX', ARGV[6]) then
    fired = 1
    redis.call('SET', lastKey, ARGV[5], 'EX', 30 * 86400)
    redis.call('HSET', KEYS[1], firingId, jobs)
    for part = 1, parts do
      redis.call('XADD', firingsKey, 'MAXLEN', '~', ARGV[7], '*', 'event', ARGV[arg + 3 + part])
    end
    redis.call('XTRIM', firingsKey, 'MINID', '~', ARGV[8])
    redis.call('EXPIRE', firingsKey, ARGV[9])
  end
  result[#result + 1] = fired
  arg = arg + 4 + parts
  key = key + 3
end
return result
