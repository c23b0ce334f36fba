/**
 * nginx as the static tier in tests and benchmarks (issue 26): devchain/cluster/nginx.ts (the same
 * start and stop as `lpa cluster`) on a free port, from a temporary run folder.
 */
export { NGINX, startNginx, type RunningNginx } from '../../devchain/cluster/nginx.ts';
