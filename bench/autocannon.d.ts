/** The part of autocannon 9's programmatic API the benchmarks use. */
declare module 'autocannon' {
  interface Stats { average: number; total: number; p99: number; p50?: number }
  interface Result { requests: Stats; latency: Stats; non2xx: number; errors: number; timeouts: number; statusCodeStats?: Record<string, { count: number }> }
  /** A request of the sequence; `setupRequest` may change the raw request (its path) before each send. */
  interface RequestSpec { path?: string; setupRequest?: (req: { path: string }) => { path: string } }
  interface Options { url: string; headers?: Record<string, string>; connections?: number; duration?: number; pipelining?: number; requests?: RequestSpec[] }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
