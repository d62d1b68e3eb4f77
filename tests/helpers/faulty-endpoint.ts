import net from "node:net";

// A storage server in trouble, for the tests of what the console does then: a TCP endpoint that
// accepts connections and either never answers (`silent`), or relays them to a real server
// (s3rver) and then stops relaying its answer after some bytes, keeping the connection open
// (`stall`) or dropping it (`cut`). The console's real AWS SDK talks to it over the network;
// nothing in the process is replaced.

export type Fault = { kind: "none" } | { kind: "silent" } | { kind: "stall" | "cut"; afterBytes: number };

export type FaultyEndpoint = {
  /** The endpoint to give the SDK (S3_ENDPOINT). */
  endpoint: string;
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** What new connections get from now on (open ones are closed, so the client reconnects). */
  set(fault: Fault): void;
  close(): Promise<void>;
};

/** `target`: the real server's port to relay to; without one, every connection is silent. */
export async function startFaultyEndpoint(target?: number, fault: Fault = { kind: target ? "none" : "silent" }): Promise<FaultyEndpoint> {
  let current = fault;
  let accepted = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    accepted++;
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => {});
    const mode = target === undefined ? ({ kind: "silent" } as const) : current;
    if (mode.kind === "silent") {
      client.resume(); // reads the request, answers nothing
      return;
    }
    const upstream = net.connect(target!, "127.0.0.1");
    open.add(upstream);
    upstream.on("close", () => {
      open.delete(upstream);
      if (mode.kind !== "stall") client.destroy();
    });
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    client.pipe(upstream);
    let relayed = 0;
    upstream.on("data", (chunk: Buffer) => {
      if (mode.kind === "none") return void client.write(chunk);
      const room = mode.afterBytes - relayed;
      if (room > 0) client.write(chunk.subarray(0, room));
      relayed += chunk.length;
      if (relayed < mode.afterBytes) return;
      if (mode.kind === "cut") client.destroy();
      else upstream.pause(); // the rest never comes; the connection stays open
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  const closeOpen = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    accepted: () => accepted,
    set(next: Fault) {
      current = next;
      closeOpen();
    },
    async close() {
      closeOpen();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
