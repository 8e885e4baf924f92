--[[
  Gives back what reserveLoginAttempt counted (apps/api/src/auth/throttle.ts): after a success,
  or when the attempt failed for a reason of ours. A counter back at 0 is deleted, so an attempt
  that was given back leaves no key behind.

    Input (numkeys 1 or 2):
      KEYS[1] the email's failure counter
      KEYS[2] the client address's failure counter, when it was counted

      ARGV[1] '1' to delete KEYS[1] instead (a success clears the email's failures), '' not to

    Output:
      0
]]
for i, key in ipairs(KEYS) do
  if i == 1 and ARGV[1] == '1' then redis.call('DEL', key)
  elseif tonumber(redis.call('GET', key) or '0') > 1 then redis.call('DECR', key)
  else redis.call('DEL', key) end
end
return 0
