-- A Lua workload: the interpreter's own code (bytecode dispatch, tables,
-- strings, closures, the garbage collector), no I/O beyond the result.
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local function sieve(n)
  local c, p = {}, {}
  for i = 2, n do
    if not c[i] then p[#p + 1] = i; for j = i * i, n, i do c[j] = true end end
  end
  return #p
end
local function words(k)
  local t = {}
  for i = 1, k do t[#t + 1] = string.format("w%05d", (i * 7919) % k) end
  table.sort(t)
  local s = table.concat(t, ",")
  local n = 0
  for w in s:gmatch("w(%d+)") do n = n + tonumber(w) % 3 end
  return n
end
local rounds = tonumber(arg and arg[1]) or 3
local r = 0
for _ = 1, rounds do r = r + fib(24) + sieve(200000) + words(20000) end
print(r)
