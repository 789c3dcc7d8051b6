-- wrk script: POSTs the bodies of a file (one JSON body a line) in turn, so no
-- single answer is hot. Arguments: <bodies file> <path> <scenario> <api key>
-- With the path "-", each line is a path, a tab and a body: a mix of endpoints.
local bodies = {}
local paths = {}
local i = 0
local path, scenario, key

function init(args)
  path, scenario, key = args[2], args[3], args[4]
  for line in io.lines(args[1]) do
    if path == "-" then
      local tab = line:find("\t", 1, true)
      paths[#paths + 1] = line:sub(1, tab - 1)
      bodies[#bodies + 1] = line:sub(tab + 1)
    else
      bodies[#bodies + 1] = line
    end
  end
  i = math.random(#bodies)
end

function request()
  i = i % #bodies + 1
  return wrk.format("POST", paths[i] or path, { ["Content-Type"] = "application/json", ["X-API-KEY"] = key, ["X-Scenario"] = scenario }, bodies[i])
end
