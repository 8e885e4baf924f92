--[[
  Revokes an API key at once (apps/api/src/auth/api-keys.ts).

    Input:
      KEYS[1] the key's record (hash, under the key's SHA-256)
      KEYS[2] the key's public id -> SHA-256
      KEYS[3] the set of the owner's key ids
      KEYS[4] the hash of revoked key ids -> when (so `users import` does not bring a revoked key back)

      ARGV[1] public id
      ARGV[2] now, ISO 8601

    Output:
      1 revoked
      0 the record was not that key's (the dangling id and set entry are removed)
]]
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then
  redis.call('DEL', KEYS[2])
  redis.call('SREM', KEYS[3], ARGV[1])
  return 0
end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
return 1
