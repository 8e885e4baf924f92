--[[
  Replaces a user's password digest, optionally only if it is still the expected one (a rehash
  on login must not undo a concurrent password change), and optionally revokes older tokens
  (apps/api/src/auth/users.ts).

    Input:
      KEYS[1] the user's hash

      ARGV[1] new digest
      ARGV[2] expected current digest, '' for any
      ARGV[3] tokensNotBefore (epoch seconds), '' to keep it

    Output:
      1 replaced
      0 the user is gone, or its digest changed meanwhile
]]
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[2] ~= '' and redis.call('HGET', KEYS[1], 'passwordHash') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'passwordHash', ARGV[1])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'tokensNotBefore', ARGV[3]) end
return 1
