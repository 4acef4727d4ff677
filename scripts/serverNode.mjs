// How node runs the API server, wherever it is started (`npm start`, the browser tests' server,
// the benches), so what is measured is what is run.

/**
 * TypeScript through tsx (not its binary: it force-kills its child 30 ms after passing on a
 * signal, before the server has closed and stopped its database). The heap may grow by 2× between
 * full collections, as V8 allows a device short of memory, not the 4× it allows by default:
 * under a flood of log pages the server's peak RSS was 409–435 MiB by default and 317 MiB so,
 * at 6–9% fewer pages a second at capacity (docs/architecture.md, memory).
 */
export const SERVER_NODE_ARGS = ['--import', 'tsx', '--heap-growing-percent=100'];
