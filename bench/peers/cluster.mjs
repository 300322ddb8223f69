// A peer's processes: the primary reads what the workers need (once), then starts one worker
// per render thread of the host; they share one port, and the primary prints the
// "listening on" line the benchmark waits for once all of them listen. A worker that fails
// before it listens ends the peer, with its reason on stderr.
import cluster from "node:cluster";

/**
 * In the primary: `prepare()` gives a JSON-able value handed to each of `workers` workers.
 * In a worker: `serve(prepared)` starts its `http` server on port 0.
 */
export async function runPeer({ workers, prepare, serve }) {
  if (cluster.isPrimary) {
    const prepared = JSON.stringify(await prepare());
    let listening = 0;
    let stopping = false;
    cluster.on("listening", (_worker, address) => {
      if (++listening === workers) console.log(`peer listening on http://127.0.0.1:${address.port}`);
    });
    cluster.on("exit", (_worker, code) => {
      if (stopping) return;
      console.error(`a peer worker exited with ${code}`);
      stopping = true;
      for (const worker of Object.values(cluster.workers)) worker.kill();
      process.exit(1);
    });
    for (let i = 0; i < workers; i++) cluster.fork({ BILINGUE_PEER_PREPARED: prepared });
    process.on("SIGTERM", () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers)) worker.kill();
      process.exit(0);
    });
  } else {
    try {
      const server = await serve(JSON.parse(process.env.BILINGUE_PEER_PREPARED));
      server.listen(0, "127.0.0.1");
    } catch (error) {
      console.error(error.message);
      process.exit(1);
    }
  }
}
