--[[
  Counts a login attempt as a failure in advance, or refuses it, in one step: a check followed
  by a separate count let concurrent wrong passwords through (apps/api/src/auth/throttle.ts).
  A counter at its limit refuses and counts nothing, so the window ends on time however hard a
  client keeps knocking.

    Input (numkeys 1 or 2):
      KEYS[1] the email's failure counter
      KEYS[2] the client address's failure counter, when the address is counted

      ARGV[1]     window seconds
      ARGV[1 + i] the limit of KEYS[i]

    Output:
      0 counted one on every key (the first count starts the window)
      n > 0 refused: the seconds left of the longest full window
]]
local wait = 0
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i + 1]) then
    local ttl = redis.call('TTL', key)
    if ttl <= 0 then ttl = tonumber(ARGV[1]) end
    if ttl > wait then wait = ttl end
  end
end
if wait > 0 then return wait end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('EXPIRE', key, ARGV[1], 'NX')
end
return 0
