// A round-robin TCP balancer in Node, for `npm run bench -- --instances N` on a machine without
// nginx: each new client connection goes to the next instance in turn (autocannon's keep-alive
// connections are spread evenly, and stay where they landed).
import net from "node:net";

export type Balancer = { url: string; name: string; stop(): Promise<void> };

export async function startTcpBalancer(upstreams: number[], port = 0): Promise<Balancer> {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(upstreams[next++ % upstreams.length]!, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    name: "a Node TCP balancer (nginx is not installed)",
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
