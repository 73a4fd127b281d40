import { connect, createServer, type Server } from "node:net";

/**
 * Inside a sandbox without a network of its own (network `allow`): a TCP port on the sandbox's
 * loopback that carries each connection to the proxy's Unix socket (net-proxy.ts), bound in from
 * outside. HTTP clients know proxies by a host and port (HTTPS_PROXY), not by a socket.
 * Resolves with the port.
 */
export function bridgeToProxy(socketPath: string): Promise<{ server: Server; port: number }> {
  const server = createServer((local) => {
    const remote = connect(socketPath);
    local.on("error", () => remote.destroy());
    remote.on("error", () => local.destroy());
    local.pipe(remote);
    remote.pipe(local);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const addr = server.address();
      resolve({ server, port: typeof addr === "object" && addr ? addr.port : 0 });
    });
  });
}

/** The variables that send an agent's HTTP clients (curl, git, npm, Node, Bun, Rust and Go CLIs) to the bridge. */
export function proxyEnv(port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  return { HTTP_PROXY: url, HTTPS_PROXY: url, ALL_PROXY: url, http_proxy: url, https_proxy: url, all_proxy: url, NODE_USE_ENV_PROXY: "1" };
}
