--[[
  Changes or deletes one alert rule in one step, only if it still is the revision the caller read
  (shared/alerts/alert-store.ts): a PATCH racing a DELETE, a rotation or the worker's disable
  never writes a rule back from what it read before another change, and a deleted rule stays
  deleted (a write finds nothing and writes nothing).

    Input (variable number of keys, all in the {alerts} slot):
      KEYS[1] the rule (JSON, with `revision`)
      KEYS[2] the set of the user's rule ids
      KEYS[3] the rules' version counter (bumped)
      KEYS[4] the index set the rule is in now
      KEYS[5] the index set it goes to (replace; the same as KEYS[4] when unchanged)
      KEYS[6..] deleted with the rule (delete): its cooldown, attempt log, failed-event count

      ARGV[1] `replace` or `delete`
      ARGV[2] the revision the caller read
      ARGV[3] the rule id
      ARGV[4] the new rule (JSON, its revision one more; replace)

    Output:
      1 written
      0 the rule is gone (nothing written)
      -1 the rule changed since it was read (nothing written)
]]
local stored = redis.call('GET', KEYS[1])
if not stored then
  return 0
end
local revision = cjson.decode(stored).revision or 0
if revision ~= tonumber(ARGV[2]) then
  return -1
end
if ARGV[1] == 'delete' then
  redis.call('DEL', KEYS[1])
  for index = 6, #KEYS do
    redis.call('DEL', KEYS[index])
  end
  redis.call('SREM', KEYS[2], ARGV[3])
  redis.call('SREM', KEYS[4], ARGV[3])
else
  redis.call('SET', KEYS[1], ARGV[4])
  if KEYS[4] ~= KEYS[5] then
    redis.call('SREM', KEYS[4], ARGV[3])
    redis.call('SADD', KEYS[5], ARGV[3])
  end
end
redis.call('INCR', KEYS[3])
return 1
