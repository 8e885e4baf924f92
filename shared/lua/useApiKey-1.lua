--[[
  Reads a presented key's record and notes its use, at most once per resolution: a polling bot
  must not make every read a Redis write (apps/api/src/auth/api-keys.ts).

    Input:
      KEYS[1] the key's record (hash, under the key's SHA-256)

      ARGV[1] now, ms since epoch
      ARGV[2] resolution of lastUsedAt, ms

    Output:
      the fields id, userId, email, name, last4, createdAt, lastUsedAt, expiresAt (id false when
      there is no such key)
]]
local fields = redis.call('HMGET', KEYS[1], 'id', 'userId', 'email', 'name', 'last4', 'createdAt', 'lastUsedAt', 'expiresAt')
if not fields[1] then return fields end
local last = tonumber(fields[7] or '0') or 0
if tonumber(ARGV[1]) - last >= tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], 'lastUsedAt', ARGV[1]) end
return fields
