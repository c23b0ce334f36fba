/** The part of autocannon 9's programmatic API the benchmarks use. */
declare module 'autocannon' {
  interface Stats { average: number; total: number; p99: number }
  interface Result { requests: Stats; latency: Stats; non2xx: number; errors: number; timeouts: number }
  interface Options { url: string; headers?: Record<string, string>; connections?: number; duration?: number; pipelining?: number }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
