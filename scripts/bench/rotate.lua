-- wrk script: POSTs the bodies of a file (one JSON body a line) in turn, so no
-- single answer is hot. Arguments: <bodies file> <path> <scenario> <api key>
local bodies = {}
local i = 0
local path, scenario, key

function init(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
  path, scenario, key = args[2], args[3], args[4]
  i = math.random(#bodies)
end

function request()
  i = i % #bodies + 1
  return wrk.format("POST", path, { ["Content-Type"] = "application/json", ["X-API-KEY"] = key, ["X-Scenario"] = scenario }, bodies[i])
end
