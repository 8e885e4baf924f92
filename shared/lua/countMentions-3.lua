--[[
  Counts one hour's posts into mindshare's buckets, each post once (docs/decisions.md#d20,
  apps/worker/src/mindshare/mindshare-counts.ts). The check and the count are one step: a post
  whose id the SADD finds new is counted here and now, so a worker dying, a retried call or two
  workers racing neither lose a post nor count it twice.

    Input:
      KEYS[1] the hour's seen set (post ids)
      KEYS[2] the hour's bucket
      KEYS[3] the day's bucket

      ARGV[1], ARGV[2], ARGV[3] each key's PEXPIREAT time
      then per post: id, author, engagement, polarity, number of tokens n, the n tokens

    Output:
      the number of posts counted (those not seen before)
]]
local counted, i = 0, 4
while i <= #ARGV do
  local id, author, engagement, polarity, n = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], tonumber(ARGV[i + 4])
  if redis.call('SADD', KEYS[1], id) == 1 then
    counted = counted + 1
    for b = 2, 3 do
      redis.call('HINCRBY', KEYS[b], 't', n)
      for j = 1, n do
        local token = ARGV[i + 4 + j]
        redis.call('HINCRBY', KEYS[b], 'm:' .. token, 1)
        redis.call('HINCRBYFLOAT', KEYS[b], 'e:' .. token, engagement)
        redis.call('HINCRBYFLOAT', KEYS[b], 's:' .. token, polarity)
        -- The token's authors, each followed by a newline: one field, not one per author.
        local authors = redis.call('HGET', KEYS[b], 'a:' .. token) or '\n'
        if not string.find(authors, '\n' .. author .. '\n', 1, true) then
          redis.call('HSET', KEYS[b], 'a:' .. token, authors .. author .. '\n')
        end
      end
    end
  end
  i = i + 5 + n
end
for k = 1, 3 do
  redis.call('PEXPIREAT', KEYS[k], ARGV[k])
end
return counted
