/** Small process and network helpers shared by the integration and browser tests and the benchmarks (devchain/cluster/net.ts). */
export { freePort, sleep } from '../../devchain/cluster/net.ts';
