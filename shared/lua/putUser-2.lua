--[[
  Adds a user, or (when asked) overwrites the role and password of the existing one, atomically
  without a WATCH loop (apps/api/src/auth/users.ts).

    Input:
      KEYS[1] the user's hash
      KEYS[2] the set of every user's email

      ARGV[1] id
      ARGV[2] email (normalised)
      ARGV[3] role
      ARGV[4] password digest
      ARGV[5] createdAt
      ARGV[6] '1' to overwrite role and digest of an existing user, '' not to

    Output:
      1 created
      0 the user existed (updated only when ARGV[6] is '1')
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  if ARGV[6] == '1' then redis.call('HSET', KEYS[1], 'role', ARGV[3], 'passwordHash', ARGV[4]) end
  return 0
end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'email', ARGV[2], 'role', ARGV[3], 'passwordHash', ARGV[4], 'createdAt', ARGV[5])
redis.call('SADD', KEYS[2], ARGV[2])
return 1
