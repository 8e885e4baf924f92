/**
 * WEB_CONCURRENCY=2: the real web entry point forking two API processes (node:cluster), its
 * trending reads interleaved with the single-process API's. On two cores shared with the load
 * generator this shows what the second process costs or buys here, not on a bigger dyno.
 */
import { assertClean, watchServer, type LoadGenerator } from '../lib/load.js';
import { withChildren } from '../lib/processes.js';
import { roundLength, type Settings } from '../lib/settings.js';
import { startApi, type AppProcess, type Stack } from '../lib/stack.js';
import type { RoundSample } from './reads.js';

export interface ClusterOutcome {
  single: RoundSample[];
  cluster: RoundSample[];
  /** Processes serving in the cluster (the primary only forwards connections). */
  clusterProcesses: number;
}

export async function measureCluster(
  stack: Stack,
  api: AppProcess,
  load: LoadGenerator,
  settings: Settings,
  workDir: string,
  log: (line: string) => void,
): Promise<ClusterOutcome> {
  const clustered = await startApi(stack, { name: 'api-cluster', workDir, webConcurrency: 2 });
  try {
    const clusterProcesses = withChildren(clustered.proc.pid).length - 1;
    if (clusterProcesses !== 2) throw new Error(`WEB_CONCURRENCY=2 started ${clusterProcesses} API processes`);
    const round = async (target: AppProcess, length: { durationSec: number; amount?: number }): Promise<RoundSample> => {
      const { value, server } = await watchServer(
        target.proc.pid,
        Promise.race([
          target.proc.died,
          load.run({ url: `${target.url}/api/market/trending`, connections: settings.connections, ...length }),
        ]),
        [load],
      );
      assertClean(`trending (${target.proc.name})`, value, 200);
      return { load: value, server };
    };
    if (settings.warmupSec > 0) {
      await round(clustered, { durationSec: settings.warmupSec });
      await round(api, { durationSec: settings.warmupSec });
    }
    const single: RoundSample[] = [];
    const cluster: RoundSample[] = [];
    for (let rep = 0; rep < settings.reps; rep += 1) {
      const order = rep % 2 === 0 ? [api, clustered] : [clustered, api];
      for (const target of order) {
        const sample = await round(target, roundLength(settings));
        (target === api ? single : cluster).push(sample);
        log(
          `rep ${rep + 1}/${settings.reps} ${target.proc.name.padEnd(11)} trending ${sample.load.rps.toFixed(0)} req/s, p99 ${sample.load.p99.toFixed(2)} ms`,
        );
      }
    }
    return { single, cluster, clusterProcesses };
  } finally {
    await clustered.proc.stop(10_000);
  }
}
