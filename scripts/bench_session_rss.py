# Per-session memory of `codemode serve --http` (docs/benchmarks.md): open N
# MCP sessions that are never closed, and read the server's RSS before and
# after. Usage: python3 scripts/bench_session_rss.py BINARY CONFIG N
import json, os, socket, subprocess, sys, time, urllib.request

binary, config, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
store = f"/tmp/rss-store-{os.getpid()}"
p = subprocess.Popen([binary, "--config", config, "--store", store, "serve", "--http", f"127.0.0.1:{port}"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
url = f"http://127.0.0.1:{port}/mcp"
for _ in range(200):
    try:
        socket.create_connection(("127.0.0.1", port), 0.2).close(); break
    except OSError:
        time.sleep(0.05)

def rss_kb():
    for line in open(f"/proc/{p.pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

def post(body, session=None):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    req.add_header("content-type", "application/json")
    req.add_header("accept", "application/json, text/event-stream")
    if session: req.add_header("mcp-session-id", session)
    with urllib.request.urlopen(req) as r:
        r.read(); return r.headers.get("mcp-session-id")

init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
        "capabilities": {}, "clientInfo": {"name": "rss", "version": "1"}}}
def session():
    sid = post(init)
    post({"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
    post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, sid)
for _ in range(50): session()
time.sleep(0.5)
before = rss_kb()
for _ in range(n): session()
time.sleep(1.0)
after = rss_kb()
print(f"{os.path.basename(binary)}: RSS {before} KB -> {after} KB over {n} sessions: {(after - before) / n:.1f} KB/session")
p.kill(); p.wait()
subprocess.run(["rm", "-rf", store])
