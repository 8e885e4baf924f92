--[[
  Writes one refresh atomically (shared/history/history-store.ts): its snapshots (body and
  version), plain values kept for the retention window, and one entry on each history stream,
  then announces the snapshots. Refuses, writing nothing, a refresh that is not newer than the
  last one written (two workers racing, or a clock stepping back).

  Every check runs before the first write and every write uses redis.call, so a failure (a key
  of the wrong type, OOM) fails the whole script with nothing written, instead of a refresh that
  reports success with entries missing. Stream keys must be distinct (the caller merges them).

    Input (numkeys 2 * S + V + E):
      KEYS[2i - 1], KEYS[2i]  snapshot i's body and version keys, i = 1..S
      KEYS[2S + j]            plain value j's key, j = 1..V
      KEYS[2S + V + k]        history stream k, k = 1..E; stream 1 decides whether the
                              refresh is newer than the last one written

      ARGV[1] the refresh's time, ms since epoch: every entry's ID is '<ARGV[1]>-0'
      ARGV[2] MINID for trimming the streams (ARGV[1] minus the retention)
      ARGV[3] retention, ms: PX of the values, PEXPIRE of the streams
      ARGV[4] S, the number of snapshots
      ARGV[5] V, the number of values
      ARGV[6] the channel that announces snapshots
      then per snapshot: name, body, version
      then per value: value
      then per stream: n, then n field/value pairs

    Output:
      1 written and announced
      0 nothing written: stream 1 already holds an entry at or after ARGV[1]
      error nothing written: another stream already holds an entry at or after ARGV[1], or a
            command failed
]]
local at, minid, ttl = ARGV[1], ARGV[2], ARGV[3]
local nsnap, nval, channel = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
local first = 2 * nsnap + nval + 1

local function newest(key)
  local top = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)
  if top[1] then return tonumber(string.match(top[1][1], '^(%d+)')) end
  return nil
end

local last = newest(KEYS[first])
if last and last >= tonumber(at) then return 0 end
for k = first + 1, #KEYS do
  last = newest(KEYS[k])
  if last and last >= tonumber(at) then
    return redis.error_reply('ERR history stream ' .. KEYS[k] .. ' already holds an entry at or after ' .. at .. '; nothing written')
  end
end

local a = 7
for i = 1, nsnap do
  redis.call('SET', KEYS[2 * i - 1], ARGV[a + 1])
  redis.call('SET', KEYS[2 * i], ARGV[a + 2])
  a = a + 3
end
for i = 1, nval do
  redis.call('SET', KEYS[2 * nsnap + i], ARGV[a], 'PX', ttl)
  a = a + 1
end
local id = at .. '-0'
for k = first, #KEYS do
  local n = tonumber(ARGV[a])
  local args = { 'XADD', KEYS[k], 'MINID', '~', minid, id }
  for j = 1, 2 * n do args[6 + j] = ARGV[a + j] end
  a = a + 1 + 2 * n
  redis.call(unpack(args))
  redis.call('PEXPIRE', KEYS[k], ttl)
end
for i = 1, nsnap do redis.call('PUBLISH', channel, ARGV[7 + 3 * (i - 1)]) end
return 1
