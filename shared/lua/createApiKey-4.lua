--[[
  Makes an API key for a user that still exists as the same user (apps/api/src/auth/api-keys.ts).

    Input:
      KEYS[1] the key's record (hash, under the key's SHA-256)
      KEYS[2] the key's public id -> SHA-256
      KEYS[3] the set of the user's key ids
      KEYS[4] the user's hash

      ARGV[1] public id
      ARGV[2] SHA-256 of the key (hex)
      ARGV[3] the user's id
      ARGV[4] the user's email (normalised)
      ARGV[5] label
      ARGV[6] last four characters
      ARGV[7] createdAt (ISO 8601)
      ARGV[8] expiresAt (ISO 8601), '' for a key that does not expire

    Output:
      1 created
      0 the user is gone (or is another user now)
      -1 the id or the record exists already
]]
if redis.call('HGET', KEYS[4], 'id') ~= ARGV[3] then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'userId', ARGV[3], 'email', ARGV[4], 'name', ARGV[5], 'last4', ARGV[6], 'createdAt', ARGV[7])
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'expiresAt', ARGV[8]) end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[1])
return 1
